/**
 * The rules a voucher (凭证) obeys, shared by the entry grid and the server (issue 16). Money is integer fen.
 */

export const VOUCHER_MSG = {
  tooFewLines: '凭证至少需要两行分录',
  tooManyLines: '一张凭证最多200行分录',
  noSummary: '第{n}行：请填写摘要',
  summaryTooLong: '第{n}行：摘要不能超过100个字',
  noAccount: '第{n}行：请选择科目',
  bothSides: '第{n}行：借方和贷方只能填一方',
  noAmount: '第{n}行：请填写借方或贷方金额',
  tooLarge: '第{n}行：金额超出范围（最大9,999,999,999.99元）',
  unbalanced: '借贷不平衡：借方合计{debit}元，贷方合计{credit}元',
  notLeaf: '第{n}行：科目“{name}”有下级科目，请选择末级科目',
  accountDisabled: '第{n}行：科目“{name}”已停用',
  accountUnknown: '第{n}行：科目不存在',
  auxRequired: '第{n}行：科目“{name}”需要选择辅助核算（{kinds}）',
  auxUnknown: '第{n}行：辅助核算项目不存在',
  dateOutside: '凭证日期须在会计期间{period}内',
  beforeStart: '会计期间早于账套启用期间{period}',
  periodClosed: '{period}已结账，不能新增、修改或删除凭证，请先反结账',
  reviewed: '凭证已审核，请先反审核再修改或删除',
  openingUnbalanced: '期初余额试算不平衡（借方{debit}元，贷方{credit}元），请先调整期初余额',
  attachments: '附单据数须为0至999的整数',
} as const;

/** The largest amount a line may carry: 9,999,999,999.99 元. */
export const MAX_LINE_FEN = 999_999_999_999;

/** Fills a message's {placeholders}. */
export const fillMsg = (msg: string, vars: Record<string, string | number>) =>
  msg.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));

/** Fen as 元 with two decimals and thousands separators (1234567 → "12,345.67"). */
export function fenToYuanText(fen: number): string {
  const neg = fen < 0;
  const abs = Math.abs(fen);
  const yuan = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${yuan}.${String(abs % 100).padStart(2, '0')}`;
}

export interface VoucherLineDraft {
  summary: string;
  accountId: number | null;
  debit: number;
  credit: number;
}

/**
 * The first thing wrong with a voucher's lines, or null: at least two lines; each with a summary (≤ 100
 * characters), an account, and an amount on exactly one side (a negative amount is a red entry, 红字, and
 * allowed; zero is not); totals equal (借贷必相等).
 */
export function voucherLinesProblem(lines: readonly VoucherLineDraft[]): string | null {
  if (lines.length < 2) return VOUCHER_MSG.tooFewLines;
  if (lines.length > 200) return VOUCHER_MSG.tooManyLines;
  let debit = 0;
  let credit = 0;
  for (const [i, l] of lines.entries()) {
    const n = i + 1;
    if (!l.summary.trim()) return fillMsg(VOUCHER_MSG.noSummary, { n });
    if ([...l.summary].length > 100) return fillMsg(VOUCHER_MSG.summaryTooLong, { n });
    if (!l.accountId) return fillMsg(VOUCHER_MSG.noAccount, { n });
    if (!Number.isSafeInteger(l.debit) || !Number.isSafeInteger(l.credit)) return fillMsg(VOUCHER_MSG.noAmount, { n });
    if (l.debit !== 0 && l.credit !== 0) return fillMsg(VOUCHER_MSG.bothSides, { n });
    if (l.debit === 0 && l.credit === 0) return fillMsg(VOUCHER_MSG.noAmount, { n });
    if (Math.abs(l.debit) > MAX_LINE_FEN || Math.abs(l.credit) > MAX_LINE_FEN)
      return fillMsg(VOUCHER_MSG.tooLarge, { n });
    debit += l.debit;
    credit += l.credit;
  }
  if (debit !== credit)
    return fillMsg(VOUCHER_MSG.unbalanced, { debit: fenToYuanText(debit), credit: fenToYuanText(credit) });
  return null;
}

/** The amount that balances the last line ('=' in the grid): the difference the other lines leave. */
export function balancingAmount(lines: readonly Pick<VoucherLineDraft, 'debit' | 'credit'>[]): {
  debit: number;
  credit: number;
} {
  const others = lines.slice(0, -1);
  const diff = others.reduce((s, l) => s + l.debit - l.credit, 0);
  return diff > 0 ? { debit: 0, credit: diff } : { debit: -diff, credit: 0 };
}

/** The month a date (YYYY-MM-DD) is in, and the month after a period (YYYY-MM). */
export const periodOf = (date: string) => date.slice(0, 7);
export function nextPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
export function prevPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}
