import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODE, checkUnPaidCall, type LbsjcRate, lbsjcRateCall } from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { DEMO_PASSWORD, seedDemo } from '../src/db/seed/demo.js';
import { encrypt } from '../src/lib/crypto.js';
import { freshDatabase } from './fresh-database.js';

// A small cap and a short lease, so a job whose worker died is taken again within seconds.
process.env.CHECK_CONCURRENCY = '3';
process.env.LBSJC_LEASE_SECONDS = '2';

/** The simulator's day. */
const TODAY = '2026-11-20';

/**
 * Kill and resume (漏报检查): a 未缴款 check is under way when its server goes away; a new server on the
 * same database finishes it, and every client is counted once, also one whose outcome was written just
 * before the crash while its job was still marked running; no return is recorded twice.
 */
let sim: TaxSim;
let dataDir: string;
let server: Awaited<ReturnType<typeof freshDatabase>> | null = null;
let config: Config;

async function open(seed: boolean) {
  const db = await openDatabase(
    config,
    seed
      ? async (owner) => {
          await seedDemo(owner);
        }
      : undefined,
  );
  const app = await buildApp(config, db);
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
  return { app, db, call, login };
}

/** As the owner (past row-level security): on PostgreSQL a separate connection, on PGlite a stepped-up transaction. */
async function owner<T extends Record<string, unknown>>(db: Database, text: string, params: unknown[] = []) {
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
}

beforeAll(async () => {
  sim = await startTaxSim({ latencyMs: 60, today: TODAY });
  dataDir = mkdtempSync(join(tmpdir(), 'dzy-lbsjc-resume-'));
  server = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL, 'dzy_t') : null;
  config = {
    ...loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: server?.url ?? '' }),
    webDist: join(dataDir, 'no-web'),
    taxBureauUrl: sim.url,
  };
});

afterAll(async () => {
  await server?.drop();
  await sim?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a missed-filing check survives its server', () => {
  it('finishes on a new server with every client counted once', async () => {
    const first = await open(true);
    const ents = await owner<{ id: number; qysh: string }>(
      first.db,
      `select e.id, e.qysh from enterprises e
        where e.agency_id = (select m.agency_id from memberships m join users u on u.id = m.user_id
                              where u.phone = '13800000000' and m.is_admin limit 1)
          and e.deleted_at is null and e.qysh <> '' order by e.id`,
    );
    for (const e of ents) {
      sim.setScenario(e.qysh, 'arrears');
      await owner(
        first.db,
        "update enterprises set xdzswj_dlzh = 'bsy', xdzswj_pass_enc = $1, xdzswj_sfbm = '1', hydqsj = null, qyzt = '1' where id = $2",
        [encrypt(config.secretKey, 'Etax@2026'), e.id],
      );
    }
    const admin = await first.login('13800000000');
    const started = await first.call<LbsjcRate>(checkUnPaidCall.path, {}, admin);
    expect(started.code, started.msg).toBe(CODE.OK);
    const batchId = started.data.batchId;
    const total = started.data.totalNum;
    expect(total).toBeGreaterThan(20);

    // Mid-batch: some done, most not.
    for (;;) {
      const r = await first.call<LbsjcRate>(lbsjcRateCall.path, { batchId }, admin);
      if (r.data.completeNum >= 6) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    await first.app.close();
    await first.db.close();

    // What a crash leaves behind that a clean stop does not: a job whose outcome was written but which
    // still says running (the process died between the two), and one that died mid-call.
    const db = await openDatabase(config); // the database alone: no server, no job runner
    const [doneJob] = await owner<{ id: number }>(
      db,
      "select id from jobs where queue = 'filing-lbsjc' and key like $1 and state = 'done' order by id limit 1",
      [`${batchId}:%`],
    );
    const [queuedJob] = await owner<{ id: number }>(
      db,
      "select id from jobs where queue = 'filing-lbsjc' and key like $1 and state = 'queued' order by id limit 1",
      [`${batchId}:%`],
    );
    expect(doneJob && queuedJob).toBeTruthy();
    await owner(
      db,
      "update jobs set state = 'running', locked_until = now() - interval '1 second', finished_at = null where id in ($1, $2)",
      [doneJob?.id, queuedJob?.id],
    );
    const before = await owner<{ n: number }>(
      db,
      'select count(*)::int as n from lbsjc_results where batch_id = $1 and msg_type is not null',
      [batchId],
    );
    expect(before[0]?.n).toBeLessThan(total);
    await db.close();

    const second = await open(false);
    try {
      const admin2 = await second.login('13800000000');
      const until = Date.now() + 90_000;
      let rate: LbsjcRate | null = null;
      while (Date.now() < until) {
        rate = (await second.call<LbsjcRate>(lbsjcRateCall.path, { batchId }, admin2)).data;
        if (rate.state !== 'running') break;
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(rate).toMatchObject({ state: 'done', completeNum: total, totalNum: total });
      expect((rate?.successNum ?? 0) + (rate?.failNum ?? 0)).toBe(total);
      const rows = await owner<{ n: number; distinct_n: number; nulls: number }>(
        second.db,
        `select count(*)::int as n, count(distinct enterprise_id)::int as distinct_n,
                count(*) filter (where msg_type is null)::int as nulls from lbsjc_results where batch_id = $1`,
        [batchId],
      );
      expect(rows[0]).toEqual({ n: total, distinct_n: total, nulls: 0 });
      const jobs = await owner<{ state: string; n: number }>(
        second.db,
        "select state, count(*)::int as n from jobs where queue = 'filing-lbsjc' and key like $1 group by state",
        [`${batchId}:%`],
      );
      expect(jobs).toEqual([{ state: 'done', n: total }]);
      // The items found agree with the counts: each client's once, no return twice (the key is unique).
      const items = await owner<{ n: number; found: number }>(
        second.db,
        `select (select count(*)::int from lbsjc_items where batch_id = $1) as n,
                (select coalesce(sum(found_num), 0)::int from lbsjc_results where batch_id = $1) as found`,
        [batchId],
      );
      expect(items[0]?.n).toBe(items[0]?.found);
      expect(items[0]?.n).toBe(rate?.foundNum);
      expect(rate?.foundNum).toBeGreaterThan(0);
    } finally {
      await second.app.close();
      await second.db.close();
    }
  }, 150_000);
});
