import {
  BRAND_MSG,
  type BrandAdminItem,
  brandAssignCall,
  brandDeleteCall,
  brandListCall,
  brandSaveCall,
  CODE,
  getZtByFwsidCall,
  MSG,
  urlAndJsConfigCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_HOTLINE } from '../src/modules/brand/brand.routes.js';
import { ADMIN, FACTORY, OTHER_ADMIN, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

const OPERATOR = '13600000000';
let t: TestApp;
const c = { admin: '', zhang: '', other: '', factory: '', op: '' };
const org = { demo: 0, other: 0, factory: 0 };

beforeAll(async () => {
  t = await startTestApp();
  c.admin = await t.login(ADMIN);
  c.zhang = await t.login(ZHANG);
  c.other = await t.login(OTHER_ADMIN);
  c.factory = await t.login(FACTORY);
  c.op = await t.login(OPERATOR);
  const rows = await t.ownerQuery<{ id: number; name: string }>('select id, name from organisations');
  const id = (name: string) => rows.find((r) => r.name === name)?.id ?? 0;
  org.demo = id('演示财税代理有限公司');
  org.other = id('鸿信财务咨询有限公司');
  org.factory = id('启航会计工厂');
}, 240_000);
afterAll(() => t?.close());

const PARTNER = {
  fwsid: 'hx-partner',
  name: '华夏财税服务',
  primaryColor: '#AA3300',
  loginTitle: '华夏财税 · 代账云',
  hotline: '400-123-4567',
};

async function save(body: Record<string, unknown>, cookie = c.op) {
  return t.call<{ id: number }>(brandSaveCall.path, body, cookie);
}
async function list(body: Record<string, unknown> = {}) {
  const r = await t.call<{ list: BrandAdminItem[]; total: number }>(
    brandListCall.path,
    { pageSize: 100, ...body },
    c.op,
  );
  expect(r.code).toBe(CODE.OK);
  return r.data;
}

/** The smallest PNG: signature, IHDR, IEND. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ff3f0000050001a5f645400000000049454e44ae426082',
  'hex',
);
function multipart(name: string, bytes: Buffer) {
  const boundary = '----dzybrand';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}
async function upload(cookie: string, bytes: Buffer) {
  const { payload, contentType } = multipart('logo.png', bytes);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/brand/uploadLogo',
    headers: { cookie, 'content-type': contentType },
    payload,
  });
  return res.json() as { code: number; msg: string; data: { file: string; url: string } };
}

describe('服务商品牌: the operator manages providers', () => {
  it('refuses bad input with the Chinese message, and nothing is stored', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...PARTNER, fwsid: 'A!' }, BRAND_MSG.fwsidBad],
      [{ ...PARTNER, fwsid: 'x' }, BRAND_MSG.fwsidBad],
      [{ ...PARTNER, name: '  ' }, BRAND_MSG.nameRequired],
      [{ ...PARTNER, primaryColor: 'red' }, BRAND_MSG.colorBad],
      [{ ...PARTNER, hotline: '客服电话' }, BRAND_MSG.hotlineBad],
      [{ ...PARTNER, logoFile: '../../etc/passwd' }, BRAND_MSG.logoBad],
    ];
    for (const [body, msg] of cases) {
      const r = await save(body);
      expect(r.code, JSON.stringify(body)).toBe(CODE.BAD_REQUEST);
      expect(r.msg).toContain(msg);
    }
    expect((await list()).total).toBe(0);
  });

  it('refuses a member of an agency, even its administrator', async () => {
    for (const cookie of [c.admin, c.zhang, c.other, c.factory]) {
      const r = await save(PARTNER, cookie);
      expect(r.code).toBe(CODE.NO_PERMISSION);
      expect(r.msg).toBe(MSG.noPermission);
      expect((await t.call(brandListCall.path, {}, cookie)).code).toBe(CODE.NO_PERMISSION);
    }
    expect((await list()).total).toBe(0);
  });

  it('creates a provider (colour in lower case), lists it, and refuses a second with the same fwsid', async () => {
    const r = await save(PARTNER);
    expect(r.code).toBe(CODE.OK);
    const [item] = (await list()).list;
    expect(item).toMatchObject({ fwsid: 'hx-partner', name: '华夏财税服务', primaryColor: '#aa3300', agencyCount: 0 });
    const dup = await save({ ...PARTNER, fwsid: 'HX-Partner', name: '另一家' });
    expect(dup.code).toBe(CODE.BAD_REQUEST);
    expect(dup.msg).toBe(BRAND_MSG.fwsidTaken);
    expect((await list({ keyword: '华夏' })).total).toBe(1);
    expect((await list({ keyword: '不存在' })).total).toBe(0);
    const audit = await t.ownerQuery<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'brand.create' and target = 'hx-partner'`,
    );
    expect(Number(audit[0]?.n)).toBe(1);
  });
});

describe('/login/{fwsid}: the brand before sign-in', () => {
  it('serves the brand to anyone by fwsid, the platform default for an unknown one', async () => {
    const r = await t.call(getZtByFwsidCall.path, { fwsid: 'hx-partner' });
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({ fwsid: 'hx-partner', name: '华夏财税服务', hotline: '400-123-4567' });
    const none = await t.call(getZtByFwsidCall.path, { fwsid: 'nobody' });
    expect(none.code).toBe(CODE.OK);
    expect(none.data).toBeNull();

    const cfg = await t.call<{ brand: { name: string } | null; hotline: string; thirdProviders: { id: string }[] }>(
      urlAndJsConfigCall.path,
      { fwsid: 'hx-partner' },
    );
    expect(cfg.data.brand?.name).toBe('华夏财税服务');
    expect(cfg.data.hotline).toBe('400-123-4567');
    expect(cfg.data.thirdProviders.map((p) => p.id)).toContain('dev');
    const plain = await t.call<{ brand: null; hotline: string }>(urlAndJsConfigCall.path, {});
    expect(plain.data).toMatchObject({ brand: null, hotline: PLATFORM_HOTLINE });
  });

  it('a switched-off provider shows the platform default', async () => {
    const [item] = (await list()).list;
    expect((await save({ ...PARTNER, id: item?.id, enabled: false })).code).toBe(CODE.OK);
    expect((await t.call(getZtByFwsidCall.path, { fwsid: 'hx-partner' })).data).toBeNull();
    expect((await save({ ...PARTNER, id: item?.id, enabled: true })).code).toBe(CODE.OK);
  });

  it('refuses a malformed fwsid in the body', async () => {
    const r = await t.call(getZtByFwsidCall.path, { fwsid: 'x'.repeat(40) });
    expect(r.code).toBe(CODE.BAD_REQUEST);
  });
});

describe('after sign-in: the agency’s provider', () => {
  it('an agency the operator assigned sees its provider’s brand; another agency sees the default', async () => {
    const [item] = (await list()).list;
    const r = await t.call(brandAssignCall.path, { agencyId: org.demo, providerId: item?.id }, c.op);
    expect(r.code).toBe(CODE.OK);
    for (const cookie of [c.admin, c.zhang, c.factory]) {
      expect((await t.call<{ name: string }>(getZtByFwsidCall.path, {}, cookie)).data?.name).toBe('华夏财税服务');
    }
    expect((await t.call(getZtByFwsidCall.path, {}, c.other)).data).toBeNull();
    expect((await list()).list[0]?.agencyCount).toBe(1);
  });

  it('refuses an unknown agency, an accounting factory, an unknown provider and a non-operator', async () => {
    const [item] = (await list()).list;
    const unknown = await t.call(brandAssignCall.path, { agencyId: 999_999, providerId: item?.id }, c.op);
    expect(unknown.code).toBe(CODE.NOT_FOUND);
    const factory = await t.call(brandAssignCall.path, { agencyId: org.factory, providerId: item?.id }, c.op);
    expect(factory.code).toBe(CODE.NOT_FOUND);
    const noProvider = await t.call(brandAssignCall.path, { agencyId: org.other, providerId: 999_999 }, c.op);
    expect(noProvider.code).toBe(CODE.NOT_FOUND);
    const member = await t.call(brandAssignCall.path, { agencyId: org.other, providerId: item?.id }, c.other);
    expect(member.code).toBe(CODE.NO_PERMISSION);
    expect((await t.call(getZtByFwsidCall.path, {}, c.other)).data).toBeNull();
  });

  it('a provider in use cannot be deleted; once no agency uses it, it can', async () => {
    const [item] = (await list()).list;
    const inUse = await t.call(brandDeleteCall.path, { id: item?.id }, c.op);
    expect(inUse.code).toBe(CODE.BAD_REQUEST);
    expect(inUse.msg).toBe(BRAND_MSG.inUse(1));
    expect((await t.call(brandAssignCall.path, { agencyId: org.demo, providerId: null }, c.op)).code).toBe(CODE.OK);
    expect((await t.call(getZtByFwsidCall.path, {}, c.admin)).data).toBeNull();
    expect((await t.call(brandDeleteCall.path, { id: item?.id }, c.admin)).code).toBe(CODE.NO_PERMISSION);
    expect((await t.call(brandDeleteCall.path, { id: item?.id }, c.op)).code).toBe(CODE.OK);
    expect((await t.call(brandDeleteCall.path, { id: item?.id }, c.op)).code).toBe(CODE.NOT_FOUND);
    expect((await list()).total).toBe(0);
  });
});

describe('the logo', () => {
  it('the operator uploads a PNG, it is served before sign-in, and brand/save keeps its name', async () => {
    const up = await upload(c.op, PNG);
    expect(up.code).toBe(CODE.OK);
    expect(up.data.file).toMatch(/^[0-9a-f]{32}\.png$/);
    const file = await t.app.inject({ method: 'GET', url: up.data.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(file.rawPayload, PNG)).toBe(0);
    expect((await save({ ...PARTNER, fwsid: 'logo-co', logoFile: up.data.file })).code).toBe(CODE.OK);
    const brand = await t.call<{ logoUrl: string }>(getZtByFwsidCall.path, { fwsid: 'logo-co' });
    expect(brand.data.logoUrl).toBe(up.data.url);
  });

  it('refuses a member, a file that is not an image, and a name it did not make', async () => {
    expect((await upload(c.admin, PNG)).code).toBe(CODE.NO_PERMISSION);
    const notImage = await upload(c.op, Buffer.from('<svg onload="alert(1)"></svg>'));
    expect(notImage.code).toBe(CODE.BAD_REQUEST);
    expect(notImage.msg).toBe(BRAND_MSG.logoType);
    const bad = await t.app.inject({ method: 'GET', url: '/api/files/brand/..%2F..%2Fsecret.key' });
    expect(bad.statusCode).toBe(404);
  });
});
