import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { DEMO_PASSWORD, seedDemo } from '../src/db/seed/demo.js';
import { encrypt } from '../src/lib/crypto.js';
import { injectAsBrowser } from './browser-inject.js';
import { freshDatabase } from './fresh-database.js';
import { copyPglite, ensureTemplate } from './template.js';

/**
 * The machinery of the kill-and-resume tests (a batch under way when its server goes away, finished by a
 * new server on the same database): one simulator and one database for the file (a copy of the run's
 * prepared one, test/template.ts, demo data included), servers opened and closed on it, the leftovers of a
 * crash written as the owner, and the checks that every client was counted once.
 */
export interface ResumeRig {
  sim: TaxSim;
  config: Config;
  /** A server (app and job runner) on the file's database; `seed` makes sure the demo data is there. */
  open(seed: boolean): Promise<ResumeServer>;
  /** As the owner (past row-level security): on PostgreSQL a separate connection, on PGlite a stepped-up transaction. */
  owner<T extends Record<string, unknown>>(db: Database, text: string, params?: unknown[]): Promise<T[]>;
}

export interface ResumeServer {
  app: Awaited<ReturnType<typeof buildApp>>;
  db: Database;
  call<T>(path: string, body: unknown, cookie?: string): Promise<{ code: number; msg: string; data: T }>;
  login(account: string): Promise<string>;
  close(): Promise<void>;
}

/** Registers beforeAll/afterAll for a simulator (fixed to `today` when given) and a fresh database. */
export function useResumeRig(opts: { dirPrefix: string; today?: string }): ResumeRig {
  let server: Awaited<ReturnType<typeof freshDatabase>> | null = null;
  let dataDir = '';
  const rig = {} as ResumeRig;

  rig.open = async (seed) => {
    const db = await openDatabase(
      rig.config,
      seed
        ? async (owner) => {
            await seedDemo(owner, rig.config.secretKey);
          }
        : undefined,
    );
    const app = await buildApp(rig.config, db);
    injectAsBrowser(app);
    await app.ready();
    const call = async <T>(path: string, body: unknown, cookie?: string) => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/${path}`,
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        payload: JSON.stringify(body),
      });
      return res.json() as { code: number; msg: string; data: T };
    };
    const login = async (account: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/userext/v1.0/common/user/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ type: '1', account, password: DEMO_PASSWORD }),
      });
      const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('dzy_session='));
      return cookie?.split(';')[0] ?? '';
    };
    const close = async () => {
      await app.close();
      await db.close();
    };
    return { app, db, call, login, close };
  };

  rig.owner = async <T extends Record<string, unknown>>(db: Database, text: string, params: unknown[] = []) => {
    if (server) {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        return (await client.query(text, params)).rows as T[];
      } finally {
        await client.end();
      }
    }
    const parts = text.split(/\$(\d+)/);
    const query = sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)));
    return db.app
      .transaction(async (tx) => {
        await tx.execute(sql.raw('set local role postgres'));
        return (await tx.execute(query)) as unknown as { rows: T[] };
      })
      .then((r) => r.rows);
  };

  beforeAll(async () => {
    rig.sim = await startTaxSim(opts.today ? { latencyMs: 60, today: opts.today } : { latencyMs: 60 });
    dataDir = mkdtempSync(join(tmpdir(), opts.dirPrefix));
    // The run's prepared database (migrated and seeded once), not migrations and the seed from nothing.
    const template = await ensureTemplate();
    server = process.env.DATABASE_URL
      ? await freshDatabase(process.env.DATABASE_URL, 'dzy_t', template.postgres?.seeded)
      : null;
    if (!server) copyPglite(template, 'seeded', dataDir);
    // The key the template's seed encrypted the demo's stored credentials with, where every server opened
    // on this folder reads it (in this process or spawned: config.ts).
    writeFileSync(join(dataDir, 'secret.key'), template.secretKey, { mode: 0o600 });
    rig.config = {
      ...loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: server?.url ?? '' }),
      webDist: join(dataDir, 'no-web'),
      taxBureauUrl: rig.sim.url,
    };
  });

  afterAll(async () => {
    await server?.drop();
    await rig.sim?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  return rig;
}

/**
 * Every client of the demo administrator's agency gets a simulator scenario and the e-tax credentials;
 * with `reportPassword` also the login mode and report password a declaration check needs.
 */
export async function credentialDemoClients(
  rig: ResumeRig,
  db: Database,
  scenario: Parameters<TaxSim['setScenario']>[1],
  opts: { reportPassword?: boolean } = {},
) {
  const ents = await rig.owner<{ id: number; qysh: string }>(
    db,
    `select e.id, e.qysh from enterprises e
      where e.agency_id = (select m.agency_id from memberships m join users u on u.id = m.user_id
                            where u.phone = '13800000000' and m.is_admin limit 1)
        and e.deleted_at is null and e.qysh <> '' order by e.id`,
  );
  for (const e of ents) {
    rig.sim.setScenario(e.qysh, scenario);
    if (opts.reportPassword) {
      await rig.owner(
        db,
        "update enterprises set xdzswj_dlzh = 'bsy', xdzswj_pass_enc = $1, xdzswj_sfbm = '1', dlfs = '1', report_password_enc = $2, hydqsj = null, qyzt = '1' where id = $3",
        [encrypt(rig.config.secretKey, 'Etax@2026'), encrypt(rig.config.secretKey, 'Gs@2026'), e.id],
      );
    } else {
      await rig.owner(
        db,
        "update enterprises set xdzswj_dlzh = 'bsy', xdzswj_pass_enc = $1, xdzswj_sfbm = '1', hydqsj = null, qyzt = '1' where id = $2",
        [encrypt(rig.config.secretKey, 'Etax@2026'), e.id],
      );
    }
  }
}

/** Polls the batch's progress until at least `n` are complete, then stops the server (mid-batch: some done, most not). */
export async function stopMidway(server: ResumeServer, progress: () => Promise<{ completeNum: number }>, n = 6) {
  for (;;) {
    if ((await progress()).completeNum >= n) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  await server.close();
}

/**
 * What a crash leaves behind that a clean stop does not: a job whose outcome was written but which still
 * says running (the process died between the two), and one that died mid-call. Written on the database
 * alone (no server, no job runner); checks fewer than `total` outcomes are in `resultsTable` so far.
 */
export async function leaveCrashBehind(
  rig: ResumeRig,
  opts: { queue: string; resultsTable: string; batchId: number | string; total: number },
) {
  const { queue, resultsTable, batchId, total } = opts;
  const db = await openDatabase(rig.config);
  const [doneJob] = await rig.owner<{ id: number }>(
    db,
    `select id from jobs where queue = '${queue}' and key like $1 and state = 'done' order by id limit 1`,
    [`${batchId}:%`],
  );
  const [queuedJob] = await rig.owner<{ id: number }>(
    db,
    `select id from jobs where queue = '${queue}' and key like $1 and state = 'queued' order by id limit 1`,
    [`${batchId}:%`],
  );
  expect(doneJob && queuedJob).toBeTruthy();
  await rig.owner(
    db,
    "update jobs set state = 'running', locked_until = now() - interval '1 second', finished_at = null where id in ($1, $2)",
    [doneJob?.id, queuedJob?.id],
  );
  const before = await rig.owner<{ n: number }>(
    db,
    `select count(*)::int as n from ${resultsTable} where batch_id = $1 and msg_type is not null`,
    [batchId],
  );
  expect(before[0]?.n).toBeLessThan(total);
  await db.close();
}

/** Polls the progress (every 100 ms, up to 90 s) until `finished` says so; returns the last reading. */
export async function waitForFinish<R>(progress: () => Promise<R>, finished: (rate: R) => boolean): Promise<R | null> {
  const until = Date.now() + 90_000;
  let rate: R | null = null;
  while (Date.now() < until) {
    rate = await progress();
    if (finished(rate)) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  return rate;
}

/**
 * Every client counted once: `total` outcomes in `resultsTable`, one per client, none empty; and every job
 * of the batch done.
 */
export async function expectCountedOnce(
  rig: ResumeRig,
  db: Database,
  opts: { queue: string; resultsTable: string; batchId: number | string; total: number },
) {
  const { queue, resultsTable, batchId, total } = opts;
  const rows = await rig.owner<{ n: number; distinct_n: number; nulls: number }>(
    db,
    `select count(*)::int as n, count(distinct enterprise_id)::int as distinct_n,
            count(*) filter (where msg_type is null)::int as nulls from ${resultsTable} where batch_id = $1`,
    [batchId],
  );
  expect(rows[0]).toEqual({ n: total, distinct_n: total, nulls: 0 });
  const jobs = await rig.owner<{ state: string; n: number }>(
    db,
    `select state, count(*)::int as n from jobs where queue = '${queue}' and key like $1 group by state`,
    [`${batchId}:%`],
  );
  expect(jobs).toEqual([{ state: 'done', n: total }]);
}
