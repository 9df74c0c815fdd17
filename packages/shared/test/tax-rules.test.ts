import { describe, expect, it } from 'vitest';
import {
  citA200000,
  iitAnnualBonusTax,
  iitLabourWithholding,
  iitYearByRule,
  lossOffset,
  quarterlyAverage,
  STAMP_KIND_NAMES,
  STAMP_RATES_PER_MILLION,
  stampDuty,
} from '../src/index.js';

// Cases per rule (issue 28 points 5-7), each with its source; docs/decisions/tax.md has the sections.
const Y = (yuan: number) => Math.round(yuan * 100);

describe('CIT A200000 lines (国家税务总局公告2021年第3号 layout; 企业所得税法第十八条; 公告2023年第6号/第12号)', () => {
  const base = {
    periodEnd: '2026-06-30',
    revenue: Y(1_000_000),
    cost: Y(600_000),
    // 利润总额 as on the 利润表: after 税金及附加, 期间费用, 营业外收支 — not 营业收入 − 营业成本
    profit: Y(150_000),
    prepaid: 0,
    staffQuarters: [
      { start: 10, end: 12 },
      { start: 12, end: 14 },
    ],
    assetQuarters: [
      { start: Y(2_000_000), end: Y(2_200_000) },
      { start: Y(2_200_000), end: Y(2_400_000) },
    ],
  };

  it('keeps lines 1-3 as given and takes lines 5-9 off 利润总额 (hand-worked)', () => {
    const r = citA200000({
      ...base,
      nonTaxable: Y(5_000),
      exempt: Y(10_000),
      acceleratedDepreciation: Y(2_000),
      incomeRelief: Y(3_000),
      losses: [{ year: 2024, amount: Y(40_000) }],
      prepaid: Y(1_000),
    });
    expect(r.lines).toMatchObject({ l1: Y(1_000_000), l2: Y(600_000), l3: Y(150_000) });
    // 150,000 − 5,000 − 10,000 − 2,000 − 3,000 − 40,000 = 90,000
    expect(r.lines.l9).toBe(Y(40_000));
    expect(r.lines.l10).toBe(Y(90_000));
    expect(r.lines.l12).toBe(Y(22_500)); // × 25 %
    expect(r.smallMicro).toBe(true);
    expect(r.lines.l13).toBe(Y(18_000)); // 22,500 − 90,000 × 5 %
    expect(r.lines.l16).toBe(Y(3_500)); // 4,500 − 1,000 prepaid
    expect(r.staffAverage).toBe(12); // ((10+12)/2 + (12+14)/2) / 2
    expect(r.assetsAverage).toBe(Y(2_200_000));
  });

  it('offsets losses of the five years before only, oldest first, at most the profit (企业所得税法第十八条)', () => {
    const losses = [
      { year: 2020, amount: Y(30_000) }, // 2020 + 5 = 2025: closed for 2026
      { year: 2022, amount: Y(20_000) },
      { year: 2021, amount: Y(10_000) },
    ];
    expect(lossOffset(2026, Y(25_000), losses)).toEqual({
      total: Y(25_000),
      used: [
        { year: 2021, amount: Y(10_000) },
        { year: 2022, amount: Y(15_000) },
      ],
    });
    // A200000 填报说明: when 3+4−5−6−7−8 ≤ 0, line 9 is 0
    expect(lossOffset(2026, -Y(1), losses).total).toBe(0);
    const r = citA200000({ ...base, profit: Y(20_000), losses });
    expect(r.lines.l9).toBe(Y(20_000));
    expect(r.lines.l10).toBe(0);
    expect(r.lines.l16).toBe(0);
  });

  it('tests 小型微利 on the quarterly averages (季度平均值 = (季初值+季末值)÷2, 公告2023年第6号)', () => {
    expect(quarterlyAverage([{ start: 300, end: 301 }])).toEqual({ sum2: 601, count: 2 });
    // 300.5 people on average: over 300
    const over = citA200000({ ...base, staffQuarters: [{ start: 300, end: 301 }] });
    expect(over.smallMicro).toBe(false);
    expect(over.lines.l13).toBe(0);
    expect(over.lines.l16).toBe(Y(37_500)); // 150,000 × 25 %
    const at = citA200000({ ...base, staffQuarters: [{ start: 299, end: 301 }] });
    expect(at.smallMicro).toBe(true);
    expect(at.lines.l16).toBe(Y(7_500)); // 150,000 × 5 %
    // assets 5,000万 exactly is within, one fen more is not
    const a = (end: number) => citA200000({ ...base, assetQuarters: [{ start: Y(50_000_000), end }] }).smallMicro;
    expect(a(Y(50_000_000))).toBe(true);
    expect(a(Y(50_000_000) + 2)).toBe(false);
  });

  it('applies the 5 % effective rate only 2023-01-01 to 2027-12-31 (财政部 税务总局公告2023年第12号)', () => {
    expect(citA200000({ ...base, periodEnd: '2027-12-31' }).smallMicro).toBe(true);
    expect(citA200000({ ...base, periodEnd: '2028-03-31' }).smallMicro).toBe(false);
  });
});

describe('IIT deduction rules (国家税务总局公告2018年第61号, 2020年第13号, 2020年第19号)', () => {
  const month = (m: number, income: number, special = 0) => ({ month: m, income, special, additional: 0 });

  it('first wages of the year in July: 5,000 × 7 deducted (公告2020年第13号, hand-worked)', () => {
    const july = [month(7, Y(13_000))];
    expect(iitYearByRule(july, 'firstJob')[0]).toMatchObject({ cumBasic: Y(35_000), tax: 0 });
    // Without the rule the month would withhold (13,000 − 5,000) × 3 % = 240
    expect(iitYearByRule(july, 'standard')[0]).toMatchObject({ cumBasic: Y(5_000), tax: Y(240) });
    // August: 26,000 − 40,000 < 0: still nothing
    expect(iitYearByRule([...july, month(8, Y(13_000))], 'firstJob')[1]?.tax).toBe(0);
  });

  it('≤ 60,000 at the same employer last year: 60,000 from January (公告2020年第19号, hand-worked)', () => {
    const months = Array.from({ length: 8 }, (_, i) => month(i + 1, Y(8_000)));
    const r = iitYearByRule(months, 'prior60k');
    // January to July: cumulative 56,000 ≤ 60,000, nothing withheld
    expect(r.slice(0, 7).map((x) => x.tax)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // August: 64,000 − 60,000 = 4,000 × 3 % = 120
    expect(r[7]).toMatchObject({ cumBasic: Y(60_000), cumTaxable: Y(4_000), tax: Y(120) });
    // the standard rule withholds from January: (8,000 − 5,000) × 3 % = 90
    expect(iitYearByRule(months, 'standard')[0]?.tax).toBe(Y(90));
  });

  it('全年一次性奖金 单独计税 with the monthly table (财税〔2018〕164号, 公告2023年第30号 to 2027-12-31)', () => {
    expect(iitAnnualBonusTax(Y(36_000))).toEqual({ ratePercent: 3, quickFen: 0, tax: Y(1_080) });
    // One fen over 36,000 moves to 10 % with 速算扣除数 210: 3,600.00 − 210 = 3,390.00
    expect(iitAnnualBonusTax(Y(36_000.01))).toEqual({ ratePercent: 10, quickFen: Y(210), tax: Y(3_390) });
    expect(iitAnnualBonusTax(Y(144_000)).tax).toBe(Y(14_190)); // 12,000/月 → 10 %: 14,400 − 210
    expect(iitAnnualBonusTax(Y(1_200_000)).tax).toBe(Y(524_840)); // 100,000/月 → 45 %: 540,000 − 15,160
  });

  it('劳务报酬 withholding with 预扣率表二 (公告2018年第61号 第六条, hand-worked)', () => {
    expect(iitLabourWithholding(Y(2_000))).toMatchObject({ expense: Y(800), taxable: Y(1_200), tax: Y(240) });
    expect(iitLabourWithholding(Y(4_000))).toMatchObject({ expense: Y(800), tax: Y(640) });
    expect(iitLabourWithholding(Y(5_000))).toMatchObject({ expense: Y(1_000), tax: Y(800) });
    expect(iitLabourWithholding(Y(30_000))).toMatchObject({ taxable: Y(24_000), ratePercent: 30, tax: Y(5_200) });
    expect(iitLabourWithholding(Y(100_000))).toMatchObject({ taxable: Y(80_000), ratePercent: 40, tax: Y(25_000) });
    expect(iitLabourWithholding(Y(500)).tax).toBe(0);
  });
});

describe('印花税税目税率表 (印花税法, 2022-07-01; 公告2023年第12号; 公告2023年第39号)', () => {
  // The law's table: 税目 → rate in ‰
  const table: [string, number][] = [
    ['借款合同', 0.05],
    ['融资租赁合同', 0.05],
    ['买卖合同', 0.3],
    ['承揽合同', 0.3],
    ['建设工程合同', 0.3],
    ['运输合同', 0.3],
    ['技术合同', 0.3],
    ['租赁合同', 1],
    ['保管合同', 1],
    ['仓储合同', 1],
    ['财产保险合同', 1],
    ['产权转移书据（土地使用权出让书据）', 0.5],
    ['产权转移书据（土地使用权、房屋等建筑物和构筑物所有权转让书据）', 0.5],
    ['产权转移书据（股权转让书据）', 0.5],
    ['产权转移书据（商标专用权、著作权、专利权、专有技术使用权转让书据）', 0.3],
    ['营业账簿', 0.25],
    ['证券交易', 1],
  ];
  it('has every 税目 at the law rate', () => {
    const byName = Object.fromEntries(
      Object.entries(STAMP_KIND_NAMES).map(([k, n]) => [
        n,
        STAMP_RATES_PER_MILLION[k as keyof typeof STAMP_KIND_NAMES],
      ]),
    );
    expect(Object.keys(byName).sort()).toEqual(table.map(([n]) => n).sort());
    for (const [name, permille] of table) expect(byName[name], name).toBe(Math.round(permille * 1000));
  });
  it('computes each 税目 once, halves all but 证券交易 under 六税两费 and 证券交易 from 2023-08-28', () => {
    const r = stampDuty(
      [
        { kind: 'rzzlht', amount: Y(1_000_000) }, // 50.00
        { kind: 'bght', amount: Y(10_000) }, // 10.00
        { kind: 'fwzrsj', amount: Y(2_000_000) }, // 1,000.00
        { kind: 'zqjy', amount: Y(100_000) }, // 100.00, halved by 公告2023年第39号 only
      ],
      true,
    );
    expect(r.rows.map((x) => [x.kind, x.tax])).toEqual([
      ['rzzlht', Y(25)],
      ['bght', Y(5)],
      ['fwzrsj', Y(500)],
      ['zqjy', Y(50)],
    ]);
    expect(stampDuty([{ kind: 'zqjy', amount: Y(100_000) }], false, '2023-08-27').tax).toBe(Y(100));
    expect(stampDuty([{ kind: 'gqzrsj', amount: Y(100_000) }], false).tax).toBe(Y(50));
  });
});
