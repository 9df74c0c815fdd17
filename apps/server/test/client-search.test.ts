import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { ADMIN, ENT, LI, list, OTHER_ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * Issue 30 point 1: the clients' keyword search goes through enterprise_search() (migration 0045), a
 * function that runs as the table owner so the trigram indexes serve under row-level security. It must
 * never let another agency's client, or one outside the caller's data scope, come back.
 */

let t: TestApp;
let admin: string;
let li: string;
let other: string;
const name: Record<number, string> = {};
const taxNo: Record<number, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  [admin, li, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(OTHER_ADMIN)]);
  const rows = await t.ownerQuery<{ id: number; qymc: string; qysh: string }>(
    'select id, qymc, qysh from enterprises where id in ($1, $2, $3)',
    [ENT.adminOwn, ENT.liOwn, ENT.otherAgency],
  );
  for (const r of rows) {
    name[r.id] = r.qymc;
    taxNo[r.id] = r.qysh;
  }
});
afterAll(() => t.close());

/** Three characters from the middle of a name: past the region prefix the demo names share. */
const part = (s: string) => s.slice(2, 5);
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('client keyword search (我的客户)', () => {
  it('finds the agency’s own client by three characters of its name, and never another agency’s', async () => {
    const own = await list(t, admin, { keyword: part(name[ENT.adminOwn] ?? '') });
    expect(ids(own.list)).toContain(ENT.adminOwn);
    const theirs = await list(t, admin, { keyword: part(name[ENT.otherAgency] ?? '') });
    expect(ids(theirs.list)).not.toContain(ENT.otherAgency);
    expect(theirs.list.every((c) => c.id <= 60)).toBe(true);
    // The other agency finds its client with the same keyword.
    const mine = await list(t, other, { keyword: part(name[ENT.otherAgency] ?? '') });
    expect(ids(mine.list)).toContain(ENT.otherAgency);
  });

  it('keeps the data scope: a staff member does not find a colleague’s client by keyword', async () => {
    const found = await list(t, li, { keyword: part(name[ENT.adminOwn] ?? '') });
    expect(ids(found.list)).not.toContain(ENT.adminOwn);
    const ownFound = await list(t, li, { keyword: part(name[ENT.liOwn] ?? '') });
    expect(ids(ownFound.list)).toContain(ENT.liOwn);
  });

  it('finds by a tax number pasted with spaces, and by a two-character keyword', async () => {
    const qysh = taxNo[ENT.adminOwn] ?? '';
    expect(qysh.length).toBeGreaterThan(10);
    const spaced = `${qysh.slice(4, 8)} ${qysh.slice(8, 12)}`;
    expect(ids((await list(t, admin, { keyword: spaced })).list)).toContain(ENT.adminOwn);
    const two = (name[ENT.adminOwn] ?? '').slice(2, 4);
    const short = await list(t, admin, { keyword: two });
    expect(ids(short.list)).toContain(ENT.adminOwn);
    expect(short.list.every((c) => c.qymc.includes(two) || c.qysh.includes(two))).toBe(true);
  });

  it('the pattern characters are text: % and _ match only themselves', async () => {
    expect((await list(t, admin, { keyword: '%%%' })).total).toBe(0);
    expect((await list(t, admin, { keyword: '___' })).total).toBe(0);
  });
});

describe('enterprise_search() itself', () => {
  const search = (scope: { agencyId: number | null }) =>
    inScope(t.db.app, { agencyId: scope.agencyId, userId: null, kjgcId: null }, async (tx) => {
      const res = await tx.execute(sql`select enterprise_search('%', '%') as id`);
      return (res as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
    });

  it('returns the ids of the transaction’s agency only, and nothing without one', async () => {
    const first = await search({ agencyId: 1 });
    const second = await search({ agencyId: 2 });
    expect(first.length).toBeGreaterThanOrEqual(60);
    expect(first.every((id) => id <= 60 || id > 80)).toBe(true);
    expect(second).toContain(ENT.otherAgency);
    expect(second.some((id) => first.includes(id))).toBe(false);
    expect(await search({ agencyId: null })).toEqual([]);
  });
});
