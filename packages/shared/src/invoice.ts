import { z } from 'zod';
import { INVOICE_RATE_NAMES, type InvoiceRate, RED_REASONS } from './bureau.js';
import { defineCall } from './call.js';
import { taxFenToYuan, taxYuanToFen } from './declare-data.js';
import type { TaxpayerKind } from './filing-calendar.js';
import { allowedRates, invoiceCodeOf, printedName } from './invoice-codes.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { normalizeTaxNumber } from './validators.js';

/**
 * 销项发票 (issue 15 point 2; business.md §7 "Invoices and invoice pool"): issuing 数电票 for a client
 * through its e-tax session, the list per client and month, red-letter (红冲), batch issuing from .xlsx,
 * the invoice as PDF and the list as .xlsx. Money on the wire: yuan text with two decimals (as the batch
 * filing's); the server keeps fen. Decisions: docs/decisions-15-output.md.
 */

// --- constants -----------------------------------------------------------------------------------

export const XXFP_PATH = '/moreModuleCloudInvoice/xxfp';
export const INVOICE_MODULE_PATH = '/moreModuleCloudInvoice';
/** The job queue of a batch issue run (one job per run, key = run id). */
export const INVOICE_ISSUE_QUEUE = 'invoice-issue';
/** At most this many lines per invoice (the bureau's 数电票 allows more; a form beyond this is unusable). */
export const INVOICE_LINES_MAX = 100;
/** Rows of a batch issue file, and invoices in it. */
export const INVOICE_BATCH_MAX_ROWS = 2000;
export const INVOICE_BATCH_MAX_BYTES = 5 * 1024 * 1024;
export const INVOICE_EXPORT_MAX = 20_000;

export const OUT_KINDS = ['zp', 'pp'] as const;
export type OutKind = (typeof OUT_KINDS)[number];
export const OUT_KIND_NAMES: Readonly<Record<OutKind, string>> = { zp: '专票', pp: '普票' };
/** The PDF's header (数电票 titles). */
export const OUT_KIND_TITLES: Readonly<Record<OutKind, string>> = {
  zp: '电子发票（增值税专用发票）',
  pp: '电子发票（普通发票）',
};
export const OUT_STATES = ['normal', 'reversed', 'void', 'red'] as const;
export type OutState = (typeof OUT_STATES)[number];
export const OUT_STATE_NAMES: Readonly<Record<OutState, string>> = {
  normal: '正常',
  reversed: '已红冲',
  void: '作废',
  red: '红字发票',
};
export const OUT_RATES = ['0.13', '0.09', '0.06', '0.05', '0.03', '0.01', '0', 'mz'] as const;
export const rateName = (r: string) => INVOICE_RATE_NAMES[r as InvoiceRate] ?? r;

export const INVOICE_OUT_MSG = {
  chooseEnterprise: '请选择企业',
  noTaxNumber: '该企业没有税号，不能开票',
  notFound: '发票不存在或无权查看',
  buyerName: '请输入购买方名称',
  buyerTaxNo: '请输入购买方纳税人识别号',
  buyerTaxNoFormat: '购买方纳税人识别号为15、17、18或20位数字或字母',
  noLines: '请至少录入一行项目',
  tooManyLines: `每张发票最多${INVOICE_LINES_MAX}行项目`,
  unknownCode: '税收分类编码不存在，请从编码表中选择',
  rateNotAllowed: (name: string, rates: string) => `「${name}」可用税率：${rates}`,
  zpNoExempt: '专票不能开具免税项目，请改开普票',
  amount: '金额须大于0，最多两位小数',
  quantity: '数量和单价须同时填写，且为正数',
  itemName: '请输入项目名称',
  pending: '开票结果未知（电子税务局未应答），请稍后重试：将使用同一请求号，不会重复开票',
  notBlue: '只能红冲正常状态的蓝字发票',
  redPending: '红字确认单已提交，等待购买方确认，确认后再红冲',
  runNotFound: '批量开票任务不存在',
  batchEmpty: '文件中没有可开具的发票',
  quotaUnknown: '暂时无法获取授信额度',
  /** A batch whose job gave up: the invoice being sent when it did (the bureau may have issued it). */
  batchUnknown: (why: string) => `开票结果未知（${why}），请在发票列表中核对是否已开出，未开出的请重新开具`,
  /** A batch whose job gave up: the invoices after it, never sent. */
  batchStopped: (why: string) => `批量开票已中止（${why}），该发票未开具`,
  /** The client's 开票方式 (kpfs) is not 数电: this product issues 数电票 through the bureau only. */
  kpfsNotDigital: (label: string) =>
    `该客户的开票方式为「${label}」，本系统只能开具数电发票；如需在此开票，请先在「我的客户」中将开票方式改为数电发票`,
  kpfsNone: '该客户的开票方式为「不开票」，不能开具发票；如需开票，请先在「我的客户」中修改开票方式',
  /** The form was opened with another method than the client has now. */
  kpfsChanged: (label: string) => `该客户的开票方式已改为「${label}」，请关闭后重新开具`,
} as const;

/** Columns of the batch issue file: one row per line; rows with the same 发票序号 make one invoice. */
export const INVOICE_BATCH_COLUMNS = [
  '发票序号',
  '发票类型',
  '购买方名称',
  '购买方纳税人识别号',
  '税收分类编码',
  '项目名称',
  '规格型号',
  '单位',
  '数量',
  '单价',
  '金额（含税）',
  '税率',
  '备注',
] as const;

// --- amounts -----------------------------------------------------------------------------------

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const UNITS = ['', '拾', '佰', '仟'];
const GROUPS = ['', '万', '亿', '万亿'];

/** 价税合计（大写）: 壹仟贰佰叁拾肆元伍角陆分, 整 when no 角分; a negative amount gets （负数）. */
export function rmbUpper(fen: number): string {
  if (!Number.isFinite(fen)) return '';
  const neg = fen < 0;
  const abs = Math.abs(Math.round(fen));
  const yuan = Math.floor(abs / 100);
  const jiao = Math.floor(abs / 10) % 10;
  const fenD = abs % 10;
  let out = '';
  if (yuan > 0) {
    const groups: number[] = [];
    for (let n = yuan; n > 0; n = Math.floor(n / 10000)) groups.unshift(n % 10000);
    let pendingZero = false;
    groups.forEach((g, gi) => {
      if (g === 0) {
        pendingZero = out !== '';
        return;
      }
      if (pendingZero || (out !== '' && g < 1000)) out += '零';
      pendingZero = false;
      let part = '';
      let zero = false;
      for (let pos = 3; pos >= 0; pos--) {
        const d = Math.floor(g / 10 ** pos) % 10;
        if (d === 0) zero = part !== '';
        else {
          if (zero) part += '零';
          zero = false;
          part += DIGITS[d] + (UNITS[pos] ?? '');
        }
      }
      out += part + (GROUPS[groups.length - 1 - gi] ?? '');
    });
    out += '元';
  }
  if (jiao === 0 && fenD === 0) out += yuan > 0 ? '整' : '零元整';
  else {
    if (jiao > 0) out += `${DIGITS[jiao]}角`;
    else if (yuan > 0) out += '零';
    if (fenD > 0) out += `${DIGITS[fenD]}分`;
  }
  return neg ? `（负数）${out}` : out;
}

/** A line's 税额 from its amount before tax (fen): 免税 and 0 % none, else rounded half up. */
export function lineTax(amountFen: number, rate: string): number {
  if (rate === 'mz' || rate === '0') return 0;
  return Math.round((amountFen * Number(rate) * 1000) / 1000);
}

/** Splits an amount including tax into amount before tax and tax (fen), the tax the remainder. */
export function splitInclusive(inclFen: number, rate: string): { amount: number; tax: number } {
  if (rate === 'mz' || rate === '0') return { amount: inclFen, tax: 0 };
  const amount = Math.round(inclFen / (1 + Number(rate)));
  return { amount, tax: inclFen - amount };
}

const DECIMAL_RE = /^\d{1,12}(\.\d{1,8})?$/;
/** A decimal as the invoice prints it: at most 8 places, no trailing zeros. */
export const decimalText = (n: number) => (Number.isFinite(n) ? String(Number(n.toFixed(8))) : '');

export interface ComputedLine {
  xh: number;
  spmc: string;
  ssflbm: string;
  ggxh: string;
  dw: string;
  sl: string;
  /** Unit price before tax (what the invoice prints). */
  dj: string;
  amount: number;
  rate: string;
  tax: number;
}

export interface ComputedInvoice {
  lines: ComputedLine[];
  amount: number;
  tax: number;
  total: number;
  totalUpper: string;
}

/**
 * The invoice as it will be issued, from the form: every line's amount before tax and tax (a price
 * including tax is split per line), the sums and the 大写. Errors are per line, in Chinese (the form
 * shows them beside the line; the server refuses with the first).
 */
export function computeInvoice(
  form: Pick<IssueForm, 'fplx' | 'priceInclTax' | 'lines'>,
  kind: TaxpayerKind,
): { ok: true; invoice: ComputedInvoice } | { ok: false; errors: { xh: number; msg: string }[] } {
  const errors: { xh: number; msg: string }[] = [];
  const lines: ComputedLine[] = [];
  for (const [i, l] of form.lines.entries()) {
    const xh = i + 1;
    const code = invoiceCodeOf(l.ssflbm);
    if (!code) {
      errors.push({ xh, msg: INVOICE_OUT_MSG.unknownCode });
      continue;
    }
    const rates = allowedRates(code.code, kind);
    if (!rates.includes(l.slv as InvoiceRate)) {
      errors.push({
        xh,
        msg: INVOICE_OUT_MSG.rateNotAllowed(code.name, rates.map((r) => INVOICE_RATE_NAMES[r]).join('、')),
      });
      continue;
    }
    if (form.fplx === 'zp' && l.slv === 'mz') {
      errors.push({ xh, msg: INVOICE_OUT_MSG.zpNoExempt });
      continue;
    }
    const fen = taxYuanToFen(l.je);
    if (fen === null || fen <= 0) {
      errors.push({ xh, msg: INVOICE_OUT_MSG.amount });
      continue;
    }
    const hasQty = Boolean(l.sl?.trim()) || Boolean(l.dj?.trim());
    if (hasQty && !(DECIMAL_RE.test(l.sl?.trim() ?? '') && Number(l.sl) > 0 && DECIMAL_RE.test(l.dj?.trim() ?? ''))) {
      errors.push({ xh, msg: INVOICE_OUT_MSG.quantity });
      continue;
    }
    const split = form.priceInclTax ? splitInclusive(fen, l.slv) : { amount: fen, tax: lineTax(fen, l.slv) };
    const sl = hasQty ? decimalText(Number(l.sl)) : '';
    lines.push({
      xh,
      spmc: printedName(code, l.spmc),
      ssflbm: code.code,
      ggxh: l.ggxh?.trim() ?? '',
      dw: l.dw?.trim() ?? '',
      sl,
      dj: hasQty ? decimalText(split.amount / 100 / Number(l.sl)) : '',
      amount: split.amount,
      rate: l.slv,
      tax: split.tax,
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  const amount = lines.reduce((s, l) => s + l.amount, 0);
  const tax = lines.reduce((s, l) => s + l.tax, 0);
  return { ok: true, invoice: { lines, amount, tax, total: amount + tax, totalUpper: rmbUpper(amount + tax) } };
}

// --- schemas -----------------------------------------------------------------------------------

const idSchema = z.number().int().positive();
const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '请选择开票月份（yyyy-MM）');
const yuanSchema = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, '金额须为数字，最多两位小数');
const PAGE_SIZES = [10, 20, 50, 100] as const;
const paging = {
  pageNum: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数须为10、20、50或100')
    .default(20),
  ...cursorField,
};
const text = (max: number, label: string) => z.string().trim().max(max, `${label}不能超过${max}个字符`).default('');

/** A buyer's tax number as typed: spaces, lower case and full width normalised (validators.normalizeTaxNumber). */
export const buyerTaxNoSchema = z
  .string()
  .transform(normalizeTaxNumber)
  .pipe(z.string().regex(/^([0-9A-Z]{15}|[0-9A-Z]{17,18}|[0-9A-Z]{20})$/, INVOICE_OUT_MSG.buyerTaxNoFormat));

export const buyerSchema = z.strictObject({
  name: z.string().trim().min(1, INVOICE_OUT_MSG.buyerName).max(100, '购买方名称不能超过100个字符'),
  taxNo: buyerTaxNoSchema,
  /** 地址、电话 and 开户行及账号 as printed. */
  addressPhone: text(200, '地址电话'),
  bankAccount: text(200, '开户行及账号'),
  email: text(100, '邮箱'),
});
export type Buyer = z.infer<typeof buyerSchema>;

export const issueLineSchema = z.strictObject({
  /** 税收分类编码 (19 digits, from invoice-codes.ts). */
  ssflbm: z
    .string()
    .trim()
    .regex(/^\d{19}$/, INVOICE_OUT_MSG.unknownCode),
  /** The item (printed after the code's 简称); empty prints the code's name. */
  spmc: text(90, '项目名称'),
  ggxh: text(40, '规格型号'),
  dw: text(20, '单位'),
  /** Quantity and unit price (both or neither); the price as the switch says (incl. or excl. tax). */
  sl: text(20, '数量'),
  dj: text(20, '单价'),
  /** The line's amount, incl. or excl. tax as priceInclTax says. */
  je: yuanSchema,
  slv: z.enum(OUT_RATES, '请选择税率'),
});
export type IssueLine = z.input<typeof issueLineSchema>;

export const issueFormSchema = z.strictObject({
  aeiId: idSchema,
  /**
   * The client's id of this issue (a uuid made when the form opens): sent again after a lost reply, the
   * server retries the same bureau request and never issues twice.
   */
  requestId: z.uuid('请求号无效'),
  fplx: z.enum(OUT_KINDS),
  /**
   * 开票方式 the form issued with: the client's (kpfs, shown in the form). Sent, the server refuses when
   * the client's method is another one now; absent (batch, older callers), only the client's counts.
   */
  kpfs: z.enum(['1', '2', '3', '4', '0'], '开票方式有误').optional(),
  buyer: buyerSchema,
  /** 含税: amounts and prices typed include tax. */
  priceInclTax: z.boolean().default(false),
  lines: z.array(issueLineSchema).min(1, INVOICE_OUT_MSG.noLines).max(INVOICE_LINES_MAX, INVOICE_OUT_MSG.tooManyLines),
  bz: text(200, '备注'),
  /** Keep the buyer in the client's remembered buyers. */
  remember: z.boolean().default(true),
});
export type IssueForm = z.input<typeof issueFormSchema>;

const lineOut = z.object({
  xh: z.number(),
  spmc: z.string(),
  ssflbm: z.string(),
  ggxh: z.string(),
  dw: z.string(),
  sl: z.string(),
  dj: z.string(),
  je: z.string(),
  slv: z.string(),
  se: z.string(),
});

export const outInvoiceRowSchema = z.object({
  id: z.number(),
  fphm: z.string(),
  kprq: z.string(),
  fplx: z.enum(OUT_KINDS),
  state: z.enum(OUT_STATES),
  lzfphm: z.string(),
  gfmc: z.string(),
  gfsh: z.string(),
  hjje: z.string(),
  hjse: z.string(),
  jshj: z.string(),
  /** Rates of its lines, e.g. "13%、6%". */
  slv: z.string(),
  source: z.enum(['issued', 'collected']),
  /** 开票人 (the product user who issued it; '' for a collected one). */
  kpr: z.string(),
});
export type OutInvoiceRow = z.infer<typeof outInvoiceRowSchema>;

export const outInvoiceDetailSchema = outInvoiceRowSchema.extend({
  aeiId: z.number(),
  xfmc: z.string(),
  xfsh: z.string(),
  gfdzdh: z.string(),
  gfyhzh: z.string(),
  bz: z.string(),
  jshjUpper: z.string(),
  lines: z.array(lineOut),
  /** The red invoice that reversed it, when reversed. */
  hzfphm: z.string(),
});
export type OutInvoiceDetail = z.infer<typeof outInvoiceDetailSchema>;

export const OUT_SORTS = ['kprq', 'jshj'] as const;
export const outFilterSchema = z.strictObject({
  aeiId: idSchema,
  month: monthSchema,
  fplx: z.enum(OUT_KINDS).optional(),
  state: z.enum(OUT_STATES).optional(),
  /** 购买方 name or tax number. */
  buyer: text(50, '购买方'),
  fphm: z
    .string()
    .trim()
    .regex(/^\d{0,20}$/, '发票号码为数字')
    .default(''),
  /** 价税合计 between (yuan). */
  minJshj: yuanSchema.optional(),
  maxJshj: yuanSchema.optional(),
  sort: z.enum(OUT_SORTS).default('kprq'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type OutFilter = z.input<typeof outFilterSchema>;

const quotaSchema = z.object({ total: z.string(), used: z.string(), remaining: z.string() });

// --- calls -------------------------------------------------------------------------------------

export const outListCall = defineCall({
  path: 'userext/fp/xxfp/selectFpkjListV2',
  summary: '销项发票列表（一家企业一个月，按类型、状态、购买方、号码、金额筛选）',
  access: 'invoice:output:view',
  body: outFilterSchema.extend(paging),
  data: z.object({
    list: z.array(outInvoiceRowSchema),
    total: z.number(),
    cursor: pageCursorsSchema,
    /** 合计 of the filter (red invoices count negative). */
    sums: z.object({ hjje: z.string(), hjse: z.string(), jshj: z.string() }),
  }),
});

export const outDetailCall = defineCall({
  path: 'user/fp/xxfp/selectFpkjDetailList',
  summary: '销项发票详情（含明细行）',
  access: 'invoice:output:view',
  body: z.strictObject({ id: idSchema }),
  data: outInvoiceDetailSchema,
});

export const billingSummaryCall = defineCall({
  path: 'user/fp/xxfp/billingSummary',
  summary: '开票汇总：本月份数、按税率的金额税额与剩余授信额度',
  access: 'invoice:output:view',
  body: z.strictObject({ aeiId: idSchema, month: monthSchema, live: z.boolean().default(true) }),
  data: z.object({
    aeiId: z.number(),
    qymc: z.string(),
    qysh: z.string(),
    /** '0' 一般纳税人, '1' 小规模纳税人: what the form's rates follow. */
    nsrlx: z.enum(['0', '1']),
    count: z.number(),
    hjje: z.string(),
    hjse: z.string(),
    jshj: z.string(),
    byRate: z.array(
      z.object({ fplx: z.enum(OUT_KINDS), slv: z.string(), count: z.number(), je: z.string(), se: z.string() }),
    ),
    /** 授信额度 of the month from the bureau; null with quotaMsg when it could not be asked. */
    quota: quotaSchema.nullable(),
    quotaMsg: z.string(),
    /** Contract reminder at level 2 (发票): issuing is blocked with this message; '' when not. */
    blocked: z.string(),
    /** The client's 开票方式 (its own, else the agency's default; '1' 数电 when neither is set) and its name. */
    kpfs: z.string(),
    kpfsLabel: z.string(),
    /** Why this product cannot issue with that method ('' for 数电). */
    kpfsBlocked: z.string(),
  }),
});

export const previewCall = defineCall({
  path: 'user/fp/xxfp/previewFpxxfp',
  summary: '开票预览：计算金额、税额、价税合计与大写，不开具',
  access: 'invoice:output:issue',
  body: issueFormSchema,
  data: z.object({
    lines: z.array(lineOut),
    hjje: z.string(),
    hjse: z.string(),
    jshj: z.string(),
    jshjUpper: z.string(),
    xfmc: z.string(),
    xfsh: z.string(),
  }),
});

export const issueCall = defineCall({
  path: 'user/fp/xxfp/insertOrUpdateBatchFpxxfp',
  summary: '开具发票（数电票，经电子税务局开具；同一请求号至多开具一次）',
  access: 'invoice:output:issue',
  body: issueFormSchema,
  data: z.object({ requestId: z.string(), again: z.boolean(), invoice: outInvoiceDetailSchema }),
});

export const redLetterCall = defineCall({
  path: 'aisino/invoice/invoiceOpenerV3',
  summary: '红冲发票：开具红字确认单，再开具红字发票（各至多一次）',
  access: 'invoice:output:red',
  body: z.strictObject({
    id: idSchema,
    reason: z.enum(RED_REASONS, '请选择红冲原因'),
    /** The client's id of this 红冲 (a uuid made when the dialog opens), as for issuing. */
    requestId: z.uuid('请求号无效'),
  }),
  data: z.object({ qrdbh: z.string(), blue: outInvoiceDetailSchema, red: outInvoiceDetailSchema }),
});

export const buyerRowSchema = buyerSchema.extend({ id: z.number(), lastUsedAt: z.string() });
export type BuyerRow = z.infer<typeof buyerRowSchema>;

export const buyerListCall = defineCall({
  path: 'user/fp/xxfpkped/selectFpxxfpKpedList',
  summary: '企业的常用购买方（最近使用在前，按名称或税号搜索）',
  access: 'invoice:output:view',
  body: z.strictObject({ aeiId: idSchema, keyword: text(50, '关键字'), ...paging }),
  data: z.object({ list: z.array(buyerRowSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const buyerSaveCall = defineCall({
  path: 'user/fp/xxfpkped/insertOrUpdateBatchFpxxfpKped',
  summary: '保存常用购买方（按税号新增或更新，可多个）',
  access: 'invoice:output:issue',
  body: z.strictObject({ aeiId: idSchema, list: z.array(buyerSchema).min(1, '请录入购买方').max(200) }),
  data: z.object({ saved: z.number() }),
});

export const batchRateCall = defineCall({
  path: 'user/fp/xxfp/batchRate',
  summary: '批量开票进度',
  access: 'invoice:output:batch',
  body: z.strictObject({ runId: idSchema }),
  data: z.object({
    runId: z.number(),
    aeiId: z.number(),
    state: z.enum(['running', 'done', 'stopped']),
    totalNum: z.number(),
    successNum: z.number(),
    failNum: z.number(),
    /** Rows read from the file, and those refused before issuing (in the failure file too). */
    rowNum: z.number(),
    hasFailFile: z.boolean(),
    fphms: z.array(z.string()),
  }),
});

/** Plain routes (files): POST export with the list's filter; GET PDF, template and failure file. */
export const INVOICE_OUT_FILES = {
  export: 'user/fp/xxfp/xqExport',
  pdf: 'user/fp/xxfp/doInvoicePrintV2',
  batchUpload: 'user/fp/xxfp/batchImport',
  batchTemplate: 'user/fp/xxfp/batchTemplate',
  batchFail: 'user/fp/xxfp/batchFail',
} as const;

// --- helpers both sides use ------------------------------------------------------------------------

export const yuan = taxFenToYuan;
