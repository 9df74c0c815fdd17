import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * 数据列表 /customer/swgl/sjlb (issue 17 point 4; business.md §2): the manager's cross-module view of the
 * client book — per client its contract state, fee arrears, this month's filing state and open work orders,
 * in one table, exportable. It pages by the client list's index (agency, id) and reads the other modules'
 * facts for the page's clients only (docs/decisions-17-content.md).
 */

export const DATA_LIST_PAGE_KEY = '/customer/swgl/sjlb';
export const DATA_LIST_PAGE_SIZES = [20, 50, 100] as const;

/** Contract state of a client: 有效 (an in-force contract covers today), 到期 (the last one ended), 无合同. */
export const DATA_CONTRACT_STATES = [
  { value: 'valid', label: '有效', color: 'green' },
  { value: 'expired', label: '到期', color: 'orange' },
  { value: 'none', label: '无合同', color: 'default' },
] as const;
export type DataContractState = (typeof DATA_CONTRACT_STATES)[number]['value'];

/** This month's filing state: 未同步 (no roster yet), 未完成 (a return not filed), 已完成. */
export const DATA_FILING_STATES = [
  { value: 'done', label: '已完成', color: 'green' },
  { value: 'pending', label: '未完成', color: 'red' },
  { value: 'unsynced', label: '未同步', color: 'default' },
] as const;
export type DataFilingState = (typeof DATA_FILING_STATES)[number]['value'];

export const dataListFilterSchema = z.strictObject({
  keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
  /** A member's user id; 0 for clients given to nobody. */
  allocateUser: z.number().int().min(0).optional(),
  contractState: z.enum(['valid', 'expired', 'none'], { error: '合同状态有误' }).optional(),
  arrears: z.enum(['yes', 'no'], { error: '欠费筛选有误' }).optional(),
  filingState: z.enum(['done', 'pending', 'unsynced'], { error: '申报状态有误' }).optional(),
});
export type DataListFilter = z.input<typeof dataListFilterSchema>;

export const dataListItemSchema = z.object({
  id: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  allocateUserName: z.string(),
  contractState: z.enum(['valid', 'expired', 'none']),
  /** End date of the latest in-force contract. */
  contractEnd: z.string().nullable(),
  /** Owed on periods due before today, yuan with two decimals ("1200.00"). */
  arrearsAmount: z.string(),
  /** Months in arrears (contract status qfys). */
  arrearsMonths: z.number(),
  filingMonth: z.string(),
  filingState: z.enum(['done', 'pending', 'unsynced']),
  /** Returns of the month not yet filed (未申报 + 逾期未申报). */
  filingPending: z.number(),
  filingTotal: z.number(),
  /** Unfinished work orders: 待处理 and 进行中 (not done, not cancelled). */
  openWorkOrders: z.number(),
});
export type DataListItem = z.infer<typeof dataListItemSchema>;

export const dataListCall = defineCall({
  path: 'user/agency/dataList',
  summary: '数据列表：客户的合同、欠费、本月申报与工单状态（按数据权限）',
  access: 'customer:data:view',
  body: dataListFilterSchema.extend({
    pageNo: z.number().int().min(1, '页码须为正整数').default(1),
    pageSize: z
      .number()
      .int()
      .refine((n) => (DATA_LIST_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50或100')
      .default(20),
    ...cursorField,
  }),
  data: z.object({
    list: z.array(dataListItemSchema),
    total: z.number(),
    cursor: pageCursorsSchema,
    filingMonth: z.string(),
  }),
});

/** The export (plain route: a streamed .xlsx of the current filter). */
export const DATA_LIST_FILES = { export: 'user/agency/exportDataList' } as const;
export const DATA_LIST_EXPORT_MAX = 50_000;
