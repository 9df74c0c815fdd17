import { describe, expect, it } from 'vitest';
import {
  generalVatReturn,
  planFigures,
  SMALL_SCALE_VAT_RULES,
  smallScaleReturn,
  smallScaleRuleOf,
  surtaxFor,
} from '../src/index.js';

// Issue 28 points 1-3: cases per rule, each with its source (docs/decisions/tax.md).
const Y = (yuan: number) => Math.round(yuan * 100);

describe('VAT law from 2026-01-01: the rule follows the 所属期, not today', () => {
  it('2025 periods: 公告2023年第1号/第19号 — 10万元以下（含本数）免征, 政策依据 公告2023年第19号', () => {
    const r = smallScaleRuleOf('2025-12-31');
    expect(r).toMatchObject({ atLine: 'exempt', reducedPermille: 10, exemptLine: 10 });
    expect(r.basis).toContain('财政部 税务总局公告2023年第19号');
  });

  it('2026 periods: 增值税法第二十三条 — 达到起征点的全额计算缴纳; 1% excludes 不动产 and 土地使用权', () => {
    const r = smallScaleRuleOf('2026-03-31');
    expect(r).toMatchObject({ atLine: 'taxed', reducedPermille: 10, exemptLine: 11 });
    expect(r.basis).toContain('《中华人民共和国增值税法》第二十三条');
    expect(r.reducedExcludes).toBe('销售、出租不动产，转让土地使用权');
    // A later period keeps the last row until an announcement adds one (a table row, not code).
    expect(smallScaleRuleOf('2028-03-31')).toBe(SMALL_SCALE_VAT_RULES[SMALL_SCALE_VAT_RULES.length - 1]);
  });

  it('a quarter of exactly 300,000.00 on 普票: exempt in 2025 Q4, taxed in full in 2026 Q1', () => {
    const q = (skssqq: string, skssqz: string) =>
      smallScaleReturn({ skssqq, skssqz, cycle: 'quarter', r1: { pp: Y(300_000), zp: 0 }, location: 'city' });
    // 2025 Q4: ≤ 300,000 exempt; 免税额 300,000 × 1% = 3,000 on line 18 (小微企业免税额)
    expect(q('2025-10-01', '2025-12-31')).toMatchObject({
      exempt: true,
      vat: 0,
      total: 0,
      columns: { l9: Y(300_000), l10: Y(300_000), l11: 0, l17: Y(3_000), l18: Y(3_000) },
    });
    // 2026 Q1: 达到起征点 → all taxed: line 1 300,000; line 15 at 3% 9,000; line 16 减征 2% 6,000; VAT 3,000.
    // 附加 (市区, halved): 城建 3,000 × 7% ÷ 2 = 105; sales 300,000 ≤ 30万 → 教育费附加/地方教育附加 exempt
    // (财税〔2016〕12号). Total 3,105.
    expect(q('2026-01-01', '2026-03-31')).toMatchObject({
      exempt: false,
      vat: Y(3_000),
      columns: { l1: Y(300_000), l2: 0, l3: Y(300_000), l15: Y(9_000), l16: Y(6_000), l20: Y(3_000), l9: 0 },
      surtaxes: { cjs: Y(105), jyfj: 0, dfjyfj: 0, eduExempt: true, halved: true },
      total: Y(3_105),
    });
  });

  it('monthly filer under the 2026 起征点: 99,999.99 exempt (line 11 未达起征点), 100,000.00 taxed', () => {
    const m = (pp: number) =>
      smallScaleReturn({
        skssqq: '2026-05-01',
        skssqz: '2026-05-31',
        cycle: 'month',
        r1: { pp, zp: 0 },
        location: 'county',
      });
    expect(m(Y(99_999.99))).toMatchObject({
      exempt: true,
      vat: 0,
      columns: { l11: Y(99_999.99), l10: 0, l19: Y(1_000) },
    });
    // 100,000 × 1% = 1,000; 城建 (县城 5%) 1,000 × 5% ÷ 2 = 25
    expect(m(Y(100_000))).toMatchObject({ exempt: false, vat: Y(1_000), surtaxes: { cjs: Y(25), jyfj: 0 } });
  });
});

describe('small-scale return columns (增值税及附加税费申报表（小规模纳税人适用）; 国家税务总局公告2023年第1号)', () => {
  it('1% 普票 and a 3% 专票 in one quarter under the line: 普票 exempt, the 3% 专票 declared at 3%', () => {
    // 国家税务总局公告2026年第4号 四: a client may give up the reduction for some sales to issue 3% 专票.
    const r = smallScaleReturn({
      skssqq: '2026-04-01',
      skssqz: '2026-06-30',
      cycle: 'quarter',
      r1: { pp: Y(150_000), zp: 0 },
      r3: { pp: 0, zp: Y(50_000) },
      location: 'city',
    });
    // 200,000 < 300,000: 1% 普票 150,000 exempt (line 11, 免税额 1,500); 3% 专票 50,000 × 3% = 1,500, no 减征.
    expect(r.columns).toMatchObject({ l1: Y(50_000), l2: Y(50_000), l3: 0, l11: Y(150_000), l15: Y(1_500), l16: 0 });
    expect(r.vat).toBe(Y(1_500));
    // 城建 1,500 × 7% ÷ 2 = 52.50; 教育/地方教育 exempt (季度销售额 200,000 ≤ 30万)
    expect(r.surtaxes).toMatchObject({ cjs: Y(52.5), jyfj: 0, dfjyfj: 0 });
    expect(r.total).toBe(Y(1_552.5));
  });

  it('over the line: 1% and 3% sales on line 1, 减征额 2% of the 1% sales on line 16; 5% on line 4', () => {
    const r = smallScaleReturn({
      skssqq: '2026-01-01',
      skssqz: '2026-03-31',
      cycle: 'quarter',
      r1: { pp: Y(300_000), zp: Y(100_000) },
      r3: { pp: 0, zp: Y(50_000) },
      r5: { pp: Y(20_000), zp: 0 },
      location: 'city',
    });
    // line 1 = 450,000 (专票 150,000, other 300,000); line 4 = 20,000
    // line 15 = 450,000 × 3% + 20,000 × 5% = 13,500 + 1,000 = 14,500; line 16 = 400,000 × 2% = 8,000; VAT 6,500
    expect(r.columns).toMatchObject({ l1: Y(450_000), l2: Y(150_000), l3: Y(300_000), l4: Y(20_000), l6: Y(20_000) });
    expect(r.columns).toMatchObject({ l15: Y(14_500), l16: Y(8_000), l20: Y(6_500) });
    // 470,000 > 30万: every surtax, halved: 227.50 + 97.50 + 65.00 = 390.00
    expect(r.surtaxes).toMatchObject({ cjs: Y(227.5), jyfj: Y(97.5), dfjyfj: Y(65), total: Y(390) });
  });

  it('the plan reads the 3% figures apart from the 1% ones (nothing folded into another column)', () => {
    const sbsj = { ppxse: '150000.00', zpxse: '0.00', ppxse3: '0.00', zpxse3: '50000.00' };
    expect(planFigures('zzs', '1', 'quarter', sbsj, 'city', '2026-06-30')).toEqual({
      srze: Y(200_000),
      ybtse: Y(1_552.5),
    });
    // Folded into the 1% 专票 column it would have paid 500 + 17.50, not 1,552.50.
    expect(
      planFigures('zzs', '1', 'quarter', { ppxse: '150000.00', zpxse: '50000.00' }, 'city', '2026-06-30').ybtse,
    ).toBe(Y(517.5));
  });
});

describe('附加税费 (城市维护建设税法; 财税〔2016〕12号; 公告2023年第12号) — one rule for returns and books', () => {
  const base = { location: 'city' as const, halvedPayer: false, periodEnd: '2026-05-31' };
  it('教育费附加 and 地方教育附加 exempt at ≤ 10万 a month / 30万 a quarter, for general taxpayers too', () => {
    expect(surtaxFor({ ...base, vat: Y(5_000), sales: Y(100_000), cycle: 'month' })).toMatchObject({
      cjs: Y(350),
      jyfj: 0,
      dfjyfj: 0,
      eduExempt: true,
    });
    expect(surtaxFor({ ...base, vat: Y(5_000), sales: Y(100_000.01), cycle: 'month' })).toMatchObject({
      cjs: Y(350),
      jyfj: Y(150),
      dfjyfj: Y(100),
      eduExempt: false,
    });
    // A quarterly filer tests the quarter: 250,000 in a quarter is within 30万 even though a month of it is not 10万.
    expect(surtaxFor({ ...base, vat: Y(2_500), sales: Y(250_000), cycle: 'quarter' }).eduExempt).toBe(true);
  });

  it('六税两费减半 by the period: halved to 2027-12-31, not after', () => {
    const s = (periodEnd: string) =>
      surtaxFor({
        vat: Y(10_000),
        sales: Y(500_000),
        cycle: 'quarter',
        location: 'city',
        halvedPayer: true,
        periodEnd,
      });
    expect(s('2027-12-31')).toMatchObject({
      halved: true,
      cjs: Y(350),
      jyfj: Y(150),
      dfjyfj: Y(100),
      reduction: Y(600),
    });
    expect(s('2028-03-31')).toMatchObject({ halved: false, cjs: Y(700), jyfj: Y(300), dfjyfj: Y(200), reduction: 0 });
  });

  it('general taxpayer under the line: 城建税 only (the returns no longer charge what the books exempt)', () => {
    // 100,000 × 13% − 8,000 = 5,000; 城建 350; sales 100,000 ≤ 10万 → no 教育费附加: 5,350
    const r = generalVatReturn({
      sales: [{ amount: Y(100_000), ratePermille: 130 }],
      inputTax: Y(8_000),
      location: 'city',
      cycle: 'month',
      skssqz: '2026-05-31',
    });
    expect(r).toMatchObject({ vat: Y(5_000), total: Y(5_350), surtaxes: { cjs: Y(350), jyfj: 0, dfjyfj: 0 } });
  });
});
