import {
  APIKEY_MSG,
  apiKeyCreateCall,
  CODE,
  customerListCall,
  GRANTABLE_PERMS,
  keyMayCall,
  loginCall,
  logoutCall,
  MSG,
  sessionCall,
  thirdRenderCall,
  twoFactorDisableCall,
  twoFactorEnrolConfirmCall,
  twoFactorEnrolStartCall,
  twoFactorRegenerateRecoveryCall,
  twoFactorStatusCall,
  unbindThirdpartyCall,
  updateUserChanneCall,
} from '@dzy/shared';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../src/app.js';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { base32Decode, hotp, stepAt } from '../src/lib/totp.js';
import { plainRoutes } from '../src/modules/system/system.routes.js';
import { keyMayUseRoute } from '../src/plugins/api-key.js';
import { type Deps, registerCalls } from '../src/plugins/calls.js';
import { registerErrorHandling } from '../src/plugins/errors.js';
import { ADMIN, ID } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * Issue 26 point 1: an API key is never a person. Every call and plain route of the registry is walked
 * with a key holding every permission a key can hold; each is on the key allow-list or refuses it.
 */

let t: TestApp;
let admin: string;
let allKey: string;
let readKey: string;

const calls = serverModules().flatMap((m) => m.calls.map((c) => ({ module: m.name, def: c.def })));

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  const make = async (perms: readonly string[]) => {
    const r = await t.call<{ secret: string }>(
      apiKeyCreateCall.path,
      { name: `对接${perms.length}`, perms, expiresOn: null },
      admin,
    );
    if (r.code !== CODE.OK) throw new Error(r.msg);
    return r.data.secret;
  };
  allKey = await make(GRANTABLE_PERMS);
  readKey = await make(['customer:list:view']);
}, 300_000);
afterAll(() => t.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A POST to a call with raw JSON `payload` and the given headers; the HTTP status and the envelope. */
async function post(path: string, payload: unknown, headers: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(payload),
  });
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: unknown }), res };
}

const keyRefused = (r: { status: number; code: number; msg: string }) =>
  r.status === 460 && r.code === CODE.NO_PERMISSION && r.msg === APIKEY_MSG.keyRefused;

function expectKeyRefused(r: { status: number; code: number; msg: string }, what: string) {
  expect([r.status, r.code, r.msg], what).toEqual([460, CODE.NO_PERMISSION, APIKEY_MSG.keyRefused]);
}

/**
 * Calls about a person's own sign-in, account or identity, recognised independently of keyMayCall: by the
 * module that serves them or by what their path names. None may be on the key allow-list.
 */
const PERSON_MODULES = new Set(['auth', 'auth-checks', 'two-factor', 'account', 'third-login']);
/** Plain routes of a person (their picture, third-party sign-in, push, learning, the helper) or the operator. */
const PERSON_ROUTE = /avatar|uploadIconInfo|third|\/ws$|\/content\/|brand|helper|dev\/outbox/;
const PERSON_PATH =
  /login|logout|password|passwd|phone|twofactor|third|userinfo|session|acceptinvite|agencyapply|applyinfo|quit|personal|reveal|switch|apikey|webhook|security/i;
/** Paths the words above catch that are the agency's business, not a person's identity (reviewed one by one). */
const NOT_A_PERSON = new Set([
  'user/agency/getPhoneSettingInfo', // the agency's rule for showing staff phone numbers
  'user/agency/getEnterpriseCredentialRevealLog', // who looked at a client's credentials: the agency's audit
  'equity/agency/equity/checkEnterpriseEquity', // "eQUITy": a client's benefits
  'user/jszt/checkPassword', // a client's e-tax password checked at the bureau
]);

describe('the key allow-list over the whole registry', { timeout: 600_000 }, () => {
  it('has calls on both sides, and only permission-guarded calls that are not about a person on it', () => {
    const allowed = calls.filter((c) => keyMayCall(c.def));
    expect(allowed.length).toBeGreaterThan(200);
    expect(calls.length - allowed.length).toBeGreaterThan(80);
    const grantable = new Set<string>(GRANTABLE_PERMS);
    for (const { module, def } of allowed) {
      expect(grantable.has(def.access), def.path).toBe(true);
      expect(PERSON_MODULES.has(module), `${def.path} (${module})`).toBe(false);
      expect(PERSON_PATH.test(def.path) && !NOT_A_PERSON.has(def.path), def.path).toBe(false);
    }
    // Every public and signed-in call is off the list, whatever it does.
    for (const { def } of calls) {
      if (def.access === 'public' || def.access === 'signedIn') expect(keyMayCall(def), def.path).toBe(false);
    }
  });

  it('every call: a key holding every permission is refused, or admitted as far as the body check', async () => {
    for (const { def } of calls) {
      // A body no call accepts: an admitted caller stops at the shape check (400), before any handler.
      const r = await post(def.path, [0], bearer(allKey));
      if (keyMayCall(def)) {
        expect([r.status, r.code], def.path).toEqual([400, CODE.BAD_REQUEST]);
      } else {
        expectKeyRefused(r, def.path);
      }
    }
  });

  it('the call pipeline refuses a key by itself too (the second wall, without the gate)', async () => {
    const bare = Fastify({ logger: false });
    await bare.register(fastifyCookie);
    registerErrorHandling(bare);
    // Only the pipeline's admission runs: every probe is refused or stops at the body, no handler is reached.
    registerCalls(
      bare,
      { config: t.config, db: t.db } as unknown as Deps,
      serverModules().flatMap((m) => m.calls),
    );
    await bare.ready();
    try {
      for (const { def } of calls) {
        const res = await bare.inject({
          method: 'POST',
          url: `/api/${def.path}`,
          headers: { 'content-type': 'application/json', ...bearer(allKey) },
          payload: '[0]',
        });
        const r = { status: res.statusCode, ...(res.json() as { code: number; msg: string }) };
        if (keyMayCall(def)) {
          expect([r.status, r.code], def.path).toEqual([400, CODE.BAD_REQUEST]);
        } else {
          // Calls needing a permission no key can hold are refused as any caller without it.
          expect(r.status, def.path).toBe(460);
          expect([APIKEY_MSG.keyRefused, MSG.noPermission], def.path).toContain(r.msg);
        }
      }
    } finally {
      await bare.close();
    }
  });

  it('every plain route: a key is refused unless the route is one of the agency’s business files', async () => {
    const routes = [
      ...(await plainRoutes(serverModules())),
      { method: 'GET', url: '/api/dev/outbox', multipart: false },
    ];
    expect(routes.length).toBeGreaterThan(40);
    let admitted = 0;
    for (const route of routes) {
      const url = route.url.replace(/:\w+/g, '1');
      const res = await t.app.inject({
        method: route.method as 'GET' | 'POST',
        url,
        headers: { ...bearer(allKey), ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        ...(route.method === 'POST' ? { payload: '{}' } : {}),
      });
      const envelope = String(res.headers['content-type'] ?? '').includes('application/json')
        ? (res.json() as { code: number; msg: string })
        : null;
      const r = { status: res.statusCode, code: envelope?.code ?? 0, msg: envelope?.msg ?? '' };
      const what = `${route.method} ${route.url}`;
      if (keyMayUseRoute(route.url)) {
        expect(PERSON_ROUTE.test(route.url), what).toBe(false);
        // A business file: the key is a caller here (never 登录超时), under the route's own permission.
        expect(keyRefused(r), what).toBe(false);
        expect(r.status, what).not.toBe(403);
        admitted += 1;
      } else {
        expectKeyRefused(r, what);
      }
    }
    expect(admitted).toBeGreaterThan(30);
  });

  it('a key in the dzy_session cookie is no caller at all', async () => {
    const cookie = { cookie: `dzy_session=${allKey}` };
    const list = await post(customerListCall.path, { pageSize: 20 }, cookie);
    expect([list.status, list.code, list.msg]).toEqual([403, CODE.SESSION_EXPIRED, MSG.sessionExpired]);
    // The public session call sees nobody.
    const who = await post(sessionCall.path, {}, cookie);
    expect([who.code, who.data]).toEqual([CODE.OK, null]);
    const file = await t.app.inject({
      method: 'POST',
      url: '/api/user/agency/exportAgencyEnterprise',
      headers: cookie,
    });
    expect(file.statusCode).toBe(403);
    // The same key in the Authorization header reads the list.
    const ok = await post(customerListCall.path, { pageSize: 20 }, bearer(allKey));
    expect(ok.code, ok.msg).toBe(CODE.OK);
  });
});

/** The state of the administrator's sign-in and identity, as the database holds it. */
async function identityOf(userId: number) {
  const q = async (sql: string) => Number((await t.ownerQuery<{ n: number }>(sql, [userId]))[0]?.n);
  return {
    factor: await q('select count(*)::int as n from user_two_factor where user_id = $1'),
    enabled: await q('select count(*)::int as n from user_two_factor where user_id = $1 and enabled_at is not null'),
    recovery: (
      await t.ownerQuery<{ h: string }>(
        'select code_hash as h from two_factor_recovery_codes where user_id = $1 order by code_hash',
        [userId],
      )
    ).map((r) => r.h),
    third: await q('select count(*)::int as n from third_bindings where user_id = $1'),
    sessions: await q('select count(*)::int as n from sessions where user_id = $1'),
    password: (await t.ownerQuery<{ p: string }>('select password_hash as p from users where id = $1', [userId]))[0]?.p,
  };
}

describe('the attack of issue 26: a key with one read permission against its creator', { timeout: 300_000 }, () => {
  it('cannot enrol two-factor sign-in, read its status, confirm, disable it or get recovery codes', async () => {
    const before = await identityOf(ID.admin);
    expect(before.factor).toBe(0);
    const key = bearer(readKey);
    expectKeyRefused(await post(twoFactorEnrolStartCall.path, {}, key), 'enrol start');
    expectKeyRefused(await post(twoFactorEnrolConfirmCall.path, { code: '123456' }, key), 'enrol confirm');
    expectKeyRefused(await post(twoFactorStatusCall.path, {}, key), 'status');
    expect(await identityOf(ID.admin)).toEqual(before);

    // The administrator enrols as a person; the key still cannot switch it off or take new recovery codes,
    // not even with a right code and the right password.
    const start = await t.call<{ secret: string }>(twoFactorEnrolStartCall.path, {}, admin);
    expect(start.code).toBe(CODE.OK);
    const secret = base32Decode(start.data.secret);
    const step = stepAt(Date.now());
    const done = await t.call(twoFactorEnrolConfirmCall.path, { code: hotp(secret, step) }, admin);
    expect(done.code, done.msg).toBe(CODE.OK);
    const enrolled = await identityOf(ID.admin);
    expect(enrolled.enabled).toBe(1);
    expect(enrolled.recovery).toHaveLength(10);
    expectKeyRefused(await post(twoFactorDisableCall.path, { code: hotp(secret, step + 1) }, key), 'disable');
    expectKeyRefused(
      await post(twoFactorRegenerateRecoveryCall.path, { password: DEMO_PASSWORD }, key),
      'recovery codes',
    );
    expect(await identityOf(ID.admin)).toEqual(enrolled);
  });

  it('cannot bind a third-party identity, finish a third-party step, nor sign in or out', async () => {
    const before = await identityOf(ID.admin);
    const key = bearer(readKey);
    expectKeyRefused(await post(thirdRenderCall.path, { provider: 'dev', purpose: 'bind' }, key), 'render bind');
    expectKeyRefused(await post(thirdRenderCall.path, { provider: 'dev', purpose: 'login' }, key), 'render login');
    expectKeyRefused(await post(updateUserChanneCall.path, { code: 'x', state: 'y' }, key), 'third step');
    expectKeyRefused(await post(unbindThirdpartyCall.path, { provider: 'dev' }, key), 'unbind');
    const back = await t.app.inject({
      method: 'GET',
      url: '/api/user/third/login/callback/dev?code=x&state=y',
      headers: key,
    });
    expectKeyRefused({ status: back.statusCode, ...(back.json() as { code: number; msg: string }) }, 'callback');
    expectKeyRefused(
      await post(loginCall.path, { type: '1', account: ADMIN, password: DEMO_PASSWORD }, key),
      'sign-in',
    );
    expectKeyRefused(await post(logoutCall.path, {}, key), 'sign-out');
    expect(await identityOf(ID.admin)).toEqual(before);
    // The key itself still does what it was made for.
    const list = await post(customerListCall.path, { pageSize: 20 }, key);
    expect(list.code, list.msg).toBe(CODE.OK);
  });

  it('a key beside a person’s cookie is still only a key: the cookie is not used', async () => {
    const r = await post(twoFactorStatusCall.path, {}, { ...bearer(readKey), cookie: admin });
    expectKeyRefused(r, 'status with both');
    // The person alone may.
    expect((await t.call(twoFactorStatusCall.path, {}, admin)).code).toBe(CODE.OK);
  });
});
