import {
  CODE,
  type SessionInfo,
  TWO_FACTOR_MSG,
  thirdRenderCall,
  twoFactorEnrolConfirmCall,
  twoFactorEnrolStartCall,
  twoFactorRegenerateRecoveryCall,
  twoFactorVerifyCall,
  updateUserChanneCall,
} from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { totpAt } from '../src/lib/totp.js';
import { LIMITS } from '../src/plugins/rate-limit.js';
import { ADMIN, ID } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { freshCode, useStepClock } from './two-factor-helpers.js';

// Issue 18 point 5 follow-ups: recovery codes made anew, the second step's per-address limit, and the second
// step after a third-party sign-in. The limits as configured (×1); X-Forwarded-For speaks from other addresses.
process.env.TRUST_PROXY = '1';
vi.setConfig({ testTimeout: 120_000 });

let sim: TaxSim;
let t: TestApp;
let admin = '';
let secret = '';
let codes: string[] = [];

beforeAll(async () => {
  useStepClock();
  sim = await startTaxSim();
  t = await startTestApp({ taxBureauUrl: sim.url, rateLimitFactor: 1 });
  admin = await t.login(ADMIN);
  const start = await t.call<{ secret: string }>(twoFactorEnrolStartCall.path, {}, admin);
  secret = start.data.secret;
  const done = await t.call<{ recoveryCodes: string[] }>(
    twoFactorEnrolConfirmCall.path,
    { code: totpAt(secret, Date.now()) },
    admin,
  );
  expect(done.code).toBe(CODE.OK);
  codes = done.data.recoveryCodes;
}, 300_000);
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

type Headers = Record<string, string | string[] | number | undefined>;
const cookieOf = (headers: Headers, name: string) =>
  [headers['set-cookie']]
    .flat()
    .map(String)
    .find((v) => v.startsWith(`${name}=`))
    ?.split(';')[0] ?? '';

async function post<T>(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, ...(res.json() as { code: number; msg: string; data: T }) };
}

/** A password sign-in's first step: the pending second step's ticket. */
async function ticket(ip = '10.1.0.1') {
  const r = await post<{ twoFactor: { ticket: string } }>(
    'userext/v1.0/common/user/login',
    { type: '1', account: ADMIN, password: DEMO_PASSWORD },
    { 'x-forwarded-for': ip },
  );
  expect(r.code).toBe(CODE.OK);
  return r.data.twoFactor.ticket;
}
const verify = (body: Record<string, unknown>, ip = '10.1.0.1') =>
  post<SessionInfo>(twoFactorVerifyCall.path, body, { 'x-forwarded-for': ip });
const regenerate = (body: Record<string, unknown>) =>
  post<{ recoveryCodes: string[] }>(twoFactorRegenerateRecoveryCall.path, body, { cookie: admin });
const audits = async (action: string) =>
  Number(
    (await t.ownerQuery<{ n: number }>('select count(*)::int as n from audit_log where action = $1', [action]))[0]?.n,
  );

describe('两步验证: new recovery codes', () => {
  it('needs a current code or the password: neither, a wrong code or a wrong password is refused', async () => {
    expect((await regenerate({})).code).toBe(CODE.BAD_REQUEST);
    const both = await regenerate({ code: '123456', password: DEMO_PASSWORD });
    expect(both.code).toBe(CODE.BAD_REQUEST);
    const wrongPwd = await regenerate({ password: 'not-the-password' });
    expect([wrongPwd.code, wrongPwd.msg]).toEqual([CODE.BAD_REQUEST, TWO_FACTOR_MSG.wrongPassword]);
    const good = totpAt(secret, Date.now());
    const wrongCode = await regenerate({ code: good === '000000' ? '111111' : '000000' });
    expect([wrongCode.code, wrongCode.msg]).toEqual([CODE.BAD_REQUEST, TWO_FACTOR_MSG.wrongCode]);
    expect((await post(twoFactorRegenerateRecoveryCall.path, { password: DEMO_PASSWORD })).code).toBe(
      CODE.SESSION_EXPIRED,
    );
    expect(await audits('two_factor.recovery_regenerate')).toBe(0);
  });

  it('with the password: ten new codes shown once; the old ones stop working, a new one signs in', async () => {
    const r = await regenerate({ password: DEMO_PASSWORD });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.recoveryCodes).toHaveLength(10);
    expect(new Set(r.data.recoveryCodes).size).toBe(10);
    for (const c of r.data.recoveryCodes) expect(codes).not.toContain(c);
    // Stored as hashes only: no code appears in the table.
    const stored = await t.ownerQuery<{ code_hash: string }>(
      'select code_hash from two_factor_recovery_codes where user_id = $1',
      [ID.admin],
    );
    expect(stored).toHaveLength(10);
    expect(stored.some((s) => r.data.recoveryCodes.some((c) => s.code_hash.includes(c)))).toBe(false);
    const old = await verify({ ticket: await ticket(), recoveryCode: codes[0] });
    expect([old.code, old.msg]).toEqual([CODE.BAD_REQUEST, TWO_FACTOR_MSG.wrongRecovery]);
    const fresh = await verify({ ticket: await ticket(), recoveryCode: r.data.recoveryCodes[0] });
    expect(fresh.code).toBe(CODE.OK);
    expect(fresh.data.phone).toBe(ADMIN);
    codes = r.data.recoveryCodes;
    const [row] = await t.ownerQuery<{ detail: { how: string; count: number }; target: string }>(
      `select detail, target from audit_log where action = 'two_factor.recovery_regenerate'`,
    );
    expect(row).toEqual({ detail: { how: 'password', count: 10 }, target: `user:${ID.admin}` });
  });

  it('with a current authenticator code: again new codes, the previous set refused', async () => {
    const r = await regenerate({ code: await freshCode(t, ID.admin, secret) });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.recoveryCodes).toHaveLength(10);
    const old = await verify({ ticket: await ticket(), recoveryCode: codes[1] });
    expect(old.msg).toBe(TWO_FACTOR_MSG.wrongRecovery);
    codes = r.data.recoveryCodes;
    expect(await audits('two_factor.recovery_regenerate')).toBe(2);
  });
});

describe('the second step has a per-address limit besides the per-user lock', () => {
  it(`past ${LIMITS[twoFactorVerifyCall.path]?.perIp} tries from one address in ten minutes: 429; other addresses go on`, async () => {
    const limit = LIMITS[twoFactorVerifyCall.path]?.perIp ?? 0;
    expect(limit).toBeGreaterThan(5);
    // Tickets of nobody: refused one by one (no user to lock), until the address is stopped.
    for (let i = 0; i < limit; i++) {
      const r = await verify({ ticket: `verify.${9000 + i}.1.x`, code: '123456' }, '10.7.7.7');
      expect(r.msg).toBe(TWO_FACTOR_MSG.ticketExpired);
    }
    const stopped = await verify({ ticket: 'verify.9999.1.x', recoveryCode: 'abcde-fghjk' }, '10.7.7.7');
    expect(stopped.status).toBe(429);
    expect(stopped.code).toBe(CODE.TOO_MANY);
    expect(stopped.msg).toMatch(/^操作过于频繁，请.+后再试$/);
    expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(0);
    // The same for the forced enrolment's calls from that address.
    expect(LIMITS[twoFactorEnrolConfirmCall.path]).toBeDefined();
    const other = await verify({ ticket: 'verify.9999.1.x', code: '123456' }, '10.7.7.8');
    expect(other.msg).toBe(TWO_FACTOR_MSG.ticketExpired);
  });
});

describe('third-party sign-in of a user with two factors', () => {
  it('the callback hands the sign-in page a ticket, no session; the second step with it signs in', async () => {
    // Bind the administrator's development account.
    const bind = await post<{ url: string }>(
      thirdRenderCall.path,
      { provider: 'dev', purpose: 'bind' },
      { cookie: admin },
    );
    const oauthBind = cookieOf(bind.headers, 'dzy_oauth');
    const b = await fetch(`${bind.data.url}&user=dev-openid-0001`, { redirect: 'manual' });
    const bback = new URL(b.headers.get('location') ?? '');
    const bound = await post(
      updateUserChanneCall.path,
      { code: bback.searchParams.get('code'), state: bback.searchParams.get('state') },
      { cookie: `${admin}; ${oauthBind}` },
    );
    expect(bound.code).toBe(CODE.OK);

    // Sign in with it, as the browser: render, the provider, the callback.
    const r = await post<{ url: string }>(thirdRenderCall.path, { provider: 'dev', purpose: 'login' });
    const res = await fetch(`${r.data.url}&user=dev-openid-0001`, { redirect: 'manual' });
    const back = new URL(res.headers.get('location') ?? '');
    const cb = await t.app.inject({
      method: 'GET',
      url: `/api/user/third/login/callback/dev?${back.searchParams}`,
      headers: { cookie: cookieOf(r.headers, 'dzy_oauth') },
    });
    expect(cb.statusCode).toBe(302);
    expect(cookieOf(cb.headers, 'dzy_session')).toBe('');
    const location = String(cb.headers.location);
    expect(location.startsWith('/#/login?')).toBe(true);
    const params = new URLSearchParams(location.slice('/#/login?'.length));
    expect(params.get('enrol')).toBe('0');
    const tk = params.get('twoFactorTicket') ?? '';
    expect(tk.startsWith('verify.')).toBe(true);
    expect(await audits('third.login_second_step')).toBe(1);

    const done = await verify({ ticket: tk, code: await freshCode(t, ID.admin, secret) }, '10.2.0.1');
    expect(done.code).toBe(CODE.OK);
    expect(done.data.phone).toBe(ADMIN);
    expect(cookieOf(done.headers, 'dzy_session')).not.toBe('');
  });
});
