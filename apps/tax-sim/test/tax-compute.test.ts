import {
  citPrepay,
  generalVat,
  iitBracket,
  iitCumulativeTax,
  iitReport,
  iitYear,
  roundDiv,
  smallScaleVat,
  stampDuty,
  surtaxes,
  zeroReturn,
} from '@dzy/shared';
import { describe, expect, it } from 'vitest';

// Each tax against hand-worked figures (packages/shared/src/tax-compute.ts). Money in fen; the arithmetic
// is written out in yuan in the comments. Rounding: 四舍五入 to the fen, once per computed tax.

const Y = (yuan: number) => Math.round(yuan * 100);

describe('rounding', () => {
  it('rounds half up to the fen, exactly, also past 2^53', () => {
    expect(roundDiv(5, 10)).toBe(1); // 0.5 → 1
    expect(roundDiv(4, 10)).toBe(0);
    expect(roundDiv(-5, 10)).toBe(-1); // half away from zero
    expect(roundDiv(370_371n, 10_000n)).toBe(37); // 37.0371 → 37
    expect(roundDiv(9_007_199_254_740_993n * 3n, 3n)).toBe(9_007_199_254_740_992); // BigInt inside
  });

  it('the Number fast path agrees with exact BigInt arithmetic', () => {
    let x = 12_345;
    const next = () => {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      return x;
    };
    for (let i = 0; i < 20_000; i++) {
      const n = (next() * 2 ** 20 + next()) % 2 ** 50;
      const d = [100, 1000, 2000, 1_000_000, 2_000_000][i % 5] as number;
      expect(roundDiv(n, d)).toBe(roundDiv(BigInt(n), BigInt(d)));
    }
  });
});

describe('个人所得税 累计预扣法', () => {
  // 30,000 wage, 4,500 三险一金, 2,000 专项附加 every month:
  // monthly taxable = 30,000 − 5,000 − 4,500 − 2,000 = 18,500
  const month = { income: Y(30_000), special: Y(4_500), additional: Y(2_000) };
  const year = iitYear(Array.from({ length: 12 }, () => month));

  it('crosses from 3% into 10% (month 2) and into 20% (month 8), month by month', () => {
    // m1  cum 18,500  × 3%               =    555   → withhold   555
    // m2  cum 37,000  × 10% − 2,520      =  1,180   → 1,180 −   555 =   625
    // m3  cum 55,500  × 10% − 2,520      =  3,030   → 3,030 − 1,180 = 1,850
    // m4  cum 74,000  → 4,880                        → 1,850
    // m5  cum 92,500  → 6,730                        → 1,850
    // m6  cum 111,000 → 8,580                        → 1,850
    // m7  cum 129,500 → 10,430                       → 1,850
    // m8  cum 148,000 × 20% − 16,920     = 12,680   → 12,680 − 10,430 = 2,250
    // m9  cum 166,500 → 33,300 − 16,920  = 16,380   → 3,700
    // m10 cum 185,000 → 20,080                       → 3,700
    // m11 cum 203,500 → 23,780                       → 3,700
    // m12 cum 222,000 → 44,400 − 16,920  = 27,480   → 3,700
    expect(year.map((m) => m.tax / 100)).toEqual([
      555, 625, 1850, 1850, 1850, 1850, 1850, 2250, 3700, 3700, 3700, 3700,
    ]);
    expect(year.map((m) => m.ratePercent)).toEqual([3, 10, 10, 10, 10, 10, 10, 20, 20, 20, 20, 20]);
    expect(year.map((m) => m.cumTaxable / 100)).toEqual([
      18_500, 37_000, 55_500, 74_000, 92_500, 111_000, 129_500, 148_000, 166_500, 185_000, 203_500, 222_000,
    ]);
    const last = year[11];
    expect(last).toMatchObject({
      months: 12,
      cumIncome: Y(360_000),
      cumBasic: Y(60_000), // 5,000 × 12
      cumSpecial: Y(54_000),
      cumAdditional: Y(24_000),
      cumTax: Y(27_480),
      withheldBefore: Y(23_780),
      quickFen: Y(16_920),
    });
    // The year's withholding adds up to the annual tax on 222,000: 222,000 × 20% − 16,920 = 27,480.
    expect(year.reduce((s, m) => s + m.tax, 0)).toBe(Y(27_480));
  });

  it('withholds nothing below the basic deduction, and nothing (no refund) after a pay cut', () => {
    const low = iitYear([{ income: Y(4_800), special: Y(500), additional: 0 }]);
    expect(low[0]).toMatchObject({ cumTaxable: 0, cumTax: 0, tax: 0 });
    // m1: 20,000 − 5,000 = 15,000 × 3% = 450; m2: 15,000 + (0 − 5,000) = 10,000 × 3% = 300 < 450 → 0
    const cut = iitYear([
      { income: Y(20_000), special: 0, additional: 0 },
      { income: 0, special: 0, additional: 0 },
    ]);
    expect(cut.map((m) => m.tax)).toEqual([Y(450), 0]);
    expect(cut[1]?.cumTax).toBe(Y(300));
  });

  it('rounds the cumulative tax once: 1,234.57 × 3% = 37.0371 → 37.04', () => {
    const r = iitYear([{ income: Y(6_234.57), special: 0, additional: 0 }]);
    expect(r[0]).toMatchObject({ cumTaxable: Y(1_234.57), tax: Y(37.04) });
  });

  it('uses the seven annual brackets at their edges', () => {
    const at = (yuan: number) => iitBracket(Y(yuan));
    expect(
      [36_000, 36_000.01, 144_000, 300_000, 420_000, 660_000, 960_000, 960_000.01].map((y) => at(y).ratePercent),
    ).toEqual([3, 10, 10, 20, 25, 30, 35, 45]);
    expect(at(1_000_000).quickFen).toBe(Y(181_920));
    expect(iitCumulativeTax(Y(36_000))).toBe(Y(1_080)); // 36,000 × 3%
    // 1,000,000 × 45% − 181,920 = 268,080
    const rich = iitYear([{ income: Y(1_005_000), special: 0, additional: 0 }]);
    expect(rich[0]?.tax).toBe(Y(268_080));
  });

  it('a report for many employees: each one’s month and the totals', () => {
    const report = iitReport([
      { id: 'a', months: [month, month] }, // month 2 of the example: 625
      { id: 'b', months: [{ income: Y(8_000), special: Y(800), additional: Y(1_000) }] }, // 1,200 × 3% = 36
    ]);
    expect(report.rows.map((r) => r.tax)).toEqual([Y(625), Y(36)]);
    expect(report).toMatchObject({ income: Y(38_000), tax: Y(661) });
  });
});

describe('增值税 小规模纳税人 and 附加税费', () => {
  const q = (pp1: number, zp1 = 0) => smallScaleVat({ cycle: 'quarter', pp1, zp1, location: 'city' });

  it('exempts a quarter of exactly 300,000.00 on 普票', () => {
    // 300,000.00 ≤ 300,000 → exempt; 免税额 300,000 × 1% = 3,000
    expect(q(Y(300_000))).toMatchObject({ vat: 0, exemptSales: Y(300_000), exemptTax: Y(3_000), total: 0 });
  });

  it('taxes every sale of a quarter of 300,000.01, surtaxes halved', () => {
    // 300,000.01 × 1% = 3,000.0001 → 3,000.00
    // 城建 3,000 × 7% × ½ = 105; 教育 3,000 × 3% × ½ = 45; 地方教育 3,000 × 2% × ½ = 30 → 180 (180 taken off)
    expect(q(Y(300_000.01))).toMatchObject({
      exemptSales: 0,
      taxedSales: Y(300_000.01),
      vat: Y(3_000),
      surtaxes: { cjs: Y(105), jyfj: Y(45), dfjyfj: Y(30), total: Y(180), reduction: Y(180) },
      total: Y(3_180),
    });
  });

  it('under the threshold still taxes the 专票 sales', () => {
    // 200,000 普票 + 50,000 专票 = 250,000 ≤ 300,000: 普票 exempt, 专票 50,000 × 1% = 500
    // surtaxes 500 × (7% + 3% + 2%) × ½ = 17.50 + 7.50 + 5.00 = 30 → 530
    expect(q(Y(200_000), Y(50_000))).toMatchObject({
      exemptSales: Y(200_000),
      taxedSales: Y(50_000),
      vat: Y(500),
      surtaxes: { total: Y(30) },
      total: Y(530),
    });
  });

  it('a monthly filer’s threshold is 100,000; 5% items at 5%', () => {
    const m = (pp1: number, pp5 = 0) => smallScaleVat({ cycle: 'month', pp1, zp1: 0, pp5, location: 'county' });
    expect(m(Y(100_000)).vat).toBe(0);
    // 90,000 × 1% + 20,000 × 5% = 900 + 1,000 = 1,900; 城建 (县城 5%) 1,900 × 5% × ½ = 47.50
    const r = m(Y(90_000), Y(20_000));
    expect(r.vat).toBe(Y(1_900));
    expect(r.surtaxes.cjs).toBe(Y(47.5));
  });

  it('halves each surtax with one rounding; full rates without the halving', () => {
    // 333.33 × 7% × ½ = 11.666655 → 11.67; × 3% × ½ = 4.999950 → 5.00; × 2% × ½ = 3.33333 → 3.33
    expect(surtaxes(Y(333.33), 'city', true)).toMatchObject({ cjs: 1167, jyfj: 500, dfjyfj: 333, total: 2000 });
    // full: 23.3331 → 23.33, 9.9999 → 10.00, 6.6666 → 6.67 = 40.00; the halving took off 20.00
    expect(surtaxes(Y(333.33), 'city', false)).toMatchObject({ cjs: 2333, jyfj: 1000, dfjyfj: 667, total: 4000 });
    expect(surtaxes(Y(333.33), 'city', true).reduction).toBe(2000);
    // 城建 elsewhere 1%: 1,000 × 1% = 10
    expect(surtaxes(Y(1_000), 'other', false).cjs).toBe(Y(10));
  });
});

describe('增值税 一般纳税人', () => {
  it('output − input; full surtaxes on the VAT paid; 留抵 carried when negative', () => {
    // 1,000,000 × 13% = 130,000 output; − 100,000 input = 30,000
    // surtaxes 30,000 × 7% + 3% + 2% = 2,100 + 900 + 600 = 3,600 → 33,600
    const a = generalVat({
      sales: [{ amount: Y(1_000_000), ratePermille: 130 }],
      inputTax: Y(100_000),
      location: 'city',
    });
    expect(a).toMatchObject({ outputTax: Y(130_000), vat: Y(30_000), creditOut: 0, total: Y(33_600) });
    expect(a.surtaxes).toMatchObject({ cjs: Y(2_100), jyfj: Y(900), dfjyfj: Y(600), reduction: 0 });
    // input 150,000 > output 130,000: nothing to pay, 20,000 留抵 carried
    const b = generalVat({
      sales: [{ amount: Y(1_000_000), ratePermille: 130 }],
      inputTax: Y(150_000),
      location: 'city',
    });
    expect(b).toMatchObject({ vat: 0, creditOut: Y(20_000), total: 0 });
    // next period: 130,000 − 100,000 − 20,000 = 10,000
    const c = generalVat({
      sales: [{ amount: Y(1_000_000), ratePermille: 130 }],
      inputTax: Y(100_000),
      creditIn: b.creditOut,
      location: 'city',
    });
    expect(c.vat).toBe(Y(10_000));
    // mixed rates, one rounding: 100.01 × 13% + 100.01 × 6% = 13.0013 + 6.0006 = 19.0019 → 19.00
    const d = generalVat({
      sales: [
        { amount: Y(100.01), ratePermille: 130 },
        { amount: Y(100.01), ratePermille: 60 },
      ],
      inputTax: 0,
      location: 'city',
    });
    expect(d.outputTax).toBe(Y(19));
  });
});

describe('企业所得税 quarterly prepayment', () => {
  it('小型微利 at a profit of 1,000,000: 5%, less what was prepaid', () => {
    // 1,000,000 × 25% = 250,000; 小型微利 1,000,000 × 25% × 20% = 50,000 (relief 200,000); − 12,000 prepaid
    expect(
      citPrepay({
        revenue: Y(5_000_000),
        cost: Y(4_000_000),
        profit: Y(1_000_000),
        prepaid: Y(12_000),
        staff: 20,
        assets: Y(5_000_000),
      }),
    ).toEqual({
      taxable: Y(1_000_000),
      smallMicro: true,
      fullTax: Y(250_000),
      relief: Y(200_000),
      cumTax: Y(50_000),
      tax: Y(38_000),
    });
  });

  it('a general company pays 25%: over 300 staff, or over 3,000,000 profit, or over 50,000,000 assets', () => {
    const base = {
      revenue: Y(9_000_000),
      cost: Y(8_000_000),
      profit: Y(1_000_000),
      prepaid: Y(100_000),
      staff: 20,
      assets: Y(5_000_000),
    };
    // 1,000,000 × 25% = 250,000 − 100,000 = 150,000
    expect(citPrepay({ ...base, staff: 301 })).toMatchObject({
      smallMicro: false,
      cumTax: Y(250_000),
      tax: Y(150_000),
    });
    expect(citPrepay({ ...base, assets: Y(50_000_000.01) }).smallMicro).toBe(false);
    // exactly 3,000,000 is small-micro: × 5% = 150,000; 3,000,000.01 is not: × 25% = 750,000.0025 → 750,000.00
    expect(citPrepay({ ...base, profit: Y(3_000_000), prepaid: 0 })).toMatchObject({
      smallMicro: true,
      tax: Y(150_000),
    });
    expect(citPrepay({ ...base, profit: Y(3_000_000.01), prepaid: 0 })).toMatchObject({
      smallMicro: false,
      tax: Y(750_000),
    });
  });

  it('a loss, or more prepaid than due, gives 0', () => {
    const base = {
      revenue: Y(100_000),
      cost: Y(150_000),
      profit: Y(-50_000),
      prepaid: 0,
      staff: 3,
      assets: Y(100_000),
    };
    expect(citPrepay(base)).toMatchObject({ taxable: 0, tax: 0 });
    expect(citPrepay({ ...base, profit: Y(100_000), prepaid: Y(9_000) }).tax).toBe(0); // 5,000 due, 9,000 prepaid
  });
});

describe('印花税', () => {
  it('contract amount × rate per 税目, halved for small taxpayers (六税两费)', () => {
    const contracts = [
      { kind: 'mmht', amount: Y(1_000_000) }, // 买卖 × 0.3‰ = 300 → 150
      { kind: 'jkht', amount: Y(2_000_000) }, // 借款 × 0.05‰ = 100 → 50
      { kind: 'zlht', amount: Y(120_000) }, //   租赁 × 1‰ = 120 → 60
      { kind: 'jsht', amount: Y(500_000) }, //   技术 × 0.3‰ = 150 → 75
    ] as const;
    const full = stampDuty(contracts, false);
    expect(full.tax).toBe(Y(670)); // 300 + 100 + 120 + 150
    const half = stampDuty(contracts, true);
    expect(half.rows.map((r) => r.tax)).toEqual([Y(150), Y(50), Y(60), Y(75)]);
    expect(half).toMatchObject({ tax: Y(335), reduction: Y(335), amount: Y(3_620_000) });
  });

  it('rounds each 税目 once: 12,345.67 × 0.3‰ × ½ = 1.8518505 → 1.85; contracts of a kind add up first', () => {
    expect(stampDuty([{ kind: 'mmht', amount: Y(12_345.67) }], true).tax).toBe(Y(1.85));
    // 2 × 0.01 × 0.3‰ each would round to 0; together 0.02 × 0.3‰ = 0.000006 → 0 — and 20,000 + 30,000 = 15
    expect(
      stampDuty(
        [
          { kind: 'mmht', amount: Y(20_000) },
          { kind: 'mmht', amount: Y(30_000) },
        ],
        false,
      ).rows,
    ).toEqual([{ kind: 'mmht', amount: Y(50_000), full: Y(15), reduction: 0, tax: Y(15) }]);
  });
});

describe('零申报', () => {
  it('declares nothing and owes nothing', () => {
    expect(zeroReturn()).toEqual({ srze: 0, ybtse: 0 });
    expect(smallScaleVat({ cycle: 'quarter', pp1: 0, zp1: 0, location: 'city' }).total).toBe(0);
  });
});
