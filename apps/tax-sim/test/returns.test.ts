import { readPdf } from '@dzy/pdf/read';
import {
  type BureauClient,
  BureauError,
  citPrepay,
  httpBureauClient,
  iitYear,
  type SubmitResult,
  smallScaleVat,
  stampDuty,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaxSim, type TaxSim } from '../src/index.js';
import { defaultPayment, locationOf } from '../src/returns.js';

// Filing and paying at the simulated bureau (docs/tax-bureau-protocol.md "Filing and paying"), through
// the product's client. The bureau's date is fixed at 2026-11-03: November's monthly returns are open
// (deadline 11-16); October's quarter returns (deadline 10-26) of these taxpayers were never filed, so
// they are overdue.

const TODAY = '2026-11-03';
/** Small-scale, 7 employees; every October and November return unfiled. */
const SMALL = '91330106000166299W';
/** Small-scale, 12 employees; likewise. */
const SMALL2 = '91330106000182137D';
/** General taxpayer without employees (no IIT registration). */
const GENERAL = '91330106000158380C';
/** Small-scale, whose bank deductions fail by default (no 三方协议). */
const NO_AGREEMENT = '913301060003009223';

const fen = (money: string) => Math.round(Number(money) * 100);
const yuan = (f: number) => (f / 100).toFixed(2);
const Q3 = { skssqq: '2026-07-01', skssqz: '2026-09-30' };

let sim: TaxSim;
let bureau: BureauClient;
const sessions = new Map<string, string>();

async function session(qysh: string) {
  const hit = sessions.get(qysh);
  if (hit) return hit;
  const r = await bureau.etaxLogin({ qysh, account: '330106198001010011', password: 'x', sfbm: '1', loginType: '0' });
  if (r.status !== 1) throw new Error(`login of ${qysh} failed`);
  sessions.set(qysh, r.session);
  return r.session;
}
async function filings(qysh: string) {
  const res = await fetch(`${sim.url}/admin/filings?qysh=${qysh}`);
  return ((await res.json()) as { data: { list: Record<string, unknown>[] } }).data.list;
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

describe('人员信息 and wages', () => {
  it('lists the employees with their deductions and the wages of the last filed month, the same every time', async () => {
    const s = await session(SMALL);
    const p = await bureau.personnel(s);
    expect(p.list.length).toBe(7);
    expect(p.ysb).toBe(true);
    expect(p.ssq < '2026-10').toBe(true); // September's and October's reports are not filed
    for (const e of p.list) {
      expect(e.zjhm).toMatch(/^\d{17}[\dX]$/);
      expect(fen(e.sre)).toBeGreaterThan(0);
      expect(fen(e.sxyj)).toBeGreaterThan(0);
      expect(fen(e.zxfjkc)).toBe(e.zxfjkcmx.reduce((x, i) => x + fen(i.je), 0));
    }
    const again = await startTaxSim({ today: TODAY });
    try {
      const other = httpBureauClient({ baseUrl: again.url });
      const r = await other.etaxLogin({ qysh: SMALL, account: 'a', password: 'x', sfbm: '1', loginType: '0' });
      expect(await other.personnel(r.status === 1 ? r.session : '')).toEqual(p);
    } finally {
      await again.close();
    }
    // A month asked for: not filed yet, the wages the bureau expects.
    const oct = await bureau.personnel(s, '2026-10');
    expect(oct).toMatchObject({ ssq: '2026-10', ysb: false, sbrq: '' });
  });

  it('the roster’s IIT of a month filed before is the tax on the wages ryxx gives for it (累计预扣法)', async () => {
    const s = await session(SMALL);
    const last = await bureau.personnel(s); // the last month filed on the book
    const [y, m] = last.ssq.split('-').map(Number) as [number, number];
    const months = await Promise.all(
      Array.from({ length: m }, (_, i) => bureau.personnel(s, `${y}-${String(i + 1).padStart(2, '0')}`)),
    );
    let tax = 0;
    for (const e of last.list) {
      const rows = months.flatMap((x) => x.list.filter((r) => r.zjhm === e.zjhm));
      tax +=
        iitYear(rows.map((r) => ({ income: fen(r.sre), special: fen(r.sxyj), additional: fen(r.zxfjkc) }))).at(-1)
          ?.tax ?? 0;
    }
    const filingMonth = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    const item = (await bureau.filingRoster(s, filingMonth)).items.find((i) => i.type === 'grsds');
    expect(item?.sbrq).toBe(last.sbrq);
    expect(item?.srze).toBe(yuan(last.list.reduce((x, e) => x + fen(e.sre), 0)));
    expect(item?.ybtse).toBe(yuan(tax));
  });

  it('a taxpayer without employees (no IIT registration) has none', async () => {
    const p = await bureau.personnel(await session(GENERAL));
    expect(p.list).toEqual([]);
    expect(
      (await bureau.filingRoster(await session(GENERAL), '2026-11')).registrations.map((r) => r.type),
    ).not.toContain('grsds');
  });
});

describe('submitting returns', () => {
  it('IIT: the bureau withholds by 累计预扣法 over the year’s months it holds', async () => {
    const s = await session(SMALL);
    const oct = await bureau.personnel(s, '2026-10');
    const r = filed(
      await bureau.submitReturn(s, {
        type: 'grsds',
        skssqq: '2026-10-01',
        skssqz: '2026-10-31',
        sbsj: { ry: oct.list.map((e) => ({ zjhm: e.zjhm, sre: e.sre })) },
      }),
    );
    // The same computation from the months January-October the bureau gives out.
    const months = await Promise.all(
      Array.from({ length: 10 }, (_, i) => bureau.personnel(s, `2026-${String(i + 1).padStart(2, '0')}`)),
    );
    let tax = 0;
    for (const e of oct.list) {
      const rows = months.flatMap((m) => m.list.filter((x) => x.zjhm === e.zjhm));
      const year = iitYear(
        rows.map((x) => ({ income: fen(x.sre), special: fen(x.sxyj), additional: fen(x.zxfjkc), other: fen(x.qtkc) })),
      );
      tax += year.at(-1)?.tax ?? 0;
      expect(r.mx[e.zjhm]).toBe(yuan(year.at(-1)?.tax ?? 0));
    }
    expect(r.ybtse).toBe(yuan(tax));
    expect(r.srze).toBe(yuan(oct.list.reduce((x, e) => x + fen(e.sre), 0)));
    expect(r).toMatchObject({ type: 'grsds', sbrq: TODAY, yqsb: false, tzs: '' });
    expect(r.pzxh).toMatch(/^1020261103\d{10}$/);
    // The report is now the last filed month, with the wages as filed.
    expect((await bureau.personnel(s)).ssq).toBe('2026-10');
  });

  it('IIT: refuses a person not in 人员信息, and a 专项附加扣除 above the one collected', async () => {
    const s = await session(SMALL2);
    const oct = await bureau.personnel(s, '2026-10');
    const stranger = await bureau.submitReturn(s, {
      type: 'grsds',
      skssqq: '2026-10-01',
      skssqz: '2026-10-31',
      sbsj: { ry: [{ zjhm: '330106199001011234', sre: '8000.00' }] },
    });
    expect(stranger).toEqual({
      status: 'rejected',
      reason: 'validation',
      msg: '表间校验不通过：人员 330106199001011234 未采集或该月未任职受雇',
    });
    const e = oct.list[0];
    const tooMuch = await bureau.submitReturn(s, {
      type: 'grsds',
      skssqq: '2026-10-01',
      skssqz: '2026-10-31',
      sbsj: { ry: [{ zjhm: e?.zjhm ?? '', sre: '8000.00', zxfjkc: yuan(fen(e?.zxfjkc ?? '0') + 100) }] },
    });
    expect(tooMuch).toMatchObject({ status: 'rejected', reason: 'validation' });
    // A zero report (no wages paid) is accepted.
    const zero = filed(
      await bureau.submitReturn(s, { type: 'grsds', skssqq: '2026-10-01', skssqz: '2026-10-31', lsb: true }),
    );
    expect(zero).toMatchObject({ lsb: true, srze: '0.00', ybtse: '0.00' });
  });

  it('VAT small-scale: 300,000.00 a quarter is exempt, 300,000.01 is taxed with halved surtaxes (late, so with 逾期申报)', async () => {
    const late = await bureau.submitReturn(await session(SMALL2), {
      type: 'zzs',
      ...Q3,
      sbsj: { ppxse: '300000.00' },
    });
    // October's quarter return is overdue: refused until filed as a late return.
    expect(late).toEqual({
      status: 'rejected',
      reason: 'overdue',
      msg: '该申报已逾期（申报期限 2026-10-26），请确认逾期申报告知后办理逾期申报',
      sbqx: '2026-10-26',
    });
    // 2026: 增值税法第二十三条 exempts sales that do not reach the 起征点 (300,000.00 itself is taxed in full:
    // apps/tax-sim/test/bureau-law.test.ts); 299,999.99 is under it.
    const exempt = filed(
      await bureau.submitReturn(await session(SMALL2), {
        type: 'zzs',
        ...Q3,
        yqsb: true,
        sbsj: { ppxse: '299999.99' },
      }),
    );
    expect(exempt).toMatchObject({ srze: '299999.99', ybtse: '0.00', yqsb: true });
    expect(exempt.mx).toMatchObject({ msxse: '299999.99', mse: '3000.00', ynse: '0.00' });
    expect(exempt.tzs).toContain('逾期 8 天');

    const taxed = filed(
      await bureau.submitReturn(await session(SMALL), { type: 'zzs', ...Q3, yqsb: true, sbsj: { ppxse: '300000.01' } }),
    );
    // 300,000.01 × 1% = 3,000.00; surtaxes halved: 市区 105 + 45 + 30 = 180 → 3,180.00 (县城 75 + 45 + 30 …)
    const expected = smallScaleVat({ cycle: 'quarter', pp1: 30_000_001, zp1: 0, location: locationOf(SMALL) });
    expect(taxed.ybtse).toBe(yuan(expected.total));
    expect(taxed.mx).toMatchObject({ ynse: '3000.00', fjsjze: yuan(expected.surtaxes.reduction) });
    if (locationOf(SMALL) === 'city') expect(taxed.ybtse).toBe('3180.00');
    // The invoices issued stay what they were, whatever was declared.
    const inv = await bureau.invoiceTotals(await session(SMALL), Q3.skssqq, Q3.skssqz);
    expect(fen(inv.zpje)).toBe(0);
    expect(fen(inv.ppje)).toBeLessThanOrEqual(30_000_000);
  });

  it('VAT: refuses a zero return when invoices were issued, and 专票 sales below the 专票 invoiced', async () => {
    const s = await session(NO_AGREEMENT);
    const inv = await bureau.invoiceTotals(s, Q3.skssqq, Q3.skssqz);
    expect(fen(inv.zpje) + fen(inv.ppje)).toBeGreaterThan(0);
    const zero = await bureau.submitReturn(s, { type: 'zzs', ...Q3, yqsb: true, lsb: true });
    expect(zero).toMatchObject({ status: 'rejected', reason: 'validation' });
    expect(zero.status === 'rejected' && zero.msg).toContain('不能零申报');
    const below = await bureau.submitReturn(s, {
      type: 'zzs',
      ...Q3,
      yqsb: true,
      sbsj: { ppxse: '1.00', zpxse: inv.zpje },
    });
    expect(below.status === 'rejected' && below.msg).toBe(
      `表间校验不通过：申报销售额 ${yuan(fen(inv.zpje) + 100)} 元小于发票系统开具金额 ${yuan(fen(inv.zpje) + fen(inv.ppje))} 元`,
    );
    if (fen(inv.zpje) > 0) {
      const under = await bureau.submitReturn(s, {
        type: 'zzs',
        ...Q3,
        yqsb: true,
        sbsj: { ppxse: yuan(fen(inv.ppje) + fen(inv.zpje)), zpxse: '0.00' },
      });
      expect(under).toMatchObject({ status: 'rejected', reason: 'validation' });
      expect(under.status === 'rejected' && under.msg).toContain('小于发票系统开具的专用发票金额');
    }
    const ok = filed(
      await bureau.submitReturn(s, { type: 'zzs', ...Q3, yqsb: true, sbsj: { ppxse: inv.ppje, zpxse: inv.zpje } }),
    );
    expect(ok.srze).toBe(yuan(fen(inv.ppje) + fen(inv.zpje)));
  });

  it('VAT general: output − input; 留抵 carried into the next return', async () => {
    const s = await session(GENERAL);
    const sep = await bureau.invoiceTotals(s, '2026-09-01', '2026-09-30');
    const sales = yuan(fen(sep.zpje) + fen(sep.ppje));
    // Input above output: nothing to pay, the difference carried.
    const output = Math.round((fen(sales) * 130) / 1000);
    const first = filed(
      await bureau.submitReturn(s, {
        type: 'zzs',
        skssqq: '2026-09-01',
        skssqz: '2026-09-30',
        yqsb: true,
        sbsj: { xse13: sales, jxse: yuan(output + 100_000) },
      }),
    );
    expect(first.mx).toMatchObject({ ynse: '0.00', qmldse: '1000.00' });
    const oct = await bureau.invoiceTotals(s, '2026-10-01', '2026-10-31');
    const octSales = fen(oct.zpje) + fen(oct.ppje);
    const second = filed(
      await bureau.submitReturn(s, {
        type: 'zzs',
        skssqq: '2026-10-01',
        skssqz: '2026-10-31',
        sbsj: { xse13: yuan(octSales), jxse: '0.00' },
      }),
    );
    const vat = Math.round((octSales * 130) / 1000) - 100_000;
    expect(second.mx).toMatchObject({ sqldse: '1000.00', ynse: yuan(vat) });
    // Surtaxes at the full rates (a general taxpayer) on the VAT paid.
    expect(fen(second.ybtse)).toBeGreaterThan(vat);
    // Sales below the invoices issued are refused.
    const fresh = await bureau.submitReturn(await session('91330106000197975L'), {
      type: 'zzs',
      skssqq: '2026-10-01',
      skssqz: '2026-10-31',
      sbsj: { xse13: '1.00', jxse: '0.00' },
    });
    expect(fresh).toMatchObject({ status: 'rejected', reason: 'validation' });
  });

  it('CIT: lines 1-3 as on the 利润表 (利润总额 is not 营业收入 − 营业成本); 小型微利 5% less what the year prepaid', async () => {
    const s = await session(SMALL);
    // A return whose stated tax disagrees with the bureau's is refused (表间校验), and nothing is filed.
    const wrong = await bureau.submitReturn(s, {
      type: 'qysds',
      ...Q3,
      yqsb: true,
      sbsj: {
        yysr: '1500000.00',
        yycb: '400000.00',
        lrze: '1000000.00',
        cyrs: 7,
        zcze: '2000000.00',
        sjlre: '1100000.00',
      },
    });
    expect(wrong).toEqual({
      status: 'rejected',
      reason: 'validation',
      msg: '表间校验不通过：实际利润额申报 1100000.00 元，按规定计算应为 1000000.00 元',
    });
    const prepaid = (await bureau.filedReturns(s, { from: '2026-01-01', to: '2026-12-31' }))
      .filter((f) => f.zsxmDm === '10104' && f.skssqq >= '2026-01-01' && f.skssqq < Q3.skssqq)
      .reduce((x, f) => x + fen(f.ybtse), 0);
    const r = filed(
      await bureau.submitReturn(s, {
        type: 'qysds',
        ...Q3,
        yqsb: true,
        sbsj: { yysr: '1500000.00', yycb: '400000.00', lrze: '1000000.00', cyrs: 7, zcze: '2000000.00' },
      }),
    );
    expect(r.mx).toMatchObject({ yysr: '1500000.00', yycb: '400000.00', lrze: '1000000.00', sjlre: '1000000.00' });
    // 1,000,000 × 5% = 50,000 − prepaid
    const expected = citPrepay({
      revenue: 150_000_000,
      cost: 40_000_000,
      profit: 100_000_000,
      prepaid,
      staff: 7,
      assets: 200_000_000,
    });
    expect(r.mx).toMatchObject({ xwqy: '1', ynsdse: '250000.00', jmsdse: '200000.00', yyjse: yuan(prepaid) });
    expect(r.ybtse).toBe(yuan(expected.tax));
    expect(r.ybtse).toBe(yuan(Math.max(0, 5_000_000 - prepaid)));
  });

  it('财务报表 must balance; 印花税 halved for a small-scale taxpayer', async () => {
    const s = await session(SMALL);
    const unbalanced = await bureau.submitReturn(s, {
      type: 'cwbb',
      ...Q3,
      yqsb: true,
      sbsj: { zcze: '900000.00', fzze: '400000.00', syzqy: '499999.99', yysr: '1500000.00', jlr: '950000.00' },
    });
    expect(unbalanced).toMatchObject({ status: 'rejected', reason: 'validation' });
    expect(unbalanced.status === 'rejected' && unbalanced.msg).toContain('资产总计 900000.00 元不等于');
    const cw = filed(
      await bureau.submitReturn(s, {
        type: 'cwbb',
        ...Q3,
        yqsb: true,
        sbsj: { zcze: '900000.00', fzze: '400000.00', syzqy: '500000.00', yysr: '1500000.00', jlr: '950000.00' },
      }),
    );
    expect(cw).toMatchObject({ srze: '1500000.00', ybtse: '0.00' });
    // 买卖 1,000,000 × 0.3‰ × ½ = 150; 借款 2,000,000 × 0.05‰ × ½ = 50 → 200
    const yhs = filed(
      await bureau.submitReturn(s, {
        type: 'yhs',
        ...Q3,
        yqsb: true,
        sbsj: {
          ht: [
            { htlx: 'mmht', je: '1000000.00' },
            { htlx: 'jkht', je: '2000000.00' },
          ],
        },
      }),
    );
    expect(yhs).toMatchObject({ srze: '3000000.00', ybtse: '200.00' });
    expect(yhs.mx).toMatchObject({ mmht: '150.00', jkht: '50.00', jmse: '200.00' });
    expect(
      stampDuty(
        [
          { kind: 'mmht', amount: 100_000_000 },
          { kind: 'jkht', amount: 200_000_000 },
        ],
        true,
      ).tax,
    ).toBe(20_000);
  });

  it('refuses a period not open yet, a type not registered, and a period that is not one', async () => {
    const s = await session(SMALL2);
    expect(
      await bureau.submitReturn(s, { type: 'grsds', skssqq: '2026-11-01', skssqz: '2026-11-30', lsb: true }),
    ).toEqual({
      status: 'rejected',
      reason: 'notOpen',
      msg: '所属期 2026-11-01 至 2026-11-30 未到申报期，暂不能申报',
    });
    expect(
      await bureau.submitReturn(s, { type: 'zzs', skssqq: '2026-10-01', skssqz: '2026-12-31', lsb: true }),
    ).toMatchObject({ status: 'rejected', reason: 'notOpen' });
    expect(
      await bureau.submitReturn(await session(GENERAL), {
        type: 'grsds',
        skssqq: '2026-10-01',
        skssqz: '2026-10-31',
        lsb: true,
      }),
    ).toMatchObject({ status: 'rejected', reason: 'notRegistered', msg: '未认定个人所得税税费种，不能申报' });
    expect(
      await bureau.submitReturn(s, { type: 'zzs', skssqq: '2026-08-01', skssqz: '2026-08-31', lsb: true }),
    ).toMatchObject({ status: 'rejected', reason: 'badParams' });
  });
});

describe('each return is filed once', () => {
  it('the same submission twice: the second answers alreadyFiled with the first receipt; filed exactly once', async () => {
    const qysh = '91330106000221732W';
    const s = await session(qysh);
    const input = { type: 'grsds' as const, skssqq: '2026-10-01', skssqz: '2026-10-31', lsb: true };
    const first = await bureau.submitReturn(s, input);
    const second = await bureau.submitReturn(s, input);
    expect(first.status).toBe('filed');
    expect(second.status).toBe('alreadyFiled');
    expect(filed(second).pzxh).toBe(filed(first).pzxh);
    expect(await filings(qysh)).toEqual([
      expect.objectContaining({ type: 'grsds', skssqq: '2026-10-01', submits: 2, filed: 1, pzxh: filed(first).pzxh }),
    ]);
  });

  it('a lost answer (filed, reply lost): the retry finds it filed; still filed once', async () => {
    const qysh = '91330106000110866G';
    const s = await session(qysh);
    sim.faults.set({ lostReply: 1 }, qysh);
    const input = { type: 'grsds' as const, skssqq: '2026-10-01', skssqz: '2026-10-31', lsb: true };
    const lost = await bureau.submitReturn(s, input).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(BureauError);
    expect((lost as BureauError).kind).toBe('unreachable');
    expect((await bureau.submitReturn(s, input)).status).toBe('alreadyFiled');
    expect((await filings(qysh)).map((f) => [f.submits, f.filed])).toEqual([[2, 1]]);
  });

  it('a return the taxpayer filed itself is alreadyFiled too, with its receipt', async () => {
    const qysh = '913301060000712713'; // filed November's IIT on its own day before the 3rd
    const s = await session(qysh);
    const item = (await bureau.filingRoster(s, '2026-11')).items.find((i) => i.type === 'grsds');
    const r = await bureau.submitReturn(s, {
      type: 'grsds',
      skssqq: item?.skssqq ?? '',
      skssqz: item?.skssqz ?? '',
      lsb: true,
    });
    expect(r.status).toBe('alreadyFiled');
    expect(filed(r)).toMatchObject({ pzxh: item?.pzxh, sbrq: item?.sbrq, ybtse: item?.ybtse });
  });
});

describe('asked before sent again (sbztcx, jkztcx) and the submissions counted', () => {
  it('a return filed while its client was gone (hangAfter): the status query has it; no second submission', async () => {
    const qysh = '91330106000187654X';
    const s = await session(qysh);
    const input = { type: 'grsds' as const, skssqq: '2026-10-01', skssqz: '2026-10-31', lsb: true };
    const key = { type: input.type, skssqq: input.skssqq };
    expect(await bureau.returnStatus(s, key)).toBeNull();
    expect(await bureau.paymentStatus(s, key)).toBeNull();
    const before = sim.submissions(qysh);
    sim.faults.set({ hangAfter: 1 }, qysh, 'ShenBaoQG/sbtj');
    const quick = httpBureauClient({ baseUrl: sim.url, timeoutMs: 500, busyDelayMs: () => 1 });
    const lost = await quick.submitReturn(s, input).catch((e: unknown) => e);
    expect((lost as BureauError).kind).toBe('unreachable');
    const rc = await bureau.returnStatus(s, key);
    expect(rc).toMatchObject({ type: 'grsds', skssqq: '2026-10-01', sbrq: TODAY, lsb: true });
    expect(rc?.pzxh).toMatch(/^\d{20}$/);
    expect(rc?.hzdz).toBe(bureau.receiptUrl(qysh, rc?.pzxh ?? ''));
    // Queries are not submissions; the one call that filed is.
    expect(sim.submissions(qysh).sbtj - before.sbtj).toBe(1);
    expect((await filings(qysh)).map((f) => [f.submits, f.filed])).toEqual([[1, 1]]);
    const res = await fetch(`${sim.url}/admin/submissions?qysh=${qysh}`);
    expect(((await res.json()) as { data: { sbtj: number } }).data.sbtj).toBe(sim.submissions(qysh).sbtj);
  });
});

describe('申报回执', () => {
  it('is a valid PDF at the receipt address, for returns filed here and before', async () => {
    const s = await session(SMALL);
    const list = await bureau.filedReturns(s, { from: '2026-01-01', to: TODAY });
    const mine = list.find((f) => f.sbrq === TODAY) as { pzxh?: string } | undefined;
    const older = list.find((f) => f.sbrq !== TODAY) as { pzxh?: string } | undefined;
    for (const pzxh of [mine?.pzxh, older?.pzxh]) {
      const res = await fetch(bureau.receiptUrl(SMALL, pzxh ?? ''));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // Opened as a viewer would: the font is embedded (a subset), 申报回执 and the receipt id are in the page.
      const read = await readPdf(bytes);
      expect(read.embedded).toBe(true);
      expect(read.fonts.every((f) => /^[A-Z]{6}\+/.test(f))).toBe(true);
      expect(read.pages).toHaveLength(1);
      expect(read.pages[0]?.items[0]).toBe('申报回执');
      expect(read.pages[0]?.text).toContain(pzxh ?? '-');
    }
    expect((await fetch(bureau.receiptUrl(SMALL, '10000000000000000000'))).status).toBe(404);
  });
});

describe('paying by 三方协议', () => {
  it('a late return paid with its late fee, once; a second payment is refused as already paid', async () => {
    const s = await session(SMALL);
    // SMALL's Q3 VAT (3,180.00 in 市区) was filed today, 8 days late: an arrear with a late fee.
    const owed = await bureau.arrears(s);
    const vat = owed.find((a) => a.zsxmMc === '增值税' && a.skssqq === Q3.skssqq);
    expect(vat).toBeTruthy();
    const paid = await bureau.payReturn(s, { type: 'zzs', skssqq: Q3.skssqq });
    expect(paid.status).toBe('paid');
    if (paid.status !== 'paid') return;
    // late fee 0.05% a day × 8 days, whole fen: 3,180.00 × 0.0005 × 8 = 12.72
    expect(paid.receipt).toMatchObject({ jkrq: TODAY, sjje: vat?.qsje, znj: vat?.znj });
    expect(fen(paid.receipt.znj)).toBe(Math.floor((fen(vat?.qsje ?? '0') * 5 * 8) / 10_000));
    expect(paid.receipt.dzsphm).toMatch(/^3\d{19}$/);
    const again = await bureau.payReturn(s, { type: 'zzs', skssqq: Q3.skssqq });
    expect(again).toEqual({ status: 'alreadyPaid', receipt: paid.receipt });
    expect((await bureau.payments(s, { from: TODAY, to: TODAY })).map((p) => p.dzsphm)).toContain(paid.receipt.dzsphm);
    expect((await bureau.arrears(s)).some((a) => a.skssqq === Q3.skssqq && a.zsxmMc === '增值税')).toBe(false);
    expect((await filings(SMALL)).find((f) => f.type === 'zzs')).toMatchObject({ filed: 1, paid: 1, payCalls: 2 });
  });

  it('未签订三方协议 and 账户余额不足 are refused with their messages; nothing to pay is said so', async () => {
    expect(defaultPayment(NO_AGREEMENT)).toBe('noAgreement');
    const s = await session(NO_AGREEMENT);
    const vat = (await bureau.filingRoster(s, '2026-10')).items.find((i) => i.type === 'zzs');
    expect(vat?.state).toBe('ysb'); // filed above, tax unpaid
    expect(await bureau.payReturn(s, { type: 'zzs', skssqq: Q3.skssqq })).toEqual({
      status: 'refused',
      reason: 'noAgreement',
      msg: '未签订三方协议，无法扣款，请先签订三方协议或到银行柜台缴款',
    });
    sim.setPayment(NO_AGREEMENT, 'lowBalance');
    expect(await bureau.payReturn(s, { type: 'zzs', skssqq: Q3.skssqq })).toEqual({
      status: 'refused',
      reason: 'lowBalance',
      msg: '账户余额不足，扣款失败',
    });
    const res = await fetch(`${sim.url}/admin/payment`, {
      method: 'POST',
      body: JSON.stringify({ qysh: NO_AGREEMENT, payment: 'ok' }),
    });
    expect(res.status).toBe(200);
    expect((await bureau.payReturn(s, { type: 'zzs', skssqq: Q3.skssqq })).status).toBe('paid');
    expect((await bureau.filingRoster(s, '2026-10')).items.find((i) => i.type === 'zzs')?.state).toBe('yjk');
    // Not filed, or nothing to pay.
    expect(await bureau.payReturn(s, { type: 'grsds', skssqq: '2026-10-01' })).toMatchObject({
      status: 'refused',
      reason: 'nothingToPay',
    });
    const s2 = await session(SMALL2);
    expect(await bureau.payReturn(s2, { type: 'zzs', skssqq: Q3.skssqq })).toEqual({
      status: 'refused',
      reason: 'nothingToPay',
      msg: '本期应补(退)税额为 0，无需缴款',
    });
  });
});

describe('jkztcx', () => {
  it('a tax paid: jkztcx gives the payment jk gave; a refused duplicate still counts as a submission', async () => {
    // SMALL's Q3 VAT was paid above ('paying by 三方协议').
    const s = await session(SMALL);
    const payment = await bureau.paymentStatus(s, { type: 'zzs', skssqq: Q3.skssqq });
    expect(payment).toMatchObject({ type: 'zzs', skssqq: Q3.skssqq, jkrq: TODAY });
    const before = sim.submissions(SMALL).jk;
    expect(await bureau.payReturn(s, { type: 'zzs', skssqq: Q3.skssqq })).toEqual({
      status: 'alreadyPaid',
      receipt: payment,
    });
    expect(sim.submissions(SMALL).jk - before).toBe(1);
  });
});

describe('the admin ledger', () => {
  it('lists every return filed or paid here, for all taxpayers or one; refuses a bad payment switch', async () => {
    const all = sim.filings();
    const res = await fetch(`${sim.url}/admin/filings`);
    const body = (await res.json()) as { data: { list: unknown[] } };
    expect(body.data.list).toEqual(all);
    expect(new Set(all.map((f) => f.qysh))).toEqual(
      new Set([SMALL, SMALL2, GENERAL, NO_AGREEMENT, ...all.map((f) => f.qysh)]),
    );
    expect(all.every((f) => f.filed <= 1 && f.paid <= 1)).toBe(true);
    expect(all.filter((f) => f.qysh === SMALL).length).toBeGreaterThanOrEqual(4);
    const bad = await fetch(`${sim.url}/admin/payment`, {
      method: 'POST',
      body: JSON.stringify({ qysh: SMALL, payment: 'rich' }),
    });
    expect(bad.status).toBe(400);
  });
});

describe('fault switches on the new calls', () => {
  it('busy is tried again, 5xx is unreachable, an expired session is kind session', async () => {
    const qysh = '91330106000126704H';
    const s = await session(qysh);
    sim.faults.set({ busy: 3 }, qysh);
    expect((await bureau.invoiceTotals(s, Q3.skssqq, Q3.skssqz)).skssqq).toBe(Q3.skssqq);
    sim.faults.set({ error5xx: 1 }, qysh);
    const e = await bureau.personnel(s).catch((x: unknown) => x);
    expect((e as BureauError).kind).toBe('unreachable');
    sim.faults.set({ busy: 2 }, qysh);
    expect(
      (await bureau.submitReturn(s, { type: 'grsds', skssqq: '2026-10-01', skssqz: '2026-10-31', lsb: true })).status,
    ).toBe('filed');
    sim.expireSessions(qysh);
    sessions.delete(qysh);
    const gone = await bureau.payReturn(s, { type: 'grsds', skssqq: '2026-10-01' }).catch((x: unknown) => x);
    expect((gone as BureauError).kind).toBe('session');
    expect((await filings(qysh)).map((f) => [f.submits, f.filed])).toEqual([[1, 1]]);
  });
});
