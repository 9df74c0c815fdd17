import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * 进项发票, 发票池 and 发票统计 (issue 15 points 3-4; business.md §7 "Invoices and invoice pool"): the pool
 * collects every client's invoices of a month from the bureau (a *collect run*: one background job per
 * client), input invoices are ticked (勾选) through the bureau and confirmed for the period (用途确认: a
 * *confirm run*, one job per client), and the statistics read the store's month rollups only. A run's id,
 * as text, is the spec's taskId. Money on the wire: integer fen (docs/decisions-15-pool.md "Money").
 */

// --- constants ---------------------------------------------------------------------------------------

/** The job queue of both run kinds (one job per run and client, key `${runId}:${enterpriseId}[:retry]`). */
export const INVOICE_RUN_QUEUE = 'invoice-run';
/** The push type of run progress: data is an InvoiceRunStatus without its failures. */
export const INVOICE_RUN_PUSH_TYPE = 'invoice-run';
/** The pages poll a running run this often (as the filing runs: about every 2.5 s). */
export const INVOICE_RUN_POLL_MS = 2500;
/** business.md §9: page sizes of the invoice tables. */
export const INVOICE_PAGE_SIZES = [20, 50, 100, 500] as const;
/** At most this many clients chosen by hand in one collection. */
export const INVOICE_SELECT_MAX = 5000;
/** 勾选 by filter takes at most this many invoices at once (the bureau's gx is sent 500 at a time). */
export const INVOICE_TICK_MAX = 2000;
/** The trend of the statistics: this many months ending with the chosen one. */
export const STATS_TREND_MONTHS = 12;
/** Top buyers / sellers shown. */
export const STATS_TOP_N = 10;
/** The earliest month the pool collects (数电票 in general use). */
export const POOL_MONTH_MIN = '2020-01';

export const INVOICE_RUN_KINDS = ['collect', 'confirm'] as const;
export type PoolRunKind = (typeof INVOICE_RUN_KINDS)[number];
export const POOL_RUN_KIND_NAMES: Readonly<Record<PoolRunKind, string>> = { collect: '采集发票', confirm: '用途确认' };

export const POOL_INVOICE_STATES = ['normal', 'reversed', 'void', 'red'] as const;
export type PoolInvoiceState = (typeof POOL_INVOICE_STATES)[number];
export const POOL_INVOICE_STATE_NAMES: Readonly<Record<PoolInvoiceState, string>> = {
  normal: '正常',
  reversed: '已红冲',
  void: '作废',
  red: '红字发票',
};
export const POOL_DEDUCT_STATES = ['none', 'selected', 'confirmed'] as const;
export type PoolDeductState = (typeof POOL_DEDUCT_STATES)[number];
export const POOL_DEDUCT_STATE_NAMES: Readonly<Record<PoolDeductState, string>> = {
  none: '未勾选',
  selected: '已勾选',
  confirmed: '已确认',
};
export const POOL_KIND_NAMES = { zp: '专票', pp: '普票' } as const;
/** Rates as the store keeps them, with their names (packages/shared/src/bureau.ts INVOICE_RATE_NAMES). */
export const POOL_RATE_NAMES: Readonly<Record<string, string>> = {
  '0.13': '13%',
  '0.09': '9%',
  '0.06': '6%',
  '0.05': '5%',
  '0.03': '3%',
  '0.01': '1%',
  '0': '0%',
  mz: '免税',
};

/** Every message of the pool (what the user reads). */
export const INVOICE_POOL_MSG = {
  chooseEnterprise: '请选择企业',
  monthFormat: '请选择月份（yyyy-MM）',
  monthRange: `月份须在${POOL_MONTH_MIN}至本月之间`,
  notYours: '只能操作您负责的企业',
  noEnterprise: '没有可采集的企业（企业须有税号且在服务中）',
  allBlocked: '所选企业均因合同欠费、到期或无有效合同被限制使用发票，请续费、新建合同或在合同提醒设置中调整',
  blocked: '该企业因合同提醒设置被限制使用发票',
  runNotFound: '任务不存在或已删除',
  runBusy: '所选企业正在采集，请稍后再试',
  retryNotFailed: '只能重试采集失败的企业',
  enterpriseNotFound: '企业不存在或不在您的数据权限内',
  invoiceNotFound: '发票不存在',
  nothingToTick: '没有可勾选的发票',
  tooMany: `一次最多勾选${INVOICE_TICK_MAX}张发票，请缩小筛选范围`,
  onlyZp: '只有正常状态的增值税专用发票可以勾选抵扣',
  periodConfirmed: '该所属期已确认，不能再勾选',
  collected: '采集成功',
  confirmed: '确认成功',
  alreadyConfirmed: '该所属期已确认（电子税务局已有确认结果）',
  noQysh: '企业税号为空，无法采集发票',
} as const;

// --- schemas -------------------------------------------------------------------------------------------

const idSchema = z.number().int().positive();
const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, INVOICE_POOL_MSG.monthFormat);
const taskIdSchema = z.string().regex(/^\d{1,10}$/, INVOICE_POOL_MSG.runNotFound);
const paging = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (INVOICE_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50、100或500')
    .default(20),
  ...cursorField,
};
const keywordSchema = z.string().trim().max(50, '关键字不能超过50个字符').default('');

const leftOutSchema = z.object({ aeiId: z.number(), qymc: z.string(), qysh: z.string(), warning: z.string() });

/** A run's progress; `fail` the clients that failed with the reason each (the tax-retrieval error dialog). */
export const invoiceRunStatusSchema = z.object({
  taskId: z.string(),
  kind: z.enum(INVOICE_RUN_KINDS),
  /** The month collected, or the tax period confirmed. */
  month: z.string(),
  state: z.enum(['running', 'done', 'stopped']),
  totalNum: z.number(),
  successNum: z.number(),
  failNum: z.number(),
  completeNum: z.number(),
  /** Percent done, 0-100. */
  rate: z.number(),
  /** Invoices collected (or confirmed) by the clients done so far. */
  invoiceNum: z.number(),
  fail: z.array(z.object({ aeiId: z.number(), qymc: z.string(), qysh: z.string(), msg: z.string() })),
});
export type InvoiceRunStatus = z.infer<typeof invoiceRunStatusSchema>;

/** An invoice of the pool or of a client's input list. Money in fen (negative on a red invoice). */
export const poolInvoiceSchema = z.object({
  id: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  fphm: z.string(),
  kprq: z.string(),
  month: z.string(),
  fplx: z.enum(['zp', 'pp']),
  state: z.enum(POOL_INVOICE_STATES),
  lzfphm: z.string(),
  /** The other party: the buyer of an issued invoice, the seller of a received one. */
  cpName: z.string(),
  cpTaxNo: z.string(),
  amount: z.number(),
  tax: z.number(),
  total: z.number(),
  deductState: z.enum(POOL_DEDUCT_STATES),
  deductPeriod: z.string(),
  source: z.enum(['issued', 'collected']),
});
export type PoolInvoice = z.infer<typeof poolInvoiceSchema>;

const invoiceListFilter = {
  month: monthSchema,
  /** One client, or every client in the caller's scope. */
  aeiId: idSchema.optional(),
  /** The other party's name or tax number, or the invoice number. */
  keyword: keywordSchema,
  fplx: z.enum(['zp', 'pp']).optional(),
  state: z.enum(POOL_INVOICE_STATES).optional(),
};
const invoiceListData = z.object({
  list: z.array(poolInvoiceSchema),
  total: z.number(),
  cursor: pageCursorsSchema,
  /** Over the filter: 金额, 税额, 价税合计 (fen). */
  sums: z.object({ amount: z.number(), tax: z.number(), total: z.number() }),
});

/** One month of the trend (fen): sales (销项) and input (进项), and the input tax confirmed. */
export const statsMonthSchema = z.object({
  month: z.string(),
  xxCount: z.number(),
  xxAmount: z.number(),
  xxTax: z.number(),
  jxCount: z.number(),
  jxAmount: z.number(),
  jxTax: z.number(),
  deductTax: z.number(),
});
export type StatsMonth = z.infer<typeof statsMonthSchema>;

const statsSliceSchema = z.object({
  key: z.string(),
  name: z.string(),
  count: z.number(),
  amount: z.number(),
  tax: z.number(),
});
export type StatsSlice = z.infer<typeof statsSliceSchema>;
const partySchema = z.object({ taxNo: z.string(), name: z.string(), count: z.number(), total: z.number() });
export type StatsParty = z.infer<typeof partySchema>;

const statsScope = {
  /** One client; none: every client in the caller's scope (the agency for an administrator). */
  aeiId: idSchema.optional(),
};

// --- the pool ----------------------------------------------------------------------------------------

export const sendTaskToFpPoolCall = defineCall({
  path: 'user/invoicepool/sendTaskToFpPool',
  summary: '发票池采集：为所选或全部企业从电子税务局采集一个月的销项与进项发票（后台逐户任务）；失败企业重试',
  access: 'invoice:pool:collect',
  body: z
    .strictObject({
      /** type '0': the month collected. type '1' (retry, business.md §4): the month after the one selected. */
      month: monthSchema,
      /** '0' a collection; '1' the retry of failed clients of `taskId` (发票概览重取). */
      type: z.enum(['0', '1']).default('0'),
      /** 1: a new run; 0 (the retry): the failed clients are taken again inside the run `taskId`. */
      isSave: z.union([z.literal(0), z.literal(1)]).default(1),
      scope: z.enum(['all', 'selected']).default('all'),
      aeiIds: z.array(idSchema).max(INVOICE_SELECT_MAX, `一次最多选择${INVOICE_SELECT_MAX}家企业`).default([]),
      taskId: taskIdSchema.optional(),
    })
    .refine((b) => (b.type === '0' && b.scope === 'all') || b.aeiIds.length > 0, {
      message: INVOICE_POOL_MSG.chooseEnterprise,
    })
    .refine((b) => b.type === '0' || b.taskId !== undefined, { message: INVOICE_POOL_MSG.runNotFound }),
  data: z.object({
    taskId: z.string(),
    /** The month collected. */
    month: z.string(),
    total: z.number(),
    blocked: z.array(leftOutSchema),
    noQysh: z.array(leftOutSchema),
  }),
});
export type SendTaskReply = z.infer<typeof sendTaskToFpPoolCall.data>;

export const fpPoolStatusCall = defineCall({
  path: 'user/invoicepool/getFpPoolStatusByTaskIds',
  summary: '发票池采集与用途确认任务的进度，及每户失败原因',
  access: 'invoice:pool:view',
  body: z.strictObject({ taskIds: z.array(taskIdSchema).min(1).max(10) }),
  data: z.object({ list: z.array(invoiceRunStatusSchema) }),
});

/** The caller's latest collect run (the 发票池 page resumes showing it). */
export const latestPoolRunCall = defineCall({
  path: 'user/invoicepool/getLatestFpPoolTask',
  summary: '最近一次发票池任务（页面打开时接着显示进度）',
  access: 'invoice:pool:view',
  body: z.strictObject({ kind: z.enum(INVOICE_RUN_KINDS).default('collect') }),
  data: z.object({ taskId: z.string().nullable() }),
});

export const queryFpXxfpCall = defineCall({
  path: 'invoice-pool/statistic/queryFpXxfp',
  summary: '发票池：销项发票列表（按月份、企业、票种、状态、购方或号码筛选）',
  access: 'invoice:pool:view',
  body: z.strictObject({ ...invoiceListFilter, ...paging }),
  data: invoiceListData,
});

export const queryFpJxfpCall = defineCall({
  path: 'invoice-pool/statistic/queryFpJxfp',
  summary: '发票池：进项发票列表（按月份、企业、票种、状态、销方或号码筛选）',
  access: 'invoice:pool:view',
  body: z.strictObject({ ...invoiceListFilter, ...paging }),
  data: invoiceListData,
});

// --- statistics ---------------------------------------------------------------------------------------

export const searchJXxDataCall = defineCall({
  path: 'invoice-pool/statistic/searchJXxData',
  summary: '发票统计：近12个月销项与进项的走势（份数、金额、税额、已确认进项税额）',
  access: 'invoice:stats:view',
  body: z.strictObject({ ...statsScope, month: monthSchema }),
  data: z.object({ months: z.array(statsMonthSchema) }),
});

export const searchJxppDataCall = defineCall({
  path: 'invoice-pool/statistic/searchJxppData',
  summary: '发票统计：一个月销项与进项按税率、按专票普票的构成，及主要购方与销方',
  access: 'invoice:stats:view',
  body: z.strictObject({ ...statsScope, month: monthSchema }),
  data: z.object({
    month: z.string(),
    xxByRate: z.array(statsSliceSchema),
    jxByRate: z.array(statsSliceSchema),
    xxByKind: z.array(statsSliceSchema),
    jxByKind: z.array(statsSliceSchema),
    topBuyers: z.array(partySchema),
    topSellers: z.array(partySchema),
  }),
});

/** One client's month by kind (fen). */
export const kindRowSchema = z.object({
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  zpCount: z.number(),
  zpAmount: z.number(),
  zpTax: z.number(),
  ppCount: z.number(),
  ppAmount: z.number(),
  ppTax: z.number(),
  jxTax: z.number(),
  deductTax: z.number(),
});
export type KindRow = z.infer<typeof kindRowSchema>;

export const queryStatisticFpXxfpByFppzCall = defineCall({
  path: 'invoice-pool/statistic/queryStatisticFpXxfpByFppz',
  summary: '发票统计：每户一个月的销项按票种（专票、普票）及进项税额（分页）',
  access: 'invoice:stats:view',
  body: z.strictObject({ month: monthSchema, keyword: keywordSchema, ...paging }),
  data: z.object({ list: z.array(kindRowSchema), total: z.number(), cursor: pageCursorsSchema }),
});

// --- input invoices --------------------------------------------------------------------------------------

const inputFilter = {
  aeiId: idSchema,
  /** The tax period (所属期) the invoices are ticked and confirmed for. */
  ssq: monthSchema,
  deductState: z.enum(POOL_DEDUCT_STATES).optional(),
  fplx: z.enum(['zp', 'pp']).optional(),
  keyword: keywordSchema,
};

export const selectFpJxfpZpListCall = defineCall({
  path: 'userext/fp/jxfpzp/selectFpJxfpZpList',
  summary: '进项发票：一户一个所属期可抵扣的进项发票及勾选状态，可抵扣税额合计',
  access: 'invoice:input:view',
  body: z.strictObject({ ...inputFilter, ...paging }),
  data: z.object({
    list: z.array(poolInvoiceSchema),
    total: z.number(),
    cursor: pageCursorsSchema,
    /** Over the period (not the filter), fen. */
    sums: z.object({
      /** Invoices in the period's window. */
      count: z.number(),
      selectedCount: z.number(),
      selectedTax: z.number(),
      confirmedCount: z.number(),
      confirmedTax: z.number(),
      /** 可抵扣税额: ticked and confirmed for the period. */
      deductibleTax: z.number(),
    }),
    /** The period is confirmed (用途确认 done): no more ticking. */
    confirmed: z.boolean(),
    /** The latest confirm run of this client and period, if any. */
    taskId: z.string().nullable(),
  }),
});

export const selectFpJxfpZpDetailListCall = defineCall({
  path: 'userext/fp/jxfpzp/selectFpJxfpZpDetailList',
  summary: '进项发票明细（货物或服务名称、税收分类编码、数量、单价、金额、税率、税额）',
  access: 'invoice:input:view',
  body: z.strictObject({ aeiId: idSchema, id: idSchema }),
  data: z.object({
    invoice: poolInvoiceSchema,
    lines: z.array(
      z.object({
        xh: z.number(),
        spmc: z.string(),
        ssflbm: z.string(),
        ggxh: z.string(),
        dw: z.string(),
        sl: z.string(),
        dj: z.string(),
        amount: z.number(),
        rate: z.string(),
        tax: z.number(),
      }),
    ),
  }),
});

export const insertOrUpdateBatchFpJxfpZpCall = defineCall({
  path: 'user/fp/jxfpzp/insertOrUpdateBatchFpJxfpZp',
  summary: '勾选或取消勾选进项发票（一张、多张或按筛选全部），经电子税务局勾选后保存',
  access: 'invoice:input:confirm',
  body: z
    .strictObject({
      aeiId: idSchema,
      ssq: monthSchema,
      /** true 勾选, false 取消勾选. */
      gx: z.boolean(),
      /** The invoices by id; or `all` with the list's filter. */
      ids: z.array(idSchema).max(INVOICE_TICK_MAX, INVOICE_POOL_MSG.tooMany).default([]),
      all: z.boolean().default(false),
      deductState: z.enum(POOL_DEDUCT_STATES).optional(),
      fplx: z.enum(['zp', 'pp']).optional(),
      keyword: keywordSchema,
    })
    .refine((b) => b.all || b.ids.length > 0, { message: INVOICE_POOL_MSG.nothingToTick }),
  data: z.object({
    okNum: z.number(),
    failNum: z.number(),
    /** The invoices the bureau refused, with its message. */
    fail: z.array(z.object({ fphm: z.string(), msg: z.string() })),
  }),
});

export const inputConfirmV3Call = defineCall({
  path: 'aisino/invoice/inputConfirmV3',
  summary: '用途确认：确认所属期已勾选的进项发票（后台逐户任务）',
  access: 'invoice:input:confirm',
  body: z.strictObject({
    aeiIds: z.array(idSchema).min(1, INVOICE_POOL_MSG.chooseEnterprise).max(INVOICE_SELECT_MAX),
    ssq: monthSchema,
  }),
  data: z.object({ taskId: z.string(), total: z.number(), blocked: z.array(leftOutSchema) }),
});

/** The clients the caller may pick in the pool's pages (in service, in scope), paged. */
export const poolClientsCall = defineCall({
  path: 'user/invoicepool/selectFpPoolCustomers',
  summary: '发票池可选企业（在服务、在数据权限内，按名称或税号搜索）',
  access: 'signedIn',
  body: z.strictObject({ keyword: keywordSchema, ...paging }),
  data: z.object({
    list: z.array(z.object({ id: z.number(), qymc: z.string(), qysh: z.string() })),
    total: z.number(),
    cursor: pageCursorsSchema,
  }),
});

export const INVOICE_POOL_CALLS = [
  sendTaskToFpPoolCall,
  fpPoolStatusCall,
  latestPoolRunCall,
  queryFpXxfpCall,
  queryFpJxfpCall,
  searchJXxDataCall,
  searchJxppDataCall,
  queryStatisticFpXxfpByFppzCall,
  selectFpJxfpZpListCall,
  selectFpJxfpZpDetailListCall,
  insertOrUpdateBatchFpJxfpZpCall,
  inputConfirmV3Call,
  poolClientsCall,
] as const;
