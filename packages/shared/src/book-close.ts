import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * 期末结转 and 结账 (issue 16 point 5; business.md §7 "Bookkeeping": busi/qmJz), and the rules that turn a
 * client's documents into proposed vouchers (point 3). Money on the wire: integer fen.
 *
 * A book's period end: 计提附加税 (城建税, 教育费附加, 地方教育附加 on the period's VAT), 结转损益 (every 损益
 * account to 3103 本年利润), the checks, then 结账 (the period closes, the next one opens). 反结账 reopens the
 * latest closed period. 批量结账 is a run over many books: one background job per book.
 */

// --- constants ---------------------------------------------------------------------------------------

/** The job queue of batch close (one job per run and book, key `${runId}:${bookId}`). */
export const BOOK_CLOSE_QUEUE = 'book-close';
/** The push type of a close run's progress: data is a BookRunRate. */
export const BOOK_RUN_PUSH_TYPE = 'book-run';
/** The page polls a running run this often (as the filing runs). */
export const BOOK_RUN_POLL_MS = 2500;
/** At most this many books in one batch close. */
export const BOOK_CLOSE_SELECT_MAX = 5000;

/**
 * The period-end transfers in the order they are made: 计提附加税; 计提所得税 (quarter-end months only, optional:
 * the batch close makes it when the agency's rule says so); 结转损益; 结转本年利润 (December only: 本年利润 to
 * 利润分配—未分配利润).
 */
export const TRANSFER_KINDS = ['surtax', 'incomeTax', 'profit', 'yearEnd'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];
export const TRANSFER_NAMES: Readonly<Record<TransferKind, string>> = {
  surtax: '计提附加税',
  incomeTax: '计提所得税',
  profit: '结转损益',
  yearEnd: '结转本年利润',
};
/** Whether a transfer applies to a period: 计提所得税 at quarter ends, 结转本年利润 in December. */
export function transferApplies(kind: TransferKind, period: string): boolean {
  const m = period.slice(5, 7);
  if (kind === 'incomeTax') return m === '03' || m === '06' || m === '09' || m === '12';
  if (kind === 'yearEnd') return m === '12';
  return true;
}

/** 城市维护建设税 rate by where the client is: 市区 7 %, 县城/建制镇 5 %, 其他 1 %. */
export const CJS_RATES = [7, 5, 1] as const;
export type CjsRate = (typeof CJS_RATES)[number];
export const CJS_RATE_NAMES: Readonly<Record<CjsRate, string>> = {
  7: '市区（7%）',
  5: '县城、镇（5%）',
  1: '其他地区（1%）',
};
/** 教育费附加 3 %, 地方教育附加 2 %. */
export const EDU_RATE = 3;
export const LOCAL_EDU_RATE = 2;
/**
 * 财税〔2016〕12号: 教育费附加 and 地方教育附加 are not charged when the month's sales are at most 10万元
 * (a quarter's at most 30万元): the month's line. The rule itself is surtaxFor (tax-rules-vat.ts).
 */
export const EDU_EXEMPT_SALES_FEN = 100_000_00;

/** The account codes the transfers use (小企业会计准则 2013; the 企业会计准则 chart shares them). */
export const CLOSE_CODES = {
  vat: '222101',
  cjs: '222103',
  edu: '222104',
  localEdu: '222105',
  surtaxExpense: '5403',
  profit: '3103',
  cash: ['1001', '1002'],
  sales: ['5001', '5051'],
} as const;

export const BOOK_CLOSE_MSG = {
  bookNotFound: '账套不存在或无权访问',
  runNotFound: '任务不存在或已删除',
  notCurrent: '只能处理当前会计期间{period}',
  closed: '{period}已结账',
  notClosedBefore: '前期未结账：当前会计期间为{period}',
  noAccount: '账套缺少科目{code}，请先在科目中添加',
  reviewedTransfer: '{name}凭证已审核，请先反审核后再重新生成',
  nothingToTransfer: '本期无需{name}',
  unbalanced: '有{n}张凭证借贷不平衡',
  unreviewed: '有{n}张凭证未审核',
  negativeCash: '{name}期末余额为负数（{amount}元）',
  surtaxMissing: '未计提附加税（应计提{amount}元）',
  incomeTaxMissing: '未计提企业所得税（应计提{amount}元）',
  yearEndLeft: '本年利润余额未结转至利润分配—未分配利润',
  profitLeft: '损益类科目期末余额不为零，请先结转损益',
  openingUnbalanced: '期初余额试算不平衡',
  notLatestClosed: '只能反结账最近一个已结账期间',
  nothingClosed: '账套还没有已结账的期间',
  reopened: '已反结账{period}',
  closedOk: '{period}结账成功',
  alreadyClosed: '{period}此前已结账',
  tooMany: '一次最多选择5000个账套',
  noneChosen: '请选择要结账的账套',
  ruleAccount: '规则中的科目编码“{code}”格式不正确',
} as const;

// --- schemas -----------------------------------------------------------------------------------------

const periodSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '会计期间格式应为YYYY-MM');
const idSchema = z.number().int().positive().max(2_147_483_647);
const PAGE_SIZES = [10, 20, 50, 100] as const;
const paging = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数须为10、20、50或100')
    .default(20),
  ...cursorField,
};

/** The surtax of a period, each figure in fen, worked from the VAT of the period. */
export const surtaxFiguresSchema = z.object({
  /** 本期应交增值税 (the net credit of 222101 in the period, not below 0; a quarterly filer's: the quarter to date). */
  vat: z.number(),
  /** 本期销售额 (5001 + 5051 credits), for the 教育费附加 exemption; a quarterly filer's: the quarter to date. */
  sales: z.number(),
  /** The VAT filing cycle the exemption is tested by: small-scale books quarterly, general monthly. */
  cycle: z.enum(['month', 'quarter']).optional(),
  /** What the quarter's earlier months accrued (a quarterly filer's month accrues the rest). */
  accruedBefore: z.number().optional(),
  cjsRate: z.number(),
  /** 小规模纳税人 减半征收 (财政部 税务总局公告2023年第12号, to 2027-12-31). */
  halved: z.boolean(),
  /** 教育费附加 and 地方教育附加 exempt (财税〔2016〕12号: 月销售额不超过10万元, 季度不超过30万元). */
  eduExempt: z.boolean(),
  cjs: z.number(),
  edu: z.number(),
  localEdu: z.number(),
  total: z.number(),
});
export type SurtaxFigures = z.infer<typeof surtaxFiguresSchema>;

/**
 * 计提企业所得税 of a quarter-end period, fen: the year's cumulative 利润总额 to the period's end, taxed as the
 * quarterly prepayment is (citPrepay of tax-compute.ts: 25 %, 小型微利企业 effectively 5 %), less what this
 * year's earlier accruals booked to 所得税费用.
 */
export const incomeTaxFiguresSchema = z.object({
  /** 本年累计利润总额 (income − costs and expenses other than 所得税费用). */
  profit: z.number(),
  /** 资产总额 at the period's end (the 小型微利 test). */
  assets: z.number(),
  smallMicro: z.boolean(),
  /** 本年累计应纳所得税额. */
  cumTax: z.number(),
  /** 本年已计提 (earlier periods and entries other than this transfer). */
  accrued: z.number(),
  /** 本期应计提 = cumTax − accrued, not below 0. */
  tax: z.number(),
});
export type IncomeTaxFigures = z.infer<typeof incomeTaxFiguresSchema>;

export const closeCheckSchema = z.object({
  key: z.enum(['opening', 'unbalanced', 'unreviewed', 'cash', 'surtax', 'incomeTax', 'profit', 'yearEnd']),
  label: z.string(),
  ok: z.boolean(),
  msg: z.string(),
});
export type CloseCheck = z.infer<typeof closeCheckSchema>;

export const transferStepSchema = z.object({
  kind: z.enum(TRANSFER_KINDS),
  name: z.string(),
  /** The amount the transfer moves now (fen): surtax total, or the profit accounts' balances summed. */
  amount: z.number(),
  /** The voucher made, if any. */
  voucherId: z.number().nullable(),
  voucherNo: z.string(),
  voucherTotal: z.number(),
});
export type TransferStep = z.infer<typeof transferStepSchema>;

/** One book's period end (the 期末结账 page's right side). */
export const closeStateSchema = z.object({
  bookId: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  period: z.string(),
  startPeriod: z.string(),
  currentPeriod: z.string(),
  closedPeriods: z.array(z.string()),
  vatKind: z.enum(['small', 'general']),
  surtax: surtaxFiguresSchema,
  incomeTax: incomeTaxFiguresSchema,
  /** 本期利润 the profit transfer carries to 3103 (income − expenses), fen. */
  profit: z.number(),
  /** December: 本年利润's balance (credit side positive) the year-end transfer carries to 未分配利润, fen. */
  yearProfit: z.number(),
  steps: z.array(transferStepSchema),
  checks: z.array(closeCheckSchema),
  canClose: z.boolean(),
});
export type CloseState = z.infer<typeof closeStateSchema>;

/** A row of the 期末结账 list: a client's book and where it stands for the chosen period. */
export const closeRowSchema = z.object({
  id: z.number(),
  bookId: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  currentPeriod: z.string(),
  /** closed: the chosen period is closed; open: it is the current period; early: an earlier one is open. */
  state: z.enum(['closed', 'open', 'early', 'future']),
  vouchers: z.number(),
});
export type CloseRow = z.infer<typeof closeRowSchema>;

export const BOOK_RUN_STATES = ['running', 'done', 'stopped'] as const;
export const bookRunRateSchema = z.object({
  runId: z.string(),
  kind: z.enum(['close', 'print']),
  period: z.string(),
  state: z.enum(BOOK_RUN_STATES),
  totalNum: z.number(),
  successNum: z.number(),
  failNum: z.number(),
  completeNum: z.number(),
  rate: z.number(),
});
export type BookRunRate = z.infer<typeof bookRunRateSchema>;

export const bookRunRowSchema = z.object({
  id: z.number(),
  bookId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  state: z.enum(['ok', 'failed', 'pending']),
  msg: z.string(),
});
export type BookRunRow = z.infer<typeof bookRunRowSchema>;

// --- voucher rules (记账设置 规则) -----------------------------------------------------------------------

const codeSchema = z.string().regex(/^\d{4}(\d{2,3}){0,3}$/, '科目编码应为4位一级科目加2或3位下级编码');
/** 销项发票 → 借 应收账款 / 贷 主营业务收入 + 应交增值税（销项税额）. */
export const salesRuleSchema = z.object({
  debit: codeSchema,
  income: codeSchema,
  tax: codeSchema,
  summary: z.string().min(1).max(40),
});
/** 进项发票 → 借 费用或库存商品 + 进项税额 / 贷 应付账款. Goods (税收分类编码 starting 1) go to `goods`. */
export const purchaseRuleSchema = z.object({
  goods: codeSchema,
  expense: codeSchema,
  tax: codeSchema,
  credit: codeSchema,
  summary: z.string().min(1).max(40),
});
/** 工资 from the IIT data → 借 管理费用—工资 / 贷 应付职工薪酬. */
export const payrollRuleSchema = z.object({
  debit: codeSchema,
  credit: codeSchema,
  summary: z.string().min(1).max(40),
});
/** The period-end defaults: 城建税 rate and whether small-scale clients' surtax is halved. */
export const closeRuleSchema = z.object({
  cjsRate: z.union([z.literal(7), z.literal(5), z.literal(1)]),
  halve: z.boolean(),
  /** 批量结账 accrues 企业所得税 at quarter ends (and checks it is booked); off: the page offers it as a step. */
  incomeTax: z.boolean().default(false),
});

export const voucherRuleSetSchema = z.object({
  sales: salesRuleSchema,
  purchase: purchaseRuleSchema,
  payroll: payrollRuleSchema,
  close: closeRuleSchema,
});
export type VoucherRuleSet = z.infer<typeof voucherRuleSetSchema>;

/**
 * The rules an agency starts with (小企业会计准则 2013 codes; a 企业会计准则 book reads 5xxx as 6xxx and 31xx as
 * 41xx). 222101 stands for the book's own VAT leaf: 销项税额 (22210102) or 进项税额 (22210101) in a general
 * taxpayer's book, 222101 itself in a small-scale one.
 */
export const DEFAULT_VOUCHER_RULES: VoucherRuleSet = {
  sales: { debit: '1122', income: '5001', tax: '222101', summary: '销售收入' },
  purchase: { goods: '1405', expense: '560202', tax: '222101', credit: '2202', summary: '采购' },
  payroll: { debit: '560201', credit: '221101', summary: '计提工资' },
  close: { cjsRate: 7, halve: true, incomeTax: false },
};

// --- proposals (from documents to vouchers) ------------------------------------------------------------

export const proposalSchema = z.object({
  /** The source_ref: 'out:<invoice ids>' / 'in:<invoice ids>' / 'payroll:<period>'. */
  key: z.string(),
  source: z.enum(['invoice', 'payroll']),
  title: z.string(),
  vdate: z.string(),
  lines: z.array(
    z.object({ summary: z.string(), code: z.string(), name: z.string(), debit: z.number(), credit: z.number() }),
  ),
  total: z.number(),
  /** Already accepted: the voucher's number. */
  voucherNo: z.string(),
  /** Why it cannot be accepted as is (a missing account), '' when it can. */
  problem: z.string(),
});
export type Proposal = z.infer<typeof proposalSchema>;

// --- calls -------------------------------------------------------------------------------------------

export const closeListCall = defineCall({
  path: 'busi/qmJz/list',
  summary: '期末结账：客户账套及所选期间的结账状态',
  access: 'account:close:view',
  body: z.strictObject({ period: periodSchema, keyword: z.string().max(100).optional(), ...paging }),
  data: z.object({ list: z.array(closeRowSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const closeStateCall = defineCall({
  path: 'busi/qmJz/state',
  summary: '一个账套当前期间的期末结转与结账检查',
  access: 'account:close:view',
  body: z.strictObject({ bookId: idSchema, cjsRate: z.union([z.literal(7), z.literal(5), z.literal(1)]).optional() }),
  data: closeStateSchema,
});

export const transferCall = defineCall({
  path: 'busi/qmJz/transfer',
  summary: '生成期末结转凭证（计提附加税、计提所得税、结转损益、结转本年利润）',
  access: 'account:close:run',
  body: z.strictObject({
    bookId: idSchema,
    kind: z.enum(TRANSFER_KINDS),
    cjsRate: z.union([z.literal(7), z.literal(5), z.literal(1)]).optional(),
  }),
  data: closeStateSchema,
});

export const closeBookCall = defineCall({
  path: 'busi/qmJz/close',
  summary: '结账：当前期间结账，进入下一期间',
  access: 'account:close:run',
  body: z.strictObject({ bookId: idSchema }),
  data: closeStateSchema,
});

export const reopenBookCall = defineCall({
  path: 'busi/qmJz/reopen',
  summary: '反结账：重新打开最近一个已结账期间',
  access: 'account:close:reverse',
  body: z.strictObject({ bookId: idSchema }),
  data: closeStateSchema,
});

export const batchCloseCall = defineCall({
  path: 'busi/qmJz',
  summary: '批量结账：为所选账套在后台逐个计提、结转并结账',
  access: 'account:close:batch',
  body: z.strictObject({
    period: periodSchema,
    bookIds: z.array(idSchema).min(1, BOOK_CLOSE_MSG.noneChosen).max(BOOK_CLOSE_SELECT_MAX, BOOK_CLOSE_MSG.tooMany),
  }),
  data: z.object({ runId: z.string() }),
});

export const batchCloseRateCall = defineCall({
  path: 'busi/qmJz/rate',
  summary: '批量结账的进度',
  access: 'account:close:view',
  body: z.strictObject({ runId: z.string().regex(/^\d{1,10}$/, BOOK_CLOSE_MSG.runNotFound) }),
  data: bookRunRateSchema,
});

export const batchCloseReportCall = defineCall({
  path: 'busi/qmJz/report',
  summary: '批量结账的结果：每个账套成功或不能结账的原因',
  access: 'account:close:view',
  body: z.strictObject({
    runId: z.string().regex(/^\d{1,10}$/, BOOK_CLOSE_MSG.runNotFound),
    state: z.enum(['ok', 'failed', 'pending']).optional(),
    ...paging,
  }),
  data: z.object({ list: z.array(bookRunRowSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const voucherRulesCall = defineCall({
  path: 'busi/pzRule/get',
  summary: '记账规则：发票、工资生成凭证的科目与期末结转默认值',
  access: 'account:setting:view',
  body: z.strictObject({}),
  data: voucherRuleSetSchema,
});

export const saveVoucherRulesCall = defineCall({
  path: 'busi/pzRule/save',
  summary: '保存记账规则',
  access: 'account:setting:edit',
  body: z.strictObject({ rules: voucherRuleSetSchema }),
  data: voucherRuleSetSchema,
});

export const proposalsCall = defineCall({
  path: 'busi/pzScd/list',
  summary: '单据生成凭证：本期发票与工资按规则拟生成的凭证',
  access: 'account:voucher:view',
  body: z.strictObject({ bookId: idSchema }),
  data: z.object({
    period: z.string(),
    /** The client's invoices of the period in the invoice store; 0 means none were collected. */
    invoiceCount: z.number(),
    list: z.array(proposalSchema),
  }),
});

export const acceptProposalsCall = defineCall({
  path: 'busi/pzScd/accept',
  summary: '接受拟生成的凭证（每项只生成一次）',
  access: 'account:voucher:edit',
  body: z.strictObject({ bookId: idSchema, keys: z.array(z.string().min(1).max(4000)).min(1).max(500) }),
  data: z.object({ made: z.number(), list: z.array(proposalSchema) }),
});
