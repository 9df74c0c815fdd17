import {
  CODE,
  CONTRACT_WARNING,
  chooserListCall,
  contractStatusCall,
  FILING_FILES,
  FILING_MSG,
  FILING_STATES,
  type FilingCounts,
  type FilingRow,
  type FilingState,
  type FilingSyncRate,
  type FilingSyncStartReply,
  filingCountsCall,
  filingOverviewCall,
  filingRosterCall,
  filingScheduleCall,
  filingSyncRateCall,
  filingSyncStartCall,
  filingSyncStopCall,
  NO_TAX_NUMBER_PROMPT,
  saveReminderSettingsCall,
} from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEnterprises, GOOD, setCredentials } from './declare-check-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

process.env.CHECK_CONCURRENCY = '4';

/** The simulator's day (before the November deadline, 2026-11-16) and the filing month synced. */
const TODAY = '2026-11-10';
const MONTH = '2026-11';

let sim: TaxSim;
let t: TestApp;
let admin: string;
let ents: Awaited<ReturnType<typeof demoEnterprises>>;

type Page<T> = { list: T[]; total: number; filingMonth: string };
type Overview = {
  clientNum: number;
  syncedNum: number;
  rows: { taxType: string; byState: Record<FilingState, number>; total: number }[];
  byState: Record<FilingState, number>;
};
type Schedule = {
  list: { userId: number; dueNum: number; filedNum: number; paidNum: number; clientNum: number; percent: number }[];
  sum: { dueNum: number; filedNum: number; paidNum: number; clientNum: number; overdueNum: number; percent: number };
};

async function waitSynced(cookie: string, batchId: number, timeoutMs = 60_000): Promise<FilingSyncRate> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await t.call<FilingSyncRate>(filingSyncRateCall.path, { batchId }, cookie);
    if (r.code !== CODE.OK) throw new Error(`getSbStatus answered ${r.code} ${r.msg}`);
    if (r.data.state !== 'running') return r.data;
    if (Date.now() > until) throw new Error(`sync ${batchId} not finished: ${JSON.stringify(r.data)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Every row of the roster for the filter (pages of 100). */
async function wholeRoster(cookie: string, filter: Record<string, unknown> = {}) {
  const rows: FilingRow[] = [];
  let total = 0;
  for (let pageNum = 1; ; pageNum++) {
    const r = await t.call<Page<FilingRow>>(
      filingRosterCall.path,
      { filingMonth: MONTH, pageNum, pageSize: 100, ...filter },
      cookie,
    );
    expect(r.code, r.msg).toBe(CODE.OK);
    rows.push(...r.data.list);
    total = r.data.total;
    if (r.data.list.length < 100) break;
  }
  expect(rows.length).toBe(total);
  return rows;
}

const countsOf = async (cookie: string, filter: Record<string, unknown> = {}) => {
  const r = await t.call<FilingCounts>(filingCountsCall.path, { filingMonth: MONTH, ...filter }, cookie);
  expect(r.code, r.msg).toBe(CODE.OK);
  return r.data;
};

/** Per state, the rows with a cell in it: what the counts must say. */
function statesOf(rows: FilingRow[]) {
  const out = Object.fromEntries(FILING_STATES.map((s) => [s, 0])) as Record<FilingState, number>;
  for (const r of rows) {
    const states = new Set(Object.values(r.cells).map((c) => c.state));
    // An earlier return still not filed counts under 逾期未申报 too.
    if (r.yqCount > 0) states.add('yqwsb');
    for (const s of states) out[s] += 1;
  }
  return out;
}

beforeAll(async () => {
  sim = await startTaxSim({ latencyMs: 5, today: TODAY });
  t = await startTestApp({ taxBureauUrl: sim.url });
  admin = await t.login('13800000000');
  ents = await demoEnterprises(t);
  for (const e of ents) {
    // The demo's own scenarios stay (mostly typical filers, a few login faults): a realistic month.
    if (e.qysh) await setCredentials(t, e.id, GOOD);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('申报清册 after a sync', () => {
  let synced: FilingSyncStartReply;

  it('syncs every client in service with a tax number; those without one are reported with the prompt', async () => {
    const r = await t.call<FilingSyncStartReply>(filingSyncStartCall.path, { filingMonth: MONTH }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    synced = r.data;
    const inService = ents.filter((e) => e.service_status === '1');
    expect(r.data.totalNum).toBe(inService.filter((e) => e.qysh).length);
    expect(r.data.noQysh.map((n) => n.aeiId).sort()).toEqual(
      inService
        .filter((e) => !e.qysh)
        .map((e) => e.id)
        .sort(),
    );
    for (const n of r.data.noQysh) expect(n.warning).toBe(NO_TAX_NUMBER_PROMPT);
    const again = await t.call(filingSyncStartCall.path, { filingMonth: MONTH }, admin);
    expect([again.code, again.msg]).toEqual([CODE.CONFLICT, FILING_MSG.busyRunning]);
    const done = await waitSynced(admin, r.data.batchId);
    expect(done).toMatchObject({ state: 'done', completeNum: r.data.totalNum, rate: 100 });
    expect(done.successNum + done.failNum).toBe(r.data.totalNum);
    expect(done.successNum).toBeGreaterThan(r.data.totalNum / 2);
  }, 90_000);

  it('lists one row per client with each state shown, counts that agree with the rows, and filters', async () => {
    const rows = await wholeRoster(admin);
    expect(rows.length).toBe(ents.filter((e) => e.service_status === '1').length);
    const synced = rows.filter((r) => r.syncedAt !== null);
    const failed = rows.filter((r) => r.failMsg !== '');
    // Every client with a tax number either synced or shows why not (a check message of §8).
    expect(synced.length + failed.length).toBe(rows.filter((r) => r.qysh).length);
    for (const f of failed) expect(f.syncedAt).toBeNull();
    for (const f of failed) expect(f.failMsg).toMatch(/用户名与密码不匹配|可信登录失败|人数过多|服务已到期|未补全/);
    const seen = statesOf(rows);
    // Every state is on the demo agency's roster: 逾期未申报 as a cell or as an earlier return still overdue.
    for (const s of ['wsb', 'ysb', 'yjk', 'wxsb'] as const) expect(seen[s], s).toBeGreaterThan(0);
    expect(seen.yqwsb + rows.reduce((n, r) => n + r.yqCount, 0)).toBeGreaterThan(0);
    // Amounts as yuan text with two decimals; filed returns carry their receipt.
    for (const r of rows)
      for (const c of Object.values(r.cells)) {
        expect(c.ybtse).toMatch(/^-?\d+\.\d{2}$/);
        if (c.state === 'ysb' || c.state === 'yjk') expect(c.pzxh).not.toBe('');
      }

    const counts = await countsOf(admin);
    expect(counts.byState).toEqual(seen);
    expect(counts.total).toBe(rows.length);
    expect(counts.unsynced).toBe(rows.length - synced.length);

    // A state count is the roster filtered by that state.
    const ysb = await wholeRoster(admin, { state: 'ysb' });
    expect(ysb.length).toBe(counts.byState.ysb);
    expect(ysb.every((r) => Object.values(r.cells).some((c) => c.state === 'ysb'))).toBe(true);
    // Tax type and state together; the counts under a type filter agree.
    const zzsWsb = await wholeRoster(admin, { state: 'wsb', taxType: 'zzs' });
    expect(zzsWsb.every((r) => r.cells.zzs?.state === 'wsb')).toBe(true);
    expect((await countsOf(admin, { taxType: 'zzs' })).byState.wsb).toBe(zzsWsb.length);
    // 纳税人类型 and the monthly cycle: general taxpayers file VAT monthly.
    const general = await wholeRoster(admin, { nsrlx: '0' });
    expect(general.every((r) => r.nsrlx === '0')).toBe(true);
    const monthly = await wholeRoster(admin, { cycle: 'month', taxType: 'zzs' });
    expect(monthly.map((r) => r.aeiId).sort()).toEqual(
      general
        .filter((r) => r.cells.zzs)
        .map((r) => r.aeiId)
        .sort(),
    );
    // Name or tax number.
    const first = rows.find((r) => r.qysh) as FilingRow;
    const byNumber = await wholeRoster(admin, { keyword: first.qysh.slice(-8) });
    expect(byNumber.map((r) => r.aeiId)).toContain(first.aeiId);
    // Staff.
    const staffId = rows.find((r) => r.allocateUser !== null)?.allocateUser as number;
    const staffRows = await wholeRoster(admin, { allocateUser: staffId });
    expect(staffRows.length).toBe(rows.filter((r) => r.allocateUser === staffId).length);
  }, 60_000);

  it('the overview matrix and the staff schedule add up to the roster', async () => {
    const rows = await wholeRoster(admin);
    const o = (await t.call<Overview>(filingOverviewCall.path, { filingMonth: MONTH }, admin)).data;
    expect(o.clientNum).toBe(rows.length);
    // Per type and state, the returns of the month; earlier returns still not filed add to 逾期未申报.
    for (const line of o.rows) {
      const inRows = rows.filter((r) => r.cells[line.taxType as 'zzs']);
      for (const s of FILING_STATES.filter((x) => x !== 'yqwsb'))
        expect(line.byState[s], `${line.taxType} ${s}`).toBe(
          inRows.filter((r) => r.cells[line.taxType as 'zzs']?.state === s).length,
        );
    }
    const carried = rows.reduce((n, r) => n + r.yqCount, 0);
    const yq = rows.flatMap((r) => Object.values(r.cells)).filter((c) => c.state === 'yqwsb').length;
    expect(o.byState.yqwsb).toBe(yq + carried);
    const s = (await t.call<Schedule>(filingScheduleCall.path, { filingMonth: MONTH }, admin)).data;
    const cells = rows.flatMap((r) => Object.values(r.cells));
    expect(s.sum.clientNum).toBe(rows.length);
    expect(s.sum.dueNum).toBe(cells.filter((c) => c.state !== 'wxsb').length + carried);
    expect(s.sum.overdueNum).toBe(yq + carried);
    expect(s.sum.filedNum).toBe(cells.filter((c) => c.state === 'ysb' || c.state === 'yjk').length);
    expect(s.sum.paidNum).toBe(cells.filter((c) => c.state === 'yjk').length);
    expect(s.sum.percent).toBe(Math.floor((s.sum.filedNum * 100) / s.sum.dueNum));
  });

  it('exports the roster and the schedule as .xlsx', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${FILING_FILES.rosterExport}`,
      headers: { 'content-type': 'application/json', cookie: admin },
      payload: JSON.stringify({ filingMonth: MONTH, state: 'ysb' }),
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws?.getRow(1).getCell(1).value).toBe('企业名称');
    expect((ws?.rowCount ?? 0) - 1).toBe((await countsOf(admin)).byState.ysb);
    const sched = await t.app.inject({
      method: 'POST',
      url: `/api/${FILING_FILES.scheduleExport}`,
      headers: { 'content-type': 'application/json', cookie: admin },
      payload: JSON.stringify({ filingMonth: MONTH }),
    });
    expect(sched.statusCode).toBe(200);
    expect(String(sched.headers['content-type'])).toContain('spreadsheetml');
  });

  it('a client’s ignored tax types leave its row, the counts and the overview', async () => {
    const rows = await wholeRoster(admin, { taxType: 'zzs' });
    const target = rows[0] as FilingRow;
    const before = await countsOf(admin, { taxType: 'zzs' });
    const state = target.cells.zzs?.state as FilingState;
    const [{ agency_id } = { agency_id: 0 }] = await t.ownerQuery<{ agency_id: number }>(
      'select agency_id from enterprises where id = $1',
      [target.aeiId],
    );
    await t.ownerQuery(
      `insert into enterprise_filing_settings (agency_id, enterprise_id, ignored_types) values ($1, $2, '{zzs}')
       on conflict (agency_id, enterprise_id) do update set ignored_types = '{zzs}'`,
      [agency_id, target.aeiId],
    );
    try {
      const [row] = await wholeRoster(admin, { keyword: target.qymc });
      expect(row?.cells.zzs).toBeUndefined();
      const after = await countsOf(admin, { taxType: 'zzs' });
      expect(after.byState[state]).toBe(before.byState[state] - 1);
      const zzs = (await wholeRoster(admin, { taxType: 'zzs' })).map((r) => r.aeiId);
      expect(zzs).not.toContain(target.aeiId);
    } finally {
      await t.ownerQuery('delete from enterprise_filing_settings where enterprise_id = $1', [target.aeiId]);
    }
  });

  it('another agency sees nothing of it and cannot name its sync or its clients', async () => {
    const stranger = await t.login('13900000000');
    const theirs = await wholeRoster(stranger);
    const mine = new Set(ents.map((e) => e.id));
    expect(theirs.some((r) => mine.has(r.aeiId))).toBe(false);
    expect(theirs.every((r) => r.syncedAt === null && Object.keys(r.cells).length === 0)).toBe(true);
    expect((await countsOf(stranger)).byState).toEqual(Object.fromEntries(FILING_STATES.map((s) => [s, 0])));
    for (const path of [filingSyncRateCall.path, filingSyncStopCall.path]) {
      const r = await t.call(path, { batchId: synced.batchId }, stranger);
      expect([r.code, r.msg], path).toEqual([CODE.NOT_FOUND, FILING_MSG.notFound]);
    }
    const foreign = await t.call(
      filingSyncStartCall.path,
      { filingMonth: MONTH, scope: 'selected', aeiIds: [ents[0]?.id] },
      stranger,
    );
    expect([foreign.code, foreign.msg]).toEqual([CODE.NOT_FOUND, FILING_MSG.notYours]);
    const o = (await t.call<Overview>(filingOverviewCall.path, { filingMonth: MONTH }, stranger)).data;
    expect(o.rows).toEqual([]);
  });

  it('an accountant sees only their own clients, in the roster, the counts, the overview and the sync', async () => {
    const acct = await t.login('13800000001');
    // What the accountant may see, as the enterprise chooser (data scope) lists it.
    const visible = new Set<number>();
    for (let pageNum = 1; ; pageNum++) {
      const page = await t.call<{ list: { id: number }[] }>(chooserListCall.path, { pageNum, pageSize: 50 }, acct);
      for (const e of page.data.list) visible.add(e.id);
      if (page.data.list.length < 50) break;
    }
    const rows = await wholeRoster(acct);
    const theirs = ents.filter((e) => visible.has(e.id) && e.service_status === '1');
    expect(rows.map((r) => r.aeiId).sort()).toEqual(theirs.map((e) => e.id).sort());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(ents.filter((e) => e.service_status === '1').length);
    expect((await countsOf(acct)).byState).toEqual(statesOf(rows));
    const s = (await t.call<Schedule>(filingScheduleCall.path, { filingMonth: MONTH }, acct)).data;
    expect(s.sum.clientNum).toBe(rows.length);
    expect(s.list.map((l) => l.userId).sort()).toEqual([...new Set(rows.map((r) => r.allocateUser ?? 0))].sort());
    const notMine = ents.find((e) => !visible.has(e.id) && e.service_status === '1');
    const refused = await t.call(
      filingSyncStartCall.path,
      { filingMonth: MONTH, scope: 'selected', aeiIds: [notMine?.id] },
      acct,
    );
    expect([refused.code, refused.msg]).toEqual([CODE.NOT_FOUND, FILING_MSG.notYours]);
    const adminsSync = await t.call(filingSyncRateCall.path, { batchId: synced.batchId }, acct);
    expect(adminsSync.code).toBe(CODE.NOT_FOUND);
  });

  it('the 申报 contract reminder at level 2 keeps its clients out of the sync, listed with their warning', async () => {
    const noContract: number[] = [];
    for (const e of ents.filter((x) => x.qysh && x.service_status === '1')) {
      const s = await t.call<{ htstatus: string; sfdq: string }>(contractStatusCall.path, { aeiId: e.id }, admin);
      if (s.data.htstatus === '3' && s.data.sfdq === '0') noContract.push(e.id);
    }
    expect(noContract.length).toBeGreaterThan(1);
    const withContract = ents.find((e) => e.qysh && e.service_status === '1' && !noContract.includes(e.id));
    expect((await t.call(saveReminderSettingsCall.path, { sb_wyxht: 2 }, admin)).code).toBe(CODE.OK);
    try {
      const r = await t.call<FilingSyncStartReply>(
        filingSyncStartCall.path,
        { filingMonth: MONTH, scope: 'selected', aeiIds: [withContract?.id, ...noContract] },
        admin,
      );
      expect(r.code, r.msg).toBe(CODE.OK);
      expect(r.data.totalNum).toBe(1);
      expect(r.data.blocked.map((b) => b.aeiId).sort()).toEqual([...noContract].sort());
      expect(new Set(r.data.blocked.map((b) => b.warning))).toEqual(new Set([CONTRACT_WARNING.noContract]));
      await waitSynced(admin, r.data.batchId);
      const synced = await t.ownerQuery<{ enterprise_id: number }>(
        'select enterprise_id from filing_sync_results where batch_id = $1',
        [r.data.batchId],
      );
      expect(synced.map((s) => s.enterprise_id)).toEqual([withContract?.id]);
      const all = await t.call(
        filingSyncStartCall.path,
        { filingMonth: MONTH, scope: 'selected', aeiIds: noContract },
        admin,
      );
      expect([all.code, all.msg]).toEqual([CODE.CONFLICT, FILING_MSG.allBlocked]);
    } finally {
      await t.call(saveReminderSettingsCall.path, { sb_wyxht: 0 }, admin);
    }
  }, 60_000);

  it('a failed login is shown on the row with the check message, keeping the last good roster', async () => {
    const before = await countsOf(admin);
    const good = (await wholeRoster(admin)).find((r) => r.syncedAt !== null && r.failMsg === '') as FilingRow;
    const e = ents.find((x) => x.id === good.aeiId) as (typeof ents)[number];
    await setCredentials(t, e.id, { etax: null });
    await t.ownerQuery('delete from etax_sessions where enterprise_id = $1', [e.id]);
    try {
      const r = await t.call<FilingSyncStartReply>(
        filingSyncStartCall.path,
        { filingMonth: MONTH, scope: 'selected', aeiIds: [e.id] },
        admin,
      );
      expect(r.code, r.msg).toBe(CODE.OK);
      const done = await waitSynced(admin, r.data.batchId);
      expect(done.failNum).toBe(1);
      const [row] = await wholeRoster(admin, { keyword: e.qysh });
      expect(row?.failMsg).toBe('网上办税账号未补全');
      expect(row?.syncedAt).not.toBeNull();
      expect(Object.keys(row?.cells ?? {}).length).toBeGreaterThan(0);
      expect((await countsOf(admin)).failed).toBe(before.failed + 1);
      const failedRows = await wholeRoster(admin, { failedOnly: true });
      expect(failedRows.map((x) => x.aeiId)).toContain(e.id);
      expect(failedRows.every((x) => x.failMsg !== '')).toBe(true);
    } finally {
      await setCredentials(t, e.id, GOOD);
    }
  }, 60_000);

  it('stop leaves the clients not started unsynced', async () => {
    const r = await t.call<FilingSyncStartReply>(filingSyncStartCall.path, { filingMonth: '2026-10' }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    const stopped = await t.call<FilingSyncRate>(filingSyncStopCall.path, { batchId: r.data.batchId }, admin);
    expect([stopped.code, stopped.data.state]).toEqual([CODE.OK, 'stopped']);
    await new Promise((res) => setTimeout(res, 500));
    const after = await t.call<FilingSyncRate>(filingSyncRateCall.path, { batchId: r.data.batchId }, admin);
    expect(after.data.completeNum).toBeLessThan(r.data.totalNum);
    const again = await t.call(filingSyncStopCall.path, { batchId: r.data.batchId }, admin);
    expect([again.code, again.msg]).toEqual([CODE.CONFLICT, FILING_MSG.notRunning]);
  });
});
