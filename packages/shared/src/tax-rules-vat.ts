/**
 * 增值税 (small-scale) and 附加税费 as the rules of the 所属期 give them (issue 28 points 1-3). The rule applied
 * is chosen by the period's dates, never by today's date. Pure functions over integer fen; one rounding per
 * column (四舍五入 to the fen), as the return's columns are filled. docs/decisions/tax.md "VAT law 2026",
 * "Small-scale columns", "Surcharges".
 */
import {
  type CityLocation,
  CJS_RATE_PERMILLE,
  DFJYFJ_RATE_PERMILLE,
  type GeneralVatInput,
  generalVat,
  JYFJ_RATE_PERMILLE,
  roundDiv,
} from './tax-compute.js';

const mul = (a: number, b: number): number | bigint => {
  const p = a * b;
  return Number.isSafeInteger(p) ? p : BigInt(a) * BigInt(b);
};
const nonNegative = (x: number) => (x > 0 ? x : 0);

// --- small-scale VAT rules by period -------------------------------------------------------------------

/** One dated row of the small-scale VAT rules: a later announcement is one more row. */
export interface SmallScaleVatRule {
  /** First and last day (所属期) the row applies to, YYYY-MM-DD. */
  from: string;
  to: string;
  /** The exemption line: 月 / 季 sales, fen. */
  thresholdFen: { month: number; quarter: number };
  /**
   * Sales exactly at the line: 'exempt' (公告2023年第1号/第19号: 月销售额10万元以下（含本数）免征) or 'taxed'
   * (增值税法第二十三条: 达到起征点的，全额计算缴纳增值税).
   */
  atLine: 'exempt' | 'taxed';
  /** The reduced rate of the 3 % sales, ‰ (10 = 1 %); null when none applies. */
  reducedPermille: number | null;
  /** What the reduced rate leaves at 3 % (shown to the user). */
  reducedExcludes: string;
  /** Where exempt sales go on the return: 第10栏 小微企业免税销售额, or 第11栏 未达起征点销售额. */
  exemptLine: 10 | 11;
  /** 政策依据 printed on the return and the receipt. */
  basis: string;
  /** Short name of the relief (减免性质). */
  reliefName: string;
}

/**
 * The rows, oldest first. 2023-2025: 财政部 税务总局公告2023年第1号 (月销售额10万元以下（含本数）免征; 3 % 减按1 %)
 * and 公告2023年第19号 (延续至2027-12-31). From 2026-01-01 the 中华人民共和国增值税法 (2024-12-25 adopted) art. 23:
 * "销售额未达到起征点的，免征增值税；达到起征点的，依照本法规定全额计算缴纳增值税", and the 2026 transition
 * announcement (财政部 税务总局公告2026年第10号, as quoted by secondary sources — the official text was not found
 * with the search tool): 起征点 月销售额10万元 / 季度销售额30万元, 3 % 减按1 % for every taxable transaction
 * except 销售、出租不动产 and 转让土地使用权, 2026-01-01 to 2027-12-31; it stops the older domestic VAT reliefs
 * (公告2023年第19号 among them). Periods after the last row use the last row until a new row is entered.
 */
export const SMALL_SCALE_VAT_RULES: readonly SmallScaleVatRule[] = [
  {
    from: '2023-01-01',
    to: '2025-12-31',
    thresholdFen: { month: 10_000_000, quarter: 30_000_000 },
    atLine: 'exempt',
    reducedPermille: 10,
    reducedExcludes: '适用5%征收率的销售额（销售、出租不动产等）',
    exemptLine: 10,
    basis: '《财政部 税务总局关于增值税小规模纳税人减免增值税政策的公告》（财政部 税务总局公告2023年第19号）',
    reliefName: '小规模纳税人月销售额10万元以下（含本数）免征增值税',
  },
  {
    from: '2026-01-01',
    to: '2027-12-31',
    thresholdFen: { month: 10_000_000, quarter: 30_000_000 },
    atLine: 'taxed',
    reducedPermille: 10,
    reducedExcludes: '销售、出租不动产，转让土地使用权',
    exemptLine: 11,
    basis: '《中华人民共和国增值税法》第二十三条；财政部 税务总局公告2026年第10号',
    reliefName: '小规模纳税人销售额未达到起征点免征增值税',
  },
];

/** The row for a 所属期 (by its last day): the row containing it; before the first, the first; after the last, the last. */
export function smallScaleRuleOf(periodEnd: string, rules: readonly SmallScaleVatRule[] = SMALL_SCALE_VAT_RULES) {
  const first = rules[0] as SmallScaleVatRule;
  const found = rules.find((r) => periodEnd >= r.from && periodEnd <= r.to);
  if (found) return found;
  return periodEnd < first.from ? first : (rules[rules.length - 1] as SmallScaleVatRule);
}

/** Whether a period's sales are within the exemption (the line's own figure exempt or taxed by the rule). */
export const underSmallScaleLine = (rule: SmallScaleVatRule, cycle: 'month' | 'quarter', salesFen: number) =>
  rule.atLine === 'exempt' ? salesFen <= rule.thresholdFen[cycle] : salesFen < rule.thresholdFen[cycle];

// --- 附加税费 (one rule for the returns and the books) ------------------------------------------------

/**
 * 教育费附加 and 地方教育附加 are not charged for payers whose 月销售额 ≤ 10万元 (quarterly filers: 季度销售额 ≤ 30万元)
 * — 财税〔2016〕12号 第一条, for every payer (small-scale and general alike). "不超过" includes the figure.
 */
export const EDU_EXEMPT_LINE_FEN = { month: 10_000_000, quarter: 30_000_000 } as const;
/**
 * 六税两费减半: 财税〔2019〕13号 (2019-2021), 财政部 税务总局公告2022年第10号 (2022-2024), 公告2023年第12号
 * (extended to 2027-12-31): small-scale taxpayers, 小型微利企业 and 个体工商户.
 */
export const SURTAX_HALVING = { from: '2019-01-01', to: '2027-12-31' } as const;

export interface SurtaxInput {
  /** VAT actually paid for the period (城建税 and the 附加 are charged on it), fen. */
  vat: number;
  /** The period's sales (all sales, exempt ones included) for the 教育费附加 exemption, fen. */
  sales: number;
  cycle: 'month' | 'quarter';
  location: CityLocation;
  /** The payer qualifies for 六税两费减半 (small-scale, 小型微利企业, 个体工商户). */
  halvedPayer: boolean;
  /** The 所属期's last day, YYYY-MM-DD: the halving is applied by it. */
  periodEnd: string;
}

export interface SurtaxResult {
  cjs: number;
  jyfj: number;
  dfjyfj: number;
  total: number;
  /** What the halving took off (before it, each tax rounded on its own). */
  reduction: number;
  /** 教育费附加 and 地方教育附加 not charged (财税〔2016〕12号). */
  eduExempt: boolean;
  /** The halving applied (payer qualifies and the period is within the policy). */
  halved: boolean;
}

/**
 * 附加税费 of a period. 城建税: 城市维护建设税法 — on the VAT (and 消费税) actually paid, by location (7 %, 5 %, 1 %),
 * no sales exemption. 教育费附加 3 %, 地方教育附加 2 %: nil within 财税〔2016〕12号's line. Each tax rounded once;
 * halved for a qualifying payer within SURTAX_HALVING.
 */
export function surtaxFor(input: SurtaxInput): SurtaxResult {
  const base = nonNegative(input.vat);
  const halved = input.halvedPayer && input.periodEnd >= SURTAX_HALVING.from && input.periodEnd <= SURTAX_HALVING.to;
  const eduExempt = input.sales <= EDU_EXEMPT_LINE_FEN[input.cycle];
  const one = (permille: number, exempt: boolean) =>
    exempt
      ? { full: 0, due: 0 }
      : { full: roundDiv(mul(base, permille), 1000), due: roundDiv(mul(base, permille), halved ? 2000 : 1000) };
  const c = one(CJS_RATE_PERMILLE[input.location], false);
  const j = one(JYFJ_RATE_PERMILLE, eduExempt);
  const d = one(DFJYFJ_RATE_PERMILLE, eduExempt);
  const total = c.due + j.due + d.due;
  return {
    cjs: c.due,
    jyfj: j.due,
    dfjyfj: d.due,
    total,
    reduction: c.full + j.full + d.full - total,
    eduExempt,
    halved,
  };
}

// --- the small-scale return (增值税及附加税费申报表（小规模纳税人适用）) ------------------------------------

/** Sales of one 征收率 on 专票 and on other invoices / no invoice, fen. */
export interface RateSales {
  zp: number;
  pp: number;
}

export interface SmallScaleReturnInput {
  /** 所属期 */
  skssqq: string;
  skssqz: string;
  cycle: 'month' | 'quarter';
  /** 1 %: the 3 % sales at the reduced rate (invoiced at 1 %). */
  r1: RateSales;
  /** 3 %: sales that gave up the reduction (3 % 专票) or that it excludes. */
  r3?: RateSales;
  /** 5 %: 销售、出租不动产 and the other 5 % items. */
  r5?: RateSales;
  location: CityLocation;
  /** 六税两费减半: on by default for a small-scale taxpayer. */
  halved?: boolean;
}

/**
 * The return's columns (the 货物及劳务 and 服务 columns summed), fen, by the form's line numbers:
 * 1 应征增值税不含税销售额（3%征收率）, 2 其中专票, 3 其中其他发票; 4 应征增值税不含税销售额（5%征收率）, 5, 6;
 * 9 免税销售额, 10 小微企业免税销售额, 11 未达起征点销售额; 15 本期应纳税额, 16 本期应纳税额减征额,
 * 17 本期免税额, 18 小微企业免税额, 19 未达起征点免税额, 20 应纳税额合计.
 * 1 % sales are on line 1 with the 3 % ones; the reduction (2 % of them) is line 16 (国家税务总局公告2023年第1号).
 */
export interface SmallScaleColumns {
  l1: number;
  l2: number;
  l3: number;
  l4: number;
  l5: number;
  l6: number;
  l9: number;
  l10: number;
  l11: number;
  l15: number;
  l16: number;
  l17: number;
  l18: number;
  l19: number;
  l20: number;
}

export interface SmallScaleReturn {
  rule: SmallScaleVatRule;
  sales: number;
  exempt: boolean;
  exemptSales: number;
  taxedSales: number;
  /** 免税额: what the exempt sales would have paid */
  exemptTax: number;
  /** 应纳税额合计 (line 20) */
  vat: number;
  columns: SmallScaleColumns;
  surtaxes: SurtaxResult;
  /** VAT + surtaxes: the 应补(退)税额 of 增值税及附加税费 */
  total: number;
}

/**
 * Small-scale VAT of a period by its rule. Within the line (by the rule: 2023-2025 "≤", 2026 on "<"), sales
 * on other invoices / no invoice are exempt and 专票 sales are taxed (a 专票 means the exemption was given up
 * for that sale: 国家税务总局公告2023年第1号 第一条, 国家税务总局公告2026年第4号 一); over it every sale is taxed.
 * Taxed 1 % sales: on line 1 at 3 % with 2 % of them as 减征额 (line 16) — when the rule has no reduced rate
 * they pay 3 %. 3 % sales on line 1 at 3 %; 5 % sales on line 4 at 5 %.
 */
export function smallScaleReturn(input: SmallScaleReturnInput): SmallScaleReturn {
  const rule = smallScaleRuleOf(input.skssqz);
  const r1 = input.r1;
  const r3 = input.r3 ?? { zp: 0, pp: 0 };
  const r5 = input.r5 ?? { zp: 0, pp: 0 };
  const sales = r1.zp + r1.pp + r3.zp + r3.pp + r5.zp + r5.pp;
  const exempt = underSmallScaleLine(rule, input.cycle, sales);
  const taxed = (s: RateSales) => (exempt ? s.zp : s.zp + s.pp);
  const free = (s: RateSales) => (exempt ? s.pp : 0);
  const t1 = taxed(r1);
  const t3 = taxed(r3);
  const t5 = taxed(r5);
  const reduced = rule.reducedPermille ?? 30;
  const l1 = t1 + t3;
  const l4 = t5;
  const l15 = roundDiv(mul(l1, 30), 1000) + roundDiv(mul(l4, 50), 1000);
  const l16 = roundDiv(mul(t1, 30 - reduced), 1000);
  const l20 = l15 - l16;
  const exemptSales = free(r1) + free(r3) + free(r5);
  const exemptTax =
    roundDiv(mul(free(r1), reduced), 1000) + roundDiv(mul(free(r3), 30), 1000) + roundDiv(mul(free(r5), 50), 1000);
  const columns: SmallScaleColumns = {
    l1,
    l2: r1.zp + r3.zp,
    l3: l1 - r1.zp - r3.zp,
    l4,
    l5: r5.zp,
    l6: l4 - r5.zp,
    l9: exemptSales,
    l10: rule.exemptLine === 10 ? exemptSales : 0,
    l11: rule.exemptLine === 11 ? exemptSales : 0,
    l15,
    l16,
    l17: exemptTax,
    l18: rule.exemptLine === 10 ? exemptTax : 0,
    l19: rule.exemptLine === 11 ? exemptTax : 0,
    l20,
  };
  const surtaxes = surtaxFor({
    vat: l20,
    sales,
    cycle: input.cycle,
    location: input.location,
    halvedPayer: input.halved ?? true,
    periodEnd: input.skssqz,
  });
  return {
    rule,
    sales,
    exempt,
    exemptSales,
    taxedSales: t1 + t3 + t5,
    exemptTax,
    vat: l20,
    columns,
    surtaxes,
    total: l20 + surtaxes.total,
  };
}

// --- the general taxpayer's surcharges ----------------------------------------------------------------

export interface GeneralVatReturnInput extends Omit<GeneralVatInput, 'halved'> {
  skssqz: string;
  cycle: 'month' | 'quarter';
  /** A general taxpayer that is also a 小型微利企业 (or 个体工商户) halves its surtaxes too (公告2023年第12号). */
  halved?: boolean;
}

/** General VAT (generalVat: output − input − credit) with the surtaxes by surtaxFor (财税〔2016〕12号 applies too). */
export function generalVatReturn(input: GeneralVatReturnInput) {
  const r = generalVat({ ...input, halved: false });
  const sales = r.sales;
  const surtaxes = surtaxFor({
    vat: r.vat,
    sales,
    cycle: input.cycle,
    location: input.location,
    halvedPayer: input.halved ?? false,
    periodEnd: input.skssqz,
  });
  return { ...r, surtaxes, total: r.vat + surtaxes.total };
}
