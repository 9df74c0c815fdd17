import {
  type CalendarItem,
  CODE,
  calendarCall,
  calendarDayCall,
  checkUnDeclaredCall,
  checkUnPaidCall,
  FILING_REMIND_QUEUE,
  filingLogListCall,
  getRoutersCall,
  httpBureauClient,
  LBSJC_MSG,
  type LbsjcItem,
  type LbsjcRate,
  lbsjcClientsCall,
  lbsjcItemsCall,
  lbsjcRateCall,
  saveIgnoredTypesCall,
  saveRemindDaysCall,
  wsbDictCall,
  xxbqListCall,
  xxbqSaveCall,
  ZSXM_NAME_TYPES,
} from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleFilingReminders } from '../src/modules/filing-check/remind.jobs.js';
import { demoEnterprises, GOOD, setCredentials } from './declare-check-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { clearMessages, jobsDone, messagesOf, testDeps } from './message-helpers.js';

process.env.CHECK_CONCURRENCY = '4';

/** The bureau's day: after the November deadline (2026-11-16), so this month's unfiled returns are overdue. */
const TODAY = '2026-11-20';
const MONTH = '2026-11';

let sim: TaxSim;
let t: TestApp;
let admin: string;
let ents: Awaited<ReturnType<typeof demoEnterprises>>;

async function waitDone(cookie: string, batchId: number): Promise<LbsjcRate> {
  const until = Date.now() + 60_000;
  for (;;) {
    const r = await t.call<LbsjcRate>(lbsjcRateCall.path, { batchId }, cookie);
    expect(r.code, r.msg).toBe(CODE.OK);
    if (r.data.state === 'done') return r.data;
    if (Date.now() > until) throw new Error(`check ${batchId} not finished`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function allItems(cookie: string, batchId: number, kind: 'wsb' | 'wjk') {
  const out: LbsjcItem[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const r = await t.call<{ list: LbsjcItem[]; total: number }>(
      lbsjcItemsCall.path,
      { batchId, kind, pageNum, pageSize: 100 },
      cookie,
    );
    expect(r.code, r.msg).toBe(CODE.OK);
    out.push(...r.data.list);
    if (r.data.list.length < 100) return out;
  }
}

/** The simulator's own roster and arrears for a taxpayer (logged in as the product would). */
async function bureauTruth(qysh: string) {
  const bureau = httpBureauClient({ baseUrl: sim.url, busyDelayMs: () => 1 });
  const login = await bureau.etaxLogin({
    qysh,
    account: 'bsy01',
    password: 'Etax@2026',
    sfbm: '1',
    loginType: '0',
  });
  if (login.status !== 1) return null;
  return { roster: await bureau.filingRoster(login.session, MONTH), arrears: await bureau.arrears(login.session) };
}

/** The clients the check answered for (msg_type 1): the others (login faults of the demo) have no result. */
async function succeeded(cookie: string, batchId: number) {
  const r = await t.call<{ list: { aeiId: number; msg_type: number }[] }>(
    lbsjcClientsCall.path,
    { batchId, pageSize: 100 },
    cookie,
  );
  return new Set(r.data.list.filter((c) => c.msg_type === 1).map((c) => c.aeiId));
}

const menuPaths = async (cookie: string) => {
  const r = await t.call<{ menus: { path: string; children: { path: string }[] }[]; buttons: string[] }>(
    getRoutersCall.path,
    {},
    cookie,
  );
  return { paths: r.data.menus.flatMap((m) => [m.path, ...m.children.map((c) => c.path)]), buttons: r.data.buttons };
};

beforeAll(async () => {
  sim = await startTaxSim({ latencyMs: 2, today: TODAY });
  t = await startTestApp({ taxBureauUrl: sim.url });
  admin = await t.login('13800000000');
  ents = await demoEnterprises(t);
  for (const e of ents) if (e.qysh) await setCredentials(t, e.id, GOOD);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('white lists', () => {
  it('lbsjc: the demo agency has 漏报检查 in its menu; 鸿信 has not, and every call is refused with the reason', async () => {
    expect((await menuPaths(admin)).paths).toContain('/declare/lbsjc');
    const other = await t.login('13900000000');
    const menu = await menuPaths(other);
    expect(menu.paths).not.toContain('/declare/lbsjc');
    expect(menu.paths).toContain('/declare/zqrl');
    const r = await t.call(checkUnPaidCall.path, {}, other);
    expect([r.code, r.msg]).toEqual([CODE.NO_PERMISSION, LBSJC_MSG.notOpen]);
    const rate = await t.call(lbsjcRateCall.path, {}, other);
    expect([rate.code, rate.msg]).toEqual([CODE.NO_PERMISSION, LBSJC_MSG.notOpen]);
  });

  it('wsbsdt: without it the unfiled-return view is refused while the unpaid check still runs', async () => {
    await t.ownerQuery(`delete from whitelist_orders where type = 'wsbsdt'`);
    try {
      const r = await t.call(wsbDictCall.path, {}, admin);
      expect([r.code, r.msg]).toEqual([CODE.NO_PERMISSION, LBSJC_MSG.wsbNotOpen]);
      const s = await t.call(checkUnDeclaredCall.path, {}, admin);
      expect([s.code, s.msg]).toEqual([CODE.NO_PERMISSION, LBSJC_MSG.wsbNotOpen]);
    } finally {
      await t.ownerQuery(
        `insert into whitelist_orders (type, busi_val) select 'wsbsdt', agency_id::text from enterprises where id = $1`,
        [ents[0]?.id],
      );
    }
    expect((await t.call(wsbDictCall.path, {}, admin)).code).toBe(CODE.OK);
  });
});

describe('漏报检查 against the simulator', () => {
  let ignoredEnt: (typeof ents)[number];

  it('sets an ignored type for a client and logs who did it', async () => {
    ignoredEnt = ents.find((e) => e.qysh && e.service_status === '1') as (typeof ents)[number];
    const r = await t.call(saveIgnoredTypesCall.path, { aeiIds: [ignoredEnt.id], ignoredTypes: ['zzs'] }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    const logs = await t.call<{ list: { qymc: string; actionName: string; userName: string; detail: string }[] }>(
      filingLogListCall.path,
      {},
      admin,
    );
    expect(logs.data.list[0]).toMatchObject({ qymc: ignoredEnt.qymc, actionName: '设置忽略税种', userName: '王建国' });
    expect(logs.data.list[0]?.detail).toContain('增值税及附加税费');
  });

  it('未申报 finds exactly the returns the simulator lists unfiled (overdue with days), ignored types left out', async () => {
    const start = await t.call<{ batchId: number; totalNum: number }>(checkUnDeclaredCall.path, {}, admin);
    expect(start.code, start.msg).toBe(CODE.OK);
    const done = await waitDone(admin, start.data.batchId);
    expect(done.completeNum).toBe(start.data.totalNum);
    const items = await allItems(admin, start.data.batchId, 'wsb');
    expect(items.length).toBe(done.foundNum);
    let overdue = 0;
    const ok = await succeeded(admin, start.data.batchId);
    expect(ok.size).toBeGreaterThan(10);
    for (const e of ents.filter((x) => ok.has(x.id)).slice(0, 25)) {
      const truth = await bureauTruth(e.qysh);
      if (!truth) continue;
      const ignored = e.id === ignoredEnt.id ? new Set(['zzs']) : new Set<string>();
      const want = truth.roster.items
        .filter((i) => (i.state === 'wsb' || i.state === 'yqwsb') && !ignored.has(i.type))
        .map((i) => `${i.type}|${i.skssqq}|${i.state}`)
        .sort();
      const got = items
        .filter((i) => i.aeiId === e.id)
        .map((i) => `${i.type}|${i.skssqq}|${i.state}`)
        .sort();
      expect(got, e.qymc).toEqual(want);
      overdue += want.filter((w) => w.endsWith('yqwsb')).length;
    }
    expect(overdue).toBeGreaterThan(0);
    for (const i of items.filter((x) => x.state === 'yqwsb')) expect(i.daysOverdue).toBeGreaterThan(0);
    expect(items.some((i) => i.aeiId === ignoredEnt.id && i.type === 'zzs')).toBe(false);
  }, 120_000);

  it('未缴款 finds exactly the filed-unpaid returns and arrears', async () => {
    const start = await t.call<{ batchId: number }>(checkUnPaidCall.path, {}, admin);
    expect(start.code, start.msg).toBe(CODE.OK);
    await waitDone(admin, start.data.batchId);
    const items = await allItems(admin, start.data.batchId, 'wjk');
    let found = 0;
    const ok = await succeeded(admin, start.data.batchId);
    for (const e of ents.filter((x) => ok.has(x.id)).slice(0, 25)) {
      if (e.id === ignoredEnt.id) continue;
      const truth = await bureauTruth(e.qysh);
      if (!truth) continue;
      const want = [
        ...new Set([
          ...truth.roster.items
            .filter((i) => i.state === 'ysb' && Number(i.ybtse) > 0)
            .map((i) => `${i.type}|${i.skssqq}`),
          ...truth.arrears.map((a) => `${ZSXM_NAME_TYPES[a.zsxmMc]}|${a.skssqq}`),
        ]),
      ].sort();
      const got = items.filter((i) => i.aeiId === e.id);
      expect(got.map((i) => `${i.type}|${i.skssqq}`).sort(), e.qymc).toEqual(want);
      found += got.length;
    }
    expect(found).toBeGreaterThan(0);
  }, 120_000);

  it('an ordinary accountant sees only their clients in the results', async () => {
    const li = await t.login('13800000002');
    const start = await t.call<{ batchId: number; totalNum: number }>(checkUnDeclaredCall.path, {}, li);
    expect(start.code, start.msg).toBe(CODE.OK);
    const liUser = (await t.ownerQuery<{ id: number }>(`select id from users where phone = '13800000002'`))[0]?.id;
    const mine = ents.filter((e) => e.qysh && e.service_status === '1' && e.allocate_user === liUser);
    expect(start.data.totalNum).toBeLessThanOrEqual(mine.length);
    await waitDone(li, start.data.batchId);
    const items = await allItems(li, start.data.batchId, 'wsb');
    const ids = new Set(mine.map((e) => e.id));
    for (const i of items) expect(ids.has(i.aeiId)).toBe(true);
  }, 120_000);
});

describe('申报设置', () => {
  it('another agency cannot name the first agency’s clients; remind days need an administrator', async () => {
    const other = await t.login('13900000000');
    const e = ents[0];
    const r = await t.call(saveIgnoredTypesCall.path, { aeiIds: [e?.id], ignoredTypes: ['yhs'] }, other);
    expect(r.code).toBe(CODE.NOT_FOUND);
    const x = await t.call(xxbqSaveCall.path, { aeiId: e?.id, sfxy: true }, other);
    expect(x.code).toBe(CODE.NOT_FOUND);
    const list = await t.call<{ list: { aeiId: number }[] }>(xxbqListCall.path, { pageSize: 100 }, other);
    expect(list.data.list.some((l) => ents.some((en) => en.id === l.aeiId))).toBe(false);
    const bad = await t.call(saveRemindDaysCall.path, { remindDays: 0 }, admin);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
  });

  it('三方协议 is recorded per client and leaves the 信息补全 list', async () => {
    // The demo has most clients signed; one of those it lists as lacking the agreement.
    const all = await t.call<{ list: { aeiId: number; lacks: string[] }[] }>(
      xxbqListCall.path,
      { item: 'sfxy' },
      admin,
    );
    const e = ents.find((x) => x.qysh && x.id === all.data.list[0]?.aeiId) as (typeof ents)[number];
    expect(e).toBeDefined();
    const lacking = await t.call<{ list: { aeiId: number; lacks: string[] }[] }>(
      xxbqListCall.path,
      { item: 'sfxy', keyword: e.qysh },
      admin,
    );
    expect(lacking.data.list.map((l) => l.aeiId)).toEqual([e.id]);
    expect((await t.call(xxbqSaveCall.path, { aeiId: e.id, sfxy: true }, admin)).code).toBe(CODE.OK);
    const after = await t.call<{ list: unknown[] }>(xxbqListCall.path, { item: 'sfxy', keyword: e.qysh }, admin);
    expect(after.data.list).toEqual([]);
  });
});

describe('征期日历', () => {
  type Cal = { months: string[]; deadlines: Record<string, string>; days: { date: string; count: number }[] };
  const dayList = async (cookie: string, date: string) => {
    const out: CalendarItem[] = [];
    for (let pageNum = 1; ; pageNum++) {
      const r = await t.call<{ list: CalendarItem[]; total: number }>(
        calendarDayCall.path,
        { date, pageNum, pageSize: 100 },
        cookie,
      );
      expect(r.code, r.msg).toBe(CODE.OK);
      out.push(...r.data.list);
      if (r.data.list.length < 100) return out;
    }
  };

  it('counts the returns due on the published deadline, per client and type, in the caller’s scope', async () => {
    const r = await t.call<Cal>(calendarCall.path, { filingMonth: MONTH }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.months).toEqual([MONTH, '2026-12']);
    expect(r.data.deadlines[MONTH]).toBe('2026-11-16');
    const day = r.data.days.find((d) => d.date === '2026-11-16');
    expect(day?.count).toBeGreaterThan(0);
    const items = await dayList(admin, '2026-11-16');
    expect(items.length).toBe(day?.count);
    // Monthly returns of October fall due; the ignored VAT of one client does not.
    expect(items.every((i) => i.skssqz === '2026-10-31')).toBe(true);
    const ignored = ents.find((e) => e.qysh && e.service_status === '1');
    expect(items.some((i) => i.aeiId === ignored?.id && i.type === 'zzs')).toBe(false);

    const zhang = await t.login('13800000002');
    const zid = (await t.ownerQuery<{ id: number }>(`select id from users where phone = '13800000002'`))[0]?.id;
    const mine = await dayList(zhang, '2026-11-16');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length).toBeLessThan(items.length);
    const theirs = new Set(ents.filter((e) => e.allocate_user === zid).map((e) => e.id));
    for (const i of mine) expect(theirs.has(i.aeiId)).toBe(true);

    // Another agency sees its own clients only.
    const other = await t.login('13900000000');
    const ours = new Set(ents.map((e) => e.id));
    for (const i of await dayList(other, '2026-11-16')) expect(ours.has(i.aeiId)).toBe(false);
  });
});

describe('征期提醒', () => {
  it('reminds each client’s staff once per return not yet filed, within the agency’s days', async () => {
    const agencyId = (
      await t.ownerQuery<{ agency_id: number }>(`select agency_id from enterprises where id = $1`, [ents[0]?.id])
    )[0]?.agency_id as number;
    expect((await t.call(saveRemindDaysCall.path, { remindDays: 3 }, admin)).code).toBe(CODE.OK);
    // One client's VAT is filed and paid (a synced roster cell): no reminder for it.
    const filed = ents.find((e) => e.allocate_user !== null && e.service_status === '1') as (typeof ents)[number];
    await t.ownerQuery(`delete from enterprise_filing_settings where enterprise_id = $1`, [filed.id]);
    await t.ownerQuery(
      `insert into filing_syncs (agency_id, enterprise_id, filing_month, nsrlx, synced_at) values ($1, $2, $3, '1', now())
       on conflict do nothing`,
      [agencyId, filed.id, MONTH],
    );
    await t.ownerQuery(
      `insert into filing_cells (agency_id, enterprise_id, filing_month, tax_type, cycle, skssqq, skssqz, state, sbqx)
       values ($1, $2, $3, 'zzs', 'quarter', '2026-07-01', '2026-09-30', 'yjk', '2026-11-16'),
              ($1, $2, $3, 'qysds', 'quarter', '2026-07-01', '2026-09-30', 'wsb', '2026-11-16')
       on conflict do nothing`,
      [agencyId, filed.id, MONTH],
    );
    await clearMessages(t, agencyId);
    await scheduleFilingReminders(testDeps(t), '2026-11-14');
    await jobsDone(t, agencyId, FILING_REMIND_QUEUE, 30_000);
    const msgs = await messagesOf(t, agencyId, filed.allocate_user as number);
    const forFiled = msgs.filter((m) => m.content.includes(filed.qymc));
    expect(forFiled.some((m) => m.content.includes('企业所得税月(季)度预缴'))).toBe(true);
    expect(forFiled.some((m) => m.content.includes('增值税及附加税费'))).toBe(false);
    const count = msgs.length;
    expect(count).toBeGreaterThan(0);
    // A rerun of the day (a restart) or the next day sends nothing twice.
    await t.ownerQuery(`delete from jobs where queue = $1`, [FILING_REMIND_QUEUE]);
    await scheduleFilingReminders(testDeps(t), '2026-11-14');
    await scheduleFilingReminders(testDeps(t), '2026-11-15');
    await jobsDone(t, agencyId, FILING_REMIND_QUEUE, 30_000);
    expect((await messagesOf(t, agencyId, filed.allocate_user as number)).length).toBe(count);
    // Outside the days: nothing.
    await t.ownerQuery(`delete from filing_reminders`);
    await clearMessages(t, agencyId);
    await scheduleFilingReminders(testDeps(t), '2026-11-05');
    await jobsDone(t, agencyId, FILING_REMIND_QUEUE, 30_000);
    expect((await messagesOf(t, agencyId, filed.allocate_user as number)).length).toBe(0);
  }, 120_000);
});
