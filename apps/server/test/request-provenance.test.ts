import { apiKeyCreateCall, CODE, loginCall, logoutCall, MSG, saveAgencyInviteCall, sessionCall } from '@dzy/shared';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../src/app.js';
import { fastifyTrustProxy, loadConfig, trustProxySetting } from '../src/config.js';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { ORIGIN_UNKNOWN_MSG } from '../src/plugins/security.js';
import { startTestApp, type TestApp } from './harness.js';

// One reverse proxy in front, and the address users reach the product at.
process.env.TRUST_PROXY = '1';
process.env.PUBLIC_URL = 'https://dzy.example.cn';

const ADMIN = '13800000000';
const LI = '13800000001';
const CUSTOMERS = 'userext/agency/queryAgencyUserEnterpriseV3';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
}, 300_000);
afterAll(() => t.close());

/** A JSON POST with exactly these headers (`'sec-fetch-site': undefined` leaves the harness's default out). */
async function post(url: string, body: unknown, headers: Record<string, string | undefined>) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers } as Record<string, string>,
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: unknown }) };
}
const bare = { 'sec-fetch-site': undefined };

describe('a state change riding on the session cookie must say where it comes from', () => {
  it('refuses every call of the registry sent with the cookie and neither Origin nor Sec-Fetch-Site', async () => {
    const calls = serverModules().flatMap((m) => m.calls.map((c) => c.def.path));
    expect(calls.length).toBeGreaterThan(100);
    for (const path of calls) {
      const r = await post(`/api/${path}`, {}, { cookie: admin, ...bare });
      expect([r.status, r.msg], path).toEqual([460, ORIGIN_UNKNOWN_MSG]);
    }
    // Whatever the URL's spelling that reaches the same call.
    const encoded = await post(`/%61pi/${logoutCall.path}`, {}, { cookie: admin, ...bare });
    expect([encoded.status, encoded.msg]).toEqual([460, ORIGIN_UNKNOWN_MSG]);
    const crossEncoded = await post(`/%61pi/${logoutCall.path}`, {}, { cookie: admin, origin: 'https://evil.example' });
    expect([crossEncoded.status, crossEncoded.msg]).toEqual([460, MSG.crossSite]);
    // None of them ran: the session the refused sign-out named is still signed in.
    const still = await post(`/api/${sessionCall.path}`, {}, { cookie: admin, 'sec-fetch-site': 'same-origin' });
    expect(still.code).toBe(CODE.OK);
    expect(still.data).not.toBeNull();
  }, 300_000);

  it('lets the page through with either header, as browsers send them', async () => {
    const body = { pageNo: 1, pageSize: 20 };
    const origin = await post(`/api/${CUSTOMERS}`, body, {
      cookie: admin,
      host: 'dzy.internal:8080',
      origin: 'http://dzy.internal:8080',
      ...bare,
    });
    expect(origin.code).toBe(CODE.OK);
    const fetchMeta = await post(`/api/${CUSTOMERS}`, body, { cookie: admin, 'sec-fetch-site': 'same-origin' });
    expect(fetchMeta.code).toBe(CODE.OK);
    const crossSite = await post(`/api/${CUSTOMERS}`, body, { cookie: admin, 'sec-fetch-site': 'cross-site' });
    expect([crossSite.status, crossSite.msg]).toEqual([460, MSG.crossSite]);
  });

  it('does not ask an API key (Authorization, no cookie): it is no browser', async () => {
    const key = await post(
      `/api/${apiKeyCreateCall.path}`,
      { name: '对接程序来源', perms: ['customer:list:view'], expiresOn: null },
      { cookie: admin, 'sec-fetch-site': 'same-origin' },
    );
    expect(key.code).toBe(CODE.OK);
    const secret = (key.data as { secret: string }).secret;
    const r = await post(
      `/api/${CUSTOMERS}`,
      { pageNo: 1, pageSize: 20 },
      { authorization: `Bearer ${secret}`, ...bare },
    );
    expect(r.code).toBe(CODE.OK);
    // A sign-in (no cookie yet) is not asked either: there is no session to ride on.
    const signIn = await post(`/api/${loginCall.path}`, { type: '1', account: LI, password: DEMO_PASSWORD }, bare);
    expect(signIn.code).toBe(CODE.OK);
  });
});

describe('the client address comes from the trusted proxy only', () => {
  it("takes the proxy's own (right-most) X-Forwarded-For entry, not what the client wrote before it", async () => {
    const account = 'nobody-proxy';
    for (let i = 0; i < 6; i++) {
      const r = await post(
        `/api/${loginCall.path}`,
        { type: '1', account, password: 'Wrong@2026' },
        { 'x-forwarded-for': `203.0.113.${i + 1}, 10.77.0.1` },
      );
      expect(r.status).not.toBe(429);
    }
    const ips = await t.ownerQuery<{ ip: string }>('select distinct ip from login_attempts where account = $1', [
      account,
    ]);
    expect(ips.map((r) => r.ip)).toEqual(['10.77.0.1']);
  });

  it('locks the guesser out whatever addresses it invents, and only at its real address', async () => {
    const guess = (password: string, invented: string, real: string) =>
      post(
        `/api/${loginCall.path}`,
        { type: '1', account: LI, password },
        { 'x-forwarded-for': `${invented}, ${real}` },
      );
    for (let i = 0; i < 30; i++) await guess('Wrong@2026', `198.51.100.${(i % 6) + 1}`, '10.78.0.1');
    expect((await guess(DEMO_PASSWORD, '198.51.100.99', '10.78.0.1')).code).toBe(CODE.LOCKED);
    // An invented address of the owner's cannot lock the owner out: their own is another.
    expect((await guess(DEMO_PASSWORD, '10.78.0.1', '10.78.0.2')).code).toBe(CODE.OK);
  });

  it('follows Fastify trust semantics: a hop count, or the proxy addresses and ranges the setting lists', async () => {
    const seen = async (
      setting: ReturnType<typeof trustProxySetting>,
      remoteAddress: string,
      xff: string,
      xfh?: string,
    ): Promise<{ ip: string; host: string }> => {
      const app = Fastify({ trustProxy: fastifyTrustProxy(setting) });
      app.get('/', async (req) => ({ ip: req.ip, host: req.host }));
      const res = await app.inject({
        url: '/',
        remoteAddress,
        headers: { host: 'dzy.internal', 'x-forwarded-for': xff, ...(xfh ? { 'x-forwarded-host': xfh } : {}) },
      });
      await app.close();
      return res.json();
    };
    expect((await seen(trustProxySetting('1'), '10.0.0.5', '6.6.6.6, 1.2.3.4')).ip).toBe('1.2.3.4');
    expect((await seen(trustProxySetting('2'), '10.0.0.5', '6.6.6.6, 1.2.3.4, 10.0.0.4')).ip).toBe('1.2.3.4');
    const list = trustProxySetting('10.0.0.5, 10.0.0.6');
    expect((await seen(list, '10.0.0.5', '6.6.6.6, 1.2.3.4')).ip).toBe('1.2.3.4');
    expect((await seen(list, '10.0.0.5', '6.6.6.6, 1.2.3.4, 10.0.0.6')).ip).toBe('1.2.3.4');
    // A client reaching the server directly, not through a listed proxy: its headers count for nothing.
    const direct = await seen(list, '198.51.100.7', '1.2.3.4', 'evil.example');
    expect(direct).toEqual({ ip: '198.51.100.7', host: 'dzy.internal' });
    const cidr = trustProxySetting('10.0.0.0/24,fd00::/8');
    expect((await seen(cidr, '10.0.0.77', '1.2.3.4')).ip).toBe('1.2.3.4');
    expect((await seen(cidr, '10.0.1.1', '1.2.3.4')).ip).toBe('10.0.1.1');
    expect((await seen(trustProxySetting(undefined), '10.0.0.5', '1.2.3.4')).ip).toBe('10.0.0.5');
  });

  it('reads TRUST_PROXY strictly', () => {
    expect(trustProxySetting(undefined)).toBe(false);
    expect(trustProxySetting('0')).toBe(false);
    expect(trustProxySetting('1')).toBe(1);
    expect(trustProxySetting('10.0.0.5,10.0.0.6')).toEqual(['10.0.0.5', '10.0.0.6']);
    for (const bad of ['true', 'yes', '10.0.0.0/33', '10.0.0', 'proxy.example'])
      expect(() => trustProxySetting(bad), bad).toThrow(/TRUST_PROXY/);
  });
});

describe('links the platform sends point at PUBLIC_URL, never at the request Host', () => {
  it('an invitation sent with a forged Host and X-Forwarded-Host still links to PUBLIC_URL', async () => {
    const phone = '13800000071';
    const r = await post(
      `/api/${saveAgencyInviteCall.path}`,
      { sjh: phone, hymc: '来源测试', role: 0 },
      {
        cookie: admin,
        origin: 'https://evil.example',
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
        'x-forwarded-for': '10.79.0.1',
      },
    );
    expect(r.code).toBe(CODE.OK);
    const [sms] = await t.ownerQuery<{ content: string }>('select content from sms_outbox where phone = $1', [phone]);
    expect(sms?.content).toContain(`https://dzy.example.cn/#/acceptInvite?id=${(r.data as { id: number }).id}`);
    expect(sms?.content).not.toContain('evil');
  });

  it('is required in production, as an origin', () => {
    const env = { SECRET_KEY: 'a'.repeat(64), DATA_DIR: '/tmp/dzy-public-url-config', NODE_ENV: 'production' };
    expect(() => loadConfig(env)).toThrow(/PUBLIC_URL is required in production/);
    expect(loadConfig({ ...env, PUBLIC_URL: 'https://dzy.example.cn/' }).publicUrl).toBe('https://dzy.example.cn');
    expect(() => loadConfig({ ...env, PUBLIC_URL: 'https://dzy.example.cn/app' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ ...env, PUBLIC_URL: 'dzy.example.cn' })).toThrow(/PUBLIC_URL/);
    // Outside production this machine's own address stands in.
    const dev = loadConfig({ ...env, NODE_ENV: 'development', PORT: '8123' });
    expect(dev.publicUrl).toBe('http://127.0.0.1:8123');
  });
});
