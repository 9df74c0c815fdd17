import {
  CODE,
  confirmPlanCall,
  type FilingRunRate,
  type FilingSyncRate,
  filingSyncRateCall,
  filingSyncStartCall,
  httpBureauClient,
  type ReturnFigures,
  runRateCall,
  type SaveSbqcReply,
  saveSbqcCall,
} from '@dzy/shared';
import { describe, expect, it } from 'vitest';
import { credentialDemoClients, type ResumeServer, stopMidway, useResumeRig, waitForFinish } from './resume-helpers.js';

// A small cap and a short lease, so a job whose worker died is taken again within seconds.
process.env.FILING_CONCURRENCY = '3';
process.env.FILING_LEASE_SECONDS = '2';

/** October 2026: monthly and Q3 quarterly returns due. */
const TODAY = '2026-10-12';
const MONTH = '2026-10';
const QUEUE = 'filing-run';

/**
 * Kill and resume (确认申报): a file run is under way when its server goes away — one client's outcome
 * written while its job still says running, another client's return submitted to the bureau but not
 * recorded (the ledger says submitting). A new server on the same database finishes the run; every client
 * is counted once and every return is filed exactly once at the bureau.
 */
const rig = useResumeRig({ dirPrefix: 'dzy-filing-batch-resume-', today: TODAY });

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const end = Date.now() + 120_000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('a file run survives its server', () => {
  it('finishes on a new server: every client counted once, every return filed once', async () => {
    const first: ResumeServer = await rig.open(true);
    await credentialDemoClients(rig, first.db, 'unfiled');
    const admin = await first.login('13800000000');
    const sync = await first.call<FilingSyncRate>(filingSyncStartCall.path, { filingMonth: MONTH }, admin);
    expect(sync.code, sync.msg).toBe(CODE.OK);
    await until(
      async () =>
        (await first.call<FilingSyncRate>(filingSyncRateCall.path, { batchId: sync.data.batchId }, admin)).data,
      (r) => r.state !== 'running',
    );
    const plan = await first.call<SaveSbqcReply>(
      saveSbqcCall.path,
      { filingMonth: MONTH, taxTypes: ['zzs', 'grsds', 'yhs'] },
      admin,
    );
    expect(plan.code, plan.msg).toBe(CODE.OK);
    const gen = await until(
      async () => (await first.call<FilingRunRate>(runRateCall.path, { redisKey: plan.data.redisKey }, admin)).data,
      (r) => r.state !== 'running',
    );
    expect(gen.state).toBe('done');
    const confirm = await first.call<{ redisKey: string; total: number }>(
      confirmPlanCall.path,
      { planId: plan.data.planId, lateNotice: true },
      admin,
    );
    expect(confirm.code, confirm.msg).toBe(CODE.OK);
    const runId = confirm.data.redisKey;
    const [run] = await rig.owner<{ total_num: number }>(first.db, 'select total_num from filing_runs where id = $1', [
      Number(runId),
    ]);
    const total = run?.total_num ?? 0;
    expect(total).toBeGreaterThan(20);
    await stopMidway(
      first,
      async () => (await first.call<FilingRunRate>(runRateCall.path, { redisKey: runId }, admin)).data,
      4,
    );

    // The crash's leftovers, written on the database alone.
    const { openDatabase } = await import('../src/db/client.js');
    const db = await openDatabase(rig.config);
    const [doneJob] = await rig.owner<{ id: number }>(
      db,
      `select id from jobs where queue = '${QUEUE}' and key like $1 and state = 'done' order by id limit 1`,
      [`${runId}:%`],
    );
    const [queuedJob] = await rig.owner<{ id: number; key: string }>(
      db,
      `select id, key from jobs where queue = '${QUEUE}' and key like $1 and state = 'queued' order by id limit 1`,
      [`${runId}:%`],
    );
    expect(doneJob && queuedJob).toBeTruthy();
    await rig.owner(
      db,
      "update jobs set state = 'running', locked_until = now() - interval '1 second', finished_at = null where id in ($1, $2)",
      [doneJob?.id, queuedJob?.id],
    );
    // The queued client's first return reached the bureau just before the crash: submitted, not recorded.
    const ent = Number(queuedJob?.key.split(':')[1]);
    const [item] = await rig.owner<{
      id: number;
      agency_id: number;
      qysh: string;
      tax_type: string;
      skssqq: string;
      skssqz: string;
      source: string;
      sbsj: Record<string, unknown> | null;
      overdue: boolean;
    }>(
      db,
      `select i.id, i.agency_id, e.qysh, i.tax_type, i.skssqq, i.skssqz, i.source, i.sbsj, i.overdue
         from filing_plan_items i join enterprises e on e.id = i.enterprise_id
        where i.run_id = $1 and i.enterprise_id = $2 and i.state = 'planned' order by i.id limit 1`,
      [Number(runId), ent],
    );
    expect(item).toBeDefined();
    const bureau = httpBureauClient({ baseUrl: rig.sim.url });
    const login = await bureau.etaxLogin({
      qysh: item?.qysh ?? '',
      account: 'bsy',
      password: 'Etax@2026',
      sfbm: '1',
      loginType: '0',
    });
    expect(login.status).toBe(1);
    if (login.status !== 1 || !item) throw new Error('no login');
    const sent = await bureau.submitReturn(login.session, {
      type: item.tax_type as 'zzs',
      skssqq: item.skssqq,
      skssqz: item.skssqz,
      ...(item.source === 'zero' ? { lsb: true } : { sbsj: (item.sbsj ?? {}) as ReturnFigures }),
      ...(item.overdue ? { yqsb: true } : {}),
    });
    expect(sent.status).toBe('filed');
    await rig.owner(db, "update filing_plan_items set state = 'submitting' where id = $1", [item.id]);
    await rig.owner(
      db,
      `insert into filed_returns (agency_id, enterprise_id, tax_type, skssqq, skssqz, state, plan_item_id)
       values ($1, $2, $3, $4, $5, 'submitting', $6)`,
      [item.agency_id, ent, item.tax_type, item.skssqq, item.skssqz, item.id],
    );
    const before = await rig.owner<{ n: number }>(
      db,
      'select count(*)::int as n from filing_run_clients where run_id = $1 and state is not null',
      [Number(runId)],
    );
    expect(before[0]?.n).toBeLessThan(total);
    await db.close();

    const second = await rig.open(false);
    try {
      const admin2 = await second.login('13800000000');
      const rate = await waitForFinish(
        async () => (await second.call<FilingRunRate>(runRateCall.path, { redisKey: runId }, admin2)).data,
        (r) => r.state !== 'running',
      );
      expect(rate).toMatchObject({ state: 'done', completeNum: total, totalNum: total });
      const counted = await rig.owner<{ n: number; distinct_n: number; nulls: number }>(
        second.db,
        `select count(*)::int as n, count(distinct enterprise_id)::int as distinct_n,
                count(*) filter (where state is null)::int as nulls from filing_run_clients where run_id = $1`,
        [Number(runId)],
      );
      expect(counted[0]).toEqual({ n: total, distinct_n: total, nulls: 0 });
      const jobs = await rig.owner<{ state: string; n: number }>(
        second.db,
        `select state, count(*)::int as n from jobs where queue = '${QUEUE}' and key like $1 group by state`,
        [`${runId}:%`],
      );
      expect(jobs).toEqual([{ state: 'done', n: total }]);
      // Every return of the run: filed (or refused with the bureau's message), and at the bureau filed once.
      const items = await rig.owner<{ qysh: string; tax_type: string; skssqq: string; state: string; msg: string }>(
        second.db,
        `select e.qysh, i.tax_type, i.skssqq, i.state, i.msg from filing_plan_items i
           join enterprises e on e.id = i.enterprise_id where i.run_id = $1`,
        [Number(runId)],
      );
      expect(items.length).toBe(confirm.data.total);
      const res = await fetch(`${rig.sim.url}/admin/filings`);
      const sims = (
        (await res.json()) as {
          data: { list: { qysh: string; type: string; skssqq: string; filed: number; submits: number }[] };
        }
      ).data.list;
      const at = new Map(sims.map((f) => [`${f.qysh}|${f.type}|${f.skssqq}`, f]));
      let filed = 0;
      for (const i of items) {
        expect(['filed', 'rejected'], i.msg).toContain(i.state);
        if (i.state !== 'filed') continue;
        filed += 1;
        expect(at.get(`${i.qysh}|${i.tax_type}|${i.skssqq}`)?.filed).toBe(1);
      }
      expect(filed).toBeGreaterThan(items.length / 2);
      expect(sims.every((f) => f.filed <= 1)).toBe(true);
      // Exactly once without leaning on the bureau's 41002: no return was submitted twice.
      expect(sims.every((f) => f.submits === 1)).toBe(true);
      // The return submitted before the crash: asked for (sbztcx), recorded as filed, not submitted again.
      const once = at.get(`${item.qysh}|${item.tax_type}|${item.skssqq}`);
      expect(once).toMatchObject({ filed: 1, submits: 1 });
      const ledger = await rig.owner<{ state: string; pzxh: string }>(
        second.db,
        'select state, pzxh from filed_returns where plan_item_id = $1',
        [item.id],
      );
      expect(ledger[0]?.state).toBe('filed');
      expect(ledger[0]?.pzxh).not.toBe('');
    } finally {
      await second.close();
    }
  }, 240_000);
});
