import {
  type AgencyAccount,
  brandAssignCall,
  CODE,
  chinaToday,
  etaxGrantCall,
  helperRedeemCall,
  SERVICE365_OFF_MSG,
  service365StatusCall,
  setting365SaveZhztCall,
  zhztInfoCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, create, OTHER_ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

const OPERATOR = '13600000000';
let t: TestApp;
const c = { admin: '', other: '', op: '' };
let agency = 0;
let entId = 0;

beforeAll(async () => {
  t = await startTestApp();
  [c.admin, c.other, c.op] = await Promise.all([t.login(ADMIN), t.login(OTHER_ADMIN), t.login(OPERATOR)]);
  const [row] = await t.ownerQuery<{ id: number }>(`select id from organisations where name = '演示财税代理有限公司'`);
  agency = row?.id ?? 0;
  const made = await create(t, c.admin, {
    qymc: '杭州三六五测试有限公司',
    credentials: { xdzswj_dlzh: '13312345678', xdzswj_pass: 'Etax#Pass1', xdzswj_sfbm: '3', login_type: '0' },
  });
  entId = made.data.id;
}, 240_000);
afterAll(() => t?.close());

const day = (offset: number) => {
  const d = new Date(`${chinaToday()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};
const status = async (cookie: string) =>
  (await t.call<{ active: boolean; expiresOn: string | null; msg: string }>(service365StatusCall.path, {}, cookie))
    .data;
const grant = () => t.call<{ grant: string }>(etaxGrantCall.path, { aeiId: entId }, c.admin);
const set365 = (service365: '0' | '1', expiresOn: string | null = null) =>
  t.call<AgencyAccount>(setting365SaveZhztCall.path, { agencyId: agency, service365, expiresOn }, c.op);

describe('365基础服务 gates the helper', () => {
  it('an agency the operator never set keeps the helper, even with an account row made for a provider', async () => {
    expect(await status(c.admin)).toEqual({ active: true, expiresOn: null, msg: '' });
    // Assigning a provider makes the account row; that alone must not switch the helper off.
    expect((await t.call(brandAssignCall.path, { agencyId: agency, providerId: null }, c.op)).code).toBe(CODE.OK);
    const [acc] = await t.ownerQuery<{ service365: string }>(
      'select service365 from agency_accounts where agency_id = $1',
      [agency],
    );
    expect(acc?.service365).toBe('');
    expect((await t.call<AgencyAccount>(zhztInfoCall.path, {}, c.admin)).data.service365Active).toBe(true);
    expect((await grant()).code).toBe(CODE.OK);
  });

  it('switched off by the operator: the e-tax login grant is refused with the message, and the status says so', async () => {
    expect((await set365('0')).data).toMatchObject({ service365: '0', service365Active: false });
    const r = await grant();
    expect(r.code).toBe(CODE.NO_PERMISSION);
    expect(r.msg).toBe(SERVICE365_OFF_MSG);
    expect(r.msg).toBe('365基础服务未开通或已到期，请联系服务商');
    expect(await status(c.admin)).toEqual({ active: false, expiresOn: null, msg: SERVICE365_OFF_MSG });
    // Another agency is not affected.
    expect((await status(c.other)).active).toBe(true);
  });

  it('on until its expiry (inclusive); the day after, refused again', async () => {
    expect((await set365('1', day(0))).data.service365Active).toBe(true);
    expect((await grant()).code).toBe(CODE.OK);
    expect(await status(c.admin)).toEqual({ active: true, expiresOn: day(0), msg: '' });
    await t.ownerQuery('update agency_accounts set service365_expires_on = $1 where agency_id = $2', [day(-1), agency]);
    expect((await t.call<AgencyAccount>(zhztInfoCall.path, {}, c.admin)).data.service365Active).toBe(false);
    const r = await grant();
    expect([r.code, r.msg]).toEqual([CODE.NO_PERMISSION, SERVICE365_OFF_MSG]);
  });

  it('a grant made while on is not redeemed by the helper once the service is off', async () => {
    expect((await set365('1', day(30))).code).toBe(CODE.OK);
    const g = await grant();
    expect(g.code).toBe(CODE.OK);
    expect((await set365('0')).code).toBe(CODE.OK);
    const r = await t.call(helperRedeemCall.path, { grant: g.data.grant });
    expect([r.code, r.msg]).toEqual([CODE.NO_PERMISSION, SERVICE365_OFF_MSG]);
    const [row] = await t.ownerQuery<{ redeemed: boolean }>(
      'select redeemed_at is not null as redeemed from etax_login_grants where enterprise_id = $1 order by expires_at desc limit 1',
      [entId],
    );
    expect(row?.redeemed).toBe(false);
  });
});
