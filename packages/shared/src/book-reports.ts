import { z } from 'zod';
import type { AccountingStandardKey } from './books.js';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * 账簿 and 财务报表 of a book (issue 16 point 4): 科目余额表, 总账, 明细账, 多栏账 for any period range;
 * 资产负债表, 利润表, 现金流量表 (会小企01-03表, or 会企01-03表 for 企业会计准则 books); drill-down from a figure to the
 * voucher lines behind it; export to .xlsx and PDF. Money on the wire: integer fen (the web formats it).
 * Balances are "debit-positive" on the wire where a direction is not given (net = debit − credit).
 */

export const BOOK_REPORT_MSG = {
  bookNotFound: '账套不存在或无权访问',
  periodFormat: '请选择会计期间（yyyy-MM）',
  rangeOrder: '起始期间不能晚于结束期间',
  rangeTooLong: '查询期间最多跨24个月',
  beforeStart: '查询期间早于账套启用期间{period}',
  accountNotFound: '科目不存在',
  noChildren: '科目“{name}”没有下级科目，多栏账须选择有下级科目的科目',
  exportTooMany: '明细账超过20000行，请缩小期间或科目范围后再导出',
  notClosed: '账簿{period}尚未结账',
  fromBooks: '已从账簿取数（所属期末已结账的财务报表）',
} as const;

/** Page sizes of the 明细账 and drill-down lists. */
export const LEDGER_PAGE_SIZES = [20, 50, 100, 500] as const;
/** A query spans at most this many months. */
export const LEDGER_MAX_MONTHS = 24;
/** 明细账 export cap (rows). */
export const LEDGER_EXPORT_MAX = 20_000;

const periodSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, BOOK_REPORT_MSG.periodFormat);
const idSchema = z.number().int().positive();
const range = { bookId: idSchema, from: periodSchema, to: periodSchema };
const paging = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (LEDGER_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50、100或500')
    .default(50),
  ...cursorField,
};

// --- books in scope ----------------------------------------------------------------------------------

export const reportBookSchema = z.object({
  bookId: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  standard: z.enum(['small2013', 'general']),
  startPeriod: z.string(),
  currentPeriod: z.string(),
});
export type ReportBook = z.infer<typeof reportBookSchema>;

export const reportBooksCall = defineCall({
  path: 'account/report/books',
  summary: '账簿与报表：可查看的账套（按企业名称或税号筛选，分页）',
  access: 'signedIn',
  body: z.strictObject({ keyword: z.string().trim().max(50).default(''), ...paging }),
  data: z.object({ list: z.array(reportBookSchema), total: z.number(), cursor: pageCursorsSchema }),
});

// --- 科目余额表 ----------------------------------------------------------------------------------------

/** One account's row: amounts as 借/贷 pairs. */
export const balanceRowSchema = z.object({
  accountId: z.number(),
  code: z.string(),
  name: z.string(),
  level: z.number(),
  isLeaf: z.boolean(),
  direction: z.enum(['debit', 'credit']),
  category: z.string(),
  openingDebit: z.number(),
  openingCredit: z.number(),
  periodDebit: z.number(),
  periodCredit: z.number(),
  ytdDebit: z.number(),
  ytdCredit: z.number(),
  closingDebit: z.number(),
  closingCredit: z.number(),
});
export type BalanceRow = z.infer<typeof balanceRowSchema>;

export const trialTotalsSchema = z.object({
  openingDebit: z.number(),
  openingCredit: z.number(),
  periodDebit: z.number(),
  periodCredit: z.number(),
  ytdDebit: z.number(),
  ytdCredit: z.number(),
  closingDebit: z.number(),
  closingCredit: z.number(),
});

export const balanceSheetCall = defineCall({
  path: 'account/ledger/balances',
  summary: '科目余额表：期初余额、本期发生额、本年累计发生额、期末余额（上级科目为下级之和）',
  access: 'account:ledger:view',
  body: z.strictObject({
    ...range,
    /** Show accounts down to this level (1 = first-level only). */
    maxLevel: z.number().int().min(1).max(6).default(6),
    /** Include accounts with nothing in any column. */
    showZero: z.boolean().default(false),
  }),
  data: z.object({ rows: z.array(balanceRowSchema), totals: trialTotalsSchema, balanced: z.boolean() }),
});

// --- 总账 -------------------------------------------------------------------------------------------------

export const generalRowSchema = z.object({
  period: z.string(),
  /** 期初余额, 本期合计 or 本年累计. */
  kind: z.enum(['opening', 'period', 'ytd']),
  debit: z.number(),
  credit: z.number(),
  /** 借, 贷 or 平, and the balance on that side (≥ 0). */
  dir: z.enum(['借', '贷', '平']),
  balance: z.number(),
});
export const generalAccountSchema = z.object({
  accountId: z.number(),
  code: z.string(),
  name: z.string(),
  rows: z.array(generalRowSchema),
});
export type GeneralAccount = z.infer<typeof generalAccountSchema>;

export const generalLedgerCall = defineCall({
  path: 'account/ledger/general',
  summary: '总账：一级科目（或所选科目）各期的期初余额、本期合计、本年累计',
  access: 'account:ledger:view',
  body: z.strictObject({ ...range, accountId: idSchema.optional() }),
  data: z.object({ accounts: z.array(generalAccountSchema) }),
});

// --- 明细账 and drill-down --------------------------------------------------------------------------------

export const detailRowSchema = z.object({
  id: z.number(),
  voucherId: z.number(),
  period: z.string(),
  vdate: z.string(),
  /** 记-3 */
  voucherNo: z.string(),
  summary: z.string(),
  code: z.string(),
  accountName: z.string(),
  debit: z.number(),
  credit: z.number(),
  dir: z.enum(['借', '贷', '平']),
  /** The running balance after this line, on the side of dir. */
  balance: z.number(),
});
export type DetailRow = z.infer<typeof detailRowSchema>;

export const detailLedgerCall = defineCall({
  path: 'account/ledger/detail',
  summary: '明细账与穿透查询：所选科目（含下级）在期间内的凭证分录及余额，分页',
  access: 'account:ledger:view',
  body: z.strictObject({
    ...range,
    /** Accounts by code; each includes its sub-accounts. */
    codes: z
      .array(z.string().regex(/^\d{4,16}$/, BOOK_REPORT_MSG.accountNotFound))
      .min(1)
      .max(40),
    ...paging,
  }),
  data: z.object({
    list: z.array(detailRowSchema),
    total: z.number(),
    cursor: pageCursorsSchema,
    /** The selected accounts' balance before `from` (direction as dir). */
    openingDir: z.enum(['借', '贷', '平']),
    opening: z.number(),
    debit: z.number(),
    credit: z.number(),
    closingDir: z.enum(['借', '贷', '平']),
    closing: z.number(),
  }),
});

// --- 多栏账 ----------------------------------------------------------------------------------------------

export const columnLedgerCall = defineCall({
  path: 'account/ledger/columns',
  summary: '多栏账：所选科目按末级下级科目分栏，各期发生额与余额',
  access: 'account:ledger:view',
  body: z.strictObject({ ...range, accountId: idSchema }),
  data: z.object({
    account: z.object({ code: z.string(), name: z.string(), direction: z.enum(['debit', 'credit']) }),
    columns: z.array(z.object({ accountId: z.number(), code: z.string(), name: z.string() })),
    rows: z.array(
      z.object({
        period: z.string(),
        kind: z.enum(['opening', 'period', 'ytd']),
        debit: z.number(),
        credit: z.number(),
        dir: z.enum(['借', '贷', '平']),
        balance: z.number(),
        /** Per column: the amount on the account's own side (debit − credit for debit accounts). */
        amounts: z.array(z.number()),
      }),
    ),
  }),
});

// --- 财务报表 ----------------------------------------------------------------------------------------------

export const STATEMENT_KINDS = ['balance', 'income', 'cashflow'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];
export const STATEMENT_NAMES: Readonly<Record<StatementKind, string>> = {
  balance: '资产负债表',
  income: '利润表',
  cashflow: '现金流量表',
};
/** The form numbers per accounting standard: 小企业会计准则 (会小企) and 企业会计准则's 一般企业 format (会企). */
export const STATEMENT_FORMS: Readonly<Record<AccountingStandardKey, Readonly<Record<StatementKind, string>>>> = {
  small2013: { balance: '会小企01表', income: '会小企02表', cashflow: '会小企03表' },
  general: { balance: '会企01表', income: '会企02表', cashflow: '会企03表' },
};
/** The two amount columns of each statement. */
export const STATEMENT_COLUMNS: Readonly<Record<StatementKind, readonly [string, string]>> = {
  balance: ['期末余额', '年初余额'],
  income: ['本年累计金额', '本月金额'],
  cashflow: ['本年累计金额', '本月金额'],
};

export const statementLineSchema = z.object({
  /** 行次 (0 for headings). */
  no: z.number(),
  name: z.string(),
  /** 0 top-level, 1 an item, 2 a 其中 item. */
  indent: z.number(),
  bold: z.boolean(),
  a: z.number(),
  b: z.number(),
  /** The accounts behind the figure (drill-down), [] for totals and headings. */
  codes: z.array(z.string()),
  /** Balance sheet: 'left' assets, 'right' liabilities and equity. */
  side: z.enum(['left', 'right', 'single']),
});
export type StatementLine = z.infer<typeof statementLineSchema>;

export const statementSchema = z.object({
  kind: z.enum(STATEMENT_KINDS),
  form: z.string(),
  qymc: z.string(),
  period: z.string(),
  lines: z.array(statementLineSchema),
  /** The checks the statement passes or fails, in Chinese (资产总计 = 负债和所有者权益总计 …). */
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })),
  /** The period is closed (结账). */
  closed: z.boolean(),
});
export type Statement = z.infer<typeof statementSchema>;

export const statementCall = defineCall({
  path: 'account/statement/get',
  summary: '财务报表：资产负债表、利润表、现金流量表（小企业会计准则 会小企01-03表，企业会计准则 会企01-03表）',
  access: 'account:statement:view',
  body: z.strictObject({ bookId: idSchema, period: periodSchema, kind: z.enum(STATEMENT_KINDS) }),
  data: statementSchema,
});

// --- exports (plain file routes) -----------------------------------------------------------------------

export const BOOK_REPORT_FILES = {
  ledger: 'account/ledger/export',
  statement: 'account/statement/export',
} as const;

export const LEDGER_KINDS = ['balances', 'general', 'detail', 'columns'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const LEDGER_NAMES: Readonly<Record<LedgerKind, string>> = {
  balances: '科目余额表',
  general: '总账',
  detail: '明细账',
  columns: '多栏账',
};

export const ledgerExportBodySchema = z.strictObject({
  ...range,
  kind: z.enum(LEDGER_KINDS),
  format: z.enum(['xlsx', 'pdf']),
  codes: z
    .array(z.string().regex(/^\d{4,16}$/))
    .max(40)
    .default([]),
  accountId: idSchema.optional(),
  maxLevel: z.number().int().min(1).max(6).default(6),
});
export type LedgerExportBody = z.infer<typeof ledgerExportBodySchema>;

export const statementExportBodySchema = z.strictObject({
  bookId: idSchema,
  period: periodSchema,
  kind: z.enum(STATEMENT_KINDS),
  format: z.enum(['xlsx', 'pdf']),
});
export type StatementExportBody = z.infer<typeof statementExportBodySchema>;

/** 借/贷/平 and the balance on that side, from a debit-positive net. */
export function sideOf(net: number, direction: 'debit' | 'credit'): { dir: '借' | '贷' | '平'; balance: number } {
  if (net === 0) return { dir: '平', balance: 0 };
  // An account shows its balance on its own side; a balance on the other side shows there.
  if (direction === 'debit') return net > 0 ? { dir: '借', balance: net } : { dir: '贷', balance: -net };
  return net < 0 ? { dir: '贷', balance: -net } : { dir: '借', balance: net };
}

/** The months from `from` to `to` inclusive (YYYY-MM). */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  for (let guard = 0; guard < 1200; guard++) {
    const p = `${y}-${String(m).padStart(2, '0')}`;
    if (p > to) break;
    out.push(p);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}
