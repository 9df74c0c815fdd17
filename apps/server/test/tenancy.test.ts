import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The database's own message behind Drizzle's "Failed query" wrapper. */
async function dbError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return err.cause?.message ?? err.message;
  }
  return 'no error';
}

const count = (table: string) => sql.raw(`select count(*)::int as n from ${table}`);
const n = (r: unknown) => (r as { rows: { n: number }[] }).rows[0]?.n;

describe('row-level security on tenant tables', () => {
  it('a query without a tenant set sees no enterprises, memberships or audit records', async () => {
    await inScope(t.db.app, { agencyId: null, userId: null, kjgcId: null }, async (tx) => {
      expect(n(await tx.execute(count('enterprises')))).toBe(0);
      expect(n(await tx.execute(count('memberships')))).toBe(0);
      expect(n(await tx.execute(count('audit_log')))).toBe(0);
    });
  });

  it('with a tenant set it sees exactly that agency rows', async () => {
    await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, async (tx) => {
      expect(n(await tx.execute(count('enterprises')))).toBe(60);
    });
    await inScope(t.db.app, { agencyId: 2, userId: null, kjgcId: null }, async (tx) => {
      expect(n(await tx.execute(count('enterprises')))).toBe(20);
    });
  });

  it('the app role cannot write a row into another agency', async () => {
    const err = await dbError(
      inScope(t.db.app, { agencyId: 2, userId: null, kjgcId: null }, (tx) =>
        tx.execute(sql`insert into enterprises (agency_id, qymc) values (1, '越权写入测试有限公司')`),
      ),
    );
    expect(err).toMatch(/row-level security/);
    await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, async (tx) => {
      expect(n(await tx.execute(count('enterprises')))).toBe(60);
    });
  });

  it('requests run as a role that is neither superuser nor exempt from row-level security', async () => {
    const r = await t.db.app.execute(sql`select rolsuper, rolbypassrls from pg_roles where rolname = current_user`);
    expect((r as unknown as { rows: unknown[] }).rows[0]).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('the audit log is append-only for the app role', async () => {
    const err = await dbError(
      inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) => tx.execute(sql`delete from audit_log`)),
    );
    expect(err).toMatch(/permission denied/);
  });
});
