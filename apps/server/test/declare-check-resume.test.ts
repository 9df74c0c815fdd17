import { type CheckRate, CODE, checkRateCall, checkStartCall, defaultSsq } from '@dzy/shared';
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
process.env.CHECK_LEASE_SECONDS = '2';

/**
 * Kill and resume: a batch is under way when its server goes away; a new server on the same database
 * finishes it, and every enterprise is counted once, also one whose outcome was written just before
 * the crash while its job was still marked running.
 */
const rig = useResumeRig({ dirPrefix: 'dzy-resume-' });
const QUEUE = 'declare-check';
const RESULTS = 'check_results';

describe('a batch survives its server', () => {
  it('finishes on a new server with every enterprise counted once', async () => {
    const first = await rig.open(true);
    await credentialDemoClients(rig, first.db, 'clean', { reportPassword: true });
    const admin = await first.login('13800000000');
    const started = await first.call<CheckRate>(checkStartCall.path, { ssq: defaultSsq(), scope: 'all' }, admin);
    expect(started.code, started.msg).toBe(CODE.OK);
    const batchId = started.data.batchId;
    const total = started.data.totalNum;
    expect(total).toBeGreaterThan(20);

    await stopMidway(first, async () => (await first.call<CheckRate>(checkRateCall.path, { batchId }, admin)).data);
    await leaveCrashBehind(rig, { queue: QUEUE, resultsTable: RESULTS, batchId, total });

    const second = await rig.open(false);
    try {
      const admin2 = await second.login('13800000000');
      const rate = await waitForFinish(
        async () => (await second.call<CheckRate>(checkRateCall.path, { batchId }, admin2)).data,
        (r) => r.isChecks === 2,
      );
      expect(rate).toMatchObject({ state: 'done', completeNum: total, totalNum: total });
      expect((rate?.successNum ?? 0) + (rate?.failNum ?? 0)).toBe(total);
      await expectCountedOnce(rig, second.db, { queue: QUEUE, resultsTable: RESULTS, batchId, total });
    } finally {
      await second.close();
    }
  }, 150_000);
});
