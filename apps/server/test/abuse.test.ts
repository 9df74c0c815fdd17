import {
  CODE,
  CUSTOMER_FILES,
  CUSTOMER_MSG,
  IMPORT_COLUMNS,
  importProgressCall,
  loginCall,
  MSG,
  sendSmsCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../src/app.js';
import { LIMITS } from '../src/plugins/rate-limit.js';
import { SMS_BUDGET_MSG } from '../src/plugins/sms.js';
import {
  ADMIN,
  create,
  detail,
  download,
  ENT,
  grantStaffEverything,
  LI,
  readSheet,
  upload,
  xlsx,
  ZHANG,
} from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectNoPermission } from './helpers.js';

// Behind a proxy the client address comes from X-Forwarded-For: that lets one test speak from several
// addresses. A small SMS budget for the platform, to reach it.
process.env.TRUST_PROXY = '1';
process.env.SMS_DAILY_BUDGET = '4';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp({ rateLimitFactor: 1 });
  // Scope is what these tests are about: the staff hold the permissions an administrator may grant.
  await grantStaffEverything(t);
  admin = await t.login(ADMIN);
});
afterAll(() => t.close());

/** A JSON POST as a browser (or client) at `ip` would send it. */
async function post(path: string, body: unknown, headers: Record<string, string> = {}, ip = '10.0.0.1') {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...headers },
    payload: JSON.stringify(body),
  });
  return { res, status: res.statusCode, ...(res.json() as { code: number; msg: string; data: unknown }) };
}

describe('invalid text', () => {
  it('every call refuses NUL and lone surrogates with 400, never 500', async () => {
    const calls = serverModules().flatMap((m) => m.calls.map((c) => c.def.path));
    expect(calls.length).toBeGreaterThan(100);
    for (const path of calls) {
      for (const bad of ['名称\u0000', '\ud83d名称', '名称\udc00']) {
        const r = await post(path, { qymc: bad, keyword: bad, name: bad }, { cookie: admin });
        expect([r.status, r.msg], path).toEqual([400, MSG.invalidText]);
      }
    }
    // A whole emoji (a proper surrogate pair) is text like any other.
    const ok = await post(
      'userext/agency/queryAgencyUserEnterpriseV3',
      { pageNo: 1, pageSize: 20, keyword: '😀' },
      { cookie: admin },
    );
    expect(ok.code).toBe(CODE.OK);
  });
});

describe('requests from another site', () => {
  const listBody = { pageNo: 1, pageSize: 20 };
  const path = 'userext/agency/queryAgencyUserEnterpriseV3';
  it('refuses a state-changing call a page of another site sends, with a message', async () => {
    const byOrigin = await post(path, listBody, { cookie: admin, origin: 'https://evil.example' });
    expect([byOrigin.status, byOrigin.msg]).toEqual([460, MSG.crossSite]);
    const byFetchMeta = await post(path, listBody, { cookie: admin, 'sec-fetch-site': 'cross-site' });
    expect([byFetchMeta.status, byFetchMeta.msg]).toEqual([460, MSG.crossSite]);
  });
  it('lets the product page itself (also behind a proxy) and API clients without those headers through', async () => {
    const proxied = {
      cookie: admin,
      origin: 'https://dzy.example.cn',
      host: '127.0.0.1:8080',
      'x-forwarded-host': 'dzy.example.cn',
    };
    expect((await post(path, listBody, proxied)).code).toBe(CODE.OK);
    const same = await post(path, listBody, { cookie: admin, origin: 'http://localhost:8080', host: 'localhost:8080' });
    expect(same.code).toBe(CODE.OK);
    expect((await post(path, listBody, { cookie: admin, 'sec-fetch-site': 'same-origin' })).code).toBe(CODE.OK);
    expect((await post(path, listBody, { cookie: admin })).code).toBe(CODE.OK);
  });
});

describe('security headers', () => {
  it('sends a Content-Security-Policy without inline script, and HSTS only over https', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(plain.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'self'");
    // The e-tax hall and trusted-login pages of the configured bureau may be framed.
    expect(csp).toContain(
      `frame-src 'self' https: ${new URL(t.config.taxBureauUrl ?? `http://127.0.0.1:${t.config.taxSimPort}`).origin}`,
    );
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const https = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('abuse limits', () => {
  const wrong = (account: string) => ({ type: '1', account, password: 'Wrong@2026' });

  it('limits sign-in attempts per address with 429 and a Chinese message; other addresses go on', async () => {
    const { perIp } = LIMITS[loginCall.path] ?? { perIp: 0 };
    for (let i = 0; i < perIp; i++) {
      const r = await post(loginCall.path, wrong(`nobody${i}`), {}, '10.1.1.1');
      expect(r.status).toBe(400);
    }
    const over = await post(loginCall.path, wrong('nobody'), {}, '10.1.1.1');
    expect(over.status).toBe(429);
    expect(over.msg).toMatch(/^操作过于频繁，请\d+(秒|分钟)后再试$/);
    expect(over.res.headers['retry-after']).toBeDefined();
    expect((await post(loginCall.path, wrong('nobody'), {}, '10.1.1.2')).status).toBe(400);
  });

  it('limits one browser (device cookie) whatever address it comes from', async () => {
    const first = await post(loginCall.path, wrong('x'), {}, '10.2.0.1');
    const device = [first.res.headers['set-cookie']].flat().find((c) => c?.startsWith('dzy_device='));
    expect(device).toBeDefined();
    const cookie = (device ?? '').split(';')[0] ?? '';
    const { perDevice } = LIMITS[loginCall.path] ?? { perDevice: 0 };
    let status = 0;
    for (let i = 1; i <= perDevice; i++)
      status = (await post(loginCall.path, wrong('x'), { cookie }, `10.2.0.${i + 1}`)).status;
    expect(status).toBe(429);
  });

  it('locks an account at the guessing address only: its owner signs in from elsewhere', async () => {
    for (let i = 0; i < 5; i++) await post(loginCall.path, wrong(LI), {}, '10.3.0.1');
    const locked = await post(loginCall.path, { type: '1', account: LI, password: 'Demo@2026' }, {}, '10.3.0.1');
    expect(locked.code).toBe(CODE.LOCKED);
    const owner = await post(loginCall.path, { type: '1', account: LI, password: 'Demo@2026' }, {}, '10.3.0.9');
    expect(owner.code).toBe(CODE.OK);
  });

  it('stops sending texts when the platform budget for the day is used up', async () => {
    const phones = ['13500000001', '13500000002', '13500000003', '13500000004', '13500000005'];
    const replies = [];
    for (const [i, phone] of phones.entries()) {
      replies.push(await post(sendSmsCall.path, { phone, dictLabel: 'login' }, {}, `10.4.0.${i + 1}`));
    }
    const sent = await t.ownerQuery<{ n: number }>('select count(*)::int as n from sms_outbox');
    expect(sent[0]?.n).toBe(4);
    expect(replies.slice(0, 4).map((r) => r.code)).toEqual([CODE.OK, CODE.OK, CODE.OK, CODE.OK]);
    expect([replies[4]?.status, replies[4]?.msg]).toEqual([429, SMS_BUDGET_MSG]);
  });
});

describe('the duplicate tax number message', () => {
  it('names the other client only to someone who may see it', async () => {
    const zhang = await t.login(ZHANG);
    const liClient = await detail(t, admin, ENT.liOwn);
    const hidden = await create(t, zhang, { qysh: liClient.qysh });
    expect([hidden.code, hidden.msg]).toEqual([CODE.CONFLICT, CUSTOMER_MSG.duplicateHidden]);
    expect(hidden.msg).not.toContain(liClient.qymc);
    const named = await create(t, admin, { qysh: liClient.qysh });
    expect(named.msg).toBe(CUSTOMER_MSG.duplicate(liClient.qymc));
  });

  it("nor in an import's failure file", async () => {
    const zhang = await t.login(ZHANG);
    const liClient = await detail(t, admin, ENT.liOwn);
    const file = await xlsx(IMPORT_COLUMNS, [
      IMPORT_COLUMNS.map((c) => (c === '企业名称*' ? '重名导入测试有限公司' : c === '企业税号*' ? liClient.qysh : '')),
    ]);
    const up = await upload<{ jobId: number }>(t, CUSTOMER_FILES.importUpload, zhang, { name: 'a.xlsx', data: file });
    expect(up.code).toBe(CODE.OK);
    let done: { state: string; result: { redisKey: string } | null } = { state: '', result: null };
    for (let i = 0; i < 100 && done.state !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      done = (await t.call<typeof done>(importProgressCall.path, { jobId: up.data.jobId }, zhang)).data;
    }
    const fail = await download(t, `/api/${CUSTOMER_FILES.importFailList}?redisKey=${done.result?.redisKey}`, zhang);
    const rows = await readSheet(fail.body);
    expect(rows[1]?.at(-1)).toBe(CUSTOMER_MSG.duplicateHidden);
    expect(rows.flat().join()).not.toContain(liClient.qymc);
  });
});

describe('the development SMS outbox', () => {
  it('is for a signed-in platform operator only', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(anonymous.statusCode).toBe(403);
    const agencyAdmin = await t.app.inject({ method: 'GET', url: '/api/dev/outbox', headers: { cookie: admin } });
    expectNoPermission({
      status: agencyAdmin.statusCode,
      ...(agencyAdmin.json() as { code: number; msg: string; data: unknown }),
    });
    const operator = await t.login('13600000000');
    const ok = await t.app.inject({ method: 'GET', url: '/api/dev/outbox', headers: { cookie: operator } });
    expect(ok.statusCode).toBe(200);
    expect(Array.isArray((ok.json() as { data: unknown }).data)).toBe(true);
  });
});
