import {
  BUREAU_MSG,
  CHECK_MSG,
  type CheckLog,
  type CheckRate,
  type CheckStartReply,
  CODE,
  CONTRACT_WARNING,
  checkCountCall,
  checkListCall,
  checkQyshCountCall,
  checkRateCall,
  checkResultListCall,
  checkStartCall,
  checkStopCall,
  chooserListCall,
  contractStatusCall,
  defaultSsq,
  failCheckListCall,
  lastCheckInfoCall,
  type SummaryLog,
  saveReminderSettingsCall,
} from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEnterprises, GOOD, setCredentials, startCountingProxy, waitFinished } from './declare-check-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

// The cap C of this file: the runner reads it when it starts.
const C = 3;
process.env.CHECK_CONCURRENCY = String(C);

let sim: TaxSim;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let t: TestApp;
let admin: string;
let ents: Awaited<ReturnType<typeof demoEnterprises>>;
const ssq = defaultSsq();

type Page<T> = { list: T[]; total: number };

async function start(body: Record<string, unknown>, cookie = admin) {
  return t.call<CheckRate>(checkStartCall.path, { ssq, ...body }, cookie);
}
async function runSelected(ids: number[]) {
  const r = await start({ scope: 'selected', aeiIds: ids });
  expect(r.code, r.msg).toBe(CODE.OK);
  return waitFinished(t, admin, r.data.batchId);
}
async function results(batchId: number, extra: Record<string, unknown> = {}) {
  const r = await t.call<Page<CheckLog>>(checkResultListCall.path, { batchId, pageSize: 100, ...extra }, admin);
  expect(r.code, r.msg).toBe(CODE.OK);
  return r.data;
}
const byId = async (batchId: number) => new Map((await results(batchId)).list.map((l) => [l.aeiId, l]));

beforeAll(async () => {
  sim = await startTaxSim({ latencyMs: 15 });
  proxy = await startCountingProxy(sim.url);
  t = await startTestApp({ taxBureauUrl: proxy.url });
  admin = await t.login('13800000000');
  ents = (await demoEnterprises(t)).filter((e) => e.qysh !== '');
  // Every client of the demo agency gets good credentials and a membership in force; tests then spoil some.
  // The demo's own mix (scenario tax numbers) is replaced by clean taxpayers; each test sets what it needs.
  for (const e of ents) {
    await setCredentials(t, e.id, GOOD);
    sim.setScenario(e.qysh, 'clean');
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await sim?.close();
});

describe('one enterprise per msg_type, through the simulator', () => {
  it('gives each of the eight outcomes with the spec messages, and stores what a good check collected', async () => {
    const [ok, noEtax, noGs, mismatch, sms, busy, locked, expired, noAssoc, deregistered] = ents;
    if (!ok || !noEtax || !noGs || !mismatch || !sms || !busy || !locked || !expired || !noAssoc || !deregistered) {
      throw new Error('the demo agency has too few enterprises');
    }
    await setCredentials(t, noEtax.id, { etax: null });
    await setCredentials(t, noGs.id, { personal: null });
    sim.setScenario(mismatch.qysh, 'mismatch');
    await setCredentials(t, mismatch.id, { etax: { account: 'bsy01', password: 'Old@2020' } });
    sim.setScenario(sms.qysh, 'sms');
    sim.setScenario(busy.qysh, 'busy');
    sim.setScenario(locked.qysh, 'personalLocked');
    await setCredentials(t, expired.id, { hydqsj: '2020-01-01', qyzt: '3' });
    sim.setScenario(noAssoc.qysh, 'noAssociation');
    sim.setScenario(deregistered.qysh, 'deregistered');

    const ids = [ok, noEtax, noGs, mismatch, sms, busy, locked, expired, noAssoc, deregistered].map((e) => e.id);
    const rate = await runSelected(ids);
    expect(rate).toMatchObject({
      state: 'done',
      isChecks: 2,
      totalNum: 10,
      completeNum: 10,
      successNum: 1,
      failNum: 9,
      rate: 100,
    });

    const got = await byId(rate.batchId);
    const outcome = (id: number) => [got.get(id)?.msg_type, got.get(id)?.msg];
    expect(outcome(ok.id)).toEqual([1, '检查成功']);
    expect(outcome(noEtax.id)).toEqual([2, BUREAU_MSG.etaxIncomplete]);
    expect(outcome(noGs.id)).toEqual([3, BUREAU_MSG.personalIncomplete]);
    expect(outcome(mismatch.id)).toEqual([4, BUREAU_MSG.mismatch]);
    expect(got.get(sms.id)?.msg_type).toBe(5);
    expect(got.get(sms.id)?.msg).toMatch(/^可信登录失败/);
    expect(outcome(busy.id)).toEqual([6, BUREAU_MSG.busy]);
    expect(outcome(locked.id)).toEqual([7, BUREAU_MSG.personalLocked]);
    expect(outcome(expired.id)).toEqual([8, BUREAU_MSG.serviceExpired]);
    expect(got.get(noAssoc.id)?.msg_type).toBe(5);
    expect(got.get(noAssoc.id)?.msg).toMatch(/^可信登录失败/);
    expect(outcome(deregistered.id)).toEqual([7, BUREAU_MSG.personalDeregistered]);
    expect(got.get(ok.id)?.geshui_type).toBe('1');
    expect(got.get(noGs.id)?.geshui_type).toBe('3');

    // The mismatch marks the enterprise's verification status '4' (tax-bureau.md §4).
    const [m] = await t.ownerQuery<{ is_verify_set: string }>('select is_verify_set from enterprises where id = $1', [
      mismatch.id,
    ]);
    expect(m?.is_verify_set).toBe('4');

    // Collected data of the good one, for the tax data pages; none for the failures.
    const data = await t.ownerQuery<{ enterprise_id: number; collected: { nsrjcxx: { qysh: string } } }>(
      'select enterprise_id, collected from enterprise_tax_data where batch_id = $1',
      [rate.batchId],
    );
    expect(data.map((d) => d.enterprise_id)).toEqual([ok.id]);
    expect(data[0]?.collected.nsrjcxx.qysh).toBe(ok.qysh);
    const keys = Object.keys((data[0]?.collected ?? {}) as object).sort();
    expect(keys).toEqual(['cxsysbList', 'nsrjcxx', 'qsxxList', 'sfzhd', 'wddb', 'wsbList']);

    // The bureau session is cached encrypted: the plain token is nowhere in the row.
    const sessions = await t.ownerQuery<{ session_enc: string }>(
      "select session_enc from etax_sessions where enterprise_id = $1 and kind = 'etax'",
      [ok.id],
    );
    expect(sessions[0]?.session_enc).toMatch(/^v1:/);

    // Counts per msg_type, the failed list (2-8), the filter by msg_type.
    const counts = await t.call<{ byType: Record<string, number>; failNum: number }>(
      checkCountCall.path,
      { batchId: rate.batchId },
      admin,
    );
    expect(counts.data.byType).toEqual({ '1': 1, '2': 1, '3': 1, '4': 1, '5': 2, '6': 1, '7': 2, '8': 1 });
    const failed = await t.call<Page<CheckLog>>(failCheckListCall.path, { batchId: rate.batchId }, admin);
    expect(failed.data.total).toBe(9);
    expect(failed.data.list.every((l) => l.msg_type !== 1)).toBe(true);
    const fives = await results(rate.batchId, { msg_type: 5 });
    expect(fives.list.map((l) => l.aeiId).sort()).toEqual([sms.id, noAssoc.id].sort());
    const search = await results(rate.batchId, { keyword: ok.qysh });
    expect(search.list.map((l) => l.aeiId)).toEqual([ok.id]);

    // The summary log and the last check.
    const last = await t.call<SummaryLog>(lastCheckInfoCall.path, {}, admin);
    expect(last.data).toMatchObject({ id: rate.batchId, ssq, checkNum: 10, successNum: 1, failNum: 9, state: 'done' });
    const logs = await t.call<Page<SummaryLog>>(checkListCall.path, { ssq }, admin);
    expect(logs.data.list[0]?.id).toBe(rate.batchId);

    for (const e of [mismatch, sms, busy, locked, noAssoc, deregistered]) sim.setScenario(e.qysh, 'clean');
    await setCredentials(t, mismatch.id, GOOD);
    await setCredentials(t, noEtax.id, GOOD);
    await setCredentials(t, noGs.id, GOOD);
    await setCredentials(t, expired.id, GOOD);
  }, 90_000);
});

describe('retries', () => {
  it('a bureau busy past the client retries is tried again later and then succeeds', async () => {
    const e = ents[20];
    if (!e) throw new Error('no enterprise');
    sim.faults.set({ busy: 11 }, e.qysh); // the client tries 10 times: the job's first try ends busy
    const rate = await runSelected([e.id]);
    expect((await byId(rate.batchId)).get(e.id)?.msg_type).toBe(1);
    const [job] = await t.ownerQuery<{ attempts: number; state: string }>(
      "select attempts, state from jobs where queue = 'declare-check' and key = $1",
      [`${rate.batchId}:${e.id}`],
    );
    expect(job).toEqual({ attempts: 2, state: 'done' });
  }, 60_000);

  it('5xx replies are retried with backoff', async () => {
    const e = ents[21];
    if (!e) throw new Error('no enterprise');
    sim.faults.set({ error5xx: 2 }, e.qysh);
    const rate = await runSelected([e.id]);
    expect((await byId(rate.batchId)).get(e.id)?.msg_type).toBe(1);
    const [job] = await t.ownerQuery<{ attempts: number }>(
      "select attempts from jobs where queue = 'declare-check' and key = $1",
      [`${rate.batchId}:${e.id}`],
    );
    expect(job?.attempts).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('a bureau that stays busy gives 6 with the busy message once the tries are used up', async () => {
    const e = ents[22];
    if (!e) throw new Error('no enterprise');
    sim.faults.set({ busy: 'always' }, e.qysh);
    const rate = await runSelected([e.id]);
    const r = (await byId(rate.batchId)).get(e.id);
    expect([r?.msg_type, r?.msg]).toEqual([6, BUREAU_MSG.busy]);
    sim.faults.clear(e.qysh);
  }, 60_000);

  it('a session the bureau ended is dropped and the enterprise logs in again once', async () => {
    const e = ents[0];
    if (!e) throw new Error('no enterprise');
    const before = await t.ownerQuery<{ session_enc: string }>(
      "select session_enc from etax_sessions where enterprise_id = $1 and kind = 'etax'",
      [e.id],
    );
    expect(before).toHaveLength(1);
    sim.expireSessions(e.qysh);
    const rate = await runSelected([e.id]);
    expect((await byId(rate.batchId)).get(e.id)?.msg_type).toBe(1);
    const after = await t.ownerQuery<{ session_enc: string }>(
      "select session_enc from etax_sessions where enterprise_id = $1 and kind = 'etax'",
      [e.id],
    );
    expect(after[0]?.session_enc).not.toBe(before[0]?.session_enc);
  }, 60_000);
});

describe('the whole book, the cap, stop', () => {
  it('checks every served enterprise of the scope with at most C bureau calls in flight', async () => {
    await t.ownerQuery('delete from etax_sessions');
    proxy.reset();
    const count = await t.call<{ totalNum: number; qyshNum: number }>(checkQyshCountCall.path, {}, admin);
    const served = (await demoEnterprises(t)).filter((e) => e.service_status === '1').length;
    expect(count.data.totalNum).toBe(served);
    const r = await start({ scope: 'all' });
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.totalNum).toBe(served);
    const done = await waitFinished(t, admin, r.data.batchId, 120_000);
    expect(done.completeNum).toBe(served);
    const s = proxy.stats();
    expect(s.maxInFlight).toBeLessThanOrEqual(C);
    expect(s.maxInFlight).toBe(C); // and the cap is reached
    // Every enterprise has exactly one outcome.
    const rows = await t.ownerQuery<{ n: number; nulls: number }>(
      'select count(*)::int as n, count(*) filter (where msg_type is null)::int as nulls from check_results where batch_id = $1',
      [r.data.batchId],
    );
    expect(rows[0]).toEqual({ n: served, nulls: 0 });
  }, 150_000);

  it('stop leaves the enterprises not started unchecked and finishes the batch', async () => {
    sim.faults.set({ slowMs: 150 });
    try {
      const r = await start({ scope: 'all' });
      expect(r.code).toBe(CODE.OK);
      await new Promise((res) => setTimeout(res, 600));
      const again = await start({ scope: 'all' });
      expect([again.code, again.msg]).toEqual([CODE.CONFLICT, '已有检查正在进行，请等待完成或先停止检查']);
      const stopped = await t.call<CheckRate>(checkStopCall.path, { batchId: r.data.batchId }, admin);
      expect(stopped.code, stopped.msg).toBe(CODE.OK);
      expect(stopped.data).toMatchObject({ state: 'stopped', isChecks: 2 });
      // Those in flight finish; nothing else starts.
      await new Promise((res) => setTimeout(res, 2500));
      const settled = await t.call<CheckRate>(checkRateCall.path, { batchId: r.data.batchId }, admin);
      await new Promise((res) => setTimeout(res, 1500));
      const later = await t.call<CheckRate>(checkRateCall.path, { batchId: r.data.batchId }, admin);
      expect(later.data.completeNum).toBe(settled.data.completeNum);
      expect(later.data.completeNum).toBeLessThan(later.data.totalNum);
      expect(later.data.state).toBe('stopped');
      const queued = await t.ownerQuery<{ n: number }>(
        "select count(*)::int as n from jobs where queue = 'declare-check' and key like $1 and state in ('queued', 'running')",
        [`${r.data.batchId}:%`],
      );
      expect(queued[0]?.n).toBe(0);
      const again2 = await t.call(checkStopCall.path, { batchId: r.data.batchId }, admin);
      expect([again2.code, again2.msg]).toEqual([CODE.CONFLICT, '该检查已结束']);
    } finally {
      sim.faults.clear();
    }
  }, 60_000);
});

describe('validation, tenancy and data scope', () => {
  it('refuses a bad period, an empty choice and ids of another tenant, changing nothing', async () => {
    const before = await t.ownerQuery<{ n: number }>('select count(*)::int as n from check_batches');
    const early = await start({ ssq: '2019-07' });
    expect([early.code, early.msg]).toEqual([CODE.BAD_REQUEST, '所属期：须在2019-08至两个月前之间']);
    const bad = await start({ ssq: '2024-13' });
    expect([bad.code, bad.msg]).toEqual([CODE.BAD_REQUEST, '所属期：请选择月份（yyyy-MM）']);
    const empty = await start({ scope: 'selected', aeiIds: [] });
    expect([empty.code, empty.msg]).toEqual([CODE.BAD_REQUEST, '请选择企业']);
    const [other] = await demoEnterprises(t, '13900000000');
    const foreign = await start({ scope: 'selected', aeiIds: [other?.id ?? 0] });
    expect([foreign.code, foreign.msg]).toEqual([CODE.NOT_FOUND, '只能检查您负责的企业']);
    const extra = await start({ scope: 'all', batchId: 1 });
    expect(extra.code).toBe(CODE.BAD_REQUEST);
    const after = await t.ownerQuery<{ n: number }>('select count(*)::int as n from check_batches');
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('another agency cannot read a batch; an accountant checks and sees only their own clients', async () => {
    const [latest] = await t.ownerQuery<{ id: number }>('select max(id) as id from check_batches');
    const stranger = await t.login('13900000000');
    for (const path of [checkRateCall.path, checkCountCall.path]) {
      const r = await t.call(path, { batchId: latest?.id }, stranger);
      expect([r.code, r.msg]).toEqual([CODE.NOT_FOUND, '检查记录不存在']);
    }
    const r = await t.call(checkResultListCall.path, { batchId: latest?.id }, stranger);
    expect(r.code).toBe(CODE.NOT_FOUND);
    const none = await t.call<CheckRate | null>(checkRateCall.path, {}, stranger);
    expect(none.data).toBeNull();

    const acct = await t.login('13800000001');
    // What the accountant may see, as the enterprise chooser (data scope) lists it.
    const visible = new Set<number>();
    for (let pageNum = 1; ; pageNum++) {
      const page = await t.call<Page<{ id: number }>>(chooserListCall.path, { pageNum, pageSize: 50 }, acct);
      for (const e of page.data.list) visible.add(e.id);
      if (page.data.list.length < 50) break;
    }
    const all = await demoEnterprises(t);
    const mine = all.filter((e) => visible.has(e.id) && e.service_status === '1');
    const notMine = all.find((e) => !visible.has(e.id));
    expect(mine.length).toBeGreaterThan(0);
    expect(notMine).toBeDefined();
    const refused = await start({ scope: 'selected', aeiIds: [notMine?.id ?? 0] }, acct);
    expect([refused.code, refused.msg]).toEqual([CODE.NOT_FOUND, '只能检查您负责的企业']);
    const adminsBatch = await t.call(checkRateCall.path, { batchId: latest?.id }, acct);
    expect(adminsBatch.code).toBe(CODE.NOT_FOUND);
    const s = await start({ scope: 'all' }, acct);
    expect(s.code, s.msg).toBe(CODE.OK);
    expect(s.data.totalNum).toBe(mine.length);
    const done = await waitFinished(t, acct, s.data.batchId);
    expect(done.completeNum).toBe(mine.length);
    const checked = await t.ownerQuery<{ enterprise_id: number }>(
      'select enterprise_id from check_results where batch_id = $1',
      [s.data.batchId],
    );
    expect(checked.every((c) => visible.has(c.enterprise_id))).toBe(true);
    // The administrator sees the accountant's run among the summary logs; the accountant not the admin's.
    const adminLogs = await t.call<Page<SummaryLog>>(checkListCall.path, {}, admin);
    expect(adminLogs.data.list.some((l) => l.id === s.data.batchId)).toBe(true);
    const acctLogs = await t.call<Page<SummaryLog>>(checkListCall.path, {}, acct);
    expect(acctLogs.data.list.map((l) => l.id)).toEqual([s.data.batchId]);
  }, 60_000);

  it('the 申报 contract reminder at level 2 keeps its enterprises out of the check; all of them blocked is refused', async () => {
    // Demo clients without any contract show 企业无有效合同; 提醒并限制操作 for 申报 (sb) blocks them.
    const noContract: number[] = [];
    for (const e of ents) {
      const s = await t.call<{ htstatus: string; sfdq: string }>(contractStatusCall.path, { aeiId: e.id }, admin);
      if (s.data.htstatus === '3' && s.data.sfdq === '0') noContract.push(e.id);
    }
    expect(noContract.length).toBeGreaterThan(1);
    const withContract = ents.find((e) => !noContract.includes(e.id));
    expect(withContract).toBeDefined();
    expect((await t.call(saveReminderSettingsCall.path, { sb_wyxht: 2 }, admin)).code).toBe(CODE.OK);
    try {
      const r = await t.call<CheckStartReply>(
        checkStartCall.path,
        { ssq, scope: 'selected', aeiIds: [withContract?.id ?? 0, ...noContract] },
        admin,
      );
      expect(r.code, r.msg).toBe(CODE.OK);
      expect(r.data.totalNum).toBe(1);
      expect(r.data.blocked.map((b) => b.aeiId).sort()).toEqual([...noContract].sort());
      expect(new Set(r.data.blocked.map((b) => b.warning))).toEqual(new Set([CONTRACT_WARNING.noContract]));
      await waitFinished(t, admin, r.data.batchId);
      expect([...(await byId(r.data.batchId)).keys()]).toEqual([withContract?.id]);

      const one = await start({ scope: 'selected', aeiIds: [noContract[0]] });
      expect([one.code, one.msg]).toEqual([CODE.CONFLICT, CONTRACT_WARNING.noContract]);
      const all = await start({ scope: 'selected', aeiIds: noContract });
      expect([all.code, all.msg]).toEqual([CODE.CONFLICT, CHECK_MSG.allBlocked]);
    } finally {
      await t.call(saveReminderSettingsCall.path, { sb_wyxht: 0 }, admin);
    }
  }, 60_000);

  it('start and stop go to the audit log', async () => {
    const rows = await t.ownerQuery<{ action: string }>(
      "select distinct action from audit_log where action like 'declare.check.%' order by action",
    );
    expect(rows.map((r) => r.action)).toEqual(['declare.check.start', 'declare.check.stop']);
  });
});
