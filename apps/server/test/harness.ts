import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODE } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Db, openDatabase } from '../src/db/client.js';
import { DEMO_PASSWORD, seedDemo } from '../src/db/seed/demo.js';
import { injectAsBrowser } from './browser-inject.js';
import { freshDatabase } from './fresh-database.js';
import { copyPglite, ensureTemplate } from './template.js';

export interface Reply<T = unknown> {
  status: number;
  code: number;
  msg: string;
  data: T;
}

/**
 * A fresh server on a fresh database for one test file: PGlite in a temporary folder, or, when
 * DATABASE_URL is set, a new database on that PostgreSQL server, dropped again by close(). Either is a
 * copy of the run's prepared database (test/template.ts).
 */
export async function startTestApp(
  opts: {
    seed?: boolean;
    prepare?: (owner: Db) => Promise<void>;
    /** The e-tax bureau for deps.bureau, e.g. a simulator the test started with startTaxSim(). */
    taxBureauUrl?: string;
    /**
     * The abuse limits' multiplier: test files sign in far more often from one address than people do,
     * so they run with the limits ×100 unless they test the limits themselves (1).
     */
    rateLimitFactor?: number;
  } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dzy-test-'));
  // A copy of the run's prepared database (migrated, and seeded unless seed: false; test/template.ts)
  // instead of migrating and seeding from nothing in every file.
  // DZY_TEST_NO_TEMPLATE=1: from nothing in every file, as before (to compare, or to rule the template out).
  const template = process.env.DZY_TEST_NO_TEMPLATE === '1' ? null : await ensureTemplate();
  const which = opts.seed === false ? 'bare' : 'seeded';
  const server = process.env.DATABASE_URL
    ? await freshDatabase(process.env.DATABASE_URL, 'dzy_t', template?.postgres?.[which])
    : null;
  if (!server && template) copyPglite(template, which, dataDir);
  const config = {
    ...loadConfig({
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: server?.url ?? '',
      // The key the template's seed encrypted the demo's stored credentials with.
      ...(template ? { SECRET_KEY: template.secretKey } : {}),
    }),
    webDist: join(dataDir, 'no-web'),
    rateLimitFactor: opts.rateLimitFactor ?? 100,
    ...(opts.taxBureauUrl ? { taxBureauUrl: opts.taxBureauUrl } : {}),
  };
  // Migrations find nothing to do on the copy, and the seed finds the demo agency there (both no-ops).
  const db = await openDatabase(config, async (owner) => {
    if (opts.seed !== false) await seedDemo(owner, config.secretKey);
    await opts.prepare?.(owner);
  });
  const app = await buildApp(config, db);
  await app.ready();
  injectAsBrowser(app);

  /** Makes a call as the given session cookie (or none); bodies are sent as JSON. */
  async function call<T = unknown>(path: string, body: unknown = {}, cookie?: string): Promise<Reply<T>> {
    const res = await app.inject({
      method: 'POST',
      url: `/api/${path}`,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(body),
    });
    const json = res.json() as { code: number; msg: string; data: T };
    return { status: res.statusCode, ...json };
  }

  /** Signs in with a password and returns the session cookie to send with later calls. */
  async function login(account: string, password = DEMO_PASSWORD): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/userext/v1.0/common/user/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ type: '1', account, password }),
    });
    const body = res.json() as { code: number; msg: string };
    if (body.code !== CODE.OK) throw new Error(`login ${account} failed: ${body.msg}`);
    const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('dzy_session='));
    if (!cookie) throw new Error('no session cookie');
    return cookie.split(';')[0] ?? '';
  }

  /** Reads as the owner (bypassing row-level security) to check what was really written. */
  async function ownerQuery<T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    if (server) {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        return (await client.query(text, params)).rows as T[];
      } finally {
        await client.end();
      }
    }
    // PGlite's one connection runs as the app role; a test may step up to its bootstrap superuser for
    // one transaction (the embedded engine's known limit, docs/api.md) to see every tenant's rows.
    const parts = text.split(/\$(\d+)/);
    const query = sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)));
    return db.app.transaction(async (tx) => {
      await tx.execute(sql.raw('set local role postgres'));
      const res = await tx.execute(query);
      return (res as unknown as { rows: T[] }).rows;
    });
  }

  return {
    app,
    db,
    config,
    call,
    login,
    ownerQuery,
    kind: db.kind,
    async close() {
      await app.close();
      await db.close();
      await server?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
