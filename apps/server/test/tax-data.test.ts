import {
  arrearsCall,
  BUREAU_MSG,
  CODE,
  creditScoresCall,
  filedReturnsCall,
  paymentsCall,
  responsiblePersonsCall,
  socialInsuranceCall,
  TAX_DATA_HINTS,
  TAX_DATA_MSG,
  taxFenToYuan,
  taxpayerInfoCall,
  taxYuanToFen,
  unfiledReturnsCall,
} from '@dzy/shared';
import { type Scenario, startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, create, ENT, ID, LI, newUscc, OTHER_ADMIN, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * 税务数据 /declare/sjcx against the real simulated bureau: stored (a check's data) and live
 * queries per tab, data scope and tenancy, and the spec's failures (mismatch, busy, incomplete).
 */

interface Head {
  aeiId: number;
  qymc: string;
  qysh: string;
  source: 'check' | 'query' | 'none';
  collectedAt: string | null;
  failure: { msg_type: number; msg: string; hint: string } | null;
}
type ListOf<T> = Head & { list: T[] };

let sim: TaxSim;
let t: TestApp;
let admin: string;
let li: string;
let zhang: string;

/** Stored e-tax credentials; a 'mismatch' taxpayer refuses this password (it wants SIM_ETAX_PASSWORD). */
const CREDENTIALS = {
  login_type: '0',
  xdzswj_dlzh: '13312345678',
  xdzswj_pass: 'Old@2025pw',
  xdzswj_sfbm: '1',
} as const;

/** A client enterprise of the demo agency, a fresh taxpayer at the simulator that behaves as the scenario. */
async function enterprise(scenario: Scenario, opts: { credentials?: boolean; owner?: number } = {}) {
  const qysh = newUscc();
  const qymc = `税务数据${scenario}${qysh.slice(-4)}有限公司`;
  sim.setScenario(qysh, scenario, qymc);
  const r = await create(t, admin, {
    qysh,
    qymc,
    ...(opts.credentials === false ? {} : { credentials: CREDENTIALS }),
    ...(opts.owner ? { allocate_user: opts.owner } : {}),
  });
  if (r.code !== CODE.OK) throw new Error(`create ${scenario}: ${r.code} ${r.msg}`);
  return { id: r.data.id, qysh };
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const sumFen = (xs: string[]) => xs.reduce((s, x) => s + (taxYuanToFen(x) ?? 0), 0);

beforeAll(async () => {
  sim = await startTaxSim();
  process.env.TAX_BUREAU_URL = sim.url;
  t = await startTestApp();
  admin = await t.login(ADMIN);
  li = await t.login(LI);
  zhang = await t.login(ZHANG);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
  delete process.env.TAX_BUREAU_URL;
});

describe('who may see which enterprise', () => {
  it('refuses enterprises of another agency, outside the data scope, without a tax number, and without a session', async () => {
    const other = await t.call(taxpayerInfoCall.path, { aeiId: ENT.otherAgency }, admin);
    expect(other.code).toBe(CODE.NOT_FOUND);
    // 张伟 (an employee) sees only his own clients; 2 is 李晓梅's.
    const outOfScope = await t.call(taxpayerInfoCall.path, { aeiId: ENT.liOwn, live: true }, zhang);
    expect(outOfScope.code).toBe(CODE.NOT_FOUND);
    const own = await t.call<Head>(taxpayerInfoCall.path, { aeiId: ENT.liOwn }, li);
    expect(own.code).toBe(CODE.OK);
    const noTax = await t.call(unfiledReturnsCall.path, { aeiId: ENT.liNoTax }, li);
    expect(noTax.code).toBe(CODE.BAD_REQUEST);
    expect(noTax.msg).toBe(TAX_DATA_MSG.noTaxNumber);
    expect((await t.call(taxpayerInfoCall.path, { aeiId: ENT.adminOwn })).status).toBe(403);
    const otherAdmin = await t.login(OTHER_ADMIN);
    expect((await t.call(paymentsCall.path, { aeiId: ENT.adminOwn }, otherAdmin)).code).toBe(CODE.NOT_FOUND);
  });

  it('checks the query fields with clear messages', async () => {
    const noRange = await t.call(paymentsCall.path, { aeiId: ENT.adminOwn, live: true }, admin);
    expect(noRange.code).toBe(CODE.BAD_REQUEST);
    expect(noRange.msg).toContain('请选择缴款日期区间');
    const reversed = await t.call(
      paymentsCall.path,
      { aeiId: ENT.adminOwn, live: true, jkrqq: '2025-06-01', jkrqz: '2025-01-01' },
      admin,
    );
    expect(reversed.msg).toContain(TAX_DATA_MSG.rangeOrder);
    const long = await t.call(
      socialInsuranceCall.path,
      { aeiId: ENT.adminOwn, live: true, ssqq: '2019-01', ssqz: '2025-01' },
      admin,
    );
    expect(long.msg).toContain(TAX_DATA_MSG.rangeTooLong);
    const years = await t.call(
      creditScoresCall.path,
      { aeiId: ENT.adminOwn, live: true, PjndList: Array.from({ length: 11 }, (_, i) => String(2014 + i)) },
      admin,
    );
    expect(years.msg).toContain(TAX_DATA_MSG.yearsTooMany);
    const extra = await t.call(taxpayerInfoCall.path, { aeiId: ENT.adminOwn, agencyId: 2 }, admin);
    expect(extra.code).toBe(CODE.BAD_REQUEST);
  });
});

describe('stored data: what the last check collected', () => {
  it('shows nothing before a check, then the check data with its time and sums in fen', async () => {
    const { id, qysh } = await enterprise('arrears');
    const before = await t.call<Head & { info: unknown }>(taxpayerInfoCall.path, { aeiId: id }, admin);
    expect(before.data).toMatchObject({ source: 'none', collectedAt: null, info: null, failure: null });

    const collected = {
      nsrjcxx: {
        qysh,
        qymc: '税务数据有限公司',
        djxh: '10113301000012345678',
        swjgdm: '13301060000',
        swjgmc: '国家税务总局杭州市西湖区税务局',
        nsrzt: '正常',
        qyxz: '1',
        fddbrxm: '王某',
        zcdz: '杭州市西湖区文三路1号',
        djrq: '2018-05-06',
      },
      sfzhd: [{ zsxmDm: '10101', zsxmMc: '增值税', nsqx: '08', nsqxMc: '按季' }],
      wddb: [],
      wsbList: [
        {
          zsxmDm: '10101',
          zsxmMc: '增值税',
          skssqq: '2025-01-01',
          skssqz: '2025-03-31',
          ybtse: '0.00',
          sbqx: '2025-04-15',
        },
      ],
      qsxxList: [
        { zsxmMc: '增值税', skssqq: '2024-10-01', skssqz: '2024-12-31', qsje: '1234.50', znj: '12.35', overdue: true },
        {
          zsxmMc: '城市维护建设税',
          skssqq: '2024-10-01',
          skssqz: '2024-12-31',
          qsje: '86.42',
          znj: '0.86',
          overdue: false,
        },
      ],
      cxsysbList: [],
    };
    await t.ownerQuery(
      `insert into enterprise_tax_data (agency_id, enterprise_id, collected, collected_at) values (1, $1, $2::jsonb, now() - interval '1 hour')`,
      [id, JSON.stringify(collected)],
    );

    const info = await t.call<Head & { info: { qysh: string; swjgmc: string }; sfzhd: unknown[] }>(
      taxpayerInfoCall.path,
      { aeiId: id },
      admin,
    );
    expect(info.data.source).toBe('check');
    expect(info.data.collectedAt).not.toBeNull();
    expect(info.data.info.swjgmc).toBe('国家税务总局杭州市西湖区税务局');
    expect(info.data.sfzhd).toHaveLength(1);

    const unfiled = await t.call<ListOf<{ sbqx: string }>>(unfiledReturnsCall.path, { aeiId: id }, admin);
    expect(unfiled.data.source).toBe('check');
    expect(unfiled.data.list[0]?.sbqx).toBe('2025-04-15');

    const arrears = await t.call<ListOf<unknown> & { qsjeHj: string; znjHj: string; hj: string }>(
      arrearsCall.path,
      { aeiId: id },
      admin,
    );
    expect(arrears.data).toMatchObject({ source: 'check', qsjeHj: '1320.92', znjHj: '13.21', hj: '1334.13' });

    // Not collected by a check: nothing until a live query.
    const persons = await t.call<ListOf<unknown>>(responsiblePersonsCall.path, { aeiId: id }, admin);
    expect(persons.data).toMatchObject({ source: 'none', list: [] });

    // A live query is newer than the check: it is what the tab shows from now on.
    const live = await t.call<Head & { info: { qysh: string } }>(
      taxpayerInfoCall.path,
      { aeiId: id, live: true },
      admin,
    );
    expect(live.data.source).toBe('query');
    expect(live.data.info.qysh).toBe(qysh);
    const again = await t.call<Head>(taxpayerInfoCall.path, { aeiId: id }, admin);
    expect(again.data.source).toBe('query');
    expect(again.data.collectedAt).toBe(live.data.collectedAt);
  });
});

describe('live queries at the simulated bureau', () => {
  let clean: number;
  let cleanQysh: string;
  beforeAll(async () => {
    ({ id: clean, qysh: cleanQysh } = await enterprise('clean'));
  });

  it('taxpayer info and registrations', async () => {
    const r = await t.call<Head & { info: { qysh: string; qymc: string }; sfzhd: { nsqx: string }[] }>(
      taxpayerInfoCall.path,
      { aeiId: clean, live: true },
      admin,
    );
    expect(r.code).toBe(CODE.OK);
    expect(r.data.failure).toBeNull();
    expect(r.data.info.qysh).toBe(cleanQysh);
    expect(r.data.sfzhd.length).toBeGreaterThan(0);
    for (const s of r.data.sfzhd) expect(['06', '08']).toContain(s.nsqx);
  });

  it('responsible persons, with ID numbers and phones masked (first 3, ****, last 4)', async () => {
    const r = await t.call<ListOf<{ zjhm: string; lxdh: string; xm: string }>>(
      responsiblePersonsCall.path,
      { aeiId: clean, live: true },
      admin,
    );
    expect(r.data.list.length).toBeGreaterThan(0);
    for (const p of r.data.list) {
      expect(p.zjhm).toMatch(/^.{3}\*{4}.{4}$/);
      if (p.lxdh) expect(p.lxdh).toMatch(/^.{3}\*{4}.{4}$/);
    }
    // Kept masked, too.
    const [row] = await t.ownerQuery<{ result: { list: { zjhm: string }[] } }>(
      `select result from tax_data_queries where enterprise_id = $1 and tab = 'fzr'`,
      [clean],
    );
    expect(row?.result.list[0]?.zjhm).toContain('****');
  });

  it('payments within the date range, their total exact in fen, and the range kept', async () => {
    const to = new Date();
    const from = new Date(to.getTime() - 365 * 86_400_000);
    const r = await t.call<ListOf<{ jkrq: string; sjje: string }> & { hjje: string; jkrqq: string; jkrqz: string }>(
      paymentsCall.path,
      { aeiId: clean, live: true, jkrqq: iso(from), jkrqz: iso(to) },
      admin,
    );
    expect(r.data.failure).toBeNull();
    expect(r.data.list.length).toBeGreaterThan(0);
    for (const p of r.data.list) {
      expect(p.jkrq >= iso(from) && p.jkrq <= iso(to)).toBe(true);
      expect(p.sjje).toMatch(/^-?\d+\.\d{2}$/);
    }
    expect(r.data.hjje).toBe(taxFenToYuan(sumFen(r.data.list.map((p) => p.sjje))));
    const stored = await t.call<typeof r.data>(paymentsCall.path, { aeiId: clean }, admin);
    expect(stored.data).toMatchObject({ source: 'query', jkrqq: iso(from), jkrqz: iso(to), hjje: r.data.hjje });
  });

  it('filed and unfiled returns', async () => {
    const year = new Date().getFullYear();
    const filed = await t.call<ListOf<{ sbrq: string }>>(
      filedReturnsCall.path,
      { aeiId: clean, live: true, sbrqq: `${year - 1}-01-01`, sbrqz: iso(new Date()) },
      admin,
    );
    expect(filed.data.failure).toBeNull();
    expect(filed.data.list.length).toBeGreaterThan(0);
    for (const f of filed.data.list) expect(f.sbrq >= `${year - 1}-01-01`).toBe(true);
    const unfiled = await t.call<ListOf<unknown>>(unfiledReturnsCall.path, { aeiId: clean, live: true }, admin);
    expect(unfiled.data).toMatchObject({ source: 'query', failure: null });
  });

  it('arrears with their detail and sums for a taxpayer in arrears; none for a clean one', async () => {
    const { id } = await enterprise('arrears', { owner: ID.li });
    const r = await t.call<ListOf<{ qsje: string; znj: string }> & { qsjeHj: string; znjHj: string; hj: string }>(
      arrearsCall.path,
      { aeiId: id, live: true },
      li,
    );
    expect(r.data.failure).toBeNull();
    expect(r.data.list.length).toBeGreaterThan(0);
    expect(r.data.qsjeHj).toBe(taxFenToYuan(sumFen(r.data.list.map((a) => a.qsje))));
    expect(r.data.hj).toBe(taxFenToYuan(sumFen(r.data.list.flatMap((a) => [a.qsje, a.znj]))));
    const none = await t.call<ListOf<unknown> & { hj: string }>(arrearsCall.path, { aeiId: clean, live: true }, admin);
    expect(none.data).toMatchObject({ list: [], hj: '0.00' });
  });

  it('unit social insurance by month and credit scores by year', async () => {
    const now = new Date();
    const ssqz = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
    const ssqq = `${now.getFullYear() - 1}-${String(now.getMonth() + 1).padStart(2, '0')}`;
    const si = await t.call<ListOf<{ ssq: string }> & { dwjfjeHj: string }>(
      socialInsuranceCall.path,
      { aeiId: clean, live: true, ssqq, ssqz },
      admin,
    );
    expect(si.data.failure).toBeNull();
    for (const m of si.data.list) expect(m.ssq >= ssqq && m.ssq <= ssqz).toBe(true);
    expect(si.data.dwjfjeHj).toMatch(/^\d+\.\d{2}$/);

    // A taxpayer is rated from the year it registered (its first year M, new); the test's tax number is
    // random, so the years rated depend on its registration date, shown on the info tab.
    const info = await t.call<{ info: { djrq: string } }>(taxpayerInfoCall.path, { aeiId: clean }, admin);
    const since = Number(info.data.info.djrq.slice(0, 4));
    const years = ['2021', '2022', '2023'];
    const cs = await t.call<ListOf<{ pjnd: string; jb: string }> & { PjndList: string[] }>(
      creditScoresCall.path,
      { aeiId: clean, live: true, PjndList: years },
      admin,
    );
    expect(cs.data.failure).toBeNull();
    expect(cs.data.PjndList).toEqual(years);
    expect(cs.data.list.map((c) => c.pjnd).sort()).toEqual(years.filter((y) => Number(y) >= since));
    for (const c of cs.data.list) expect(['A', 'B', 'M', 'C', 'D']).toContain(c.jb);
    if (since >= 2021) expect(cs.data.list.find((c) => c.pjnd === String(since))?.jb).toBe('M');
  });
});

describe('failures come back with the spec message and what to do', () => {
  it('a name/password mismatch: msg_type 4, the verification flag saved as 4', async () => {
    const { id } = await enterprise('mismatch');
    const r = await t.call<Head>(taxpayerInfoCall.path, { aeiId: id, live: true }, admin);
    // The demo password is not the mismatch taxpayer's: the bureau refuses it.
    expect(r.code).toBe(CODE.OK);
    expect(r.data.failure?.msg_type).toBe(4);
    expect(r.data.failure?.msg).toBe(BUREAU_MSG.mismatch);
    expect(r.data.failure?.hint).toBe(TAX_DATA_HINTS[4]);
    expect(r.data.source).toBe('none');
    const [row] = await t.ownerQuery<{ is_verify_set: string }>(`select is_verify_set from enterprises where id = $1`, [
      id,
    ]);
    expect(row?.is_verify_set).toBe('4');
  });

  it('credentials missing: msg_type 2 网上办税账号未补全', async () => {
    const { id } = await enterprise('unfiled', { credentials: false });
    const r = await t.call<Head>(unfiledReturnsCall.path, { aeiId: id, live: true }, admin);
    expect(r.data.failure).toMatchObject({ msg_type: 2, msg: BUREAU_MSG.etaxIncomplete, hint: TAX_DATA_HINTS[2] });
  });

  it('the bureau busy at login, and busy during a query after its retries: msg_type 6 with the busy message', async () => {
    const busyLogin = await enterprise('busy');
    const r = await t.call<Head>(taxpayerInfoCall.path, { aeiId: busyLogin.id, live: true }, admin);
    expect(r.data.failure).toMatchObject({ msg_type: 6, msg: BUREAU_MSG.busy });

    // A taxpayer whose login works: the first query opens a session, then the bureau gets busy.
    const ok = await enterprise('clean');
    const first = await t.call<Head>(unfiledReturnsCall.path, { aeiId: ok.id, live: true }, admin);
    expect(first.data.failure).toBeNull();
    sim.faults.set({ busy: 'always' }, ok.qysh);
    const busy = await t.call<Head & { list: unknown[] }>(unfiledReturnsCall.path, { aeiId: ok.id, live: true }, admin);
    sim.faults.clear(ok.qysh);
    expect(busy.data.failure).toMatchObject({ msg_type: 6, msg: BUREAU_MSG.busy, hint: TAX_DATA_HINTS[6] });
    // The last good answer is still shown beside the failure.
    expect(busy.data.source).toBe('query');
    expect(busy.data.collectedAt).toBe(first.data.collectedAt);

    const unconfirmed = await enterprise('unconfirmed');
    const trusted = await t.call<Head>(taxpayerInfoCall.path, { aeiId: unconfirmed.id, live: true }, admin);
    expect(trusted.data.failure?.msg_type).toBe(5);
    expect(trusted.data.failure?.msg).toMatch(/^可信登录失败/);
  });

  it('an expired bureau session is renewed once without the user noticing', async () => {
    const { id, qysh } = await enterprise('unfiled', { owner: ID.zhang });
    const first = await t.call<Head>(unfiledReturnsCall.path, { aeiId: id, live: true }, zhang);
    expect(first.data.failure).toBeNull();
    sim.expireSessions(qysh);
    const again = await t.call<ListOf<unknown>>(unfiledReturnsCall.path, { aeiId: id, live: true }, zhang);
    expect(again.data.failure).toBeNull();
    expect(again.data.list.length).toBeGreaterThan(0);
  });
});
