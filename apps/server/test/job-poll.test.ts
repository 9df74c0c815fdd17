import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { dailyFirstDelayMs, enqueue, type JobHandler, startJobRunner } from '../src/plugins/jobs.js';
import { startTestApp, type TestApp } from './harness.js';
import { AGENCY, testDeps } from './message-helpers.js';

// Issue 30 points 4 and 6: idle job workers no longer call claim_job twice a second each; one poll
// (job_ready_queues, migration 0047) finds the queues with work nobody announced in this process.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function handler(queue: string, runs: number[]): JobHandler {
  return {
    queue,
    perAgencyCap: 5,
    workers: 2,
    leaseSeconds: 5,
    maxAttempts: 3,
    async run(ctx) {
      runs.push(ctx.job.id);
      return { ok: true };
    },
  };
}

const ready = async (queues: string[]) =>
  (
    (await t.db.app.execute(
      sql`select q from job_ready_queues(array[${sql.join(
        queues.map((q) => sql`${q}`),
        sql`, `,
      )}]::text[]) as q`,
    )) as unknown as { rows: { q: string }[] }
  ).rows.map((r) => r.q);

describe('the job runner’s poll', () => {
  it('names only the queues with a job due now, to the app role, without row data', async () => {
    await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, async (tx) => {
      await enqueue(tx, { agencyId: AGENCY.demo, queue: 'poll-due', key: 'a', payload: {} });
      await enqueue(tx, { agencyId: AGENCY.demo, queue: 'poll-later', key: 'b', payload: {} });
    });
    await t.ownerQuery(`update jobs set run_after = now() + interval '1 hour' where queue = 'poll-later'`);
    expect(await ready(['poll-due', 'poll-later', 'poll-empty'])).toEqual(['poll-due']);
  });

  it('a job another process queued (no wake here) is taken within a second or so, and run once', async () => {
    const runs: number[] = [];
    const queue = 'poll-other-process';
    const runner = startJobRunner(testDeps(t), [handler(queue, runs)], t.app.log);
    await sleep(700); // both workers idle
    await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, (tx) =>
      enqueue(tx, { agencyId: AGENCY.demo, queue, key: 'one', payload: {} }),
    );
    const queuedAt = Date.now();
    for (let i = 0; i < 50 && runs.length === 0; i++) await sleep(100);
    const tookMs = Date.now() - queuedAt;
    await runner.stop();
    expect(runs.length).toBe(1);
    expect(tookMs).toBeLessThan(3000);
    const [row] = await t.ownerQuery<{ state: string }>(`select state from jobs where queue = $1`, [queue]);
    expect(row?.state).toBe('done');
  });

  it('the daily schedules wait a minute after a start unless told otherwise', () => {
    expect(dailyFirstDelayMs({})).toBe(60_000);
    expect(dailyFirstDelayMs({ DAILY_FIRST_DELAY_MS: '0' })).toBe(0);
    expect(dailyFirstDelayMs({ DAILY_FIRST_DELAY_MS: 'x' })).toBe(60_000);
  });
});
