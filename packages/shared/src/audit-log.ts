import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/** The audit log viewer (issue 18 point 6). */
export const AUDIT_PAGE_SIZES = [20, 50, 100] as const;
/** An export holds at most this many rows (narrow the filter for more). */
export const AUDIT_EXPORT_MAX = 10_000;

/** Action kinds (the part before the first dot) in Chinese, for the filter and the list. */
export const AUDIT_KIND_LABELS: Record<string, string> = {
  auth: '登录',
  two_factor: '两步验证',
  account: '账号/记账',
  org: '机构',
  staff: '员工',
  role: '角色权限',
  department: '部门',
  station: '岗位',
  customer: '客户',
  contract: '合同',
  contract_template: '合同模板',
  service_item: '服务项目',
  fee: '收费',
  workorder: '工单',
  workorder_template: '工单模板',
  opportunity: '商机',
  declare: '申报',
  filing: '报税',
  etax: '电子税务局',
  invoice: '发票',
  book: '账簿报表',
  message: '消息',
  announcement: '公告',
  content: '财税课堂',
  platform: '平台运营',
  data_list: '数据列表',
  security: '安全设置',
  audit: '操作日志',
};

const dateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
  .optional();

export const auditFilterSchema = z.strictObject({
  /** Inclusive China dates. */
  dateFrom: dateText,
  dateTo: dateText,
  userId: z.number().int().positive().optional(),
  kind: z.string().trim().max(40).default(''),
  enterpriseId: z.number().int().positive().optional(),
});
export type AuditFilter = z.input<typeof auditFilterSchema>;

export const auditItemSchema = z.object({
  id: z.number(),
  at: z.string(),
  userId: z.number().nullable(),
  userName: z.string(),
  action: z.string(),
  actionLabel: z.string(),
  target: z.string(),
  enterpriseId: z.number().nullable(),
  enterpriseName: z.string(),
  /** Before → after and other particulars; credentials masked. */
  detail: z.record(z.string(), z.unknown()),
  ip: z.string(),
});
export type AuditItem = z.infer<typeof auditItemSchema>;

const listBody = auditFilterSchema.extend({
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (AUDIT_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50或100')
    .default(AUDIT_PAGE_SIZES[0]),
  ...cursorField,
});
const listData = z.object({ list: z.array(auditItemSchema), total: z.number(), cursor: pageCursorsSchema });

export const auditLogListCall = defineCall({
  path: 'user/audit/list',
  summary: '操作日志：本机构分页列表（时间、员工、操作类型、客户筛选）',
  access: 'agency:audit:view',
  body: listBody,
  data: listData,
});

export const platformAuditLogListCall = defineCall({
  path: 'platform/audit/list',
  summary: '平台日志：平台事件分页列表（不属于任何机构的登录、审核等）',
  access: 'platform:audit:view',
  body: listBody.omit({ enterpriseId: true }),
  data: listData,
});

/** The filter's choices: the agency's members, and clients matching a keyword (20 at most). */
export const auditOptionsCall = defineCall({
  path: 'user/audit/options',
  summary: '操作日志：筛选项（员工、按名称搜索客户）',
  access: 'agency:audit:view',
  body: z.strictObject({ keyword: z.string().trim().max(50).default('') }),
  data: z.object({
    members: z.array(z.object({ userId: z.number(), name: z.string() })),
    clients: z.array(z.object({ id: z.number(), qymc: z.string() })),
  }),
});
