import { CODE, changePasswordCall, getProfileCall, loginCall, MSG, updateProfileCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../src/app.js';
import { inScope } from '../src/db/client.js';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectSignedOut, passwordLogin } from './helpers.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('13800000000');
});
afterAll(() => t.close());

const CALLS = serverModules().flatMap((m) => m.calls.map((c) => c.def));

/** A POST with a body sent exactly as given. */
const post = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', cookie: admin, ...headers },
    payload,
  });

/** The reply is the envelope and nothing else: no stack, no framework error fields. */
function expectEnvelope(body: string, code: number, msg?: string) {
  const json = JSON.parse(body) as Record<string, unknown>;
  expect(Object.keys(json).sort()).toEqual(['code', 'data', 'msg']);
  expect(json.code).toBe(code);
  if (msg !== undefined) expect(json.msg).toBe(msg);
  expect(body).not.toMatch(/stack|node_modules|\.ts:\d|at .+\(|FST_/);
  return json;
}

describe('health', () => {
  it('answers 200 with the database engine in use', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { code: number; data: { db: string; version: string } };
    expect(body.code).toBe(CODE.OK);
    expect(body.data.db).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    expect(body.data.db).toBe(t.kind);
    expect(body.data.version).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('OpenAPI document', () => {
  it('lists every call served, each with its access rule as x-access', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, { post: { 'x-access': string; summary: string; requestBody: unknown } }>;
    };
    expect(doc.openapi).toBe('3.1.0');
    // The calls (with x-access); the plain routes (uploads, downloads) are listed besides them, marked x-plain-route.
    const calls = Object.keys(doc.paths).filter((p) => doc.paths[p]?.post?.['x-access'] !== undefined);
    expect(calls.sort()).toEqual(CALLS.map((c) => `/api/${c.path}`).sort());
    for (const def of CALLS) {
      const op = doc.paths[`/api/${def.path}`]?.post;
      expect(op?.['x-access'], def.path).toBe(def.access);
      expect(op?.summary).toBe(def.summary);
      expect(op?.requestBody).toBeTruthy();
    }
  });

  it('every path it lists is served', async () => {
    for (const def of CALLS) {
      const res = await post(`/api/${def.path}`, '{}', { cookie: '' });
      expect(res.statusCode, def.path).not.toBe(404);
    }
  });
});

describe('access', () => {
  it('every call that is not public refuses a caller without a session, with 403', async () => {
    const guarded = CALLS.filter((c) => c.access !== 'public');
    expect(guarded.length).toBeGreaterThan(0);
    for (const def of guarded) {
      const r = await t.call(def.path, {});
      expectSignedOut(r);
    }
  });

  it('the plain routes that need a session refuse a caller without one', async () => {
    const upload = await t.app.inject({ method: 'POST', url: '/api/user/v1.0/userinfo/uploadIconInfo' });
    const avatar = await t.app.inject({ method: 'GET', url: `/api/files/avatar/${'0'.repeat(32)}.png` });
    for (const res of [upload, avatar]) {
      expect(res.statusCode).toBe(403);
      expectEnvelope(res.body, CODE.SESSION_EXPIRED, MSG.sessionExpired);
    }
  });

  it('checks the session before the body: a signed-out caller learns nothing from validation', async () => {
    expectSignedOut(await t.call(updateProfileCall.path, { hymc: '' }));
  });
});

describe('malformed requests get the envelope', () => {
  it('malformed JSON: 400 请求内容不是有效的 JSON, no stack trace', async () => {
    const res = await post(`/api/${getProfileCall.path}`, '{"hymc": ');
    expect(res.statusCode).toBe(400);
    expectEnvelope(res.body, CODE.BAD_REQUEST, MSG.badJson);
    const broken = await post(`/api/${loginCall.path}`, "{type:'1'}", { cookie: '' });
    expectEnvelope(broken.body, CODE.BAD_REQUEST, MSG.badJson);
  });

  it('an empty body sent as JSON: 400', async () => {
    const res = await post(`/api/${getProfileCall.path}`, '');
    expect(res.statusCode).toBe(400);
    expectEnvelope(res.body, CODE.BAD_REQUEST, MSG.badJson);
  });

  it('a body that is JSON but not an object: 400', async () => {
    for (const payload of ['[]', '"text"', '42']) {
      const res = await post(`/api/${updateProfileCall.path}`, payload);
      expect(res.statusCode, payload).toBe(400);
      expectEnvelope(res.body, CODE.BAD_REQUEST);
    }
  });

  it('a body over 1 MB: 413', async () => {
    const res = await post(`/api/${updateProfileCall.path}`, JSON.stringify({ hymc: 'x'.repeat(1024 * 1024), zw: '' }));
    expect(res.statusCode).toBe(413);
    expectEnvelope(res.body, CODE.TOO_LARGE, MSG.tooLarge);
  });

  it('a wrong content type: 400 envelope', async () => {
    const xml = await post(`/api/${getProfileCall.path}`, '<profile/>', { 'content-type': 'application/xml' });
    expect(xml.statusCode).toBe(400);
    expectEnvelope(xml.body, CODE.BAD_REQUEST, '请求内容类型须为 application/json');
    const form = await post(`/api/${updateProfileCall.path}`, 'hymc=x&zw=y', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(400);
    expectEnvelope(form.body, CODE.BAD_REQUEST);
    const text = await post(`/api/${updateProfileCall.path}`, '{"hymc":"文本","zw":""}', {
      'content-type': 'text/plain',
    });
    expect(text.statusCode).toBe(400);
    expectEnvelope(text.body, CODE.BAD_REQUEST);
    expect((await t.call(getProfileCall.path, {}, admin)).data).toMatchObject({ hymc: '王建国' });
  });

  it('an unknown /api path: 404 接口不存在', async () => {
    for (const [method, url] of [
      ['POST', '/api/no/such/call'],
      ['GET', '/api/no/such/call'],
      ['GET', `/api/${getProfileCall.path}`],
      ['PUT', `/api/${updateProfileCall.path}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { cookie: admin } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expectEnvelope(res.body, CODE.NOT_FOUND, MSG.unknownCall);
    }
  });

  it('sends the security headers on every reply', async () => {
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/nothing' }),
      await post(`/api/${getProfileCall.path}`, '{'),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('same-origin');
    }
  });
});

describe('a failed call writes nothing', () => {
  /** Audit records of agency 1 with this action, read as the app role in agency 1's scope. */
  const auditCount = (action: string) =>
    inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, async (tx) => {
      const r = await tx.execute(sql`select count(*)::int as n from audit_log where action = ${action}`);
      return (r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
    });

  it('a validation failure on updateProfile leaves the name unchanged and records nothing', async () => {
    const before = await auditCount('account.profile_update');
    for (const body of [
      { hymc: '', zw: '新职位' },
      { hymc: '新名字', zw: '新职位', extra: 1 },
    ]) {
      expect((await t.call(updateProfileCall.path, body, admin)).code).toBe(CODE.BAD_REQUEST);
    }
    const malformed = await post(`/api/${updateProfileCall.path}`, '{"hymc":"新名字","zw":');
    expect(malformed.statusCode).toBe(400);
    expect((await t.call(getProfileCall.path, {}, admin)).data).toMatchObject({ hymc: '王建国', zw: '总经理' });
    expect(await auditCount('account.profile_update')).toBe(before);
  });

  it('a refused password change keeps the old password and records nothing', async () => {
    const cookie = await t.login('13800000002');
    const before = await auditCount('account.password_change');
    const r = await t.call(changePasswordCall.path, { oldPassword: 'Wrong@2026', password: 'Newer#2026x' }, cookie);
    expect(r.msg).toBe('原密码错误');
    expect(await auditCount('account.password_change')).toBe(before);
    expect((await passwordLogin(t, '13800000002', DEMO_PASSWORD)).code).toBe(CODE.OK);
    expect((await passwordLogin(t, '13800000002', 'Newer#2026x')).code).toBe(CODE.BAD_REQUEST);
  });

  it('a successful call does record (so the checks above can see a write)', async () => {
    const before = await auditCount('account.profile_update');
    const r = await t.call(updateProfileCall.path, { hymc: '王建国', zw: '总经理' }, admin);
    expect(r.code).toBe(CODE.OK);
    expect(await auditCount('account.profile_update')).toBe(before + 1);
  });
});
