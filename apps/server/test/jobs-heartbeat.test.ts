import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CODE, CUSTOMER_FILES, IMPORT_COLUMNS, importProgressCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope, openDatabase } from '../src/db/client.js';
import { importDir } from '../src/modules/customer/customer.jobs.js';
import { enqueue, type JobHandler, startJobRunner } from '../src/plugins/jobs.js';
import { ADMIN, newUscc, upload, xlsx } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { AGENCY, testDeps } from './message-helpers.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A job kind of this test: takes `ms`, counts its runs. Lease one second, so three beats a second. */
function slowHandler(queue: string, ms: number, runs: number[]): JobHandler {
  return {
    queue,
    perAgencyCap: 5,
    workers: 1,
    leaseSeconds: 1,
    maxAttempts: 3,
    async run(ctx) {
      runs.push(ctx.job.id);
      await sleep(ms);
      return { ok: true };
    },
  };
}

async function stateOf(queue: string) {
  return t.ownerQuery<{ state: string; attempts: number }>(
    `select state, attempts from jobs where queue = $1 order by id`,
    [queue],
  );
}

describe('job leases and heartbeats', () => {
  it('a job running three times its lease keeps it: two runners (as two processes) run it once', async () => {
    const runs: number[] = [];
    const queue = 'test-heartbeat';
    await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, (tx) =>
      enqueue(tx, { agencyId: AGENCY.demo, queue, key: 'one', payload: {} }),
    );
    // On a PostgreSQL server the second runner has a connection pool of its own, as a second server
    // process would; PGlite is one connection in one process, so there both share it.
    const second = t.kind === 'postgres' ? await openDatabase(t.config) : t.db;
    const a = startJobRunner(testDeps(t), [slowHandler(queue, 3000, runs)], t.app.log);
    const b = startJobRunner({ ...testDeps(t), db: second }, [slowHandler(queue, 3000, runs)], t.app.log);
    for (let i = 0; i < 60 && (await stateOf(queue))[0]?.state !== 'done'; i++) await sleep(100);
    await Promise.all([a.stop(), b.stop()]);
    if (second !== t.db) await second.close();
    expect(await stateOf(queue)).toEqual([{ state: 'done', attempts: 1 }]);
    expect(runs.length).toBe(1);
  });

  it('a job whose worker died (claimed, then no heartbeat) is taken again once its lease runs out', async () => {
    const runs: number[] = [];
    const queue = 'test-crash';
    await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, (tx) =>
      enqueue(tx, { agencyId: AGENCY.demo, queue, key: 'one', payload: {} }),
    );
    // A worker claims it and dies at once: no heartbeat, no result.
    await t.db.app.execute(sql`select * from claim_job(${queue}, 1, 5)`);
    const claimedAt = Date.now();
    const runner = startJobRunner(testDeps(t), [slowHandler(queue, 10, runs)], t.app.log);
    for (let i = 0; i < 60 && (await stateOf(queue))[0]?.state !== 'done'; i++) await sleep(100);
    await runner.stop();
    expect(await stateOf(queue)).toEqual([{ state: 'done', attempts: 2 }]);
    expect(runs.length).toBe(1);
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(900);
  });

  it('the import page hears that an import was interrupted, and it resumes without doubling rows', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `中断恢复${i}号有限公司`);
    const file = await xlsx(
      IMPORT_COLUMNS,
      names.map((name) => IMPORT_COLUMNS.map((c) => (c === '企业名称*' ? name : c === '企业税号*' ? newUscc() : ''))),
    );
    const up = await upload<{ jobId: number }>(t, CUSTOMER_FILES.importUpload, admin, { name: 'a.xlsx', data: file });
    expect(up.code).toBe(CODE.OK);
    const progress = () =>
      t.call<{ state: string; interrupted: boolean }>(importProgressCall.path, { jobId: up.data.jobId }, admin);
    for (let i = 0; i < 100 && (await progress()).data.state !== 'done'; i++) await sleep(100);
    expect((await progress()).data).toMatchObject({ state: 'done', interrupted: false });
    // As if its worker had died half-way: its rows still on disk, the job running with its lease out of
    // date and nobody beating.
    const [job] = await t.ownerQuery<{ agency_id: number; key: string }>(
      "select agency_id, payload->>'key' as key from jobs where id = $1",
      [up.data.jobId],
    );
    const rows = names.map((name, i) => ({
      line: i + 2,
      cells: IMPORT_COLUMNS.map((c) => (c === '企业名称*' ? name : '')),
    }));
    await writeFile(join(importDir(t), `${job?.agency_id}-${job?.key}.rows.json`), JSON.stringify(rows));
    await t.ownerQuery(
      `update jobs set state = 'running', locked_until = now() - interval '1 minute', progress = jsonb_set(progress, '{done}', '10') where id = $1`,
      [up.data.jobId],
    );
    expect((await progress()).data).toMatchObject({ state: 'running', interrupted: true });
    for (let i = 0; i < 100 && (await progress()).data.state !== 'done'; i++) await sleep(100);
    expect((await progress()).data).toMatchObject({ state: 'done', interrupted: false });
    const stored = await t.ownerQuery<{ n: number }>(
      `select count(*)::int as n from enterprises where qymc like '中断恢复%'`,
    );
    expect(stored[0]?.n).toBe(30);
  });
});
