import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CODE, loginCall, sendSystemMsgCall } from '@dzy/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR } from './message-helpers.js';
import { PushClient } from './push-client.js';
import { ID, LI, ZHANG } from './staff-helpers.js';

/**
 * Two server processes on one PostgreSQL database share pushes through Redis pub/sub: a message created
 * through process A reaches a socket connected to process B. Needs the machine's PostgreSQL and Redis;
 * when either cannot be reached this test fails (it is never skipped).
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const PG_ADMIN = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const DB_NAME = `dzy_redis_${process.pid}_${Date.now().toString(36)}`;

const procs: ChildProcess[] = [];
const dirs: string[] = [];
let dbUrl = '';

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

function env(extra: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dzy-redis-'));
  dirs.push(dataDir);
  return {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: dbUrl,
    SECRET_KEY: 'a'.repeat(64),
    DAILY_JOBS: '0',
    ...extra,
  };
}

async function startServer(): Promise<string> {
  const port = await freePort();
  const child = spawn(TSX, ['apps/server/src/main.ts'], {
    cwd: ROOT,
    env: env({ PORT: String(port), HOST: '127.0.0.1', REDIS_URL }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs.push(child);
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} (is Redis reachable?)`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return base;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server on ${port} did not start`);
}

async function login(base: string, phone: string): Promise<string> {
  const res = await fetch(`${base}/api/${loginCall.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: '1', account: phone, password: 'Demo@2026' }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('dzy_session='));
  if (!cookie) throw new Error(`login ${phone} on ${base} failed: ${await res.text()}`);
  return cookie.split(';')[0] ?? '';
}

async function call(base: string, path: string, body: unknown, cookie: string) {
  const res = await fetch(`${base}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: base },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: unknown };
}

let a = '';
let b = '';

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${DB_NAME}`;
  dbUrl = url.toString();
  execFileSync(TSX, ['apps/server/src/db/seed/cli.ts'], { cwd: ROOT, env: env({}), stdio: 'ignore' });
  [a, b] = await Promise.all([startServer(), startServer()]);
}, 120_000);

afterAll(async () => {
  await Promise.all(
    procs.map(
      (p) =>
        new Promise((ok) => {
          if (p.exitCode !== null) return ok(null);
          p.once('exit', ok);
          p.kill('SIGTERM');
        }),
    ),
  );
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('two server processes sharing pushes through Redis', () => {
  it('a message created through process A reaches a socket on process B within a second', async () => {
    const operatorOnA = await login(a, OPERATOR);
    const zhangOnB = await PushClient.ready(b, await login(b, ZHANG), ID.zhang);
    const liOnA = await PushClient.ready(a, await login(a, LI), ID.li);
    const started = Date.now();
    const arrived = zhangOnB.nextPush('news', 1000);
    const r = await call(a, sendSystemMsgCall.path, { phone: ZHANG, content: '跨进程提醒' }, operatorOnA);
    expect(r.code).toBe(CODE.OK);
    const frame = await arrived;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(frame.data.data).toMatchObject({ content: '【系统提醒】跨进程提醒' });
    // Exactly once, and not to anyone else on either process.
    await new Promise((r) => setTimeout(r, 300));
    expect(zhangOnB.pushes('news')).toHaveLength(1);
    expect(liOnA.pushes()).toHaveLength(0);
    zhangOnB.close();
    liOnA.close();
  });

  it('and the other way round; a socket on A sees what B created', async () => {
    const operatorOnB = await login(b, OPERATOR);
    const liOnA = await PushClient.ready(a, await login(a, LI), ID.li);
    const arrived = liOnA.nextPush('news', 1000);
    await call(b, sendSystemMsgCall.path, { phone: LI, content: '从B到A' }, operatorOnB);
    expect((await arrived).data.data).toMatchObject({ content: '【系统提醒】从B到A' });
    liOnA.close();
  });

  it('a newer socket on B kicks the older one of the same device on A', async () => {
    const cookie = await login(a, ZHANG);
    const older = await PushClient.ready(a, cookie, ID.zhang, 'shared-device');
    const kicked = older.next((f) => f.cmd === 'kick');
    const newer = await PushClient.ready(b, cookie, ID.zhang, 'shared-device');
    await kicked;
    await older.whenClosed();
    newer.close();
  });
});
