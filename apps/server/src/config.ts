import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL server (owner role, for migrations); unset means embedded PGlite under dataDir. */
  databaseUrl: string | null;
  /** Connection for requests, as the non-superuser app role; derived from databaseUrl when unset. */
  appDatabaseUrl: string | null;
  redisUrl: string | null;
  secretKey: Buffer;
  logLevel: string;
  /**
   * The origin users reach the product at (PUBLIC_URL), for every link the server sends out (SMS, invitations,
   * sign-in provider callbacks); never the request's Host or X-Forwarded-Host. Required in production; else
   * this machine's address and PORT.
   */
  publicUrl: string;
  /**
   * Which reverse proxies may report the client's address (TRUST_PROXY): none (false), the nearest `n` hops
   * (the right-most `n` X-Forwarded-For entries are theirs), or these proxy addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  production: boolean;
  /** Where the built web client is served from. */
  webDist: string;
  /** The e-tax bureau to use (TAX_BUREAU_URL); unset means the simulated bureau on TAX_SIM_PORT. */
  taxBureauUrl: string | null;
  /** Port of the simulated bureau when TAX_BUREAU_URL is unset (TAX_SIM_PORT, default 8090). */
  taxSimPort: number;
  /** Texts a day for the whole platform, and for one agency (invitations); past them nothing is sent. */
  smsDailyBudget: number;
  smsAgencyDailyBudget: number;
  /** Multiplies every abuse limit (plugins/rate-limit.ts); tests that sign in hundreds of times raise it. */
  rateLimitFactor: number;
  /**
   * Connections of the app pool on a PostgreSQL server (DB_POOL_MAX): by default room for every batch
   * job an agency runs at once (CHECK_CONCURRENCY / FILING_CONCURRENCY) and a few requests beside them;
   * with fewer, jobs queue for a connection and a batch of 40 at once spent most of its time waiting.
   */
  dbPoolMax: number;
  /**
   * Webhooks may post to loopback addresses (WEBHOOK_ALLOW_LOOPBACK=1; by default only when NODE_ENV is test
   * or development): the tests' and the local demo's receivers. Private and metadata addresses never.
   */
  webhookAllowLoopback: boolean;
}

const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** Settings from the environment (README lists them). The secret key is generated into DATA_DIR when not given. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.DATA_DIR ?? resolve(REPO_ROOT, 'data'));
  mkdirSync(dataDir, { recursive: true });
  const production = env.NODE_ENV === 'production';
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    appDatabaseUrl: env.APP_DATABASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    secretKey: secretKey(env.SECRET_KEY, dataDir, production),
    publicUrl: publicUrl(env, production),
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    production,
    webDist: resolve(env.WEB_DIST ?? resolve(REPO_ROOT, 'apps/web/dist')),
    taxBureauUrl: env.TAX_BUREAU_URL?.replace(/\/+$/, '') || null,
    taxSimPort: Number(env.TAX_SIM_PORT ?? 8090),
    smsDailyBudget: Number(env.SMS_DAILY_BUDGET ?? 20_000),
    smsAgencyDailyBudget: Number(env.SMS_AGENCY_DAILY_BUDGET ?? 500),
    rateLimitFactor: Number(env.RATE_LIMIT_FACTOR ?? 1),
    dbPoolMax:
      positive(env.DB_POOL_MAX) ??
      Math.max(10, Math.max(positive(env.CHECK_CONCURRENCY) ?? 10, positive(env.FILING_CONCURRENCY) ?? 0) + 5),
    webhookAllowLoopback: env.WEBHOOK_ALLOW_LOOPBACK
      ? env.WEBHOOK_ALLOW_LOOPBACK === '1'
      : env.NODE_ENV === 'test' || env.NODE_ENV === 'development',
  };
}

/** PUBLIC_URL as an origin (scheme, host, port; no path); outside production it may be left to this machine. */
function publicUrl(env: NodeJS.ProcessEnv, production: boolean): string {
  const given = env.PUBLIC_URL?.trim();
  if (!given) {
    if (production) {
      throw new Error(
        'PUBLIC_URL is required in production: the address users reach the product at (e.g. https://dzy.example.cn); links in SMS and invitations are built from it, never from the request Host header',
      );
    }
    const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
    return `http://${isIP(host) === 6 ? `[${host}]` : host}:${Number(env.PORT ?? 8080)}`;
  }
  let u: URL;
  try {
    u = new URL(given);
  } catch {
    throw new Error(`PUBLIC_URL is not a URL: ${given}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`PUBLIC_URL must be http(s): ${given}`);
  if (u.pathname !== '/' || u.search || u.hash)
    throw new Error(`PUBLIC_URL must be an origin without a path: ${given}`);
  return u.origin;
}

/** A CIDR range (`10.0.0.0/8`, `fd00::/8`) or one address. */
function addressOrRange(s: string): boolean {
  const [addr = '', bits, extra] = s.split('/');
  const family = isIP(addr);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset or 0 trusts no proxy; a number is that many hops (1: one reverse proxy in front, whose
 * appended entry is the client; the server must then be reachable only through it); otherwise a comma list of
 * the proxies' addresses or CIDR ranges, trusted wherever the server is reachable from.
 */
export function trustProxySetting(value: string | undefined): Config['trustProxy'] {
  const v = value?.trim() ?? '';
  if (v === '' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(',').map((s) => s.trim());
  const bad = list.filter((s) => !addressOrRange(s));
  if (bad.length) {
    throw new Error(
      `TRUST_PROXY must be a number of hops or proxy addresses / CIDR ranges, comma-separated: ${bad.join(', ')}`,
    );
  }
  return list;
}

/**
 * The setting as Fastify's trustProxy: a hop count becomes a function (Fastify trusts no peer for a bare number),
 * trusting the `n` nearest addresses of the chain (index 0 is the socket's peer).
 */
export function fastifyTrustProxy(
  setting: Config['trustProxy'],
): false | string | ((addr: string, i: number) => boolean) {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_addr, i) => i < setting;
  return setting.join(',');
}

const positive = (v: string | undefined) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

function secretKey(given: string | undefined, dataDir: string, production: boolean): Buffer {
  if (given) {
    const key = Buffer.from(given, given.length === 64 ? 'hex' : 'base64');
    if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes (64 hex characters or base64)');
    return key;
  }
  if (production) throw new Error('SECRET_KEY is required in production');
  const file = resolve(dataDir, 'secret.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}
