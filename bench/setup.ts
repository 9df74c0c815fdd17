import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CODE, usccCheckChar } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { type Config, loadConfig } from '../apps/server/src/config.js';
import { type Database, type Db, openDatabase } from '../apps/server/src/db/client.js';
import { organisations, users } from '../apps/server/src/db/schema/index.js';
import { addEnterprises, seedDemo } from '../apps/server/src/db/seed/demo.js';
import { generatePersonName, mulberry32, orgCodeCheckChar } from '../apps/server/src/db/seed/demo-data.js';
import { addMember, provisionAgency } from '../apps/server/src/modules/org/provision.js';
import { hashPassword } from '../apps/server/src/plugins/password.js';

/** The data set every scenario runs against. */
export const BENCH_PASSWORD = 'Bench@2026';
export const BENCH_AGENCY = '基准测试财税代理有限公司';
export const BENCH_ENTERPRISES = 20_000;
/** People in the bench agency, the administrator first; its enterprises are shared among them. */
export const BENCH_STAFF = 20;
export const OTHER_AGENCIES = 50;
export const OTHER_ENTERPRISES = 200;

export interface BenchData {
  agencyId: number;
  adminId: number;
  /** The administrator signs in with this phone and BENCH_PASSWORD. */
  adminPhone: string;
  staffIds: number[];
  otherAgencyIds: number[];
  /** Every bench user's stored scrypt hash (hashed once, shared). */
  passwordHash: string;
}

export interface CallReply<T = unknown> {
  status: number;
  code: number;
  msg: string;
  data: T;
  /** `dzy_session=…` when the reply set the session cookie. */
  cookie: string | null;
}

/** What the runner hands each scenario: the running server, its database, and the data set. */
export interface BenchEnv {
  kind: Database['kind'];
  /** e.g. "PostgreSQL 15.20" or "PGlite (PostgreSQL 17.5)". */
  engine: string;
  baseUrl: string;
  /** The server's own database handle: `db.app` is the app role, row-level security applies. */
  db: Database;
  /** The server's settings (its secret key encrypts stored credentials). */
  config: Config;
  /** The simulated e-tax bureau the server uses, at BENCH_TAX_LATENCY_MS (default 200) per call. */
  bureauUrl: string;
  data: BenchData;
  seedMs: number;
  /** One API call over loopback (for preparing and checking, not measuring). */
  call<T = unknown>(path: string, body?: unknown, cookie?: string): Promise<CallReply<T>>;
  /** Signs in with a password and returns the session cookie. */
  login(account: string, password?: string): Promise<string>;
}

export interface RunningBench extends BenchEnv {
  /** Where it lives, for the header: the temporary folder or the database name. */
  location: string;
  close(): Promise<void>;
}

/** Benches started and not yet closed, also while still seeding. */
const unfinished = new Set<() => Promise<void>>();

/** Removes every bench's database and folder, even one still being set up (on Ctrl-C). */
export async function closeAllBenches() {
  for (const close of [...unfinished]) await close();
}

/**
 * A fresh database (PGlite in a temporary folder, or a new database on the PostgreSQL server at
 * DATABASE_URL), seeded as the owner, and the real server listening on 127.0.0.1 on a free port.
 */
export async function startBench(
  env: NodeJS.ProcessEnv = process.env,
  seeds: ((owner: Db, data: BenchData) => Promise<void>)[] = [],
): Promise<RunningBench> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dzy-bench-'));
  const cleanups: (() => Promise<void>)[] = [async () => rmSync(dataDir, { recursive: true, force: true })];
  const close = async () => {
    unfinished.delete(close);
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        await fn();
      } catch (e) {
        console.error('bench cleanup:', e instanceof Error ? e.message : e);
      }
    }
  };
  unfinished.add(close);
  try {
    const server = env.DATABASE_URL ? await createDatabase(env.DATABASE_URL) : null;
    if (server) cleanups.push(server.drop);
    // The bureau is another machine in real life: the simulator runs in its own process, not on the server's thread.
    const taxSim = await startSimProcess(Number(env.BENCH_TAX_LATENCY_MS ?? 200));
    cleanups.push(() => taxSim.close());
    const config: Config = {
      ...loadConfig({
        ...env,
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        DATABASE_URL: server?.url ?? '',
        // derived from the bench database's URL (as the app role), never the configured one
        APP_DATABASE_URL: '',
        LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'silent',
        // The load comes from one address: the sign-in scenario measures signing in, not the abuse limits.
        RATE_LIMIT_FACTOR: env.RATE_LIMIT_FACTOR ?? '100000',
      }),
      webDist: join(dataDir, 'no-web'),
      taxBureauUrl: taxSim.url,
    };

    let data: BenchData | null = null;
    const t0 = performance.now();
    const db = await openDatabase(config, async (owner) => {
      await seedDemo(owner);
      const seeded = await seedBench(owner);
      data = seeded;
      // The selected scenarios' own data (bench/scenarios/*.ts `seed`), before the statistics are gathered.
      for (const seed of seeds) await seed(owner, seeded);
      // A live server's autovacuum would have done this; without it the planner guesses on fresh tables.
      await owner.execute(sql`vacuum analyze`);
    });
    const seedMs = performance.now() - t0;
    cleanups.push(() => db.close());
    if (!data) throw new Error('the bench data set was not created');

    const app = await buildApp(config, db);
    cleanups.push(() => app.close());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('server has no TCP address');
    const baseUrl = `http://127.0.0.1:${address.port}`;

    const version = await db.app.execute(sql`select current_setting('server_version') as v`);
    const v = String((version as unknown as { rows: { v: string }[] }).rows[0]?.v ?? '?');
    const engine = db.kind === 'postgres' ? `PostgreSQL ${v}` : `PGlite (PostgreSQL ${v}, embedded)`;

    async function call<T>(path: string, body: unknown = {}, cookie?: string, retried = false): Promise<CallReply<T>> {
      let res: Response;
      try {
        res = await fetch(`${baseUrl}/api/${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'sec-fetch-site': 'same-origin',
            ...(cookie ? { cookie } : {}),
          },
          body: JSON.stringify(body),
        });
      } catch (err) {
        // A kept-alive connection the server closed meanwhile resets on reuse: send once more, anew.
        const code = (err as { cause?: { code?: string } }).cause?.code;
        if (!retried && (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')) {
          return call(path, body, cookie, true);
        }
        throw err;
      }
      const json = (await res.json()) as { code: number; msg: string; data: T };
      const set = res.headers.getSetCookie().find((c) => c.startsWith('dzy_session='));
      return { status: res.status, ...json, cookie: set ? (set.split(';')[0] ?? null) : null };
    }

    async function login(account: string, password = BENCH_PASSWORD): Promise<string> {
      const r = await call('userext/v1.0/common/user/login', { type: '1', account, password });
      if (r.code !== CODE.OK || !r.cookie) throw new Error(`sign-in as ${account} failed: ${r.code} ${r.msg}`);
      return r.cookie;
    }

    return {
      kind: db.kind,
      engine,
      location: server ? `database ${server.name}, dropped at the end` : `${dataDir}, removed at the end`,
      baseUrl,
      db,
      config,
      bureauUrl: taxSim.url,
      data,
      seedMs,
      call,
      login,
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** A new database on the server, like the test harness does; drop() removes it even if still connected. */
export async function createDatabase(adminUrl: string) {
  const name = `dzy_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A valid unified social credit code in Hangzhou for the n-th bench organisation. */
function benchTaxNo(n: number): string {
  const body = `MA2B${String(n).padStart(4, '0')}`;
  const first17 = `91330106${body}${orgCodeCheckChar(body)}`;
  return first17 + usccCheckChar(first17);
}

const phone = (prefix: string, n: number) => `${prefix}${String(n).padStart(11 - prefix.length, '0')}`;

/**
 * The bench agency (BENCH_STAFF people, BENCH_ENTERPRISES clients) and OTHER_AGENCIES agencies with an
 * administrator and OTHER_ENTERPRISES clients each, provisioned as the app does, in one transaction.
 */
export async function seedBench(owner: Db): Promise<BenchData> {
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const rand = mulberry32(4242);
  return owner.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [agency] = await t
      .insert(organisations)
      .values({
        orgType: 'dls',
        name: BENCH_AGENCY,
        taxNo: benchTaxNo(0),
        sssf: '330000',
        ssds: '330100',
        ssqx: '330106',
        address: '杭州市西湖区黄龙路 1 号',
        licenceCustomers: 30_000,
        licenceLedgers: 25_000,
      })
      .returning({ id: organisations.id });
    if (!agency) throw new Error('could not create the bench agency');

    const staffRows = Array.from({ length: BENCH_STAFF }, (_, i) => ({
      phone: phone('155', i),
      hymc: generatePersonName(rand),
      zw: i === 0 ? '总经理' : '会计',
      passwordHash,
    }));
    const staff = await t.insert(users).values(staffRows).returning({ id: users.id, phone: users.phone });
    const idOf = new Map(staff.map((u) => [u.phone, u.id]));
    const staffIds = staffRows.map((u) => idOf.get(u.phone) ?? 0);
    const [adminId, ...members] = staffIds;
    if (!adminId || members.includes(0)) throw new Error('could not create the bench staff');
    // As the app creates an agency: default roles and posts, the administrator, members with the default role.
    await provisionAgency(t, agency.id, adminId);
    for (const userId of members) await addMember(t, { agencyId: agency.id, orgId: agency.id, userId, role: 0 });
    await addEnterprises(t, agency.id, BENCH_ENTERPRISES, 7001, staffIds);

    const orgRows = Array.from({ length: OTHER_AGENCIES }, (_, i) => ({
      orgType: 'dls' as const,
      name: `基准对照财税代理第${i + 1}号有限公司`,
      taxNo: benchTaxNo(i + 1),
    }));
    const orgs = await t
      .insert(organisations)
      .values(orgRows)
      .returning({ id: organisations.id, name: organisations.name });
    const orgId = new Map(orgs.map((o) => [o.name, o.id]));
    const adminRows = orgRows.map((_, i) => ({
      phone: phone('1551', i + 1),
      hymc: generatePersonName(rand),
      zw: '负责人',
      passwordHash,
    }));
    const admins = await t.insert(users).values(adminRows).returning({ id: users.id, phone: users.phone });
    const adminOf = new Map(admins.map((u) => [u.phone, u.id]));
    const otherAgencyIds: number[] = [];
    for (const [i, o] of orgRows.entries()) {
      const id = orgId.get(o.name);
      const admin = adminOf.get(adminRows[i]?.phone ?? '');
      if (!id || !admin) throw new Error(`could not create ${o.name}`);
      otherAgencyIds.push(id);
      await provisionAgency(t, id, admin);
      await addEnterprises(t, id, OTHER_ENTERPRISES, 8001 + i, [admin]);
    }

    return { agencyId: agency.id, adminId, adminPhone: phone('155', 0), staffIds, otherAgencyIds, passwordHash };
  });
}

/** The simulated e-tax bureau (apps/tax-sim) as a child process on a free port, at `latencyMs` per call. */
async function startSimProcess(latencyMs: number) {
  const port = await new Promise<number>((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
  const root = resolve(import.meta.dirname, '..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/tax-sim/src/main.ts'], {
    cwd: root,
    env: { ...process.env, TAX_SIM_PORT: String(port), TAX_SIM_LATENCY_MS: String(latencyMs) },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((ok) => child.once('exit', ok));
  };
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, close };
    } catch {
      // not listening yet
    }
    if (Date.now() > until || child.exitCode !== null) {
      await close();
      throw new Error('the simulated bureau did not start');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
