/**
 * 企业所得税月（季）度预缴纳税申报表（A类，A200000）as filed (issue 28 point 5; docs/decisions/tax.md
 * "CIT prepayment"). Lines as laid out by 国家税务总局公告2021年第3号 (in force for periods from 2021-04):
 *   1 营业收入  2 营业成本  3 利润总额 — each the 利润表's 本年累计 figure, never derived from one another;
 *   4 加：特定业务计算的应纳税所得额  5 减：不征税收入  6 减：免税收入、减计收入、加计扣除
 *   7 减：资产加速折旧、摊销（扣除）调减额  8 减：所得减免  9 减：弥补以前年度亏损
 *   10 实际利润额 = 3+4−5−6−7−8−9  11 税率 25%  12 应纳所得税额 = 10×11
 *   13 减：减免所得税额（小型微利）  14 减：本年实际已缴纳所得税额  15 减：特定业务预缴（征）所得税额
 *   16 本期应补（退）所得税额 = 12−13−14−15 (a refund shows as 0 on the prepayment; kept for the annual return).
 * Money: integer fen; one rounding (half up) per computed tax.
 */
import { roundDiv } from './tax-compute.js';

const pos = (x: number) => (x > 0 ? x : 0);
const times = (a: number, b: number): number | bigint => (Number.isSafeInteger(a * b) ? a * b : BigInt(a) * BigInt(b));

/**
 * 小型微利企业 (企业所得税法实施条例第九十二条 as widened by 财政部 税务总局公告2023年第6号 and 第12号,
 * 2023-01-01 to 2027-12-31): 年度应纳税所得额 ≤ 300万元, 从业人数 ≤ 300, 资产总额 ≤ 5000万元; its income
 * is counted at 25 % and taxed at 20 % (effective 5 %).
 */
export const CIT_SMALL_MICRO = {
  taxableFen: 300_000_000,
  staff: 300,
  assetsFen: 5_000_000_000,
  /** 减按25%计入应纳税所得额，按20%的税率: 5 % effective, in ‰ */
  effectivePermille: 50,
  from: '2023-01-01',
  until: '2027-12-31',
} as const;
/** 企业所得税法第四条: 25 %. */
export const CIT_RATE_PERMILLE = 250;
/** 企业所得税法第十八条: a loss is carried forward at most five years. */
export const CIT_LOSS_CARRY_YEARS = 5;

/**
 * 季度平均值 (财政部 税务总局公告2023年第6号 / 国家税务总局公告2023年第6号, as 财税〔2019〕13号 first set it):
 * 季度平均值 = (季初值 + 季末值) ÷ 2; 全年季度平均值 = 全年各季度平均值之和 ÷ 4. At a prepayment the year is
 * taken to the period's end: the sum of the quarters so far ÷ their count (相应季度数); a business opened
 * during the year counts the quarters it operated. Staff: 从业人数 includes 劳务派遣 workers; fractions
 * are kept (the comparison is with 300), so the average is returned exactly as a numerator/denominator pair
 * and compared by `staffWithin`.
 */
export interface QuarterEnds {
  /** 季初值 and 季末值 of each quarter operated so far this year, in order */
  start: number;
  end: number;
}
export function quarterlyAverage(quarters: readonly QuarterEnds[]): { sum2: number; count: number } {
  // Σ (start + end) / 2 ÷ n = Σ (start + end) ÷ 2n: keep numerator and denominator exact.
  const sum2 = quarters.reduce((s, q) => s + q.start + q.end, 0);
  return { sum2, count: quarters.length * 2 };
}
/** The average as a number (rounded half up to an integer: fen for 资产总额, persons for display). */
export const averageValue = (a: { sum2: number; count: number }) => (a.count === 0 ? 0 : roundDiv(a.sum2, a.count));
/** average ≤ limit, exactly (no rounding at the boundary) */
export const averageWithin = (a: { sum2: number; count: number }, limit: number) =>
  a.count === 0 || a.sum2 <= limit * a.count;

/** One earlier year's loss still open: the year it arose and what is left of it (fen, positive). */
export interface OpenLoss {
  year: number;
  amount: number;
}

export interface CitA200000Input {
  /** The 税款所属期 end, YYYY-MM-DD (decides the year, the loss window and the 小型微利 dates) */
  periodEnd: string;
  /** Lines 1-3: the 利润表's 本年累计 figures */
  revenue: number;
  cost: number;
  profit: number;
  /** Line 4: 特定业务计算的应纳税所得额 (房地产开发 预售; usually 0) */
  specific?: number;
  /** Line 5: 不征税收入 */
  nonTaxable?: number;
  /** Line 6: 免税收入、减计收入、加计扣除 */
  exempt?: number;
  /** Line 7: 资产加速折旧、摊销（扣除）调减额 */
  acceleratedDepreciation?: number;
  /** Line 8: 所得减免 */
  incomeRelief?: number;
  /** The open losses of earlier years (line 9 takes from them, oldest first, within five years). */
  losses?: readonly OpenLoss[];
  /** Line 14: 本年实际已缴纳所得税额 (the earlier periods of the year) */
  prepaid: number;
  /** Line 15: 特定业务预缴（征）所得税额 */
  specificPrepaid?: number;
  /** 从业人数 and 资产总额 (fen) by quarter, this year to the period's end (季初值, 季末值) */
  staffQuarters: readonly QuarterEnds[];
  assetQuarters: readonly QuarterEnds[];
}

export interface CitA200000 {
  lines: {
    l1: number;
    l2: number;
    l3: number;
    l4: number;
    l5: number;
    l6: number;
    l7: number;
    l8: number;
    l9: number;
    l10: number;
    /** ‰ */
    l11: number;
    l12: number;
    l13: number;
    l14: number;
    l15: number;
    l16: number;
  };
  /** 从业人数 and 资产总额 全年季度平均值 (to the period's end), rounded for display */
  staffAverage: number;
  assetsAverage: number;
  smallMicro: boolean;
  /** What each open loss was used for (oldest first) */
  lossUsed: { year: number; amount: number }[];
}

/**
 * Line 9: 弥补以前年度亏损 = the open losses of the five years before the period's year (企业所得税法第十八条),
 * oldest first, at most line 3+4−5−6−7−8 (when that is ≤ 0, line 9 is 0: A200000 填报说明).
 */
export function lossOffset(year: number, before: number, losses: readonly OpenLoss[]) {
  let room = pos(before);
  const used: { year: number; amount: number }[] = [];
  for (const l of [...losses].sort((a, b) => a.year - b.year)) {
    if (room <= 0) break;
    if (l.year >= year || l.year < year - CIT_LOSS_CARRY_YEARS || l.amount <= 0) continue;
    const take = Math.min(room, l.amount);
    used.push({ year: l.year, amount: take });
    room -= take;
  }
  return { total: used.reduce((s, u) => s + u.amount, 0), used };
}

export function citA200000(input: CitA200000Input): CitA200000 {
  const year = Number(input.periodEnd.slice(0, 4));
  const l4 = input.specific ?? 0;
  const l5 = input.nonTaxable ?? 0;
  const l6 = input.exempt ?? 0;
  const l7 = input.acceleratedDepreciation ?? 0;
  const l8 = input.incomeRelief ?? 0;
  const before = input.profit + l4 - l5 - l6 - l7 - l8;
  const loss = lossOffset(year, before, input.losses ?? []);
  const l9 = loss.total;
  // 实际利润额: a negative figure is filed as it is, and taxed as 0.
  const l10 = before - l9;
  const taxable = pos(l10);
  const l12 = roundDiv(times(taxable, CIT_RATE_PERMILLE), 1000);
  const staff = quarterlyAverage(input.staffQuarters);
  const assets = quarterlyAverage(input.assetQuarters);
  const inWindow = input.periodEnd >= CIT_SMALL_MICRO.from && input.periodEnd <= CIT_SMALL_MICRO.until;
  const smallMicro =
    inWindow &&
    taxable <= CIT_SMALL_MICRO.taxableFen &&
    averageWithin(staff, CIT_SMALL_MICRO.staff) &&
    averageWithin(assets, CIT_SMALL_MICRO.assetsFen);
  const l13 = smallMicro ? l12 - roundDiv(times(taxable, CIT_SMALL_MICRO.effectivePermille), 1000) : 0;
  const l14 = input.prepaid;
  const l15 = input.specificPrepaid ?? 0;
  const l16 = pos(l12 - l13 - l14 - l15);
  return {
    lines: {
      l1: input.revenue,
      l2: input.cost,
      l3: input.profit,
      l4,
      l5,
      l6,
      l7,
      l8,
      l9,
      l10,
      l11: CIT_RATE_PERMILLE,
      l12,
      l13,
      l14,
      l15,
      l16,
    },
    staffAverage: averageValue(staff),
    assetsAverage: averageValue(assets),
    smallMicro,
    lossUsed: loss.used,
  };
}
