import { createHash } from 'node:crypto';
import {
  APIKEY_MSG,
  type ApiKey,
  apiKeyCreateCall,
  apiKeyListCall,
  apiKeyRevokeCall,
  CODE,
  changePasswordCall,
  customerCreateCall,
  customerDetailCall,
  customerListCall,
  logoutCall,
  webhookListCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ENT, LI, newUscc, OTHER_ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, rawCall } from './helpers.js';

let t: TestApp;
let admin: string;
let li: string;
let other: string;

beforeAll(async () => {
  t = await startTestApp();
  [admin, li, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(OTHER_ADMIN)]);
}, 300_000);
afterAll(() => t.close());

const ok = <T>(r: { code: number; msg: string; data: T }) => {
  if (r.code !== CODE.OK) throw new Error(`${r.code} ${r.msg}`);
  return r.data;
};

async function createKey(cookie: string, perms: string[], name = `对接程序${Math.random().toString(36).slice(2, 6)}`) {
  return ok(
    await t.call<{ id: number; prefix: string; secret: string }>(
      apiKeyCreateCall.path,
      { name, perms, expiresOn: null },
      cookie,
    ),
  );
}

/** A call made with `Authorization: Bearer <key>`. */
const asKey = <T = unknown>(secret: string, path: string, body: unknown = {}) =>
  rawCall(t, path, body, { authorization: `Bearer ${secret}` }) as Promise<
    Awaited<ReturnType<typeof rawCall>> & { data: T }
  >;

describe('API keys', { timeout: 240_000 }, () => {
  it('shows the secret once and stores only its SHA-256 and a short prefix', async () => {
    const key = await createKey(admin, ['customer:list:view']);
    expect(key.secret).toMatch(/^dzy_[A-Za-z0-9_-]{43}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBe(10);
    const [row] = await t.ownerQuery<{ token_hash: string; prefix: string; perms: string[] }>(
      'select token_hash, prefix, perms from api_keys where id = $1',
      [key.id],
    );
    expect(row?.token_hash).toBe(createHash('sha256').update(key.secret).digest('hex'));
    expect(row?.perms).toEqual(['customer:list:view']);
    const dump = JSON.stringify(await t.ownerQuery('select * from api_keys'));
    expect(dump).not.toContain(key.secret);
    // The list shows name, prefix, permissions and who made it, never the secret.
    const page = ok(await t.call<{ list: ApiKey[]; total: number }>(apiKeyListCall.path, {}, admin));
    const item = page.list.find((k) => k.id === key.id);
    expect(item).toMatchObject({ prefix: key.prefix, perms: ['customer:list:view'], state: 'active', revokedAt: null });
    expect(item?.createdByName).toBeTruthy();
    expect(JSON.stringify(page)).not.toContain(key.secret);
    const audit = await t.ownerQuery<{ action: string }>(
      `select action from audit_log where target = 'apikey:${key.id}' and action = 'apikey.create'`,
    );
    expect(audit).toHaveLength(1);
  });

  it('acts under its permissions with the whole agency in scope, and records its use', async () => {
    const key = await createKey(admin, ['customer:list:view']);
    const r = await asKey<{ total: number }>(key.secret, customerListCall.path, { pageSize: 100 });
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.total).toBe(60);
    // No permission to add a client: refused with 460, nothing written.
    const before = await t.ownerQuery<{ n: number }>('select count(*)::int as n from enterprises where agency_id = 1');
    const add = await asKey(key.secret, customerCreateCall.path, { qymc: '密钥新增测试有限公司', qysh: newUscc() });
    expectNoPermission(add);
    const after = await t.ownerQuery<{ n: number }>('select count(*)::int as n from enterprises where agency_id = 1');
    expect(after[0]?.n).toBe(before[0]?.n);
    const [used] = await t.ownerQuery<{ last_used_at: Date | null }>(
      'select last_used_at from api_keys where id = $1',
      [key.id],
    );
    expect(used?.last_used_at).not.toBeNull();
    const uses = await t.ownerQuery(
      `select 1 from audit_log where target = 'apikey:${key.id}' and action = 'apikey.use'`,
    );
    expect(uses).toHaveLength(1);
  });

  it('a key with the permission to add clients adds one in its own agency', async () => {
    const key = await createKey(admin, ['customer:list:view', 'customer:add']);
    const add = await asKey<{ id: number }>(key.secret, customerCreateCall.path, {
      qymc: '密钥新增测试有限公司',
      qysh: newUscc(),
    });
    expect(add.code, add.msg).toBe(CODE.OK);
    const [row] = await t.ownerQuery<{ agency_id: number }>('select agency_id from enterprises where id = $1', [
      add.data.id,
    ]);
    expect(row?.agency_id).toBe(1);
  });

  it("agency B's key cannot read agency A's clients (row-level security)", async () => {
    const key = await createKey(other, ['customer:list:view']);
    const own = await asKey<{ total: number }>(key.secret, customerListCall.path, { pageSize: 100 });
    expect(own.data.total).toBe(20);
    const foreign = await asKey(key.secret, customerDetailCall.path, { id: ENT.adminOwn });
    expect(foreign.code).toBe(CODE.NOT_FOUND);
  });

  it('cannot manage keys or webhooks, nor make calls about a person', async () => {
    const key = await createKey(admin, ['customer:list:view']);
    // Calls off the key allow-list (managing keys and webhooks, calls about a person): 460 with the message
    // saying a key never makes them (issue 26), whatever permissions the key holds.
    const refusedAsKey = (r: { status: number; code: number; msg: string }) =>
      expect([r.status, r.code, r.msg]).toEqual([460, CODE.NO_PERMISSION, APIKEY_MSG.keyRefused]);
    refusedAsKey(await asKey(key.secret, apiKeyListCall.path, {}));
    refusedAsKey(await asKey(key.secret, webhookListCall.path, {}));
    refusedAsKey(
      await asKey(key.secret, apiKeyCreateCall.path, { name: '套娃', perms: ['customer:list:view'], expiresOn: null }),
    );
    refusedAsKey(await asKey(key.secret, logoutCall.path, {}));
    refusedAsKey(
      await asKey(key.secret, changePasswordCall.path, { oldPassword: 'Demo@2026', newPassword: 'Abc@12345678' }),
    );
    // Nor can it be given those permissions: administrator-only and operator permissions are refused.
    for (const perm of ['agency:apikey:manage', 'agency:webhook:manage', 'platform:apply:review', '*:*:*']) {
      const r = await t.call(apiKeyCreateCall.path, { name: '越权', perms: [perm], expiresOn: null }, admin);
      expect(r.code).toBe(CODE.BAD_REQUEST);
      expect(r.msg).toBe(`权限：${APIKEY_MSG.permUnknown}`);
    }
  });

  it('a revoked key is refused at once with the 登录超时 envelope; unknown and expired keys too', async () => {
    const key = await createKey(admin, ['customer:list:view']);
    expect((await asKey(key.secret, customerListCall.path, {})).code).toBe(CODE.OK);
    ok(await t.call(apiKeyRevokeCall.path, { id: key.id }, admin));
    expectSignedOut(await asKey(key.secret, customerListCall.path, {}));
    const again = await t.call(apiKeyRevokeCall.path, { id: key.id }, admin);
    expect(again.msg).toBe(APIKEY_MSG.revoked);
    const audit = await t.ownerQuery(
      `select 1 from audit_log where target = 'apikey:${key.id}' and action = 'apikey.revoke'`,
    );
    expect(audit).toHaveLength(1);

    const unknown = `dzy_${'A'.repeat(43)}`;
    expectSignedOut(await asKey(unknown, customerListCall.path, {}));

    const old = await createKey(admin, ['customer:list:view']);
    await t.ownerQuery(`update api_keys set expires_at = now() - interval '1 minute' where id = ${old.id}`);
    expectSignedOut(await asKey(old.secret, customerListCall.path, {}));
    const listed = ok(await t.call<{ list: ApiKey[] }>(apiKeyListCall.path, { state: 'expired' }, admin));
    expect(listed.list.map((k) => k.id)).toContain(old.id);
  });

  it('another agency cannot revoke a key, and staff without the permission cannot manage keys', async () => {
    const key = await createKey(admin, ['customer:list:view']);
    const r = await t.call(apiKeyRevokeCall.path, { id: key.id }, other);
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect(r.msg).toBe(APIKEY_MSG.notFound);
    const [row] = await t.ownerQuery<{ revoked_at: Date | null }>('select revoked_at from api_keys where id = $1', [
      key.id,
    ]);
    expect(row?.revoked_at).toBeNull();
    expectNoPermission(await t.call(apiKeyListCall.path, {}, li));
    expectNoPermission(await t.call(apiKeyCreateCall.path, { name: 'x', perms: ['customer:list:view'] }, li));
    expectNoPermission(await t.call(apiKeyRevokeCall.path, { id: key.id }, li));
  });

  it('refuses bad input with a Chinese message', async () => {
    expectBadInput(
      await t.call(apiKeyCreateCall.path, { name: '', perms: ['customer:list:view'] }, admin),
      '名称',
      APIKEY_MSG.nameRequired,
    );
    expectBadInput(
      await t.call(apiKeyCreateCall.path, { name: '程序', perms: [] }, admin),
      '功能权限',
      APIKEY_MSG.permsRequired,
    );
    expectBadInput(
      await t.call(
        apiKeyCreateCall.path,
        { name: '程序', perms: ['customer:list:view'], expiresOn: '2020-01-01' },
        admin,
      ),
      '有效期',
      APIKEY_MSG.expiryBad,
    );
    expectBadInput(
      await t.call(apiKeyCreateCall.path, { name: '程序', perms: ['customer:list:view'], expiresOn: '明天' }, admin),
      '有效期',
      APIKEY_MSG.expiryBad,
    );
    // A day that does not exist is refused as bad input (it was a 500 once).
    expectBadInput(
      await t.call(
        apiKeyCreateCall.path,
        { name: '程序', perms: ['customer:list:view'], expiresOn: '2027-13-45' },
        admin,
      ),
      '有效期',
      APIKEY_MSG.expiryBad,
    );
  });

  it('/api/openapi.json lists every call and the file uploads as multipart, with the bearer scheme', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = res.json() as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
      components: { securitySchemes: Record<string, { scheme?: string }> };
    };
    expect(doc.components.securitySchemes.apiKey?.scheme).toBe('bearer');
    expect(doc.paths[`/api/${apiKeyCreateCall.path}`]?.post?.requestBody?.content['application/json']).toBeTruthy();
    const upload = doc.paths['/api/user/v1.0/userinfo/uploadIconInfo']?.post;
    expect(upload?.requestBody?.content['multipart/form-data']).toBeTruthy();
    const uploads = Object.values(doc.paths).filter((p) => p.post?.requestBody?.content['multipart/form-data']);
    expect(uploads.length).toBeGreaterThanOrEqual(5);
    expect(doc.paths['/api/files/avatar/{name}']?.get).toBeTruthy();
  });
});
