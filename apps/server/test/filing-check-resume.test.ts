import { CODE, checkUnPaidCall, type LbsjcRate, lbsjcRateCall } from '@dzy/shared';
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
process.env.CHECK_CONCURRENCY = '3';
process.env.LBSJC_LEASE_SECONDS = '2';

/** The simulator's day. */
const TODAY = '2026-11-20';

/**
 * Kill and resume (漏报检查): a 未缴款 check is under way when its server goes away; a new server on the
 * same database finishes it, and every client is counted once, also one whose outcome was written just
 * before the crash while its job was still marked running; no return is recorded twice.
 */
const rig = useResumeRig({ dirPrefix: 'dzy-lbsjc-resume-', today: TODAY });
const QUEUE = 'filing-lbsjc';
const RESULTS = 'lbsjc_results';

describe('a missed-filing check survives its server', () => {
  it('finishes on a new server with every client counted once', async () => {
    const first = await rig.open(true);
    await credentialDemoClients(rig, first.db, 'arrears');
    const admin = await first.login('13800000000');
    const started = await first.call<LbsjcRate>(checkUnPaidCall.path, {}, admin);
    expect(started.code, started.msg).toBe(CODE.OK);
    const batchId = started.data.batchId;
    const total = started.data.totalNum;
    expect(total).toBeGreaterThan(20);

    await stopMidway(first, async () => (await first.call<LbsjcRate>(lbsjcRateCall.path, { batchId }, admin)).data);
    await leaveCrashBehind(rig, { queue: QUEUE, resultsTable: RESULTS, batchId, total });

    const second = await rig.open(false);
    try {
      const admin2 = await second.login('13800000000');
      const rate = await waitForFinish(
        async () => (await second.call<LbsjcRate>(lbsjcRateCall.path, { batchId }, admin2)).data,
        (r) => r.state !== 'running',
      );
      expect(rate).toMatchObject({ state: 'done', completeNum: total, totalNum: total });
      expect((rate?.successNum ?? 0) + (rate?.failNum ?? 0)).toBe(total);
      await expectCountedOnce(rig, second.db, { queue: QUEUE, resultsTable: RESULTS, batchId, total });
      // The items found agree with the counts: each client's once, no return twice (the key is unique).
      const items = await rig.owner<{ n: number; found: number }>(
        second.db,
        `select (select count(*)::int from lbsjc_items where batch_id = $1) as n,
                (select coalesce(sum(found_num), 0)::int from lbsjc_results where batch_id = $1) as found`,
        [batchId],
      );
      expect(items[0]?.n).toBe(items[0]?.found);
      expect(items[0]?.n).toBe(rate?.foundNum);
      expect(rate?.foundNum).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  }, 150_000);
});
