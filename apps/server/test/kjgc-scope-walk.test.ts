import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../src/app.js';
import { startTestApp, type TestApp } from './harness.js';
import { untilJobsSettled } from './helpers.js';

// Issue 26 point 2: a factory (启航会计工厂, 13700000000) with 20 of its agency's clients not handed over
// walks every call of the registry against those clients; none of their data may come back or change.
const FACTORY = '13700000000';

let t: TestApp;
let factory = '';
let agencyId = 0;
let withheld: { id: number; qymc: string; qysh: string }[] = [];

/** Ids (integers read from the database) as an array literal: PGlite's owner queries take no array parameter. */
const idList = (ids: number[]) => `'{${ids.map((i) => Math.trunc(i)).join(',')}}'::int[]`;

/** Every row of every client-owned table that belongs to the withheld clients, as one fingerprint each. */
async function fingerprint(): Promise<Record<string, string>> {
  const tables = await t.ownerQuery<{ table_name: string }>(
    `select c.table_name from information_schema.columns c
     join information_schema.tables s on s.table_name = c.table_name and s.table_schema = c.table_schema
     where c.column_name = 'enterprise_id' and c.table_schema = current_schema() and s.table_type = 'BASE TABLE'
     order by 1`,
  );
  const ids = withheld.map((w) => w.id);
  const out: Record<string, string> = {};
  const [e] = await t.ownerQuery<{ h: string }>(
    `select coalesce(md5(string_agg(t::text, '|' order by t.id)), '') as h from enterprises t where t.id = any(${idList(ids)})`,
  );
  out.enterprises = e?.h ?? '';
  for (const { table_name } of tables) {
    const [r] = await t.ownerQuery<{ h: string }>(
      `select count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h
       from "${table_name}" t where t.enterprise_id = any(${idList(ids)})`,
    );
    out[table_name] = r?.h ?? '';
  }
  return out;
}

beforeAll(async () => {
  t = await startTestApp();
  const [demo] = await t.ownerQuery<{ id: number }>(`select id from organisations where name = '演示财税代理有限公司'`);
  agencyId = demo?.id ?? 0;
  withheld = await t.ownerQuery<{ id: number; qymc: string; qysh: string }>(
    'select id, qymc, qysh from enterprises where agency_id = $1 order by id desc limit 20',
    [agencyId],
  );
  expect(withheld).toHaveLength(20);
  await t.ownerQuery(`delete from kjgc_handovers where enterprise_id = any(${idList(withheld.map((w) => w.id))})`);
  factory = await t.login(FACTORY);
}, 300_000);
afterAll(() => t.close());

/** A body for a call: each field that names a client gets a withheld one; paging asks for a large page. */
function bodyFor(shape: Record<string, unknown>, pick: number): Record<string, unknown> {
  const w = withheld[pick % withheld.length] ?? { id: 0, qysh: '', qymc: '' };
  const ids = withheld.map((x) => x.id);
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) {
    if (/^(aeiId|enterpriseId|qyid|entId|customerId|clientId|id|aeiid)$/i.test(key)) body[key] = w.id;
    else if (/^(aeiIds|enterpriseIds|ids|qyids|entIds|clientIds|customerIds)$/i.test(key)) body[key] = ids;
    else if (/^(qysh|nsrsbh|taxNo)$/i.test(key)) body[key] = w.qysh;
    else if (key === 'pageNo') body[key] = 1;
    else if (key === 'pageSize') body[key] = 100;
  }
  return body;
}

// Calls that end or move the factory's own session; walked, they would only sign it out.
const SESSION_ENDING = /logout|switch|quit|deletePersonal|updateSessionUserInfo|acceptInvite/i;

describe("a factory's scope travels with it into every transaction (issue 26 point 2)", () => {
  it('no call of the registry returns or changes a client not handed over', async () => {
    const before = await fingerprint();
    const leaks: string[] = [];
    const calls = serverModules().flatMap((m) => m.calls.map((c) => c.def));
    expect(calls.length).toBeGreaterThan(300);
    let walked = 0;
    for (const [i, def] of calls.entries()) {
      if (SESSION_ENDING.test(def.path)) continue;
      const shape = ((def.body as unknown as { shape?: Record<string, unknown> }).shape ?? {}) as Record<
        string,
        unknown
      >;
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/${def.path}`,
        headers: { 'content-type': 'application/json', cookie: factory },
        payload: JSON.stringify(bodyFor(shape, i)),
      });
      walked++;
      const text = res.body;
      for (const w of withheld) {
        if (text.includes(w.qymc) || (w.qysh && text.includes(w.qysh))) leaks.push(`${def.path}: ${w.qymc}`);
      }
    }
    expect(walked).toBeGreaterThan(300);
    expect(leaks).toEqual([]);
    // Jobs the walk started run as the factory too: once they have run, nothing of the withheld changed.
    await untilJobsSettled(t);
    expect(await fingerprint()).toEqual(before);
  }, 600_000);

  // A factory creating a client (by the call or by import): kjgc-routes-walk.test.ts.

  it('fails closed: a transaction that sets the agency but no factory marker sees no client row', async () => {
    const count = (kjgc: string | null) =>
      t.db.app.transaction(async (tx) => {
        await tx.execute(sql`select set_config('app.agency_id', ${String(agencyId)}, true)`);
        if (kjgc !== null) await tx.execute(sql`select set_config('app.kjgc_id', ${kjgc}, true)`);
        const r = await tx.execute(sql`select count(*)::int as n from enterprises`);
        const c = await tx.execute(sql`select count(*)::int as n from contracts`);
        return [
          (r as unknown as { rows: { n: number }[] }).rows[0]?.n,
          (c as unknown as { rows: { n: number }[] }).rows[0]?.n,
        ];
      });
    const [all] = await t.ownerQuery<{ n: number }>('select count(*)::int as n from enterprises where agency_id = $1', [
      agencyId,
    ]);
    expect(await count(null)).toEqual([0, 0]);
    expect(await count('')).toEqual([0, 0]);
    expect((await count('none'))[0]).toBe(all?.n);
  });
});
