import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * 批量打印 (issue 16 point 6): vouchers, ledgers and statements of many clients and a period range rendered on
 * the server as one PDF per client, in the background (one job per client), then downloaded: one PDF when one
 * client was printed, else a zip of the clients' PDFs.
 */

/** The job queue of print runs (one job per run and client, key `${runId}:${enterpriseId}`). */
export const BOOK_PRINT_QUEUE = 'book-print';
/** The page polls running print runs this often. */
export const BOOK_PRINT_POLL_MS = 2500;
/** At most this many clients in one print run. */
export const BOOK_PRINT_SELECT_MAX = 2000;
/** At most this many months in one print run (as the ledgers). */
export const BOOK_PRINT_MAX_MONTHS = 24;

export const PRINT_ITEMS = ['vouchers', 'balances', 'general', 'detail', 'balance', 'income', 'cashflow'] as const;
export type PrintItem = (typeof PRINT_ITEMS)[number];
export const PRINT_ITEM_NAMES: Readonly<Record<PrintItem, string>> = {
  vouchers: '记账凭证',
  balances: '科目余额表',
  general: '总账',
  detail: '明细账',
  balance: '资产负债表',
  income: '利润表',
  cashflow: '现金流量表',
};

export const PRINT_LAYOUTS = ['a4', 'a5'] as const;
export type PrintLayout = (typeof PRINT_LAYOUTS)[number];
export const PRINT_LAYOUT_NAMES: Readonly<Record<PrintLayout, string>> = {
  a4: 'A4 纵向（每页两张凭证）',
  a5: 'A5 横向（每页一张凭证）',
};

/** A client's outcome in a run: printed, nothing to print (no book, no vouchers), left out, failed. */
export const PRINT_CLIENT_STATES = ['ok', 'empty', 'skipped', 'failed', 'pending'] as const;
export type PrintClientState = (typeof PRINT_CLIENT_STATES)[number];
export const PRINT_CLIENT_STATE_NAMES: Readonly<Record<PrintClientState, string>> = {
  ok: '已生成',
  empty: '无可打印内容',
  skipped: '未打印',
  failed: '失败',
  pending: '排队中',
};

export const BOOK_PRINT_MSG = {
  runNotFound: '打印任务不存在或无权访问',
  notYours: '所选客户不存在或无权访问',
  allBlocked: '所选客户均因合同提醒被限制记账',
  noEnterprise: '没有可打印的客户',
  chooseClient: '请选择客户',
  chooseItem: '请至少选择一项打印内容',
  tooMany: `一次最多选择${BOOK_PRINT_SELECT_MAX}家客户`,
  range: '结束期间不能早于开始期间',
  rangeTooLong: `期间最长${BOOK_PRINT_MAX_MONTHS}个月`,
  noBook: '该客户未建账',
  beforeStart: '所选期间早于建账期间（{start}）',
  noVouchers: '所选期间没有凭证',
  noVouchersPrinted: '所选期间没有凭证，已打印账簿和报表',
  statementsRefused: '企业会计准则账套暂不提供财务报表',
  tooManyLines: '明细账超过{max}行，请缩小期间',
  notReady: '打印任务尚未完成',
  nothingToDownload: '没有生成任何文件：所选客户均无可打印内容',
  printed: '共{pages}页',
  failed: '生成失败，请重新打印',
} as const;

const periodSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '会计期间格式应为YYYY-MM');
const idSchema = z.number().int().positive().max(2_147_483_647);
const runIdSchema = z.string().regex(/^\d{1,10}$/, BOOK_PRINT_MSG.runNotFound);
const PAGE_SIZES = [10, 20, 50, 100] as const;
const paging = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数须为10、20、50或100')
    .default(10),
  ...cursorField,
};

const monthsBetween = (from: string, to: string) =>
  (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7)) + 1;

export const printStartBodySchema = z
  .strictObject({
    scope: z.enum(['all', 'selected']).default('selected'),
    aeiIds: z.array(idSchema).max(BOOK_PRINT_SELECT_MAX, BOOK_PRINT_MSG.tooMany).default([]),
    from: periodSchema,
    to: periodSchema,
    items: z.array(z.enum(PRINT_ITEMS)).min(1, BOOK_PRINT_MSG.chooseItem).max(PRINT_ITEMS.length),
    layout: z.enum(PRINT_LAYOUTS).default('a4'),
  })
  .refine((b) => b.scope === 'all' || b.aeiIds.length > 0, { message: BOOK_PRINT_MSG.chooseClient, path: ['aeiIds'] })
  .refine((b) => b.from <= b.to, { message: BOOK_PRINT_MSG.range, path: ['to'] })
  .refine((b) => monthsBetween(b.from, b.to) <= BOOK_PRINT_MAX_MONTHS, {
    message: BOOK_PRINT_MSG.rangeTooLong,
    path: ['to'],
  });
export type PrintStartBody = z.input<typeof printStartBodySchema>;

const skippedSchema = z.object({ aeiId: z.number(), qymc: z.string(), qysh: z.string(), warning: z.string() });

export const printRunSchema = z.object({
  id: z.number(),
  runId: z.string(),
  from: z.string(),
  to: z.string(),
  items: z.array(z.enum(PRINT_ITEMS)),
  layout: z.enum(PRINT_LAYOUTS),
  state: z.enum(['running', 'done', 'stopped']),
  totalNum: z.number(),
  okNum: z.number(),
  emptyNum: z.number(),
  failNum: z.number(),
  completeNum: z.number(),
  rate: z.number(),
  /** The download's name once done ('' while running or when nothing was printed). */
  fileName: z.string(),
  createdAt: z.string(),
  userName: z.string(),
});
export type PrintRun = z.infer<typeof printRunSchema>;

export const printClientSchema = z.object({
  id: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  state: z.enum(PRINT_CLIENT_STATES),
  msg: z.string(),
  pages: z.number(),
});
export type PrintClient = z.infer<typeof printClientSchema>;

export const printStartCall = defineCall({
  path: 'account/print/start',
  summary: '批量打印：为所选客户在后台生成凭证、账簿和报表的PDF',
  access: 'account:print:view',
  body: printStartBodySchema,
  data: z.object({
    runId: z.string(),
    total: z.number(),
    blocked: z.array(skippedSchema),
    noQysh: z.array(skippedSchema),
  }),
});

export const printRunsCall = defineCall({
  path: 'account/print/runs',
  summary: '批量打印任务列表（含进度）',
  access: 'account:print:view',
  body: z.strictObject({ ...paging }),
  data: z.object({ list: z.array(printRunSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const printRunCall = defineCall({
  path: 'account/print/rate',
  summary: '一个批量打印任务的进度',
  access: 'account:print:view',
  body: z.strictObject({ runId: runIdSchema }),
  data: printRunSchema,
});

export const printClientsCall = defineCall({
  path: 'account/print/clients',
  summary: '批量打印任务中每个客户的结果（已生成、无可打印内容的原因）',
  access: 'account:print:view',
  body: z.strictObject({
    runId: runIdSchema,
    state: z.enum(PRINT_CLIENT_STATES).optional(),
    ...paging,
  }),
  data: z.object({ list: z.array(printClientSchema), total: z.number(), cursor: pageCursorsSchema }),
});

/** The finished run's file: GET with ?runId= (a PDF for one client, else a zip of PDFs). */
export const BOOK_PRINT_FILES = {
  download: 'account/print/download',
} as const;
