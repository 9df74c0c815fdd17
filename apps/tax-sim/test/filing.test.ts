import {
  type BureauClient,
  BureauError,
  duePeriod,
  type FilingCycle,
  type FilingRoster,
  type FilingRosterItem,
  type FilingState,
  type FilingTaxType,
  filingMonthOf,
  httpBureauClient,
  type ReturnSubmission,
  type TaxReturn,
  usccCheckChar,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookOf, roster } from '../src/filing.js';
import { SCENARIO_TAXPAYERS, type Scenario, startTaxSim, type TaxSim } from '../src/index.js';
import { defaultFlavour, makeTaxpayer, SCENARIOS } from '../src/taxpayers.js';

// The simulated bureau's filing model (docs/tax-bureau-protocol.md, "The filing model"): the 应申报清册
// (sbqc) and every older query are views of one book per taxpayer, so they agree; deadlines and due
// months follow the filing calendar; behaviour over the month is deterministic per taxpayer.

const uscc = (first17: string) => first17 + usccCheckChar(first17);
/** Ordinary taxpayers: companies (91…) and a few sole traders (92…). */
const taxNumbers = (n: number, prefix = '91') =>
  Array.from({ length: n }, (_, i) => uscc(`${prefix}330106${String(i * 7919).padStart(9, '0')}`));
const scenarioQysh = (s: Scenario) => SCENARIO_TAXPAYERS.find((t) => t.scenario === s)?.qysh ?? '';
const fen = (money: string) => Math.round(Number(money) * 100);
const key = (r: { zsxmDm?: string; skssqq: string }) => `${r.zsxmDm}:${r.skssqq}`;
/** The legacy lists' 征收项目 code of a roster type (docs: "The filing model"). */
const ZSXM_DM: Readonly<Record<FilingTaxType, string>> = {
  zzs: '10101',
  qysds: '10104',
  grsds: '10106',
  cwbb: 'CWBB',
  yhs: '10111',
  qysdsnd: '10104ND',
  gsnb: 'GSNB',
  cbj: '30218',
};
const itemKey = (it: FilingRosterItem) => `${ZSXM_DM[it.type]}:${it.skssqq}`;

async function session(bureau: BureauClient, qysh: string) {
  const r = await bureau.etaxLogin({ qysh, account: '330106198001010011', password: 'x', sfbm: '1', loginType: '0' });
  if (r.status !== 1) throw new Error(`login of ${qysh} failed`);
  return r.session;
}

describe('one truth: the roster agrees with wsb, cxsysb, jkxx, qsxx, wddb and sfzhd', () => {
  const seen = new Set<FilingState>();
  let arrearsSeen = 0;
  const dates = ['2026-11-03', '2026-11-16', '2026-11-25', '2026-12-03', '2027-01-12', '2027-06-20'];
  const people = [
    ...taxNumbers(14),
    ...taxNumbers(3, '92'),
    scenarioQysh('clean'),
    scenarioQysh('unfiled'),
    scenarioQysh('arrears'),
  ];

  for (const today of dates) {
    it(`on ${today}`, async () => {
      const sim = await startTaxSim({ today });
      try {
        const bureau = httpBureauClient({ baseUrl: sim.url, timeoutMs: 5_000 });
        for (const qysh of people) {
          const { owed } = await viewsAgree(bureau, qysh, today, seen);
          arrearsSeen += owed.length;
        }
      } finally {
        await sim.close();
      }
    });
  }

  it('over these dates every state and some arrears were seen', () => {
    expect(seen).toEqual(new Set(['wsb', 'wxsb', 'ysb', 'yjk', 'yqwsb']));
    expect(arrearsSeen).toBeGreaterThan(0);
  });
});

/**
 * The roster of the month of `today` agrees with wsb, cxsysb, jkxx, qsxx, wddb and sfzhd for one taxpayer
 * (expects inside); the states seen are added to `seen`.
 */
async function viewsAgree(bureau: BureauClient, qysh: string, today: string, seen = new Set<FilingState>()) {
  const month = today.slice(0, 7);
  const s = await session(bureau, qysh);
  const r: FilingRoster = await bureau.filingRoster(s, month);
  const unfiled = await bureau.unfiledReturns(s);
  const filed = await bureau.filedReturns(s, { from: '2019-01-01', to: '2030-12-31' });
  const paid = await bureau.payments(s, { from: '2019-01-01', to: '2030-12-31' });
  const owed = await bureau.arrears(s);
  const todos = await bureau.todos(s);
  const regs = await bureau.registrations(s);
  const filedBy = new Map(filed.map((f) => [key(f), f]));
  const paidBy = new Map(paid.map((p) => [`${p.zsxmMc}:${p.skssqq}`, p]));
  const unfiledBy = new Map(unfiled.map((u) => [key(u), u]));
  const zsxmMc = new Map(filed.concat(unfiled).map((x) => [x.zsxmDm, x.zsxmMc]));

  // One item per registration, then the earlier returns still unfiled.
  expect(r.items.slice(0, r.registrations.length).map((i) => i.type)).toEqual(r.registrations.map((g) => g.type));
  for (const it of r.items) {
    seen.add(it.state);
    if (it.state === 'wxsb') {
      expect(it).toMatchObject({ skssqq: '', skssqz: '', sbqx: '', ybtse: '0.00' });
      continue;
    }
    const k = itemKey(it);
    if (it.state === 'wsb' || it.state === 'yqwsb') {
      expect(unfiledBy.get(k), `${qysh} ${k} unfiled`).toMatchObject({ sbqx: it.sbqx, ybtse: it.ybtse });
      expect(filedBy.has(k)).toBe(false);
      expect(it.state).toBe(today > it.sbqx ? 'yqwsb' : 'wsb');
      continue;
    }
    // Filed: the same return in cxsysb, with its date, tax and receipt.
    const f = filedBy.get(k) as (TaxReturn & { pzxh?: string; srze?: string }) | undefined;
    expect(f, `${qysh} ${k} filed`).toMatchObject({
      sbrq: it.sbrq,
      ybtse: it.ybtse,
      pzxh: it.pzxh,
      srze: it.srze,
    });
    expect(it.sbrq && it.sbrq <= today).toBe(true);
    const payment = paidBy.get(`${zsxmMc.get(ZSXM_DM[it.type])}:${it.skssqq}`);
    if (it.state === 'yjk') {
      if (fen(it.ybtse) > 0) expect(payment?.jkrq).toBe(it.jkrq);
      else expect(payment).toBeUndefined();
    } else {
      expect(fen(it.ybtse)).toBeGreaterThan(0);
      expect(payment).toBeUndefined();
      const arrear = owed.find((a) => a.skssqq === it.skssqq && a.zsxmMc === zsxmMc.get(ZSXM_DM[it.type]));
      expect(Boolean(arrear)).toBe(today > it.sbqx);
    }
  }
  // Every unfiled return is on the roster of the current month (its own month or earlier).
  expect(
    r.items
      .filter((i) => i.state === 'wsb' || i.state === 'yqwsb')
      .map(itemKey)
      .sort(),
  ).toEqual(unfiled.map(key).sort());
  // Arrears: filed, not paid, past the deadline; late fee 0.05% a day in whole fen.
  for (const a of owed) {
    const f = filed.find((x) => x.zsxmMc === a.zsxmMc && x.skssqq === a.skssqq);
    expect(f?.ybtse).toBe(a.qsje);
    expect(paidBy.has(`${a.zsxmMc}:${a.skssqq}`)).toBe(false);
    const sbqx = deadlineOf(f?.zsxmDm ?? '', a.skssqq, a.skssqz);
    const days = Math.round((Date.parse(today) - Date.parse(sbqx)) / 86_400_000);
    expect(days).toBeGreaterThan(0);
    expect(fen(a.znj)).toBe(Math.floor((fen(a.qsje) * 5 * days) / 10_000));
  }
  // Every payment is of a filed return, for its whole tax.
  for (const p of paid) {
    const f = filed.find((x) => x.zsxmMc === p.zsxmMc && x.skssqq === p.skssqq);
    expect(f?.ybtse).toBe(p.sjje);
    expect(p.jkrq >= (f?.sbrq ?? '') && p.jkrq <= today).toBe(true);
  }
  // To-dos: one per unfiled return, one per arrear.
  expect(todos.filter((t) => t.code === '33001').length).toBe(unfiled.length);
  expect(todos.filter((t) => t.code === '33002').length).toBe(owed.length);
  // sfzhd lists the registered taxes: VAT with its surtaxes at the VAT cycle, CIT, IIT, stamp duty.
  const vat = r.registrations.find((g) => g.type === 'zzs');
  const nsqx = vat?.cycle === 'month' ? '06' : '08';
  for (const dm of ['10101', '10109', '30203', '30216']) expect(regs.find((g) => g.zsxmDm === dm)?.nsqx).toBe(nsqx);
  expect(regs.some((g) => g.zsxmDm === '10106')).toBe(r.registrations.some((g) => g.type === 'grsds'));
  expect(regs.some((g) => g.zsxmDm === '10104')).toBe(r.registrations.some((g) => g.type === 'qysds'));
  return { roster: r, unfiled, filed, paid, owed, todos };
}

/** The deadline of a return from the filing calendar, by its legacy code and 所属期. */
function deadlineOf(zsxmDm: string, skssqq: string, skssqz: string): string {
  const type = (Object.keys(ZSXM_DM) as FilingTaxType[]).find((t) => ZSXM_DM[t] === zsxmDm);
  if (!type) return '';
  const cycle: FilingCycle = ['qysdsnd', 'gsnb', 'cbj'].includes(type)
    ? 'year'
    : skssqq.slice(0, 7) === skssqz.slice(0, 7)
      ? 'month'
      : 'quarter';
  const reg = { type, cycle };
  return duePeriod(reg, filingMonthOf(reg, skssqz))?.sbqx ?? '';
}

describe('the calendar on the roster', () => {
  let sim: TaxSim;
  let bureau: BureauClient;
  beforeAll(async () => {
    sim = await startTaxSim({ today: '2027-07-20' });
    bureau = httpBureauClient({ baseUrl: sim.url, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('hand-checked deadlines: 2026-10 → 10-26 (published), 2027-05 → 05-17 (the 15th is a Saturday)', async () => {
    const s = await session(bureau, scenarioQysh('clean'));
    const oct = await bureau.filingRoster(s, '2026-10');
    for (const it of oct.items.filter((i) => i.cycle !== 'year')) {
      expect(it.sbqx).toBe('2026-10-26');
    }
    expect(oct.items.find((i) => i.type === 'zzs')).toMatchObject({ skssqz: '2026-09-30', state: 'yjk' });
    const may = await bureau.filingRoster(s, '2027-05');
    const monthly = may.items.filter((i) => i.cycle === 'month');
    expect(monthly.length).toBeGreaterThan(0);
    for (const it of monthly)
      expect(it).toMatchObject({ sbqx: '2027-05-17', skssqq: '2027-04-01', skssqz: '2027-04-30' });
    // 企业所得税年度汇算 is due by 5-31 (a Monday in 2027), for last year.
    expect(may.items.find((i) => i.type === 'qysdsnd')).toMatchObject({
      skssqq: '2026-01-01',
      skssqz: '2026-12-31',
      sbqx: '2027-05-31',
    });
  });

  it('quarterly items only in January, April, July and October; annual items in May and June', async () => {
    const people = [scenarioQysh('clean'), ...taxNumbers(6), ...taxNumbers(2, '92')];
    for (const qysh of people) {
      const s = await session(bureau, qysh);
      for (let m = 1; m <= 12; m++) {
        const month = `2026-${String(m).padStart(2, '0')}`;
        const r = await bureau.filingRoster(s, month);
        for (const it of r.items.slice(0, r.registrations.length)) {
          const due = it.state !== 'wxsb';
          if (it.cycle === 'quarter') expect(due, `${qysh} ${it.type} ${month}`).toBe([1, 4, 7, 10].includes(m));
          if (it.type === 'qysdsnd') expect(due).toBe(m === 5);
          if (it.type === 'gsnb' || it.type === 'cbj') expect(due).toBe(m === 6);
          if (it.cycle === 'month') expect(due).toBe(true);
          if (it.cycle === 'quarter' && due) {
            expect(it.skssqq.slice(5)).toBe(`${String(m === 1 ? 10 : m - 3).padStart(2, '0')}-01`);
          }
        }
      }
    }
  });

  it('a later filing month lists what will be due, nothing filed; earlier unfiled returns stay', async () => {
    const s = await session(bureau, scenarioQysh('unfiled'));
    const r = await bureau.filingRoster(s, '2027-10');
    const own = r.items.slice(0, r.registrations.length);
    for (const it of own) {
      if (it.cycle === 'year') expect(it.state).toBe('wxsb');
      else expect(it).toMatchObject({ state: 'wsb', sbqx: '2027-10-15', srze: '0.00', ybtse: '0.00' });
      expect(it.sbrq).toBeUndefined();
    }
    const earlier = r.items.slice(r.registrations.length);
    expect(earlier.map((i) => i.type)).toEqual(['zzs', 'zzs']);
    for (const it of earlier) expect(it.state).toBe('yqwsb');
  });

  it('refuses a filing month that is not YYYY-MM or before 2019-09, with a clear reply', async () => {
    const s = await session(bureau, scenarioQysh('clean'));
    for (const filingMonth of ['2019-08', '2026-13', '2026-1', 'abc', '']) {
      const res = await fetch(`${sim.url}/ShenBaoQG/sbqc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: s, filingMonth }),
      });
      const body = (await res.json()) as { code: string; msg: string };
      expect(body.code).toBe('40001');
      expect(body.msg).toContain('YYYY-MM');
      expect(body.msg).toContain('2019-09');
    }
    expect(await bureau.filingRoster(s, '2019-09')).toMatchObject({ nsrlx: expect.stringMatching(/^[01]$/) });
  });

  it('fault switches and session expiry apply to sbqc like any query', async () => {
    const qysh = taxNumbers(1)[0] ?? '';
    const s = await session(bureau, qysh);
    sim.faults.set({ busy: 'always' }, qysh);
    const busy = await bureau.filingRoster(s, '2027-07').catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(BureauError);
    expect((busy as BureauError).kind).toBe('busy');
    sim.faults.clear(qysh);
    expect((await bureau.filingRoster(s, '2027-07')).items.length).toBeGreaterThan(0);
    sim.expireSessions(qysh);
    const expired = await bureau.filingRoster(s, '2027-07').catch((e: unknown) => e);
    expect((expired as BureauError).kind).toBe('session');
  });
});

describe('behaviour over the month', () => {
  const people = taxNumbers(400);
  const states = (today: string) => {
    const count: Record<FilingState, number> = { wsb: 0, ysb: 0, yjk: 0, yqwsb: 0, wxsb: 0 };
    let earlier = 0;
    for (const qysh of people) {
      const t = makeTaxpayer(qysh, { ...SCENARIOS.clean, flavour: defaultFlavour(qysh) });
      const r = roster(bookOf(t, today), today.slice(0, 7));
      for (const it of r.items.slice(0, r.registrations.length)) count[it.state]++;
      earlier += r.items.length > r.registrations.length ? 1 : 0;
    }
    const due = count.wsb + count.ysb + count.yjk + count.yqwsb;
    return { ...count, due, earlier };
  };

  it('early in the window most returns are unfiled; some are filed', () => {
    const s = states('2026-11-03');
    expect(s.wsb / s.due).toBeGreaterThan(0.7);
    expect(s.yjk + s.ysb).toBeGreaterThan(0);
    expect(s.yqwsb).toBe(0);
  });

  it('after the deadline: about 10% filed but unpaid, about 5% overdue, the rest settled', () => {
    const s = states('2026-11-25');
    expect(s.wsb).toBe(0);
    expect(s.yqwsb / s.due).toBeGreaterThan(0.02);
    expect(s.yqwsb / s.due).toBeLessThan(0.1);
    expect(s.ysb / s.due).toBeGreaterThan(0.03);
    expect(s.ysb / s.due).toBeLessThan(0.15);
    expect(s.yjk / s.due).toBeGreaterThan(0.75);
    // Some clients still owe returns of an earlier month (the unfiled flavour, last month's late filers).
    expect(s.earlier).toBeGreaterThan(0);
    expect(s.earlier / people.length).toBeLessThan(0.3);
  });

  it('a clean taxpayer has filed and paid everything, whatever the date', () => {
    const t = makeTaxpayer(scenarioQysh('clean'), SCENARIOS.clean);
    for (const today of ['2026-11-01', '2026-11-10', '2026-11-25', '2027-01-02', '2027-05-31']) {
      const book = bookOf(t, today);
      for (const r of book.returns) {
        expect(r.sbrq && r.sbrq <= today && r.sbrq <= r.sbqx).toBeTruthy();
        if (r.ybtse > 0) expect(r.jkrq).toBe(r.sbrq);
      }
    }
  });

  it('the same taxpayer and date always give the same roster; a filed return keeps its filing date', () => {
    const qysh = people[3] ?? '';
    const t = makeTaxpayer(qysh, { ...SCENARIOS.clean, flavour: defaultFlavour(qysh) });
    const a = roster(bookOf(t, '2026-11-20'), '2026-11');
    expect(roster(bookOf(makeTaxpayer(qysh, t.behaviour), '2026-11-20'), '2026-11')).toEqual(a);
    const later = roster(bookOf(t, '2026-12-20'), '2026-11');
    for (const it of a.items.filter((i) => i.sbrq)) {
      expect(later.items.find((i) => i.type === it.type && i.skssqq === it.skssqq)?.sbrq).toBe(it.sbrq);
    }
  });
});

describe('the date option', () => {
  it('startTaxSim({ today }) and TAX_SIM_TODAY fix the bureau date; a bad date is refused', async () => {
    const fixed = await startTaxSim({ today: '2026-11-05' });
    expect(fixed.today()).toBe('2026-11-05');
    const health = (await (await fetch(`${fixed.url}/health`)).json()) as { data: { today: string } };
    expect(health.data.today).toBe('2026-11-05');
    await fixed.close();

    process.env.TAX_SIM_TODAY = '2027-02-28';
    try {
      const fromEnv = await startTaxSim();
      expect(fromEnv.today()).toBe('2027-02-28');
      await fromEnv.close();
      await expect(startTaxSim({ today: '2027-02-30' })).rejects.toThrow(/YYYY-MM-DD/);
    } finally {
      delete process.env.TAX_SIM_TODAY;
    }
    const real = await startTaxSim();
    expect(real.today()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await real.close();
  });
});

/** Figures for a return as an agency would fill them from the bureau's own data (invoices, wages). */
async function figuresFor(bureau: BureauClient, s: string, it: FilingRosterItem): Promise<ReturnSubmission> {
  const base = { type: it.type, skssqq: it.skssqq, skssqz: it.skssqz, yqsb: it.state === 'yqwsb' };
  switch (it.type) {
    case 'zzs': {
      const inv = await bureau.invoiceTotals(s, it.skssqq, it.skssqz);
      const general = (await bureau.taxpayerInfo(s)).qyxz === '0';
      const total = (fen(inv.zpje) + fen(inv.ppje)) / 100;
      return {
        ...base,
        sbsj: general
          ? { xse13: total.toFixed(2), jxse: ((total * 0.1) | 0).toFixed(2) }
          : { ppxse: inv.ppje, zpxse: inv.zpje },
      };
    }
    case 'grsds': {
      const p = await bureau.personnel(s, it.skssqq.slice(0, 7));
      return { ...base, sbsj: { ry: p.list.map((e) => ({ zjhm: e.zjhm, sre: e.sre })) } };
    }
    case 'qysds':
      return { ...base, sbsj: { yysr: '500000.00', yycb: '420000.00', lrze: '80000.00' } };
    case 'cwbb':
      return {
        ...base,
        sbsj: { zcze: '900000.00', fzze: '400000.00', syzqy: '500000.00', yysr: '500000.00', jlr: '76000.00' },
      };
    case 'yhs':
      return { ...base, sbsj: { ht: [{ htlx: 'mmht', je: '300000.00' }] } };
    default:
      return { ...base, lsb: true };
  }
}

describe('one truth after filing and paying through the bureau', () => {
  const today = '2026-11-03';
  let sim: TaxSim;
  let bureau: BureauClient;
  beforeAll(async () => {
    sim = await startTaxSim({ today });
    bureau = httpBureauClient({ baseUrl: sim.url, timeoutMs: 5_000 });
  });
  afterAll(() => sim.close());

  // Small-scale with employees and October's quarter overdue; a general taxpayer with both months open;
  // the unfiled and arrears scenarios.
  const people = ['91330106000166299W', '91330106000158380C', scenarioQysh('unfiled'), scenarioQysh('arrears')];
  for (const qysh of people) {
    it(`${qysh}: every return filed (late ones with 逾期申报), then paid; every view agrees after each step`, async () => {
      const s = await session(bureau, qysh);
      const before = await viewsAgree(bureau, qysh, today);
      const open = before.roster.items.filter((i) => i.state === 'wsb' || i.state === 'yqwsb');
      expect(open.length).toBeGreaterThan(0);
      for (const it of open) {
        const r = await bureau.submitReturn(s, await figuresFor(bureau, s, it));
        expect(r.status, `${it.type} ${it.skssqq} ${r.status === 'rejected' ? r.msg : ''}`).toBe('filed');
        if (r.status === 'filed') {
          expect(r.receipt.yqsb).toBe(it.state === 'yqwsb');
          expect(Boolean(r.receipt.tzs)).toBe(it.state === 'yqwsb');
        }
      }
      const filed = await viewsAgree(bureau, qysh, today);
      expect(filed.unfiled).toEqual([]);
      expect(filed.todos.filter((t) => t.code === '33001')).toEqual([]);
      const states = new Set(filed.roster.items.filter((i) => i.state !== 'wxsb').map((i) => i.state));
      expect([...states].every((x) => x === 'ysb' || x === 'yjk')).toBe(true);
      for (const it of filed.roster.items.filter((i) => i.sbrq === today)) {
        expect(filed.filed.find((f) => f.skssqq === it.skssqq && f.sbrq === today)).toBeTruthy();
      }

      // Pay everything filed and unpaid: this month's, the late ones (arrears now) and older arrears.
      const unpaid = (await bureau.filingRoster(s, '2026-11')).items.filter((i) => i.state === 'ysb');
      const typeOf: Record<string, FilingTaxType> = {
        增值税: 'zzs',
        企业所得税: 'qysds',
        个人所得税: 'grsds',
        印花税: 'yhs',
        残疾人就业保障金: 'cbj',
        企业所得税年度汇算: 'qysdsnd',
      };
      for (const a of await bureau.arrears(s)) {
        const type = typeOf[a.zsxmMc];
        if (type && !unpaid.some((u) => u.type === type && u.skssqq === a.skssqq)) {
          unpaid.push({ type, skssqq: a.skssqq } as FilingRosterItem);
        }
      }
      sim.setPayment(qysh, 'ok');
      for (const it of unpaid) {
        const p = await bureau.payReturn(s, { type: it.type, skssqq: it.skssqq });
        expect(p.status, `${it.type} ${it.skssqq}`).toBe('paid');
      }
      const paid = await viewsAgree(bureau, qysh, today);
      expect(paid.owed).toEqual([]);
      expect(paid.todos.filter((t) => t.code === '33002')).toEqual([]);
      expect(paid.roster.items.filter((i) => i.state !== 'wxsb').every((i) => i.state === 'yjk')).toBe(true);
      expect(paid.paid.filter((p) => p.jkrq === today).length).toBe(unpaid.length);
    });
  }
});
