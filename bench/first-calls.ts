import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { chargeListCall, customerListCall, getQyBookCountInfoCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { seedDemo } from '../apps/server/src/db/seed/demo.js';
import { chinaDate } from '../apps/server/src/plugins/jobs.js';
import feeList from './scenarios/61-fee-list.js';
import { BENCH_PASSWORD, type BenchData, createDatabase, seedBench } from './setup.js';

// `npm run bench:first-calls` (issue 30 point 4): are the first calls after a start as fast as the rest?
//
// Seeds the bench data set once (20,000 clients in the bench agency, 50 other agencies, and the fee list's
// 100,000 charges), then starts the real server process on it BENCH_STARTS times (default 2: the day's first
// start, when the daily jobs are queued and run, and a restart the same day) and, from the moment it prints
// that it listens, signs in and sends the lists one after another (concurrency 1) for BENCH_FIRST_SECONDS
// (default 40): 我的客户 page 1, 收款记录 page 1, the portal's counts, in turn. Prints each call's latency
// in the first seconds against the same calls at the end, with the load average.
//
// Each start is made in two ways on the same data: `before` — the daily schedules look at the date at once
// and nothing is warmed (DAILY_FIRST_DELAY_MS=0 WARM_UP=0, as the server was before issue 30 point 4) — and
// `after`, the server's defaults; before each way's first start the day's jobs are deleted, so that both
// first starts find the day's work to do (BENCH_MODES=after runs one way only).
//
// The server is `apps/server/build/main.mjs` when BENCH_BUILT=1 (after `npm run --silent build`), else the
// sources through tsx (what happens before "listening" differs, what follows does not). BENCH_DATA_DIR
// reuses a PGlite folder an earlier run seeded and kept (BENCH_KEEP=1 keeps it; seeding takes minutes).

const ROOT = resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_FIRST_SECONDS ?? 40);
const STARTS = Number(process.env.BENCH_STARTS ?? 2);
const MIN_CALLS = Number(process.env.BENCH_MIN_CALLS ?? 30);
const PORT = Number(process.env.BENCH_PORT ?? 9531);
const MODES = (process.env.BENCH_MODES ?? 'before,after').split(',').filter(Boolean);
/** The bench administrator (setup.ts seeds it with this phone). */
const ADMIN_PHONE = '15500000000';
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

interface Sample {
  at: number;
  kind: string;
  ms: number;
}

const ownerConfig = (databaseUrl: string | null, dataDir: string) =>
  loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', APP_DATABASE_URL: '' });

async function seed(databaseUrl: string | null, dataDir: string): Promise<void> {
  let data: BenchData | null = null;
  const db = await openDatabase(ownerConfig(databaseUrl, dataDir), async (owner) => {
    await seedDemo(owner);
    data = await seedBench(owner);
    await feeList.seed?.(owner, data);
    await owner.execute(sql`vacuum analyze`);
  });
  await db.close();
  if (!data) throw new Error('not seeded');
}

/** Deletes today's daily jobs (keys end with the date), so the next start is the day's first again. */
async function newDay(databaseUrl: string | null, dataDir: string) {
  const db = await openDatabase(ownerConfig(databaseUrl, dataDir), async (owner) => {
    await owner.execute(sql`delete from jobs where key like ${`%:${chinaDate()}`}`);
  });
  await db.close();
}

function startServer(env: NodeJS.ProcessEnv): { child: ChildProcess; listening: Promise<number> } {
  const built = process.env.BENCH_BUILT === '1';
  const entry = resolve(ROOT, 'apps/server/build/main.mjs');
  if (built && !existsSync(entry))
    throw new Error('BENCH_BUILT=1 but apps/server/build/main.mjs is missing: npm run build');
  const args = built ? ['--enable-source-maps', entry] : ['--import', 'tsx', 'apps/server/src/main.ts'];
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const listening = new Promise<number>((ok, fail) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      // main.ts prints this line after app.listen resolved.
      if (out.includes('代账云已启动')) {
        ok(performance.now() - started);
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
      }
    });
    child.once('exit', (code) => fail(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
  return { child, listening };
}

async function post(base: string, path: string, body: unknown, cookie?: string) {
  const t = performance.now();
  const res = await fetch(`${base}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; msg: string };
  if (json.code !== 200) throw new Error(`${path}: ${json.code} ${json.msg}`);
  const set = res.headers.getSetCookie().find((c) => c.startsWith('dzy_session='));
  return { ms: performance.now() - t, cookie: set?.split(';')[0] };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] ?? NaN) : NaN;
};

async function oneStart(label: string, env: NodeJS.ProcessEnv) {
  const loadBefore = load();
  const { child, listening } = startServer(env);
  const exited = new Promise((ok) => child.once('exit', ok));
  try {
    const startMs = await listening;
    const t0 = performance.now();
    const base = `http://127.0.0.1:${PORT}`;
    const signIn = await post(base, 'userext/v1.0/common/user/login', {
      type: '1',
      account: ADMIN_PHONE,
      password: BENCH_PASSWORD,
    });
    const cookie = signIn.cookie;
    if (!cookie) throw new Error('no session cookie');
    const calls: [string, string, unknown][] = [
      ['我的客户 p1', customerListCall.path, { pageNo: 1, pageSize: 20 }],
      ['收款记录 p1', chargeListCall.path, { pageNo: 1, pageSize: 20 }],
      ['portal counts', getQyBookCountInfoCall.path, {}],
    ];
    const samples: Sample[] = [];
    // At least MIN_CALLS calls even when the first ones outlast BENCH_FIRST_SECONDS.
    for (let i = 0; performance.now() - t0 < SECONDS * 1000 || i < MIN_CALLS; i++) {
      const [kind, path, body] = calls[i % calls.length] as [string, string, unknown];
      const at = performance.now() - t0;
      samples.push({ at, kind, ms: (await post(base, path, body, cookie)).ms });
    }
    const loadAfter = load();
    console.log(
      `\n${label}: listening ${(startMs / 1000).toFixed(1)} s after spawn; sign-in ${signIn.ms.toFixed(0)} ms; load ${loadBefore} → ${loadAfter}`,
    );
    console.log(
      'call            first 3 (ms)             median 0–5 s   median 5–15 s   median last 10 s   first ÷ last',
    );
    for (const [kind] of calls) {
      const mine = samples.filter((s) => s.kind === kind);
      const first = mine.slice(0, 3).map((s) => s.ms.toFixed(0));
      const early = median(mine.filter((s) => s.at < 5000).map((s) => s.ms));
      const mid = median(mine.filter((s) => s.at >= 5000 && s.at < 15000).map((s) => s.ms));
      const end = samples.at(-1)?.at ?? 0;
      const late = median(mine.filter((s) => s.at >= end - 10_000).map((s) => s.ms));
      const firstMs = mine[0]?.ms ?? NaN;
      console.log(
        `${kind.padEnd(15)} ${first.join(' / ').padEnd(24)} ${early.toFixed(0).padStart(12)} ${mid.toFixed(0).padStart(15)} ${late.toFixed(0).padStart(18)}   ×${(firstMs / late).toFixed(1)}`,
      );
    }
    return samples;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  }
}

async function main() {
  const given = process.env.BENCH_DATA_DIR;
  const dataDir = given ?? mkdtempSync(join(os.tmpdir(), 'dzy-first-'));
  const keep = !!given || process.env.BENCH_KEEP === '1';
  const server = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : null;
  try {
    console.log(
      `first calls after a start — ${server ? 'PostgreSQL' : 'PGlite'}, ${os.cpus().length} cores, load ${load()}`,
    );
    const t = performance.now();
    if (!given || server) {
      await seed(server?.url ?? null, dataDir);
      console.log(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s (20,000 clients, 100,000 charges)`);
    }
    if (keep && !server) console.log(`data kept in ${dataDir}`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      DATABASE_URL: server?.url ?? '',
      APP_DATABASE_URL: '',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      RATE_LIMIT_FACTOR: '100000',
      // No bureau: nothing measured here calls it.
      TAX_BUREAU_URL: `http://127.0.0.1:${PORT + 1}`,
      WEB_DIST: join(dataDir, 'no-web'),
    };
    for (const mode of MODES) {
      await newDay(server?.url ?? null, dataDir);
      const modeEnv = mode === 'before' ? { ...env, DAILY_FIRST_DELAY_MS: '0', WARM_UP: '0' } : env;
      for (let n = 1; n <= STARTS; n++)
        await oneStart(`${mode}, start ${n}${n === 1 ? " (the day's first)" : ' (a restart the same day)'}`, modeEnv);
    }
  } finally {
    await server?.drop();
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
