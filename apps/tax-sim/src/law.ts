/**
 * The bureau's own tax rules (issue 28 point 9; docs/decisions/tax.md "Independent bureau"): written from
 * the laws and announcements, NOT imported from the product (@dzy/shared), so a wrong rule in the product is
 * refused here as the real bureau refuses it (表间校验不通过). Money: integer fen; one rounding, half up, per
 * computed figure (the form's own arithmetic). Each table names its source.
 */

// --- arithmetic ---------------------------------------------------------------------------------------

/** round(a × num / den), half away from zero, exact (BigInt). */
export function part(a: number, num: number, den: number): number {
  const n = BigInt(a) * BigInt(num);
  const d = BigInt(den);
  const neg = n < 0n;
  const abs = neg ? -n : n;
  const q = (abs * 2n + d) / (d * 2n);
  return Number(neg ? -q : q);
}
const atLeast0 = (x: number) => (x > 0 ? x : 0);

// --- 增值税 小规模纳税人 -------------------------------------------------------------------------------------

/**
 * The 起征点 / exemption line by 所属期 (the period's last day decides):
 * - to 2025-12-31: 财政部 税务总局公告2023年第1号 第一条 and 公告2023年第19号 第一条: 月销售额10万元以下（含本数）
 *   免征; 3 % 减按1 %;
 * - from 2026-01-01: 中华人民共和国增值税法 第二十三条 (未达到起征点的免征, 达到起征点的全额计算缴纳), 起征点
 *   月10万元 / 季30万元 with 3 % 减按1 % except 不动产 sales/rentals and 土地使用权 (the 2026 transition
 *   announcement; the product's team read it as 财政部 税务总局公告2026年第10号), to 2027-12-31.
 */
const SMALL_SCALE_LAW = [
  { to: '2025-12-31', month: 10_000_000, quarter: 30_000_000, equalExempt: true, reduced: true },
  { to: '2027-12-31', month: 10_000_000, quarter: 30_000_000, equalExempt: false, reduced: true },
  // Past 2027 no announcement is known: the line stays (the law's 起征点), the reduced rate ends.
  { to: '9999-12-31', month: 10_000_000, quarter: 30_000_000, equalExempt: false, reduced: false },
] as const;

export interface SmallScaleDeclared {
  periodEnd: string;
  cycle: 'month' | 'quarter';
  /** sales at the 1 % reduced rate, at 3 % (gave up the reduction or excluded), at 5 %: 专票 / other */
  zp1: number;
  pp1: number;
  zp3: number;
  pp3: number;
  zp5: number;
  pp5: number;
}

/**
 * 增值税及附加税费申报表（小规模纳税人适用）as the form computes it: line 15 = (3 % sales) × 3 % + (5 % sales) ×
 * 5 %, line 16 减征额 = the 1 % sales × 2 %, line 20 = 15 − 16. Within the line, sales on other invoices are
 * exempt and 专票 sales are taxed (a 专票 gives the exemption up for that sale).
 */
export function bureauSmallScaleVat(d: SmallScaleDeclared) {
  const law = SMALL_SCALE_LAW.find((r) => d.periodEnd <= r.to) ?? SMALL_SCALE_LAW[2];
  const sales = d.zp1 + d.pp1 + d.zp3 + d.pp3 + d.zp5 + d.pp5;
  const line = d.cycle === 'month' ? law.month : law.quarter;
  const exempt = law.equalExempt ? sales <= line : sales < line;
  const t1 = d.zp1 + (exempt ? 0 : d.pp1);
  const t3 = d.zp3 + (exempt ? 0 : d.pp3);
  const t5 = d.zp5 + (exempt ? 0 : d.pp5);
  const l15 = part(t1 + t3, 3, 100) + part(t5, 5, 100);
  const l16 = law.reduced ? part(t1, 2, 100) : 0;
  const freeSales = sales - t1 - t3 - t5;
  const freeTax = exempt ? part(d.pp1, law.reduced ? 1 : 3, 100) + part(d.pp3, 3, 100) + part(d.pp5, 5, 100) : 0;
  return { sales, exempt, taxedSales: t1 + t3 + t5, freeSales, freeTax, vat: l15 - l16 };
}

/** 一般纳税人: 销项 = Σ sales × rate (增值税法第十条: 13 %, 9 %, 6 %), 应纳 = 销项 − 进项 − 上期留抵. */
export function bureauGeneralVat(sales: { amount: number; percent: number }[], input: number, creditIn: number) {
  let num = 0n;
  for (const s of sales) num += BigInt(s.amount) * BigInt(s.percent);
  const output = part(Number(num), 1, 100);
  const net = output - input - creditIn;
  return { sales: sales.reduce((t, s) => t + s.amount, 0), output, vat: atLeast0(net), creditOut: net < 0 ? -net : 0 };
}

// --- 附加税费 ------------------------------------------------------------------------------------------------

/** 城市维护建设税法第四条: 市区 7 %, 县城/镇 5 %, 其他 1 %. */
export const CJS_PERCENT = { city: 7, county: 5, other: 1 } as const;
export type Place = keyof typeof CJS_PERCENT;

/**
 * 城建税 on the VAT paid; 教育费附加 3 % and 地方教育附加 2 % not charged when 月销售额 ≤ 10万元 (按季 ≤ 30万元)
 * (财税〔2016〕12号 第一条, every payer); 六税两费 halved for small-scale taxpayers, 小型微利企业 and 个体工商户
 * 2019-01-01 to 2027-12-31 (财税〔2019〕13号, 公告2022年第10号, 公告2023年第12号).
 */
export function bureauSurtaxes(a: {
  vat: number;
  sales: number;
  cycle: 'month' | 'quarter';
  place: Place;
  halvedPayer: boolean;
  periodEnd: string;
}) {
  const base = atLeast0(a.vat);
  const halved = a.halvedPayer && a.periodEnd >= '2019-01-01' && a.periodEnd <= '2027-12-31';
  const eduFree = a.sales <= (a.cycle === 'month' ? 10_000_000 : 30_000_000);
  const tax = (percent: number) => ({ full: part(base, percent, 100), due: part(base, percent, halved ? 200 : 100) });
  const c = tax(CJS_PERCENT[a.place]);
  const j = eduFree ? { full: 0, due: 0 } : tax(3);
  const d = eduFree ? { full: 0, due: 0 } : tax(2);
  const total = c.due + j.due + d.due;
  return { cjs: c.due, jyfj: j.due, dfjyfj: d.due, total, reduction: c.full + j.full + d.full - total, eduFree };
}

// --- 企业所得税 月（季）度预缴 (A200000) -----------------------------------------------------------------------

/**
 * A200000 (国家税务总局公告2021年第3号): 10 实际利润额 = 3+4−5−6−7−8−9; 12 = 10 × 25 % (企业所得税法第四条);
 * 13 减免 for 小型微利 (应纳税所得额 ≤ 300万, 从业人数 ≤ 300, 资产总额 ≤ 5000万, each the 季度平均值 to the
 * period's end — 公告2023年第6号; 25 % × 20 % = 5 % effective, 财政部 税务总局公告2023年第12号 to 2027-12-31);
 * 16 = 12 − 13 − 14 − 15, not below 0. Line 9 (弥补以前年度亏损) may not exceed 3+4−5−6−7−8 (nor be used when
 * that is ≤ 0: A200000 填报说明).
 */
export function bureauCit(a: {
  periodEnd: string;
  l3: number;
  l4: number;
  l5: number;
  l6: number;
  l7: number;
  l8: number;
  l9: number;
  l14: number;
  staffAvg: number;
  assetsAvg: number;
}) {
  const room = atLeast0(a.l3 + a.l4 - a.l5 - a.l6 - a.l7 - a.l8);
  const l10 = a.l3 + a.l4 - a.l5 - a.l6 - a.l7 - a.l8 - a.l9;
  const base = atLeast0(l10);
  const l12 = part(base, 25, 100);
  const small =
    a.periodEnd >= '2023-01-01' &&
    a.periodEnd <= '2027-12-31' &&
    base <= 300_000_000 &&
    a.staffAvg <= 300 &&
    a.assetsAvg <= 5_000_000_000;
  const l13 = small ? l12 - part(base, 5, 100) : 0;
  return { lossTooLarge: a.l9 > room, l10, l12, l13, small, l16: atLeast0(l12 - l13 - a.l14) };
}

// --- 个人所得税 -------------------------------------------------------------------------------------------

/** 个人所得税法 附表一 applied cumulatively (预扣率表一, 公告2018年第61号): [upper bound yuan, %, 速算扣除数 yuan]. */
const TABLE_YEAR: readonly [number, number, number][] = [
  [36_000, 3, 0],
  [144_000, 10, 2_520],
  [300_000, 20, 16_920],
  [420_000, 25, 31_920],
  [660_000, 30, 52_920],
  [960_000, 35, 85_920],
  [Number.POSITIVE_INFINITY, 45, 181_920],
];
/** 按月换算后的综合所得税率表 (财税〔2018〕164号; 全年一次性奖金 to 2027-12-31 by 公告2023年第30号). */
const TABLE_MONTH: readonly [number, number, number][] = [
  [3_000, 3, 0],
  [12_000, 10, 210],
  [25_000, 20, 1_410],
  [35_000, 25, 2_660],
  [55_000, 30, 4_410],
  [80_000, 35, 7_160],
  [Number.POSITIVE_INFINITY, 45, 15_160],
];
/** 预扣率表二 (劳务报酬所得, 公告2018年第61号). */
const TABLE_LABOUR: readonly [number, number, number][] = [
  [20_000, 20, 0],
  [50_000, 30, 2_000],
  [Number.POSITIVE_INFINITY, 40, 7_000],
];
const rowOf = (t: readonly [number, number, number][], fen: number, times = 1) =>
  t.find(([up]) => fen <= up * 100 * times) ?? (t[t.length - 1] as [number, number, number]);

/** 累计应纳税额 of a cumulative taxable income (fen). */
export function cumTax(taxable: number): number {
  const [, rate, quick] = rowOf(TABLE_YEAR, taxable);
  return atLeast0(part(taxable, rate, 100) - quick * 100);
}

/** 全年一次性奖金 单独计税: bonus ÷ 12 picks the monthly row; tax = bonus × rate − 速算扣除数. */
export function bonusTax(bonus: number): number {
  const [, rate, quick] = rowOf(TABLE_MONTH, bonus, 12);
  return atLeast0(part(bonus, rate, 100) - quick * 100);
}

/** 劳务报酬 预扣: (income − 800, or × 80 % over 4,000) at 表二. */
export function labourTax(income: number): number {
  const taxable = income <= 400_000 ? atLeast0(income - 80_000) : income - part(income, 20, 100);
  const [, rate, quick] = rowOf(TABLE_LABOUR, taxable);
  return atLeast0(part(taxable, rate, 100) - quick * 100);
}

/**
 * 累计减除费用 of the n-th month paid here (1-based) in calendar month `month`: 5,000 × n (公告2018年第61号);
 * 5,000 × month for the first wages of the year (公告2020年第13号); 60,000 for a person here all last year
 * at ≤ 60,000 (公告2020年第19号).
 */
export function basicDeduction(rule: 'standard' | 'firstJob' | 'prior60k', n: number, month: number) {
  if (rule === 'prior60k') return 6_000_000;
  return 500_000 * (rule === 'firstJob' ? month : n);
}

// --- 印花税 ---------------------------------------------------------------------------------------------------

/**
 * 印花税税目税率表 (中华人民共和国印花税法, 2022-07-01), rates in 万分之 (‱ ×100 = per million): protocol htlx →
 * [name, per million]. 六税两费减半 excludes 证券交易, which is halved from 2023-08-28 (公告2023年第39号).
 */
export const STAMP_LAW: Readonly<Record<string, readonly [string, number]>> = {
  jkht: ['借款合同', 50],
  rzzlht: ['融资租赁合同', 50],
  mmht: ['买卖合同', 300],
  clht: ['承揽合同', 300],
  jsgcht: ['建设工程合同', 300],
  ysht: ['运输合同', 300],
  jsht: ['技术合同', 300],
  zlht: ['租赁合同', 1000],
  bght: ['保管合同', 1000],
  ccht: ['仓储合同', 1000],
  bxht: ['财产保险合同', 1000],
  tdcrsj: ['土地使用权出让书据', 500],
  fwzrsj: ['土地使用权、房屋等建筑物和构筑物所有权转让书据', 500],
  gqzrsj: ['股权转让书据', 500],
  zscqsj: ['商标专用权、著作权、专利权、专有技术使用权转让书据', 300],
  yyzb: ['营业账簿', 250],
  zqjy: ['证券交易', 1000],
};
export const isStampItem = (v: unknown): v is string => typeof v === 'string' && Object.hasOwn(STAMP_LAW, v);

export function bureauStamp(items: { htlx: string; amount: number }[], halvedPayer: boolean, periodEnd: string) {
  const sums = new Map<string, number>();
  for (const i of items) sums.set(i.htlx, (sums.get(i.htlx) ?? 0) + i.amount);
  const halvedNow = halvedPayer && periodEnd >= '2022-01-01' && periodEnd <= '2027-12-31';
  const rows = [...sums].map(([htlx, amount]) => {
    const rate = (STAMP_LAW[htlx] as readonly [string, number])[1];
    const half = htlx === 'zqjy' ? periodEnd >= '2023-08-28' : halvedNow;
    const full = part(amount, rate, 1_000_000);
    const tax = part(amount, rate, half ? 2_000_000 : 1_000_000);
    return { htlx, amount, tax, reduction: full - tax };
  });
  return {
    rows,
    amount: rows.reduce((s, r) => s + r.amount, 0),
    tax: rows.reduce((s, r) => s + r.tax, 0),
    reduction: rows.reduce((s, r) => s + r.reduction, 0),
  };
}

// --- 数电票 line tax ----------------------------------------------------------------------------------------

/** 税额 of an invoice line: 金额 × 税率 rounded half up to the fen (ratePermille: 130 for 13 %). */
export const lineTax = (je: number, ratePermille: number) => part(je, ratePermille, 1000);
