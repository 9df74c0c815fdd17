import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CODE, loginCall, sendSmsCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../src/app.js';
import { LIMITS } from '../src/plugins/rate-limit.js';
import { startTestApp, type TestApp } from './harness.js';

// One hop of proxy in front (TRUST_PROXY=1): each call is spoken to from an address of its own, as the
// proxy reports it in the right-most X-Forwarded-For entry.
process.env.TRUST_PROXY = '1';

let t: TestApp;
let port = 0;

beforeAll(async () => {
  t = await startTestApp({ rateLimitFactor: 1 });
  // Over a real socket, so the URL reaches the router exactly as written (no client normalises it).
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
}, 300_000);
afterAll(() => t.close());

interface Sent {
  status: number;
  code: number | null;
  msg: string;
  device: string | null;
}

/** A raw POST of `url` (exactly these bytes) as a client at `ip` behind the proxy. */
function post(url: string, body: unknown, ip: string, cookie?: string): Promise<Sent> {
  const payload = JSON.stringify(body);
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: url,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          // A client's own entry first, then the one the proxy appended: only the latter counts.
          'x-forwarded-for': `203.0.113.77, ${ip}`,
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => {
          let json: { code?: number; msg?: string } = {};
          try {
            json = JSON.parse(text) as typeof json;
          } catch {
            // a non-JSON reply keeps code null
          }
          const set = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('dzy_device='));
          ok({
            status: res.statusCode ?? 0,
            code: json.code ?? null,
            msg: json.msg ?? '',
            device: set ? (set.split(';')[0] ?? null) : null,
          });
        });
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

/** Percent-encodes the characters of `s` picked by `which` (unreserved ones included, as an attacker would). */
const encode = (s: string, which: (ch: string, i: number) => boolean) =>
  [...s]
    .map((ch, i) => (which(ch, i) ? `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : ch))
    .join('');

/** Every spelling of a call's URL an attacker would try after a 429. */
function variants(path: string): string[] {
  const last = path.lastIndexOf('/') + 1;
  const cap = `${path.slice(0, last)}${path.charAt(last).toUpperCase()}${path.slice(last + 1)}`;
  const inner = path.indexOf('/');
  return [
    `/api/${path}`,
    `/api/${path}?x=1`,
    `/api/${path}?`,
    `/api/${path}?a=1&b=2&x=${Date.now()}`,
    `/api/${encode(path, (_, i) => i === 0)}`,
    `/api/${encode(path, (ch) => ch !== '/')}`,
    `/api/${encode(path, (ch) => ch === '.')}`.replace(/%2E/g, '%2e'),
    `/api/${encode(path, (_, i) => i === path.length - 1)}?x=2`,
    `/%61pi/${path}`,
    `/api/${path}/`,
    `/api/${path}//`,
    `/api/${path}/?x=1`,
    `/api//${path}`,
    `//api/${path}`,
    `/api/${path.slice(0, inner)}//${path.slice(inner + 1)}`,
    `/api/${path.toUpperCase()}`,
    `/API/${path}`,
    `/api/${cap}`,
    `/api/${path}%2F`,
    `/api/${path};x=1`,
    `/api/${path}%20`,
    `/api/./${path}`,
    `/api/x/../${path}`,
  ];
}

const LIMITER_MSG = /^操作过于频繁，请\d+(秒|分钟)后再试$/;

/** Bodies that pass validation, so an admitted request really runs the handler (and leaves its trace). */
let serial = 0;
function bodyFor(path: string): unknown {
  serial += 1;
  if (path === loginCall.path) return { type: '1', account: `variant-${serial}`, password: 'Wrong@2026' };
  if (path === sendSmsCall.path) return { phone: `1350${String(100_0000 + serial).slice(-7)}`, dictLabel: 'login' };
  return {};
}

/** What an admitted request leaves behind, for the calls whose handler writes a row on every request. */
async function traces(path: string): Promise<number | null> {
  if (path === loginCall.path) {
    const [r] = await t.ownerQuery<{ n: number }>(
      "select count(*)::int as n from login_attempts where account like 'variant-%'",
    );
    return r?.n ?? 0;
  }
  if (path === sendSmsCall.path) {
    const [r] = await t.ownerQuery<{ n: number }>("select count(*)::int as n from sms_outbox where phone like '1350%'");
    return r?.n ?? 0;
  }
  return null;
}

const limited = Object.keys(LIMITS);

describe('abuse limits count by the matched route, whatever the URL looks like', () => {
  it('limits only calls the server serves, and all of them are public calls an outsider can repeat', () => {
    const served = new Map(serverModules().flatMap((m) => m.calls.map((c) => [c.def.path, c.def.access] as const)));
    expect(limited.length).toBeGreaterThanOrEqual(10);
    for (const path of limited) expect(served.get(path), path).toBe('public');
  });

  it.each(limited.map((path, i) => [path, i] as const))(
    '%s: every spelling spends one budget per address, and past it none reaches the handler',
    async (path, i) => {
      const limit = LIMITS[path];
      if (!limit) throw new Error(path);
      const ip = `198.51.100.${i + 1}`;
      const all = variants(path);
      const before = await traces(path);
      // Spend the address's budget with the spellings in turn, without a device cookie (counted by address).
      const routed = new Set<string>();
      let admitted = 0;
      for (let k = 0; admitted < limit.perIp; k++) {
        const url = all[k % all.length] ?? '';
        const r = await post(url, bodyFor(path), ip);
        if (r.status === 404) continue;
        expect(r.msg, `${url} before the limit`).not.toMatch(LIMITER_MSG);
        routed.add(url);
        admitted += 1;
      }
      // The spellings that reach the handler include the query strings and percent encodings ...
      expect(routed).toContain(`/api/${path}?x=1`);
      expect(routed).toContain(`/api/${encode(path, (ch) => ch !== '/')}`);
      // ... and trailing, doubled slashes and other cases match no route (Fastify's defaults, kept in app.ts).
      for (const url of [`/api/${path}/`, `/api//${path}`, `//api/${path}`, `/api/${path.toUpperCase()}`]) {
        expect(routed.has(url), url).toBe(false);
      }
      // Past the limit: every spelling, with no cookie, a fresh cookie or an invented one, is refused.
      const fresh = (await post(`/api/${path}`, bodyFor(path), ip)).device ?? undefined;
      for (const cookie of [
        undefined,
        fresh,
        'dzy_device=invented-device-id-0001',
        `dzy_device=r${Date.now()}x${i}abcdef`,
      ]) {
        for (const url of all) {
          const r = await post(url, bodyFor(path), ip, cookie);
          if (r.status === 404) continue;
          expect([r.status, r.code, r.msg], `${url} ${cookie ?? 'no cookie'}`).toEqual([
            429,
            CODE.TOO_MANY,
            expect.stringMatching(LIMITER_MSG),
          ]);
        }
      }
      // The handler ran exactly for the admitted requests (a sign-in attempt row, a text in the outbox).
      const after = await traces(path);
      if (before !== null && after !== null) expect(after - before).toBe(limit.perIp);
      // Another address still gets through: the refusal was the limit's, not a broken route.
      const other = await post(`/api/${path}?x=3`, bodyFor(path), `198.51.100.${200 + i}`);
      expect(other.msg).not.toMatch(LIMITER_MSG);
      expect(other.status).not.toBe(404);
    },
    300_000,
  );

  it.each(limited.map((path, i) => [path, i] as const))(
    '%s: one browser is limited across addresses whatever the spelling',
    async (path, i) => {
      const limit = LIMITS[path];
      if (!limit) throw new Error(path);
      const first = await post(`/api/${path}`, bodyFor(path), `192.0.2.${i + 1}`);
      const cookie = first.device ?? '';
      expect(cookie).toMatch(/^dzy_device=/);
      const all = variants(path);
      let admitted = 1;
      for (let k = 0; admitted < limit.perDevice; k++) {
        const r = await post(all[k % all.length] ?? '', bodyFor(path), `100.64.${i}.${k + 1}`, cookie);
        if (r.status === 404) continue;
        expect(r.msg).not.toMatch(LIMITER_MSG);
        admitted += 1;
      }
      for (const [k, url] of all.entries()) {
        const r = await post(url, bodyFor(path), `100.65.${i}.${k + 1}`, cookie);
        if (r.status !== 404) expect([r.status, r.msg], url).toEqual([429, expect.stringMatching(LIMITER_MSG)]);
      }
    },
    300_000,
  );
});
