/**
 * 个人所得税 rules an agency meets every January and with every new hire (issue 28 point 6;
 * docs/decisions/tax.md "IIT"): the 累计减除费用 of 公告2020年第13号 and 第19号, 全年一次性奖金 单独计税
 * (公告2023年第30号) and 劳务报酬 withholding (预扣率表二, 公告2018年第61号). Money: integer fen; one
 * rounding (half up) per computed tax. The cumulative method itself is tax-compute.ts (iitYear).
 */
import { iitBracket, iitCumulativeTax, roundDiv } from './tax-compute.js';

const pos = (x: number) => (x > 0 ? x : 0);
const times = (a: number, b: number): number | bigint => (Number.isSafeInteger(a * b) ? a * b : BigInt(a) * BigInt(b));

/**
 * How a person's 累计减除费用 is counted at this employer this year:
 * - 'standard': 5,000 a month employed here this year (国家税务总局公告2018年第61号);
 * - 'firstJob': the first wages of the year, at a new employer: 5,000 × the months of the year to this
 *   one, January included (国家税务总局公告2020年第13号 第一条, from 2020-07-01);
 * - 'prior60k': employed here every month of last year with wages ≤ 60,000: 60,000 from January
 *   (国家税务总局公告2020年第19号, from 2021-01-01).
 */
export const IIT_DEDUCTION_RULES = ['standard', 'firstJob', 'prior60k'] as const;
export type IitDeductionRule = (typeof IIT_DEDUCTION_RULES)[number];
export const IIT_DEDUCTION_RULE_NAMES: Readonly<Record<IitDeductionRule, string>> = {
  standard: '按任职月份（每月5000元）',
  firstJob: '年度首次取得工资（公告2020年第13号）',
  prior60k: '上年全年在本单位且收入不超过6万元（公告2020年第19号）',
};
export const isIitDeductionRule = (v: unknown): v is IitDeductionRule =>
  typeof v === 'string' && (IIT_DEDUCTION_RULES as readonly string[]).includes(v);
/** 公告2020年第19号: the year's 60,000 deducted from January. */
export const IIT_PRIOR60K_FEN = 6_000_000;

/** One month of wages at this employer, with its calendar month (1-12). */
export interface IitWageMonth {
  month: number;
  income: number;
  taxFree?: number;
  special: number;
  additional: number;
  other?: number;
}

/** 累计减除费用 of the n-th month employed here (1-based), in calendar month `month`. */
export function iitCumulativeBasic(rule: IitDeductionRule, nth: number, month: number): number {
  if (rule === 'prior60k') return IIT_PRIOR60K_FEN;
  if (rule === 'firstJob') return 500_000 * month;
  return 500_000 * nth;
}

/**
 * 累计预扣法 over the months paid here this year (in order), with the person's deduction rule: each
 * month's withholding = 累计应纳税额 − what the earlier months withheld, not below 0.
 */
export function iitYearByRule(months: readonly IitWageMonth[], rule: IitDeductionRule = 'standard') {
  let cumIncome = 0;
  let cumOther = 0;
  let withheld = 0;
  return months.map((m, i) => {
    cumIncome += m.income;
    cumOther += (m.taxFree ?? 0) + m.special + m.additional + (m.other ?? 0);
    const cumBasic = iitCumulativeBasic(rule, i + 1, m.month);
    const cumTaxable = pos(cumIncome - cumBasic - cumOther);
    const cumTax = iitCumulativeTax(cumTaxable);
    const tax = pos(cumTax - withheld);
    const b = iitBracket(cumTaxable);
    const row = {
      month: m.month,
      cumIncome,
      cumBasic,
      cumTaxable,
      ratePercent: b.ratePercent,
      cumTax,
      withheldBefore: withheld,
      tax,
    };
    withheld += tax;
    return row;
  });
}

/**
 * 按月换算后的综合所得税率表 (月度税率表): upper bound (fen, inclusive), rate %, 速算扣除数 (fen). Used by
 * 全年一次性奖金 单独计税 (财税〔2018〕164号 一(一), extended by 财政部 税务总局公告2023年第30号 to 2027-12-31).
 */
export const IIT_MONTHLY_BRACKETS: readonly { upTo: number; ratePercent: number; quickFen: number }[] = [
  { upTo: 300_000, ratePercent: 3, quickFen: 0 },
  { upTo: 1_200_000, ratePercent: 10, quickFen: 21_000 },
  { upTo: 2_500_000, ratePercent: 20, quickFen: 141_000 },
  { upTo: 3_500_000, ratePercent: 25, quickFen: 266_000 },
  { upTo: 5_500_000, ratePercent: 30, quickFen: 441_000 },
  { upTo: 8_000_000, ratePercent: 35, quickFen: 716_000 },
  { upTo: Number.POSITIVE_INFINITY, ratePercent: 45, quickFen: 1_516_000 },
];
/** 公告2023年第30号: 单独计税 may be chosen through this date. */
export const IIT_BONUS_SEPARATE_UNTIL = '2027-12-31';

/**
 * 全年一次性奖金 单独计税: the bracket of bonus ÷ 12 in the monthly table; tax = bonus × rate − 速算扣除数
 * (the quick deduction once, not twelve times). Compare with 12 × 3,000 = 36,000 → 3 %, 1,080.
 */
export function iitAnnualBonusTax(bonusFen: number) {
  const b = pos(bonusFen);
  // bonus ÷ 12 ≤ upTo ⇔ bonus ≤ 12 × upTo (exact, no division)
  const bracket =
    IIT_MONTHLY_BRACKETS.find((x) => b <= x.upTo * 12) ?? (IIT_MONTHLY_BRACKETS[6] as (typeof IIT_MONTHLY_BRACKETS)[0]);
  const tax = pos(roundDiv(times(b, bracket.ratePercent), 100) - bracket.quickFen);
  return { ratePercent: bracket.ratePercent, quickFen: bracket.quickFen, tax };
}

/**
 * 劳务报酬所得 withholding (国家税务总局公告2018年第61号 第六条, 预扣率表二): 收入额 = income − 800 when
 * income ≤ 4,000, else income × 80 %; rate 20 % to 20,000, 30 % (速算 2,000) to 50,000, 40 % (速算 7,000).
 */
export const IIT_LABOUR_BRACKETS: readonly { upTo: number; ratePercent: number; quickFen: number }[] = [
  { upTo: 2_000_000, ratePercent: 20, quickFen: 0 },
  { upTo: 5_000_000, ratePercent: 30, quickFen: 200_000 },
  { upTo: Number.POSITIVE_INFINITY, ratePercent: 40, quickFen: 700_000 },
];
export function iitLabourWithholding(incomeFen: number) {
  const income = pos(incomeFen);
  const expense = income <= 400_000 ? Math.min(income, 80_000) : roundDiv(times(income, 20), 100);
  const taxable = income - expense;
  const b =
    IIT_LABOUR_BRACKETS.find((x) => taxable <= x.upTo) ?? (IIT_LABOUR_BRACKETS[2] as (typeof IIT_LABOUR_BRACKETS)[0]);
  const tax = pos(roundDiv(times(taxable, b.ratePercent), 100) - b.quickFen);
  return { expense, taxable, ratePercent: b.ratePercent, quickFen: b.quickFen, tax };
}
