import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { freshDatabase } from './fresh-database.js';
import { copyPglite, ensureTemplate } from './template.js';

/**
 * Every other file starts from a copy of the run's prepared database (test/template.ts). This one applies
 * every migration from nothing, on the engine of the run, and checks the copy has the very same schema:
 * a migration that fails on an empty database, or a template that does not match the migrations, fails here.
 */

const JOURNAL = resolve(import.meta.dirname, '../src/db/migrations/meta/_journal.json');
const adminUrl = process.env.DATABASE_URL;

interface Opened {
  db: Database;
  /** The owner's connection string on PostgreSQL. */
  url: string | null;
  close(): Promise<void>;
}

async function open(from: 'nothing' | 'template'): Promise<Opened> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dzy-migrate-'));
  const template = from === 'template' ? await ensureTemplate() : null;
  const server = adminUrl ? await freshDatabase(adminUrl, 'dzy_t', template?.postgres?.bare) : null;
  if (template && !server) copyPglite(template, 'bare', dataDir);
  const db = await openDatabase({ databaseUrl: server?.url ?? null, appDatabaseUrl: null, dataDir });
  return {
    db,
    url: server?.url ?? null,
    async close() {
      await db.close();
      await server?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The schema as the catalogue has it: columns, constraints, indexes, policies, functions, triggers. */
async function schema(db: Database): Promise<string[]> {
  const q = async (text: string) =>
    ((await db.app.execute(sql.raw(text))) as unknown as { rows: { s: string }[] }).rows.map((r) => r.s);
  return [
    ...(await q(`select 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                  || case when a.attnotnull then ' not null' else '' end
                  || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') as s
                 from pg_attribute a join pg_class c on c.oid = a.attrelid
                 left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
                 where c.relnamespace = 'public'::regnamespace and a.attnum > 0 and not a.attisdropped
                 order by 1`)),
    ...(await q(`select 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as s
                 from pg_constraint where connamespace = 'public'::regnamespace order by 1`)),
    ...(await q(`select 'index ' || indexdef as s from pg_indexes where schemaname = 'public' order by 1`)),
    ...(await q(`select 'policy ' || tablename || ' ' || policyname || ' ' || cmd || ' ' || coalesce(qual, '')
                  || ' ' || coalesce(with_check, '') as s from pg_policies where schemaname = 'public' order by 1`)),
    ...(await q(`select 'function ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc) as s
                 from pg_proc p where p.pronamespace = 'public'::regnamespace order by 1`)),
    ...(await q(`select 'trigger ' || tgrelid::regclass::text || ' ' || pg_get_triggerdef(oid) as s
                 from pg_trigger where not tgisinternal order by 1`)),
    ...(await q(`select 'rls ' || relname || ' ' || relrowsecurity || ' ' || relforcerowsecurity as s
                 from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by 1`)),
  ];
}

let fromNothing: Opened;
let copy: Opened;
beforeAll(async () => {
  fromNothing = await open('nothing');
  copy = await open('template');
});
afterAll(async () => {
  await fromNothing?.close();
  await copy?.close();
});

it('applies every migration of the journal to an empty database', async () => {
  const journal = JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: { tag: string }[] };
  const count = 'select count(*)::int as n from drizzle.__drizzle_migrations';
  let applied: number | undefined;
  if (fromNothing.url) {
    // The owner's own connection: the app role may not read drizzle's table.
    const c = new pg.Client({ connectionString: fromNothing.url });
    await c.connect();
    applied = (await c.query<{ n: number }>(count)).rows[0]?.n;
    await c.end();
  } else {
    applied = await fromNothing.db.app.transaction(async (tx) => {
      await tx.execute(sql.raw('set local role postgres'));
      return ((await tx.execute(sql.raw(count))) as unknown as { rows: { n: number }[] }).rows[0]?.n;
    });
  }
  expect(applied).toBe(journal.entries.length);
  expect((await schema(fromNothing.db)).some((s) => s.startsWith('column enterprises.agency_id integer'))).toBe(true);
});

it('the prepared database the other files copy has exactly the schema of the migrations', async () => {
  expect(await schema(copy.db)).toEqual(await schema(fromNothing.db));
});
