import {
  type BureauClient,
  citA200000,
  httpBureauClient,
  iitAnnualBonusTax,
  iitLabourWithholding,
  iitYearByRule,
  type SubmitResult,
  smallScaleReturn,
  stampDuty,
  surtaxFor,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaxSim, type TaxSim } from '../src/index.js';
import {
  basicDeduction,
  bonusTax,
  bureauCit,
  bureauSmallScaleVat,
  bureauStamp,
  bureauSurtaxes,
  cumTax,
  labourTax,
  STAMP_LAW,
} from '../src/law.js';
import { locationOf } from '../src/returns.js';

// The bureau's own rules (apps/tax-sim/src/law.ts, issue 28 point 9): written from the law, not imported
// from the product; each case names its source. The product's functions and the bureau's must agree on
// every case (two engines), and a return whose stated figures disagree is refused with the bureau's
// message (表间校验不通过), over HTTP through the product's client.

const Y = (yuan: number) => Math.round(yuan * 100);
const yuan = (f: number) => (f / 100).toFixed(2);
const fen = (money: string) => Math.round(Number(money) * 100);

describe('small-scale VAT by period (公告2023年第1号/第19号 to 2025; 增值税法第二十三条 from 2026)', () => {
  const cases: {
    name: string;
    periodEnd: string;
    cycle: 'month' | 'quarter';
    s: Partial<Record<string, number>>;
    vat: number;
    exempt: boolean;
  }[] = [
    // 2025: 月销售额10万元以下（含本数）免征 (公告2023年第1号 第一条)
    {
      name: '2025 quarter at 300,000.00 exempt',
      periodEnd: '2025-09-30',
      cycle: 'quarter',
      s: { pp1: Y(300_000) },
      vat: 0,
      exempt: true,
    },
    // 2026: 达到起征点的全额计算缴纳 (增值税法第二十三条): 300,000 × 1 % (3 % less 2 % 减征)
    {
      name: '2026 quarter at 300,000.00 taxed',
      periodEnd: '2026-09-30',
      cycle: 'quarter',
      s: { pp1: Y(300_000) },
      vat: Y(3_000),
      exempt: false,
    },
    {
      name: '2026 quarter at 299,999.99 exempt',
      periodEnd: '2026-09-30',
      cycle: 'quarter',
      s: { pp1: Y(299_999.99) },
      vat: 0,
      exempt: true,
    },
    // 专票 sales are taxed even within the line; a 3 % 专票 (gave up the reduction) at 3 %
    {
      name: '2026 3 % 专票 within the line',
      periodEnd: '2026-09-30',
      cycle: 'quarter',
      s: { pp1: Y(100_000), zp3: Y(50_000) },
      vat: Y(1_500),
      exempt: true,
    },
    {
      name: '2026 month over the line: 1 % + 3 % + 5 %',
      periodEnd: '2026-03-31',
      cycle: 'month',
      s: { pp1: Y(80_000), zp3: Y(20_000), pp5: Y(10_000) },
      vat: Y(800 + 600 + 500),
      exempt: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = { zp1: 0, pp1: 0, zp3: 0, pp3: 0, zp5: 0, pp5: 0, ...c.s };
      const b = bureauSmallScaleVat({ periodEnd: c.periodEnd, cycle: c.cycle, ...d });
      expect(b).toMatchObject({ vat: c.vat, exempt: c.exempt });
      // The product's engine (packages/shared tax-rules-vat.ts) gives the same figure.
      const p = smallScaleReturn({
        skssqq: `${c.periodEnd.slice(0, 5)}01-01`,
        skssqz: c.periodEnd,
        cycle: c.cycle,
        r1: { zp: d.zp1, pp: d.pp1 },
        r3: { zp: d.zp3, pp: d.pp3 },
        r5: { zp: d.zp5, pp: d.pp5 },
        location: 'city',
      });
      expect(p.vat).toBe(c.vat);
    });
  }
});

describe('surcharges (城市维护建设税法; 财税〔2016〕12号; 公告2023年第12号)', () => {
  const cases = [
    // sales within 30万 a quarter: no 教育费附加/地方教育附加, 城建税 halved: 3,000 × 7 % / 2 = 105
    { vat: Y(3_000), sales: Y(300_000), halved: true, place: 'city', cjs: Y(105), jyfj: 0, dfjyfj: 0 },
    // over the line, general taxpayer not halved: 10,000 × 7 %, 3 %, 2 %
    { vat: Y(10_000), sales: Y(300_000.01), halved: false, place: 'city', cjs: Y(700), jyfj: Y(300), dfjyfj: Y(200) },
    // 县城 5 %, halved, over the line: 3,000 × 5 % / 2 = 75, 45, 30
    { vat: Y(3_000), sales: Y(300_000.01), halved: true, place: 'county', cjs: Y(75), jyfj: Y(45), dfjyfj: Y(30) },
  ] as const;
  for (const c of cases) {
    it(`${c.place} vat ${yuan(c.vat)} sales ${yuan(c.sales)} halved ${c.halved}`, () => {
      const b = bureauSurtaxes({
        vat: c.vat,
        sales: c.sales,
        cycle: 'quarter',
        place: c.place,
        halvedPayer: c.halved,
        periodEnd: '2026-09-30',
      });
      expect(b).toMatchObject({ cjs: c.cjs, jyfj: c.jyfj, dfjyfj: c.dfjyfj });
      const p = surtaxFor({
        vat: c.vat,
        sales: c.sales,
        cycle: 'quarter',
        location: c.place,
        halvedPayer: c.halved,
        periodEnd: '2026-09-30',
      });
      expect(p).toMatchObject({ cjs: c.cjs, jyfj: c.jyfj, dfjyfj: c.dfjyfj });
    });
  }
  it('halving ends with 2027 (公告2023年第12号)', () => {
    const b = bureauSurtaxes({
      vat: Y(3_000),
      sales: Y(0),
      cycle: 'quarter',
      place: 'city',
      halvedPayer: true,
      periodEnd: '2028-03-31',
    });
    expect(b.cjs).toBe(Y(210));
  });
});

describe('CIT, IIT and stamp duty: the bureau and the product agree', () => {
  it('A200000 with lines 5-9 and quarterly averages (公告2021年第3号, 企业所得税法第十八条, 公告2023年第6号/第12号)', () => {
    const p = citA200000({
      periodEnd: '2026-09-30',
      revenue: Y(1_500_000),
      cost: Y(400_000),
      profit: Y(100_000),
      exempt: Y(10_000),
      losses: [{ year: 2023, amount: Y(50_000) }],
      prepaid: Y(300),
      staffQuarters: [{ start: 7, end: 7 }],
      assetQuarters: [{ start: Y(2_000_000), end: Y(2_000_000) }],
    });
    const b = bureauCit({
      periodEnd: '2026-09-30',
      l3: Y(100_000),
      l4: 0,
      l5: 0,
      l6: Y(10_000),
      l7: 0,
      l8: 0,
      l9: p.lines.l9,
      l14: Y(300),
      staffAvg: 7,
      assetsAvg: Y(2_000_000),
    });
    expect(p.lines.l10).toBe(Y(40_000));
    expect(b).toMatchObject({ l10: p.lines.l10, l12: p.lines.l12, l13: p.lines.l13, l16: p.lines.l16, small: true });
    expect(b.l16).toBe(Y(1_700)); // 40,000 × 5 % − 300
  });

  it('IIT tables (预扣率表一, 月度税率表, 预扣率表二) and the 2020 deduction rules', () => {
    for (const taxable of [0, Y(36_000), Y(36_000.01), Y(144_000), Y(300_000), Y(960_000.01)]) {
      expect(cumTax(taxable)).toBe(
        iitYearByRule([{ month: 1, income: taxable + Y(5_000), special: 0, additional: 0 }])[0]?.cumTax,
      );
    }
    for (const bonus of [Y(36_000), Y(36_000.01), Y(144_000.01), Y(960_000.01), Y(1_200_000)]) {
      expect(bonusTax(bonus)).toBe(iitAnnualBonusTax(bonus).tax);
    }
    for (const income of [Y(500), Y(4_000), Y(4_000.01), Y(25_000), Y(62_500.01), Y(100_000)]) {
      expect(labourTax(income)).toBe(iitLabourWithholding(income).tax);
    }
    expect(basicDeduction('firstJob', 1, 7)).toBe(Y(35_000)); // 公告2020年第13号
    expect(basicDeduction('prior60k', 1, 1)).toBe(Y(60_000)); // 公告2020年第19号
  });

  it("印花税: the bureau has every 税目 of the law at the product's rate, and the same tax", () => {
    const items = Object.keys(STAMP_LAW).map((htlx, i) => ({ htlx, amount: Y(12_345.67 * (i + 1)) }));
    const b = bureauStamp(items, true, '2026-09-30');
    const p = stampDuty(
      items.map((i) => ({ kind: i.htlx as Parameters<typeof stampDuty>[0][number]['kind'], amount: i.amount })),
      true,
    );
    expect(b.tax).toBe(p.tax);
    expect(b.rows.map((r) => r.tax)).toEqual(p.rows.map((r) => r.tax));
  });
});

// --- over HTTP: the bureau refuses a return whose figures are not the law's --------------------------------

const TODAY = '2026-11-03';
/** Small-scale, 7 employees; Q3 2026 unfiled (late, so filed with yqsb). */
const SMALL = '91330106000166299W';
const Q3 = { skssqq: '2026-07-01', skssqz: '2026-09-30' };
let sim: TaxSim;
let bureau: BureauClient;

async function session(client: BureauClient, qysh: string) {
  const r = await client.etaxLogin({ qysh, account: '330106198001010011', password: 'x', sfbm: '1', loginType: '0' });
  if (r.status !== 1) throw new Error(`login of ${qysh} failed`);
  return r.session;
}
const filed = (r: SubmitResult) => {
  if (r.status === 'rejected') throw new Error(`rejected: ${r.msg}`);
  return r.receipt;
};

beforeAll(async () => {
  sim = await startTaxSim({ today: TODAY });
  bureau = httpBureauClient({ baseUrl: sim.url, timeoutMs: 5_000, busyDelayMs: () => 1 });
});
afterAll(() => sim.close());

describe('表间校验 over HTTP', () => {
  it("refuses VAT one fen off and a surcharge charged when exempt, then files the law's figures", async () => {
    const s = await session(bureau, SMALL);
    const base = { ppxse: '300000.00' };
    // 2026: 300,000.00 reaches the 起征点 → 3,000.00 VAT; 教育费附加 exempt (≤ 30万, 财税〔2016〕12号)
    const offByOne = await bureau.submitReturn(s, {
      type: 'zzs',
      ...Q3,
      yqsb: true,
      sbsj: { ...base, ynse: '2999.99' } as never,
    });
    expect(offByOne).toEqual({
      status: 'rejected',
      reason: 'validation',
      msg: '表间校验不通过：本期应纳税额申报 2999.99 元，按规定计算应为 3000.00 元',
    });
    const charged = await bureau.submitReturn(s, {
      type: 'zzs',
      ...Q3,
      yqsb: true,
      sbsj: { ...base, ynse: '3000.00', jyfj: '45.00' } as never,
    });
    expect(charged).toEqual({
      status: 'rejected',
      reason: 'validation',
      msg: '表间校验不通过：教育费附加申报 45.00 元，按规定计算应为 0.00 元',
    });
    const cjs = { city: Y(105), county: Y(75), other: Y(15) }[locationOf(SMALL)];
    const ok = filed(
      await bureau.submitReturn(s, {
        type: 'zzs',
        ...Q3,
        yqsb: true,
        sbsj: { ...base, ynse: '3000.00', jyfj: '0.00', dfjyfj: '0.00', ybtse: yuan(Y(3_000) + cjs) } as never,
      }),
    );
    expect(ok).toMatchObject({ srze: '300000.00', ybtse: yuan(Y(3_000) + cjs) });
    expect(ok.mx).toMatchObject({ ynse: '3000.00', cjs: yuan(cjs), jyfj: '0.00', dfjyfj: '0.00' });
  });

  it('CIT: a loss offset larger than the income is refused; lines 5-9 are kept on the receipt', async () => {
    const s = await session(bureau, SMALL);
    const sbsj = {
      yysr: '1500000.00',
      yycb: '400000.00',
      lrze: '100000.00',
      mssr: '10000.00',
      cyrs: 7,
      zcze: '2000000.00',
    };
    const tooMuch = await bureau.submitReturn(s, {
      type: 'qysds',
      ...Q3,
      yqsb: true,
      sbsj: { ...sbsj, mbyqndks: '95000.00' } as never,
    });
    expect(tooMuch).toEqual({
      status: 'rejected',
      reason: 'validation',
      msg: '表间校验不通过：弥补以前年度亏损 95000.00 元大于可弥补的所得 90000.00 元',
    });
    const r = filed(
      await bureau.submitReturn(s, {
        type: 'qysds',
        ...Q3,
        yqsb: true,
        sbsj: { ...sbsj, mbyqndks: '50000.00' } as never,
      }),
    );
    const prepaid = fen(r.mx.yyjse ?? '0');
    const p = citA200000({
      periodEnd: Q3.skssqz,
      revenue: Y(1_500_000),
      cost: Y(400_000),
      profit: Y(100_000),
      exempt: Y(10_000),
      losses: [{ year: 2022, amount: Y(50_000) }],
      prepaid,
      staffQuarters: [{ start: 7, end: 7 }],
      assetQuarters: [{ start: Y(2_000_000), end: Y(2_000_000) }],
    });
    expect(r.mx).toMatchObject({
      lrze: '100000.00',
      mssr: '10000.00',
      mbyqndks: '50000.00',
      sjlre: '40000.00',
      xwqy: '1',
    });
    expect(r.ybtse).toBe(yuan(p.lines.l16));
  });

  it('IIT: a 全年一次性奖金 is taxed alone with the monthly table; 公告2020年第13号 only for a hire of this year', async () => {
    // Two bureaus with the same state: the same report with and without a 36,000.00 bonus for one person.
    const other = await startTaxSim({ today: TODAY });
    try {
      const b2 = httpBureauClient({ baseUrl: other.url, timeoutMs: 5_000, busyDelayMs: () => 1 });
      const s1 = await session(bureau, SMALL);
      const s2 = await session(b2, SMALL);
      const month = { skssqq: '2026-10-01', skssqz: '2026-10-31' };
      const people = (await bureau.personnel(s1, '2026-10')).list;
      expect(people.length).toBeGreaterThan(0);
      const ry = people.map((p) => ({ zjhm: p.zjhm, sre: p.sre, sxyj: p.sxyj, zxfjkc: p.zxfjkc }));
      const first = ry[0] as (typeof ry)[number];
      const old = people.find((p) => p.rzrq < '2026-01-01');
      expect(old).toBeTruthy();
      if (old) {
        const wrongRule = await b2.submitReturn(s2, {
          type: 'grsds',
          ...month,
          sbsj: { ry: ry.map((r) => (r.zjhm === old.zjhm ? { ...r, kcfs: 'firstJob' } : r)) } as never,
        });
        expect(wrongRule.status === 'rejected' && wrongRule.msg).toContain('国家税务总局公告2020年第13号');
      }
      const plain = filed(await b2.submitReturn(s2, { type: 'grsds', ...month, sbsj: { ry } as never }));
      const withBonus = filed(
        await bureau.submitReturn(s1, {
          type: 'grsds',
          ...month,
          sbsj: { ry: ry.map((r) => (r === first ? { ...r, qnycxjj: '36000.00' } : r)) } as never,
        }),
      );
      // 36,000 ÷ 12 = 3,000 → 3 %: 1,080.00 more, whatever the wages (单独计税, not merged into them)
      expect(fen(withBonus.ybtse) - fen(plain.ybtse)).toBe(Y(1_080));
      expect(fen(withBonus.srze) - fen(plain.srze)).toBe(Y(36_000));
    } finally {
      await other.close();
    }
  });
});
