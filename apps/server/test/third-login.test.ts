import {
  CODE,
  getBindThirdpartyCall,
  THIRD_MSG,
  type ThirdBinding,
  thirdRenderCall,
  unbindThirdpartyCall,
  updateUserChanneCall,
} from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let sim: TaxSim;
let t: TestApp;
const c = { admin: '', zhang: '' };

beforeAll(async () => {
  sim = await startTaxSim();
  t = await startTestApp({ taxBureauUrl: sim.url });
  c.admin = await t.login(ADMIN);
  c.zhang = await t.login(ZHANG);
}, 240_000);
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
const join = (...cookies: string[]) => cookies.filter(Boolean).join('; ');

/** render as the given session (or none): the provider's address and this browser's state cookie. */
async function render(purpose: 'bind' | 'login', cookie = '', provider = 'dev') {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${thirdRenderCall.path}`,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify({ provider, purpose }),
  });
  const body = res.json() as { code: number; msg: string; data: { url: string } };
  return { ...body, oauth: cookieOf(res.headers, 'dzy_oauth') };
}

/** The browser at the development provider: the account chosen, sent back with a code and the state. */
async function authorize(url: string, user = 'dev-openid-0001') {
  const res = await fetch(`${url}&user=${user}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location') ?? '');
  expect(back.pathname).toBe('/api/user/third/login/callback/dev');
  return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
}

async function finish(body: { code: string; state: string }, cookie: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${updateUserChanneCall.path}`,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  });
  const json = res.json() as {
    code: number;
    msg: string;
    data: { purpose: string; nickname: string; session: { phone: string } | null };
  };
  return { ...json, session: cookieOf(res.headers, 'dzy_session') };
}

async function bindings(cookie: string) {
  const r = await t.call<ThirdBinding[]>(getBindThirdpartyCall.path, {}, cookie);
  expect(r.code).toBe(CODE.OK);
  return r.data;
}
const audits = async (action: string) =>
  Number(
    (await t.ownerQuery<{ n: number }>(`select count(*)::int as n from audit_log where action = '${action}'`))[0]?.n,
  );

describe('third-party sign-in: refusals before the provider', () => {
  it('binding needs a session; an unknown or unconfigured provider is refused in Chinese', async () => {
    const anon = await render('bind');
    expect(anon.code).toBe(CODE.SESSION_EXPIRED);
    expect(anon.msg).toBe(THIRD_MSG.signInFirst);
    const bad = await render('login', '', 'qq');
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg).toContain(THIRD_MSG.providerBad);
    const wechat = await render('login', '', 'wechat');
    expect(wechat.code).toBe(CODE.BAD_REQUEST);
    expect(wechat.msg).toBe(THIRD_MSG.notConfigured('微信'));
    expect((await t.call(getBindThirdpartyCall.path, {})).code).toBe(CODE.SESSION_EXPIRED);
  });

  it('lists the development provider, unbound', async () => {
    expect(await bindings(c.admin)).toEqual([
      { provider: 'dev', label: '开发用登录', configured: true, bound: false, nickname: '', boundAt: null },
    ]);
  });
});

describe('bind, sign in with it, unbind: against the development provider over HTTP', () => {
  it('binds the administrator’s account from 个人设置', async () => {
    const r = await render('bind', c.admin);
    expect(r.code).toBe(CODE.OK);
    expect(r.data.url.startsWith(`${sim.url}/oauth/dev/authorize?`)).toBe(true);
    expect(r.oauth).not.toBe('');
    const back = await authorize(r.data.url);
    const done = await finish(back, join(c.admin, r.oauth));
    expect(done.code).toBe(CODE.OK);
    expect(done.data).toMatchObject({ purpose: 'bind', nickname: '开发用户甲', session: null });
    const [dev] = await bindings(c.admin);
    expect(dev).toMatchObject({ provider: 'dev', bound: true, nickname: '开发用户甲' });
    expect(await audits('third.bind')).toBe(1);
    const rows = await t.ownerQuery<{ openid: string }>(`select openid from third_bindings`);
    expect(rows).toEqual([{ openid: 'dev-openid-0001' }]);
  });

  it('the same code cannot be used twice', async () => {
    const r = await render('login');
    const back = await authorize(r.data.url);
    expect((await finish(back, r.oauth)).code).toBe(CODE.OK);
    const again = await finish(back, r.oauth);
    expect(again.code).toBe(CODE.BAD_REQUEST);
    expect(again.msg).toBe(THIRD_MSG.exchangeFailed('开发用登录'));
  });

  it('signs in with the bound account: a session of the administrator', async () => {
    const r = await render('login');
    const back = await authorize(r.data.url);
    const done = await finish(back, r.oauth);
    expect(done.code).toBe(CODE.OK);
    expect(done.data.session?.phone).toBe(ADMIN);
    expect(done.session).not.toBe('');
    expect((await bindings(done.session))[0]?.bound).toBe(true);
    expect(await audits('third.login')).toBeGreaterThanOrEqual(2);
  });

  it('the callback address the provider sends the browser to signs in and opens the shell', async () => {
    const r = await render('login');
    const back = await authorize(r.data.url);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/user/third/login/callback/dev?${new URLSearchParams(back)}`,
      headers: { cookie: r.oauth },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/#/');
    expect(cookieOf(res.headers, 'dzy_session')).not.toBe('');
  });

  it('another user cannot bind an account already bound, nor finish someone else’s binding', async () => {
    const r = await render('bind', c.zhang);
    const back = await authorize(r.data.url);
    const taken = await finish(back, join(c.zhang, r.oauth));
    expect(taken.code).toBe(CODE.BAD_REQUEST);
    expect(taken.msg).toBe(THIRD_MSG.takenByOther('开发用登录'));

    const adminStarted = await render('bind', c.admin);
    const back2 = await authorize(adminStarted.data.url, 'dev-openid-0002');
    const stolen = await finish(back2, join(c.zhang, adminStarted.oauth));
    expect(stolen.code).toBe(CODE.BAD_REQUEST);
    expect(stolen.msg).toBe(THIRD_MSG.stateBad);
    expect((await bindings(c.zhang))[0]?.bound).toBe(false);
    const rows = await t.ownerQuery<{ n: number }>(`select count(*)::int as n from third_bindings`);
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it('an account nobody bound is not signed in', async () => {
    const r = await render('login');
    const back = await authorize(r.data.url, 'dev-openid-0003');
    const done = await finish(back, r.oauth);
    expect(done.code).toBe(CODE.BAD_REQUEST);
    expect(done.msg).toBe(THIRD_MSG.notBound('开发用登录'));
    expect(done.session).toBe('');
  });

  it('unbinds; sign-in with that account is then refused, and unbinding again says it is not bound', async () => {
    const nope = await t.call(unbindThirdpartyCall.path, { provider: 'dev' }, c.zhang);
    expect(nope.code).toBe(CODE.NOT_FOUND);
    expect(nope.msg).toBe(THIRD_MSG.notBoundSelf('开发用登录'));
    expect((await t.call(unbindThirdpartyCall.path, { provider: 'nope' }, c.admin)).code).toBe(CODE.BAD_REQUEST);
    expect((await t.call(unbindThirdpartyCall.path, { provider: 'dev' }, c.admin)).code).toBe(CODE.OK);
    expect((await bindings(c.admin))[0]?.bound).toBe(false);
    expect(await audits('third.unbind')).toBe(1);
    const r = await render('login');
    const back = await authorize(r.data.url);
    expect((await finish(back, r.oauth)).msg).toBe(THIRD_MSG.notBound('开发用登录'));
  });
});

describe('the state parameter', () => {
  it('a state from another browser (its cookie) is refused, nothing signed in', async () => {
    const a = await render('login');
    const b = await render('login');
    const back = await authorize(a.data.url);
    const mixed = await finish(back, b.oauth);
    expect(mixed.code).toBe(CODE.BAD_REQUEST);
    expect(mixed.msg).toBe(THIRD_MSG.stateBad);
    expect(mixed.session).toBe('');
    const none = await finish(back, '');
    expect(none.msg).toBe(THIRD_MSG.stateBad);
  });

  it('a state altered on the way is refused, and the refusal is audited', async () => {
    const r = await render('login');
    const back = await authorize(r.data.url);
    const [data, sig] = back.state.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(data ?? '', 'base64url').toString()), u: 'bind', i: 1 }),
    ).toString('base64url');
    const done = await finish({ code: back.code, state: `${forged}.${sig}` }, r.oauth);
    expect(done.msg).toBe(THIRD_MSG.stateBad);
    expect(await audits('third.refused')).toBeGreaterThanOrEqual(2);
    const blank = await finish({ code: '', state: '' }, r.oauth);
    expect(blank.code).toBe(CODE.BAD_REQUEST);
  });

  it('the development provider refuses a wrong client secret', async () => {
    const res = await fetch(`${sim.url}/oauth/dev/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', client_id: 'dzy-dev', client_secret: 'x', code: 'y' }),
    });
    expect(res.status).toBe(401);
  });
});
