import { randomBytes } from 'node:crypto';
import {
  CODE,
  forgetPasswordCall,
  loginCall,
  saveUserCall,
  sbqrAnswerCall,
  sbqrGetCall,
  sendSmsCall,
  twoFactorEnrolConfirmCall,
  twoFactorEnrolStartCall,
  twoFactorVerifyCall,
  updateUserChanneCall,
} from '@dzy/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';

export const DEVICE_COOKIE = 'dzy_device';

interface Limit {
  /** Requests allowed per window, per client address and (a tighter budget) per browser. */
  perIp: number;
  perDevice: number;
  windowSeconds: number;
}

/**
 * The public calls an outsider can repeat without an account. An office shares one address, so the
 * per-address budgets leave room for a whole agency signing in at nine; a single browser gets less.
 */
export const LIMITS: Record<string, Limit> = {
  [loginCall.path]: { perIp: 60, perDevice: 15, windowSeconds: 600 },
  [sendSmsCall.path]: { perIp: 20, perDevice: 6, windowSeconds: 3600 },
  [saveUserCall.path]: { perIp: 10, perDevice: 3, windowSeconds: 3600 },
  [forgetPasswordCall.path]: { perIp: 20, perDevice: 6, windowSeconds: 3600 },
  // The client's confirmation page (a signed link): a client opens it a few times; guessing links is refused.
  [sbqrGetCall.path]: { perIp: 120, perDevice: 30, windowSeconds: 600 },
  [sbqrAnswerCall.path]: { perIp: 30, perDevice: 10, windowSeconds: 600 },
  // The sign-in's second step (code or recovery code) and forced enrolment: besides the per-user lock of five
  // wrong codes, an address trying tickets of many users is stopped here. A person needs a handful.
  [twoFactorVerifyCall.path]: { perIp: 30, perDevice: 10, windowSeconds: 600 },
  [twoFactorEnrolStartCall.path]: { perIp: 30, perDevice: 10, windowSeconds: 600 },
  [twoFactorEnrolConfirmCall.path]: { perIp: 30, perDevice: 10, windowSeconds: 600 },
  [updateUserChanneCall.path]: { perIp: 30, perDevice: 10, windowSeconds: 600 },
};

/**
 * Counts one hit against `key` in a fixed window, in one statement of its own (it must count even when
 * the call itself is then refused and rolled back); the seconds to wait, or 0 when within the limit.
 */
export async function hit(db: Database, key: string, limit: number, windowSeconds: number): Promise<number> {
  const res = await db.app.execute(sql`
    insert into rate_limits as r (key, window_start, hits) values (${key}, now(), 1)
    on conflict (key) do update set
      hits = case when r.window_start <= now() - make_interval(secs => ${windowSeconds}) then 1 else r.hits + 1 end,
      window_start = case when r.window_start <= now() - make_interval(secs => ${windowSeconds}) then now() else r.window_start end
    returning hits, ceil(extract(epoch from (r.window_start + make_interval(secs => ${windowSeconds}) - now())))::int as wait`);
  const row = (res as unknown as { rows: { hits: number; wait: number }[] }).rows[0];
  return row && row.hits > limit ? Math.max(1, row.wait) : 0;
}

/**
 * The browser's device id: the one it sent when well-formed, else a new one (HttpOnly, a year) that its
 * first request already counts against. A fresh id's budget is untouched, so a request without the cookie
 * (or with an invented one) is in effect limited by its address alone.
 */
function deviceOf(req: FastifyRequest, reply: FastifyReply): string {
  const have = req.cookies[DEVICE_COOKIE];
  if (have && /^[A-Za-z0-9_-]{16,64}$/.test(have)) return have;
  const id = randomBytes(16).toString('base64url');
  reply.setCookie(DEVICE_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: 365 * 24 * 3600,
  });
  return id;
}

/**
 * The limited call a request reached, by the route the router matched (never the raw URL: `?x=1`, percent
 * encodings and the like reach the same handler and must spend the same budget); null for anything else.
 */
export function limitedCallOf(req: FastifyRequest): string | null {
  const route = req.routeOptions.url;
  if (req.routeOptions.method !== 'POST' || !route?.startsWith('/api/')) return null;
  const path = route.slice('/api/'.length);
  return Object.hasOwn(LIMITS, path) ? path : null;
}

/** Per-address and per-browser limits on sign-in, SMS codes, registration and password reset: 429 past them. */
export function registerRateLimits(app: FastifyInstance, db: Database, factor: number) {
  // Windows are at most an hour: counters a day old are dropped, so the table stays small.
  const sweep = setInterval(
    () =>
      void db.app
        .execute(sql`delete from rate_limits where window_start < now() - interval '1 day'`)
        .catch((err) => app.log.warn({ err }, 'sweeping rate limits failed')),
    3600_000,
  );
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  // onRequest runs after routing: a URL that matched no route is a 404 that no handler ever sees.
  app.addHook('onRequest', async (req, reply) => {
    const path = limitedCallOf(req);
    const limit = path ? LIMITS[path] : undefined;
    if (!path || !limit) return;
    const device = deviceOf(req, reply);
    // The address (as the trusted proxy reports it) always counts, so dropping or rotating the cookie never
    // opens a fresh budget; the browser's own, tighter one on top. Past the address's limit the device is
    // not counted (an invented id per request would otherwise grow the table).
    let wait = await hit(db, `ip:${req.ip}:${path}`, limit.perIp * factor, limit.windowSeconds);
    if (wait === 0) wait = await hit(db, `device:${device}:${path}`, limit.perDevice * factor, limit.windowSeconds);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return reply.status(429).send({ code: CODE.TOO_MANY, msg: tooMany(wait), data: { retryAfter: wait } });
    }
  });
}

const tooMany = (seconds: number) =>
  `操作过于频繁，请${seconds >= 120 ? `${Math.ceil(seconds / 60)}分钟` : `${seconds}秒`}后再试`;
