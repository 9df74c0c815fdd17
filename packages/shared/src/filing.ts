import { z } from 'zod';
import { defineCall } from './call.js';
import {
  FILING_MONTH_MIN,
  FILING_STATES,
  FILING_TAX_TYPES,
  type FilingCycle,
  type FilingState,
  type FilingTaxType,
} from './filing-calendar.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * 申报清册 /declare/sbqc and 申报概览 /declare/sbgl (tax-bureau.md §7 "Check and declaration status":
 * sbSyncData, getSbStatus, overviewOfTaxReturnsV3, overviewOfTaxReturnsCount; "Batch declaration":
 * batchShenBaoListV2, DeclareScheduleV3, DeclareScheduleV3Export; §9 overview poll 3000 ms).
 * The roster is kept on the server per client and filing month; a sync refreshes it from the bureau as
 * one background job per client. Money on the wire: yuan text with two decimals; integer fen inside.
 */

// --- constants ---------------------------------------------------------------------------------

/** The job queue of the roster sync (one job per client, key `${batchId}:${enterpriseId}`). */
export const FILING_SYNC_QUEUE = 'filing-sync';
/** The push type of sync progress: data is a FilingSyncRate. */
export const FILING_SYNC_PUSH_TYPE = 'filing-sync';
/** The overview's update poll (tax-bureau.md §9). */
export const FILING_POLL_MS = 3000;
export const FILING_PAGE_SIZES = [10, 20, 50, 100] as const;
/** At most this many clients chosen by hand in one sync. */
export const FILING_SELECT_MAX = 2000;
/** The export's row limit (clients). */
export const FILING_EXPORT_MAX = 50_000;

/** The prompt for clients without a tax number (business.md, the missing-tax-number dialog). */
export const NO_TAX_NUMBER_PROMPT = '请补充企业税号，企业税号为空时无法使用发票/记账/申报';

export const FILING_MSG = {
  monthFormat: '请选择申报月份（yyyy-MM）',
  monthRange: `申报月份须在${FILING_MONTH_MIN}至下月之间`,
  chooseEnterprise: '请选择企业',
  started: '已开始同步申报状态',
  stopped: '已停止同步',
  finished: '同步完成',
  busyRunning: '已有同步正在进行，请等待完成或先停止同步',
  noEnterprise: '没有可同步的企业（企业须有税号且在服务中）',
  notFound: '同步记录不存在',
  notRunning: '该同步已结束',
  notYours: '只能同步您负责的企业',
  allBlocked: '所选企业均因合同欠费、到期或无有效合同被限制申报，请续费、新建合同或在合同提醒设置中调整后再同步',
  blockedTitle: '以下企业因合同提醒被限制，未同步',
  noQyshTitle: '以下企业没有税号，未同步',
  syncOk: '同步成功',
  exportTooMany: `单次最多导出${FILING_EXPORT_MAX}户，请缩小筛选范围`,
} as const;

/** The file routes of the two exports (POST, JSON body: the filters; reply: an .xlsx stream). */
export const FILING_FILES = {
  rosterExport: 'userext/ycs/Sbqc/batchShenBaoListV2Export',
  scheduleExport: 'user/ycs/Sbqc/DeclareScheduleV3Export',
} as const;

/** The latest filing month offered: next month (the calendar looks one ahead). */
export function filingMonthMax(today: string): string {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

// --- schemas -----------------------------------------------------------------------------------

const idSchema = z.number().int().positive();
export const filingMonthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, FILING_MSG.monthFormat)
  .refine((v) => v >= FILING_MONTH_MIN, FILING_MSG.monthRange);
const stateSchema = z.enum(FILING_STATES);
const typeSchema = z.enum(FILING_TAX_TYPES);
const paging = {
  pageNum: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (FILING_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为10、20、50或100')
    .default(20),
  ...cursorField,
};

/** The roster's filters (also the export's and the counts', which ignore `state`). */
export const filingFilterSchema = z.strictObject({
  /** 申报月份 (filing month); empty: the current one. */
  filingMonth: z.union([filingMonthSchema, z.literal('')]).default(''),
  /** Clients with at least one return in this state (of `taxType` when given). */
  state: stateSchema.optional(),
  taxType: typeSchema.optional(),
  /** 负责人 (allocate user); 0: clients without one. */
  allocateUser: z.number().int().min(0).optional(),
  /** 纳税人类型 ('0' 一般纳税人, '1' 小规模纳税人), as the bureau last said (else the book's qyxz). */
  nsrlx: z.enum(['0', '1']).optional(),
  /** 所属期: clients with a monthly / quarterly return this month. */
  cycle: z.enum(['month', 'quarter']).optional(),
  /** Name or tax number contains. */
  keyword: z.string().trim().max(50, '关键字不能超过50个字符').default(''),
  /** Only clients whose last sync failed. */
  failedOnly: z.boolean().default(false),
});
export type FilingFilter = z.output<typeof filingFilterSchema>;

export const filingCellSchema = z.object({
  state: stateSchema,
  cycle: z.enum(['month', 'quarter', 'year']) as z.ZodType<FilingCycle>,
  skssqq: z.string(),
  skssqz: z.string(),
  sbqx: z.string(),
  srze: z.string(),
  ybtse: z.string(),
  sbrq: z.string(),
  pzxh: z.string(),
  jkrq: z.string(),
  /** Days past the deadline (逾期天数), 0 when not overdue. */
  yqts: z.number(),
});
export type FilingCell = z.infer<typeof filingCellSchema>;

export const filingRowSchema = z.object({
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  /** 纳税人类型 as the bureau last said, else the book's qyxz. */
  nsrlx: z.enum(['0', '1']),
  allocateUser: z.number().nullable(),
  allocateUserName: z.string(),
  /** One cell per tax type with a return this month (types ignored for the client are left out). */
  cells: z.partialRecord(typeSchema, filingCellSchema) as z.ZodType<Partial<Record<FilingTaxType, FilingCell>>>,
  /** Earlier returns still overdue (逾期未申报 of past filing months). */
  yqCount: z.number(),
  /** Last successful sync of this month, ISO time; null never synced. */
  syncedAt: z.string().nullable(),
  /** The last sync's failure (the check messages of tax-bureau.md §8); '' when it succeeded. */
  failMsg: z.string(),
  failAt: z.string().nullable(),
});
export type FilingRow = z.infer<typeof filingRowSchema>;

/** Counts per state: clients with at least one return in the state (what the roster lists when filtered by it). */
export const filingCountsSchema = z.object({
  filingMonth: z.string(),
  /** Clients in scope (matching the filters). */
  total: z.number(),
  /** Clients never synced for the month. */
  unsynced: z.number(),
  /** Clients whose last sync failed. */
  failed: z.number(),
  byState: z.record(stateSchema, z.number()) as z.ZodType<Record<FilingState, number>>,
});
export type FilingCounts = z.infer<typeof filingCountsSchema>;

export const filingSyncRateSchema = z.object({
  batchId: z.number(),
  filingMonth: z.string(),
  state: z.enum(['running', 'done', 'stopped']),
  completeNum: z.number(),
  successNum: z.number(),
  failNum: z.number(),
  totalNum: z.number(),
  /** Percent done, 0-100. */
  rate: z.number(),
});
export type FilingSyncRate = z.infer<typeof filingSyncRateSchema>;

const leftOut = z.object({ aeiId: z.number(), qymc: z.string(), qysh: z.string(), warning: z.string() });

// --- calls -------------------------------------------------------------------------------------

export const filingSyncStartCall = defineCall({
  path: 'aisino/declared/sbSyncData',
  summary: '同步申报状态（全部或所选企业，后台逐户从电子税务局读取应申报清册）',
  access: 'declare:roster:sync',
  body: z
    .strictObject({
      filingMonth: z.union([filingMonthSchema, z.literal('')]).default(''),
      scope: z.enum(['all', 'selected']).default('all'),
      aeiIds: z.array(idSchema).max(FILING_SELECT_MAX, `一次最多同步${FILING_SELECT_MAX}家企业`).default([]),
    })
    .refine((b) => b.scope === 'all' || b.aeiIds.length > 0, { message: FILING_MSG.chooseEnterprise }),
  data: filingSyncRateSchema.extend({
    /** Left out: the 申报 contract reminder at level 2, with the warning each shows. */
    blocked: z.array(leftOut),
    /** Left out: no tax number (warning: the spec's prompt). */
    noQysh: z.array(leftOut),
  }),
});
export type FilingSyncStartReply = z.infer<typeof filingSyncStartCall.data>;

export const filingSyncRateCall = defineCall({
  path: 'aisino/declared/getSbStatus',
  summary: '同步申报状态的进度（默认本人最近一次同步）',
  access: 'declare:roster:view',
  body: z.strictObject({ batchId: idSchema.optional() }),
  data: filingSyncRateSchema.nullable(),
});

export const filingSyncStopCall = defineCall({
  path: 'aisino/declared/stopSbSync',
  summary: '停止同步申报状态（未开始的企业不再同步）',
  access: 'declare:roster:sync',
  body: z.strictObject({ batchId: idSchema }),
  data: filingSyncRateSchema,
});

export const filingRosterCall = defineCall({
  path: 'userext/ycs/Sbqc/batchShenBaoListV2',
  summary: '申报清册（每户一行，每个税种一组：状态、应补退税额、申报期限、申报日期、凭证序号）',
  access: 'declare:roster:view',
  body: filingFilterSchema.extend(paging),
  data: z.object({
    filingMonth: z.string(),
    list: z.array(filingRowSchema),
    total: z.number(),
    cursor: pageCursorsSchema,
  }),
});

export const filingCountsCall = defineCall({
  path: 'aisino/declared/overviewOfTaxReturnsCount',
  summary: '申报清册各状态户数（按当前筛选，不含状态条件）',
  access: 'declare:roster:view',
  body: filingFilterSchema.omit({ state: true }),
  data: filingCountsSchema,
});

export const filingOverviewCall = defineCall({
  path: 'aisino/declared/overviewOfTaxReturnsV3',
  summary: '申报概览：各税种 × 各状态的申报表数',
  access: 'declare:overview:view',
  body: z.strictObject({ filingMonth: z.union([filingMonthSchema, z.literal('')]).default('') }),
  data: z.object({
    filingMonth: z.string(),
    /** Clients in scope, and how many have been synced for the month. */
    clientNum: z.number(),
    syncedNum: z.number(),
    rows: z.array(
      z.object({
        taxType: typeSchema,
        byState: z.record(stateSchema, z.number()) as z.ZodType<Record<FilingState, number>>,
        total: z.number(),
      }),
    ),
    /** The column sums. */
    byState: z.record(stateSchema, z.number()) as z.ZodType<Record<FilingState, number>>,
  }),
});

export const filingScheduleRowSchema = z.object({
  /** 0: clients without a responsible person. */
  userId: z.number(),
  userName: z.string(),
  clientNum: z.number(),
  /** Returns due this month (everything but 无需申报). */
  dueNum: z.number(),
  /** Filed (已申报 + 已缴款). */
  filedNum: z.number(),
  /** Paid or nothing to pay (已缴款). */
  paidNum: z.number(),
  /** Not filed: 未申报 + 逾期未申报. */
  unfiledNum: z.number(),
  overdueNum: z.number(),
  /** Filed / due in percent (0-100, whole); 100 when nothing is due. */
  percent: z.number(),
});
export type FilingScheduleRow = z.infer<typeof filingScheduleRowSchema>;

export const filingScheduleCall = defineCall({
  path: 'userext/ycs/Sbqc/DeclareScheduleV3',
  summary: '申报进度：每位负责人的应申报、已申报、已缴款与完成率',
  access: 'declare:overview:view',
  body: z.strictObject({ filingMonth: z.union([filingMonthSchema, z.literal('')]).default('') }),
  data: z.object({ filingMonth: z.string(), list: z.array(filingScheduleRowSchema), sum: filingScheduleRowSchema }),
});

export const FILING_CALLS = [
  filingSyncStartCall,
  filingSyncRateCall,
  filingSyncStopCall,
  filingRosterCall,
  filingCountsCall,
  filingOverviewCall,
  filingScheduleCall,
] as const;

/** The percentage of a schedule row: filed of due, whole percent, 100 when nothing is due. */
export const schedulePercent = (filed: number, due: number) => (due === 0 ? 100 : Math.floor((filed * 100) / due));
