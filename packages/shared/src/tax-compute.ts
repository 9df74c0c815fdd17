/**
 * The tax computations of the returns the product files (docs/tax-bureau-protocol.md, "Returns"): pure
 * functions over integer fen. Rates are integers over a fixed base (per-mille ‰, or per-million for stamp
 * duty, whose rates go down to 0.05‰). Rounding rule: 四舍五入 to the fen (half away from zero), applied
 * once per computed tax — each tax is one exact fraction of integers, rounded at the end, never a sum of
 * rounded parts. Policies are those in force for 2023-2027 (each function names its source).
 */

/** a × b / c rounded half up to an integer, exactly (BigInt: fen × rate can pass 2^53). c > 0, a × b ≥ 0. */
export function roundDiv(numerator: number | bigint, denominator: number | bigint): number {
  // Fast path: exact in doubles while 2|n| + d stays a safe integer (floor of an exact quotient of safe
  // integers is exact).
  if (typeof numerator === 'number' && typeof denominator === 'number' && denominator > 0) {
    const abs = Math.abs(numerator);
    if (Number.isSafeInteger(abs * 2 + denominator)) {
      const q = Math.floor((abs * 2 + denominator) / (denominator * 2));
      return numerator < 0 ? -q : q;
    }
  }
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  if (d <= 0n) throw new Error('roundDiv: denominator must be positive');
  const neg = n < 0n;
  const abs = neg ? -n : n;
  const q = (abs * 2n + d) / (d * 2n);
  return Number(neg ? -q : q);
}

/** a × b exactly: a number while safe, else a BigInt. */
const mul = (a: number, b: number): number | bigint => {
  const p = a * b;
  return Number.isSafeInteger(p) ? p : BigInt(a) * BigInt(b);
};
/** a + b exactly, likewise. */
const add = (a: number | bigint, b: number | bigint): number | bigint => {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a + b)) return a + b;
  return BigInt(a) + BigInt(b);
};
const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
const nonNegative = (x: number) => (x > 0 ? x : 0);

// --- 个人所得税: 累计预扣法 (国家税务总局公告2018年第61号) ---------------------------------------------

/** 基本减除费用: 5,000 yuan a month employed in the year. */
export const IIT_MONTHLY_BASIC_FEN = 500_000;

/** The annual withholding brackets (综合所得预扣率表一): upper bound (fen, inclusive), rate %, 速算扣除数 (fen). */
export const IIT_BRACKETS: readonly { upTo: number; ratePercent: number; quickFen: number }[] = [
  { upTo: 3_600_000, ratePercent: 3, quickFen: 0 },
  { upTo: 14_400_000, ratePercent: 10, quickFen: 252_000 },
  { upTo: 30_000_000, ratePercent: 20, quickFen: 1_692_000 },
  { upTo: 42_000_000, ratePercent: 25, quickFen: 3_192_000 },
  { upTo: 66_000_000, ratePercent: 30, quickFen: 5_292_000 },
  { upTo: 96_000_000, ratePercent: 35, quickFen: 8_592_000 },
  { upTo: Number.POSITIVE_INFINITY, ratePercent: 45, quickFen: 18_192_000 },
];

export function iitBracket(cumulativeTaxableFen: number) {
  return IIT_BRACKETS.find((b) => cumulativeTaxableFen <= b.upTo) ?? (IIT_BRACKETS[6] as (typeof IIT_BRACKETS)[number]);
}

/** 累计应纳税额 of a cumulative taxable income: round(taxable × rate) − 速算扣除数, not below 0. */
export function iitCumulativeTax(cumTaxableFen: number): number {
  const b = iitBracket(cumTaxableFen);
  return nonNegative(roundDiv(mul(cumTaxableFen, b.ratePercent), 100) - b.quickFen);
}

/** One month of one employee's wages (工资薪金), fen. */
export interface IitMonth {
  /** 本期收入 */
  income: number;
  /** 免税收入 (optional) */
  taxFree?: number;
  /** 专项扣除: 三险一金, the employee's part */
  special: number;
  /** 专项附加扣除 (children, elderly, housing, …), this month's amount */
  additional: number;
  /** 其他扣除 (enterprise annuity, commercial health insurance, …) */
  other?: number;
}

/** The withholding of one month: the cumulative figures of the year so far and this month's tax. */
export interface IitMonthResult {
  /** How many months of the year the employee has been employed, this one included (减除费用 months). */
  months: number;
  cumIncome: number;
  cumTaxFree: number;
  cumBasic: number;
  cumSpecial: number;
  cumAdditional: number;
  cumOther: number;
  /** 累计预扣预缴应纳税所得额, not below 0 */
  cumTaxable: number;
  ratePercent: number;
  quickFen: number;
  /** 累计应纳税额 = round(cumTaxable × rate) − quick, not below 0 */
  cumTax: number;
  /** 累计已预扣预缴税额 (what the earlier months withheld) */
  withheldBefore: number;
  /** 本期应预扣预缴税额 = cumTax − withheldBefore, not below 0 */
  tax: number;
}

/**
 * 累计预扣法 over the months an employee was employed in one year, in order (the first entry is the first
 * month employed): each month's tax from the cumulative figures. When a month's cumulative tax is below
 * what was withheld (a pay cut), nothing is withheld and nothing is refunded; the difference stays for
 * the annual settlement (汇算清缴).
 */
export function iitYear(months: readonly IitMonth[]): IitMonthResult[] {
  const out: IitMonthResult[] = [];
  let cumIncome = 0;
  let cumTaxFree = 0;
  let cumSpecial = 0;
  let cumAdditional = 0;
  let cumOther = 0;
  let withheld = 0;
  months.forEach((m, i) => {
    cumIncome += m.income;
    cumTaxFree += m.taxFree ?? 0;
    cumSpecial += m.special;
    cumAdditional += m.additional;
    cumOther += m.other ?? 0;
    const cumBasic = IIT_MONTHLY_BASIC_FEN * (i + 1);
    const cumTaxable = nonNegative(cumIncome - cumTaxFree - cumBasic - cumSpecial - cumAdditional - cumOther);
    const b = iitBracket(cumTaxable);
    const cumTax = iitCumulativeTax(cumTaxable);
    const tax = nonNegative(cumTax - withheld);
    out.push({
      months: i + 1,
      cumIncome,
      cumTaxFree,
      cumBasic,
      cumSpecial,
      cumAdditional,
      cumOther,
      cumTaxable,
      ratePercent: b.ratePercent,
      quickFen: b.quickFen,
      cumTax,
      withheldBefore: withheld,
      tax,
    });
    withheld += tax;
  });
  return out;
}

/** One employee on a monthly withholding report: the months of the year employed up to the report's month. */
export interface IitEmployeeInput<K extends string = string> {
  /** The employee's key (e.g. 证件号码). */
  id: K;
  months: readonly IitMonth[];
}

/** 扣缴申报 of one month for many employees: each one's last month, and the totals (收入额, 应扣缴税额). */
export function iitReport<K extends string>(employees: readonly IitEmployeeInput<K>[]) {
  const rows = employees.map((e) => {
    const year = iitYear(e.months);
    const last = year[year.length - 1];
    const income = e.months[e.months.length - 1]?.income ?? 0;
    return { id: e.id, income, result: last ?? null, tax: last?.tax ?? 0 };
  });
  return { rows, income: sum(rows.map((r) => r.income)), tax: sum(rows.map((r) => r.tax)) };
}

// --- 增值税及附加税费 -------------------------------------------------------------------------------------

/** 城市维护建设税 by the taxpayer's location (城市维护建设税法): 市区 7%, 县城/镇 5%, elsewhere 1%. */
export type CityLocation = 'city' | 'county' | 'other';
export const CJS_RATE_PERMILLE: Readonly<Record<CityLocation, number>> = { city: 70, county: 50, other: 10 };
/** 教育费附加 3%, 地方教育附加 2%. */
export const JYFJ_RATE_PERMILLE = 30;
export const DFJYFJ_RATE_PERMILLE = 20;

/**
 * 六税两费减半 (财政部 税务总局公告2023年第12号, 2023-01-01 to 2027-12-31): small-scale VAT taxpayers,
 * 小型微利企业 and 个体工商户 pay half of 城建税, 教育费附加, 地方教育附加, 印花税 (and three more).
 */
export const HALVING_UNTIL = '2027-12-31';

export interface Surtaxes {
  /** 城市维护建设税 */
  cjs: number;
  /** 教育费附加 */
  jyfj: number;
  /** 地方教育附加 */
  dfjyfj: number;
  /** The sum, and what the halving took off (before it, each tax rounded on its own). */
  total: number;
  reduction: number;
}

/** 附加税费 on the VAT paid; each one round(vat × rate × (½ when halved)) — one rounding per tax. */
export function surtaxes(vatFen: number, location: CityLocation, halved: boolean): Surtaxes {
  const base = nonNegative(vatFen);
  const one = (permille: number) => ({
    full: roundDiv(mul(base, permille), 1000),
    due: roundDiv(mul(base, permille), halved ? 2000 : 1000),
  });
  const c = one(CJS_RATE_PERMILLE[location]);
  const j = one(JYFJ_RATE_PERMILLE);
  const d = one(DFJYFJ_RATE_PERMILLE);
  const total = c.due + j.due + d.due;
  return { cjs: c.due, jyfj: j.due, dfjyfj: d.due, total, reduction: c.full + j.full + d.full - total };
}

/**
 * Small-scale VAT sales of a period, fen. 1% items: the 3% levy at 1% (财政部 税务总局公告2023年第19号,
 * through 2027-12-31); 5% items: 不动产 sales and rentals, 劳务派遣 差额, … . 专票 sales are those invoiced
 * on 增值税专用发票; 普票 sales include sales without an invoice.
 */
export interface SmallScaleVatInput {
  cycle: 'month' | 'quarter';
  /** 1%: 普票 / no invoice, 专票 */
  pp1: number;
  zp1: number;
  /** 5%: 普票 / no invoice, 专票 */
  pp5?: number;
  zp5?: number;
  location: CityLocation;
  /** 六税两费减半: on by default for small-scale taxpayers */
  halved?: boolean;
}

/** 小规模纳税人 exemption threshold: 100,000 yuan a month, 300,000 a quarter (公告2023年第1号). */
export const SMALL_SCALE_THRESHOLD_FEN = { month: 10_000_000, quarter: 30_000_000 } as const;

export interface VatResult {
  /** All sales of the period */
  sales: number;
  /** Sales exempt (小微企业免税销售额) and sales taxed */
  exemptSales: number;
  taxedSales: number;
  /** 免税额: what the exempt sales would have paid (shown on the return) */
  exemptTax: number;
  /** 应纳税额 (VAT payable) */
  vat: number;
  surtaxes: Surtaxes;
  /** VAT + surtaxes: the 应补(退)税额 of 增值税及附加税费 filed together */
  total: number;
}

/**
 * Small-scale VAT: when all sales of the period are at most the threshold (≤ 300,000.00 a quarter, not
 * "below"), sales on 普票 are exempt and sales on 专票 are taxed (a buyer deducts their VAT, so it is
 * paid); above the threshold every sale is taxed. VAT = round((1% sales × 10 + 5% sales × 50) / 1000).
 */
export function smallScaleVat(input: SmallScaleVatInput): VatResult {
  const pp5 = input.pp5 ?? 0;
  const zp5 = input.zp5 ?? 0;
  const sales = input.pp1 + input.zp1 + pp5 + zp5;
  const exempt = sales <= SMALL_SCALE_THRESHOLD_FEN[input.cycle];
  const taxed1 = exempt ? input.zp1 : input.pp1 + input.zp1;
  const taxed5 = exempt ? zp5 : pp5 + zp5;
  const vat = roundDiv(add(mul(taxed1, 10), mul(taxed5, 50)), 1000);
  const exemptTax = exempt ? roundDiv(add(mul(input.pp1, 10), mul(pp5, 50)), 1000) : 0;
  const s = surtaxes(vat, input.location, input.halved ?? true);
  return {
    sales,
    exemptSales: sales - taxed1 - taxed5,
    taxedSales: taxed1 + taxed5,
    exemptTax,
    vat,
    surtaxes: s,
    total: vat + s.total,
  };
}

/** General taxpayer: sales by rate (‰: 130, 90, 60, …), the period's certified input VAT, the credit brought in. */
export interface GeneralVatInput {
  sales: readonly { amount: number; ratePermille: number }[];
  /** 进项税额 of the period */
  inputTax: number;
  /** 上期留抵税额 */
  creditIn?: number;
  location: CityLocation;
  /** A general taxpayer that is also a 小型微利企业 halves its surtaxes too. */
  halved?: boolean;
}

export interface GeneralVatResult {
  sales: number;
  /** 销项税额 = round(Σ sales × rate) */
  outputTax: number;
  /** 应纳税额 = output − input − credit brought in, not below 0 */
  vat: number;
  /** 期末留抵税额 carried to the next period when input exceeds output */
  creditOut: number;
  surtaxes: Surtaxes;
  total: number;
}

export function generalVat(input: GeneralVatInput): GeneralVatResult {
  const sales = sum(input.sales.map((s) => s.amount));
  const outputTax = roundDiv(
    input.sales.reduce<number | bigint>((t, s) => add(t, mul(s.amount, s.ratePermille)), 0),
    1000,
  );
  const net = outputTax - input.inputTax - (input.creditIn ?? 0);
  const vat = nonNegative(net);
  const s = surtaxes(vat, input.location, input.halved ?? false);
  return { sales, outputTax, vat, creditOut: net < 0 ? -net : 0, surtaxes: s, total: vat + s.total };
}

// --- 企业所得税 quarterly prepayment (A200000) -------------------------------------------------------

/** 小型微利企业 (财政部 税务总局公告2023年第12号 through 2027-12-31): taxable income ≤ 3,000,000, staff ≤ 300, assets ≤ 50,000,000. */
export const SMALL_MICRO = { taxableFen: 300_000_000, staff: 300, assetsFen: 5_000_000_000 } as const;

export const isSmallMicro = (taxableFen: number, staff: number, assetsFen: number) =>
  taxableFen <= SMALL_MICRO.taxableFen && staff <= SMALL_MICRO.staff && assetsFen <= SMALL_MICRO.assetsFen;

export interface CitPrepayInput {
  /** Cumulative this year to the period's end: 营业收入, 营业成本 (all costs and expenses), 利润总额 */
  revenue: number;
  cost: number;
  profit: number;
  /** 本年已预缴 (the earlier quarters) */
  prepaid: number;
  /** Quarterly average 从业人数 and 资产总额 (fen) */
  staff: number;
  assets: number;
}

export interface CitPrepayResult {
  /** 实际利润额 (a loss counts as 0) */
  taxable: number;
  smallMicro: boolean;
  /** 应纳所得税额 at 25% */
  fullTax: number;
  /** 减免所得税额 (小型微利: 25% → effective 5%) */
  relief: number;
  /** 本年累计应纳 = fullTax − relief */
  cumTax: number;
  /** 本期应补(退)所得税额 = cumTax − prepaid, not below 0 */
  tax: number;
}

/** Quarterly prepayment: cumulative profit × 25% (小型微利 5%: 25% of the income taxed at 20%), less what was prepaid. */
export function citPrepay(input: CitPrepayInput): CitPrepayResult {
  const taxable = nonNegative(input.profit);
  const smallMicro = isSmallMicro(taxable, input.staff, input.assets);
  const fullTax = roundDiv(mul(taxable, 250), 1000);
  const cumTax = roundDiv(mul(taxable, smallMicro ? 50 : 250), 1000);
  return { taxable, smallMicro, fullTax, relief: fullTax - cumTax, cumTax, tax: nonNegative(cumTax - input.prepaid) };
}

// --- 印花税 (印花税法 2022) ---------------------------------------------------------------------------

/**
 * 印花税税目税率表 of the 中华人民共和国印花税法 (in force 2022-07-01), every 税目, rates per million
 * (0.3‰ = 300), with the 计税依据 of each (印花税法第五条). docs/decisions/tax.md "Stamp duty".
 */
export const STAMP_RATES_PER_MILLION = {
  /** 借款合同 0.05‰ of the 借款金额 */
  jkht: 50,
  /** 融资租赁合同 0.05‰ of the 租金 */
  rzzlht: 50,
  /** 买卖合同 (动产买卖, not 个人书立的) 0.3‰ of the 价款 */
  mmht: 300,
  /** 承揽合同 0.3‰ of the 报酬 */
  clht: 300,
  /** 建设工程合同 0.3‰ of the 价款 */
  jsgcht: 300,
  /** 运输合同 (货运, 多式联运; not 管道运输) 0.3‰ of the 运输费用 */
  ysht: 300,
  /** 技术合同 (not 专利权、专有技术使用权转让书据) 0.3‰ of the 价款、报酬或者使用费 */
  jsht: 300,
  /** 租赁合同 1‰ of the 租金 */
  zlht: 1000,
  /** 保管合同 1‰ of the 保管费 */
  bght: 1000,
  /** 仓储合同 1‰ of the 仓储费 */
  ccht: 1000,
  /** 财产保险合同 (not 再保险合同) 1‰ of the 保险费 */
  bxht: 1000,
  /** 产权转移书据: 土地使用权出让书据 0.5‰ of the 价款 */
  tdcrsj: 500,
  /** 产权转移书据: 土地使用权、房屋等建筑物和构筑物所有权转让书据 (not 土地承包经营权和土地经营权转移) 0.5‰ */
  fwzrsj: 500,
  /** 产权转移书据: 股权转让书据 (not those taxed as 证券交易) 0.5‰ */
  gqzrsj: 500,
  /** 产权转移书据: 商标专用权、著作权、专利权、专有技术使用权转让书据 0.3‰ */
  zscqsj: 300,
  /** 营业账簿 0.25‰ of 实收资本（股本）+ 资本公积 */
  yyzb: 250,
  /** 证券交易 1‰ of the 成交金额, the seller only; halved from 2023-08-28 (财政部 税务总局公告2023年第39号) */
  zqjy: 1000,
} as const;
export type StampKind = keyof typeof STAMP_RATES_PER_MILLION;
export const STAMP_KIND_NAMES: Readonly<Record<StampKind, string>> = {
  jkht: '借款合同',
  rzzlht: '融资租赁合同',
  mmht: '买卖合同',
  clht: '承揽合同',
  jsgcht: '建设工程合同',
  ysht: '运输合同',
  jsht: '技术合同',
  zlht: '租赁合同',
  bght: '保管合同',
  ccht: '仓储合同',
  bxht: '财产保险合同',
  tdcrsj: '产权转移书据（土地使用权出让书据）',
  fwzrsj: '产权转移书据（土地使用权、房屋等建筑物和构筑物所有权转让书据）',
  gqzrsj: '产权转移书据（股权转让书据）',
  zscqsj: '产权转移书据（商标专用权、著作权、专利权、专有技术使用权转让书据）',
  yyzb: '营业账簿',
  zqjy: '证券交易',
};
export const isStampKind = (v: unknown): v is StampKind =>
  typeof v === 'string' && Object.hasOwn(STAMP_RATES_PER_MILLION, v);
/** 证券交易印花税 halved for trades from this date (财政部 税务总局公告2023年第39号). */
export const STAMP_SECURITIES_HALVED_FROM = '2023-08-28';

/**
 * 印花税 per 税目: round(amount × rate × (½ when halved)), one rounding per kind; the total is their sum.
 * 六税两费减半 (公告2023年第12号) is for 印花税 "不含证券交易印花税"; 证券交易 is halved instead by
 * 公告2023年第39号 for trades on or after 2023-08-28 (`tradeDate`, default: halved).
 */
export function stampDuty(
  contracts: readonly { kind: StampKind; amount: number }[],
  halved: boolean,
  tradeDate = STAMP_SECURITIES_HALVED_FROM,
) {
  const byKind = new Map<StampKind, number>();
  for (const c of contracts) byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + c.amount);
  const rows = [...byKind].map(([kind, amount]) => {
    const rate = STAMP_RATES_PER_MILLION[kind];
    const half = kind === 'zqjy' ? tradeDate >= STAMP_SECURITIES_HALVED_FROM : halved;
    const full = roundDiv(mul(amount, rate), 1_000_000);
    const tax = roundDiv(mul(amount, rate), half ? 2_000_000 : 1_000_000);
    return { kind, amount, full, reduction: full - tax, tax };
  });
  return {
    rows,
    amount: sum(rows.map((r) => r.amount)),
    reduction: sum(rows.map((r) => r.reduction)),
    tax: sum(rows.map((r) => r.tax)),
  };
}

// --- 零申报 ---------------------------------------------------------------------------------------------

/** A zero return (零申报): nothing sold, paid or earned in the period, so every figure and the tax are 0. */
export const zeroReturn = () => ({ srze: 0, ybtse: 0 }) as const;
