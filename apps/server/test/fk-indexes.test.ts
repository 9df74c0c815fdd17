import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';

/**
 * Issue 30 point 2: every foreign key and every tenant column has an index that leads with it. Without one,
 * deleting a client scans every row of each referencing table (charges had none), and a filter by client or
 * agency cannot reach an index. Read from the catalogue, so a table added later without its index fails here.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
});
afterAll(() => t.close());

/** Each index of the public schema as its table and column list in order (expression columns are null). */
const INDEXES = `
  select i.indrelid, array(select a.attname::text from unnest(i.indkey) with ordinality k(attnum, ord)
                           join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                           order by k.ord) as cols
  from pg_index i`;

it('every foreign key has an index whose leading columns are the key', async () => {
  const missing = await t.ownerQuery<{ tbl: string; cols: string[] }>(`
    with idx as (${INDEXES}),
    fk as (
      select c.conrelid, c.conrelid::regclass::text as tbl,
             array(select a.attname::text from unnest(c.conkey) with ordinality k(attnum, ord)
                   join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum order by k.ord) as cols
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = 'public'
    )
    select tbl, cols from fk
    where not exists (select 1 from idx where idx.indrelid = fk.conrelid and idx.cols[1:cardinality(fk.cols)] = fk.cols)
    order by tbl, cols`);
  expect(missing.map((m) => `${m.tbl}(${m.cols.join(', ')})`)).toEqual([]);
});

it('every agency_id and enterprise_id column leads an index (after the agency, for a client under its tenant)', async () => {
  const missing = await t.ownerQuery<{ tbl: string; col: string }>(`
    with idx as (${INDEXES})
    select c.relname::text as tbl, a.attname::text as col
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not a.attisdropped and a.attnum > 0
      and a.attname in ('agency_id', 'enterprise_id')
      and not exists (
        select 1 from idx where idx.indrelid = c.oid
          and (idx.cols[1] = a.attname or (idx.cols[1] = 'agency_id' and idx.cols[2] = a.attname)))
    order by 1, 2`);
  expect(missing.map((m) => `${m.tbl}.${m.col}`)).toEqual([]);
});

it('the catalogue query finds a missing index (the check can fail)', async () => {
  // A table made here without its indexes must be reported by the same query the tests above use.
  await t.ownerQuery(`create table fk_probe (id int primary key, enterprise_id int references enterprises(id))`);
  try {
    const found = await t.ownerQuery<{ tbl: string }>(`
      with idx as (${INDEXES})
      select c.relname::text as tbl from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relname = 'fk_probe' and a.attname = 'enterprise_id'
        and not exists (select 1 from idx where idx.indrelid = c.oid and idx.cols[1] = a.attname)`);
    expect(found).toEqual([{ tbl: 'fk_probe' }]);
  } finally {
    await t.ownerQuery('drop table fk_probe');
  }
});

it('操作日志 rows carry the client they are about, derived by the database', async () => {
  const rows = await t.ownerQuery<{ enterprise_id: number | null }>(`
    insert into audit_log (agency_id, action, target, detail) values
      (null, 'probe.a', 'enterprise:42', '{}'), (null, 'probe.b', 'staff:3', '{"enterpriseId": 7}'),
      (null, 'probe.c', 'staff:3', '{"enterpriseId": "x"}'), (null, 'probe.d', 'enterprise:1x', '{}')
    returning enterprise_id`);
  expect(rows.map((r) => r.enterprise_id)).toEqual([42, 7, null, null]);
});
