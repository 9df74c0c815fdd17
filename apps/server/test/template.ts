import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { seedDemo } from '../src/db/seed/demo.js';

/**
 * The prepared databases the tests copy (issue 27): every migration applied once per run and engine
 * ("bare"), and the same plus the demo seed ("seeded"). A test file starts from a copy: on PGlite the
 * data directory copied, on PostgreSQL `CREATE DATABASE … TEMPLATE`. Keyed by a hash of the migrations
 * and of every source file the seed and the database opening import, so a changed migration or seed
 * builds a new one; one test (migrations.test.ts) still applies every migration from nothing.
 */
export interface Template {
  /** The hash of the sources the template was built from, and when it was built (ms). */
  key: string;
  builtAt: number;
  /** The secret key the seed encrypted stored credentials with; a copy must be opened with it. */
  secretKey: string;
  /** PGlite: folders holding `pgdata/`. PostgreSQL: template database names. */
  pglite?: { bare: string; seeded: string };
  postgres?: { bare: string; seeded: string };
}

const ROOT = resolve(import.meta.dirname, '../../..');
const SERVER_SRC = resolve(ROOT, 'apps/server/src');
const CACHE = resolve(ROOT, 'node_modules/.cache/dzy-test-template');
/** A template is reused by later runs for at most this long: the seed dates things relative to now. */
const MAX_AGE_MS = 45 * 60_000;
/** Older templates are deleted (no run lasts this long, so none is still being copied). */
const DELETE_AFTER_MS = 120 * 60_000;
/** Set by the global setup (test/global-setup.ts) so every worker of a run copies the same template. */
const ENV = 'DZY_TEST_TEMPLATE';

/** The files whose change must rebuild the template: migrations and the seed's and opener's import graph. */
function sourceFiles(): string[] {
  const files = new Set<string>();
  const migrations = join(SERVER_SRC, 'db/migrations');
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else files.add(join(dir, e.name));
    }
  };
  walk(migrations);
  const queue = [join(SERVER_SRC, 'db/seed/demo.ts'), join(SERVER_SRC, 'db/client.ts'), import.meta.filename];
  const importRe = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
  while (queue.length) {
    const file = queue.pop() as string;
    if (files.has(file) || !existsSync(file)) continue;
    files.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(importRe)) {
      const spec = m[1] ?? '';
      let target: string | null = null;
      if (spec === '@dzy/shared') target = resolve(ROOT, 'packages/shared/src/index.ts');
      else if (spec.startsWith('.')) target = resolve(dirname(file), spec);
      if (!target) continue;
      const candidates = [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, join(target, 'index.ts')];
      const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile());
      if (hit) queue.push(hit);
    }
  }
  return [...files].sort();
}

/** The hash of the template's sources, the PGlite version, and China's date (the seed is relative to today). */
export function templateKey(): string {
  const h = createHash('sha256');
  for (const f of sourceFiles()) h.update(f.slice(ROOT.length)).update('\0').update(readFileSync(f)).update('\0');
  const pglite = resolve(ROOT, 'node_modules/@electric-sql/pglite/package.json');
  if (existsSync(pglite)) h.update(readFileSync(pglite));
  h.update(new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10));
  return h.digest('hex').slice(0, 16);
}

const secretFor = (key: string, builtAt: number) =>
  createHash('sha256').update(`dzy-test-template:${key}:${builtAt}`).digest('hex');

function adminClient(adminUrl: string) {
  return new pg.Client({ connectionString: adminUrl });
}

function dbUrl(adminUrl: string, name: string) {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Builds the PGlite pair into a folder of its own, moved into place only when complete. */
async function buildPglite(key: string, builtAt: number): Promise<Template['pglite']> {
  const final = join(CACHE, `${key}-${builtAt}`);
  const work = `${final}.building-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  const secret = Buffer.from(secretFor(key, builtAt), 'hex');
  const bare = join(work, 'bare');
  mkdirSync(bare, { recursive: true });
  // openDatabase itself: the copy has exactly what a first start leaves (migrations, analyze, closed cleanly).
  await (await openDatabase({ databaseUrl: null, appDatabaseUrl: null, dataDir: bare })).close();
  const seeded = join(work, 'seeded');
  cpSync(join(bare, 'pgdata'), join(seeded, 'pgdata'), { recursive: true });
  await (
    await openDatabase({ databaseUrl: null, appDatabaseUrl: null, dataDir: seeded }, async (owner) => {
      await seedDemo(owner, secret);
    })
  ).close();
  writeFileSync(join(work, 'ready'), String(builtAt));
  renameSync(work, final);
  return { bare: join(final, 'bare'), seeded: join(final, 'seeded') };
}

/** Makes `name` a template nobody connects to (autovacuum skips it; TEMPLATE copies need it idle). */
async function freeze(admin: pg.Client, name: string) {
  await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
}

async function buildPostgres(adminUrl: string, key: string, builtAt: number): Promise<Template['postgres']> {
  const base = `dzy_tpl_${key}_${builtAt.toString(36)}`;
  const names = { bare: `${base}_b`, seeded: `${base}_s` };
  const secret = Buffer.from(secretFor(key, builtAt), 'hex');
  const dataDir = join(CACHE, `pg-${process.pid}`);
  mkdirSync(dataDir, { recursive: true });
  const admin = adminClient(adminUrl);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${names.bare}_w`);
    const open = (name: string, seed: boolean) =>
      openDatabase(
        { databaseUrl: dbUrl(adminUrl, name), appDatabaseUrl: null, dataDir },
        seed ? async (owner) => void (await seedDemo(owner, secret)) : undefined,
      );
    await (await open(`${names.bare}_w`, false)).close();
    await admin.query(`CREATE DATABASE ${names.seeded}_w TEMPLATE ${names.bare}_w`);
    await (await open(`${names.seeded}_w`, true)).close();
    // Renamed once complete: a half-built template (a run stopped midway) never matches the lookup.
    for (const n of [names.bare, names.seeded]) {
      await admin.query(`ALTER DATABASE ${n}_w RENAME TO ${n}`);
      await freeze(admin, n);
    }
  } finally {
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return names;
}

/** Deletes templates of other sources or past their age (PGlite folders, PostgreSQL databases). */
async function sweep(adminUrl: string | undefined, keep: string) {
  const now = Date.now();
  if (existsSync(CACHE)) {
    for (const e of readdirSync(CACHE)) {
      const m = /^([0-9a-f]{16})-(\d+)(\.building-\d+)?$/.exec(e);
      if (!m || e === keep) continue;
      if (now - Number(m[2]) > DELETE_AFTER_MS) rmSync(join(CACHE, e), { recursive: true, force: true });
    }
  }
  if (!adminUrl) return;
  const admin = adminClient(adminUrl);
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like 'dzy\\_tpl\\_%'`,
    );
    for (const { datname } of rows) {
      const m = /^dzy_tpl_[0-9a-f]{16}_([0-9a-z]+)_[bs](_w)?$/.exec(datname);
      if (!m || now - Number.parseInt(m[1] ?? '0', 36) <= DELETE_AFTER_MS) continue;
      await admin.query(`ALTER DATABASE ${datname} WITH IS_TEMPLATE false`);
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

/** The newest complete template of `key` younger than MAX_AGE_MS, if any, for the engine in use. */
async function findExisting(adminUrl: string | undefined, key: string): Promise<Template | null> {
  const now = Date.now();
  if (!adminUrl) {
    if (!existsSync(CACHE)) return null;
    const builtAt = readdirSync(CACHE)
      .map((e) => /^([0-9a-f]{16})-(\d+)$/.exec(e))
      .filter((m): m is RegExpExecArray => !!m && m[1] === key && existsSync(join(CACHE, m[0], 'ready')))
      .map((m) => Number(m[2]))
      .filter((t) => now - t < MAX_AGE_MS)
      .sort((a, b) => b - a)[0];
    if (builtAt === undefined) return null;
    const dir = join(CACHE, `${key}-${builtAt}`);
    return {
      key,
      builtAt,
      secretKey: secretFor(key, builtAt),
      pglite: { bare: join(dir, 'bare'), seeded: join(dir, 'seeded') },
    };
  }
  const admin = adminClient(adminUrl);
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 and datistemplate`,
      [`dzy\\_tpl\\_${key}\\_%\\_s`],
    );
    const builtAt = rows
      .map((r) => Number.parseInt(r.datname.split('_')[3] ?? '', 36))
      .filter((t) => now - t < MAX_AGE_MS)
      .sort((a, b) => b - a)[0];
    if (builtAt === undefined) return null;
    const base = `dzy_tpl_${key}_${builtAt.toString(36)}`;
    return { key, builtAt, secretKey: secretFor(key, builtAt), postgres: { bare: `${base}_b`, seeded: `${base}_s` } };
  } finally {
    await admin.end();
  }
}

/**
 * The template for this run and engine (DATABASE_URL set: PostgreSQL), built when none fits. The global
 * setup calls it once and pins the answer in the environment, so the workers never build it twice.
 */
export async function ensureTemplate(): Promise<Template> {
  const pinned = process.env[ENV];
  if (pinned) {
    const t = JSON.parse(pinned) as Template;
    if (process.env.DATABASE_URL ? t.postgres : t.pglite) return t;
  }
  const adminUrl = process.env.DATABASE_URL || undefined;
  const key = templateKey();
  let t = await findExisting(adminUrl, key);
  if (!t) {
    const builtAt = Date.now();
    mkdirSync(CACHE, { recursive: true });
    t = adminUrl
      ? { key, builtAt, secretKey: secretFor(key, builtAt), postgres: await buildPostgres(adminUrl, key, builtAt) }
      : { key, builtAt, secretKey: secretFor(key, builtAt), pglite: await buildPglite(key, builtAt) };
  }
  await sweep(adminUrl, `${key}-${t.builtAt}`);
  process.env[ENV] = JSON.stringify(t);
  return t;
}

/** Copies the template's PGlite data directory into `dataDir` (as `pgdata/`). */
export function copyPglite(t: Template, which: 'bare' | 'seeded', dataDir: string) {
  if (!t.pglite) throw new Error('no PGlite template');
  cpSync(join(t.pglite[which], 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
}
