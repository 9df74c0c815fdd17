import { CODE, type FilingSyncRate, filingSyncRateCall, filingSyncStartCall } from '@dzy/shared';
import { describe, expect, it } from 'vitest';
import {
  credentialDemoClients,
  expectCountedOnce,
  leaveCrashBehind,
  stopMidway,
  useResumeRig,
  waitForFinish,
} from './resume-helpers.js';

// A small cap and a short lease, so a job whose worker died is taken again within seconds.
process.env.FILING_CONCURRENCY = '3';
process.env.FILING_LEASE_SECONDS = '2';

/** The simulator's day and the filing month synced. */
const TODAY = '2026-11-10';
const MONTH = '2026-11';

/**
 * Kill and resume (申报清册 sync): a sync is under way when its server goes away; a new server on the
 * same database finishes it, and every client is counted once, also one whose outcome was written just
 * before the crash while its job was still marked running. The roster then has one set of returns per
 * client synced.
 */
const rig = useResumeRig({ dirPrefix: 'dzy-filing-resume-', today: TODAY });
const QUEUE = 'filing-sync';
const RESULTS = 'filing_sync_results';

describe('a roster sync survives its server', () => {
  it('finishes on a new server with every client counted once', async () => {
    const first = await rig.open(true);
    await credentialDemoClients(rig, first.db, 'clean');
    const admin = await first.login('13800000000');
    const started = await first.call<FilingSyncRate>(filingSyncStartCall.path, { filingMonth: MONTH }, admin);
    expect(started.code, started.msg).toBe(CODE.OK);
    const batchId = started.data.batchId;
    const total = started.data.totalNum;
    expect(total).toBeGreaterThan(20);

    await stopMidway(
      first,
      async () => (await first.call<FilingSyncRate>(filingSyncRateCall.path, { batchId }, admin)).data,
    );
    await leaveCrashBehind(rig, { queue: QUEUE, resultsTable: RESULTS, batchId, total });

    const second = await rig.open(false);
    try {
      const admin2 = await second.login('13800000000');
      const rate = await waitForFinish(
        async () => (await second.call<FilingSyncRate>(filingSyncRateCall.path, { batchId }, admin2)).data,
        (r) => r.state !== 'running',
      );
      expect(rate).toMatchObject({ state: 'done', completeNum: total, totalNum: total });
      expect((rate?.successNum ?? 0) + (rate?.failNum ?? 0)).toBe(total);
      await expectCountedOnce(rig, second.db, { queue: QUEUE, resultsTable: RESULTS, batchId, total });
      // One sync state per client, and no return twice (the key is unique; every client has its returns).
      const synced = await rig.owner<{ n: number; with_cells: number }>(
        second.db,
        `select count(*)::int as n,
                count(*) filter (where exists (select 1 from filing_cells c where c.enterprise_id = s.enterprise_id
                                                and c.filing_month = s.filing_month))::int as with_cells
           from filing_syncs s where s.filing_month = $1 and s.synced_at is not null`,
        [MONTH],
      );
      expect(synced[0]).toEqual({ n: rate?.successNum, with_cells: rate?.successNum });
    } finally {
      await second.close();
    }
  }, 150_000);
});
