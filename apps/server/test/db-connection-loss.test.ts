import { CODE, CUSTOMER_FILES, customerListCall, IMPORT_COLUMNS, importProgressCall, MSG } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, newUscc, upload, xlsx } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

// Cutting the product's connections is a PostgreSQL-server event: PGlite is in-process and has no
// connection to lose. CI's second pass (`npm test -- --engine-only` with DATABASE_URL) runs this file.
describe.skipIf(!process.env.DATABASE_URL)('a lost database connection (PostgreSQL server only)', () => {
  let t: TestApp;
  let admin: string;

  /** Ends every connection the app role holds to this test's own database (never another database). */
  const cutConnections = () =>
    t.ownerQuery<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and usename = 'dzy_app' and pid <> pg_backend_pid()`,
    );

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.login(ADMIN);
  });
  afterAll(() => t?.close());

  it('fails only the calls in flight, with the envelope; the process lives and the next calls succeed', async () => {
    const body = { pageNo: 1, pageSize: 100 };
    let cut = 0;
    const replies: { status: number; code: number; msg: string }[] = [];
    for (let round = 0; round < 5; round++) {
      const calls = Array.from({ length: 20 }, () => t.call(customerListCall.path, body, admin));
      const [n] = await cutConnections();
      cut += n?.n ?? 0;
      replies.push(...(await Promise.all(calls)));
    }
    expect(cut).toBeGreaterThan(0);
    for (const r of replies) {
      if (r.code === CODE.OK) continue;
      expect(r.status).toBe(503);
      expect(r.msg).toBe(MSG.databaseLost);
    }
    // The pool replaced the broken connections: every call now succeeds.
    const after = await Promise.all(Array.from({ length: 20 }, () => t.call(customerListCall.path, body, admin)));
    expect(after.map((r) => r.code)).toEqual(Array(20).fill(CODE.OK));
  });

  it('a job in flight when the connections are cut finishes, with every row written once', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `断线导入${i}号有限公司`);
    const file = await xlsx(
      IMPORT_COLUMNS,
      names.map((name) => IMPORT_COLUMNS.map((c) => (c === '企业名称*' ? name : c === '企业税号*' ? newUscc() : ''))),
    );
    const up = await upload<{ jobId: number }>(t, CUSTOMER_FILES.importUpload, admin, { name: 'a.xlsx', data: file });
    expect(up.code).toBe(CODE.OK);
    let state = '';
    for (let i = 0; i < 600 && state !== 'done' && state !== 'failed'; i++) {
      // Cut while the job plans and inserts; then let it finish. A job whose worker lost its connection
      // mid-write is retried from what committed; one whose claim was cut after it committed is taken
      // again when its 30-second lease runs out (hence the long wait).
      if (i < 5) await cutConnections();
      await new Promise((res) => setTimeout(res, 100));
      const r = await t.call<{ state: string }>(importProgressCall.path, { jobId: up.data.jobId }, admin);
      if (r.code === CODE.OK) state = r.data.state;
    }
    expect(state).toBe('done');
    const rows = await t.ownerQuery<{ n: number; distinct_names: number }>(
      `select count(*)::int as n, count(distinct qymc)::int as distinct_names from enterprises where qymc like '断线导入%'`,
    );
    expect(rows[0]).toEqual({ n: 100, distinct_names: 100 });
  }, 90_000);
});
