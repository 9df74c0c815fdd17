import {
  ACCOUNT_MSG,
  type AgencyAccount,
  accountListCall,
  agencyEquityCall,
  type BenefitGrant,
  CODE,
  chinaToday,
  grantListCall,
  MSG,
  setting365SaveZhztCall,
  settingSaveZhztByAgencyIdCall,
  settingSaveZhztCall,
  zhztInfoCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshBenefitStatus } from '../src/modules/account-status/account-status.routes.js';
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

const day = (offset: number) => {
  const d = new Date(`${chinaToday()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};
const info = async (cookie: string) => {
  const r = await t.call<AgencyAccount>(zhztInfoCall.path, {}, cookie);
  expect(r.code).toBe(CODE.OK);
  return r.data;
};
const grant = (body: Record<string, unknown>, cookie = c.op) =>
  t.call<AgencyAccount>(
    settingSaveZhztByAgencyIdCall.path,
    { agencyId: org.demo, plan: 'standard', expiresOn: day(365), clientCount: 100, ...body },
    cookie,
  );
const orgRow = async (id: number) =>
  (
    await t.ownerQuery<{ qyzt: string; licence_customers: number | null; sfgxbzts: string }>(
      `select qyzt, licence_customers, sfgxbzts from organisations where id = ${id}`,
    )
  )[0];

describe('账户状态: what the agency sees', () => {
  it('the demo plans behind the demo statuses, its clients counted, its own agency only', async () => {
    const mine = await info(c.admin);
    expect(mine).toMatchObject({
      agencyId: org.demo,
      plan: 'standard',
      planLabel: '标准版',
      expiresOn: day(-30),
      daysLeft: -30,
      qyzt: '3',
      qyztLabel: '已到期',
      clientsUsed: 60,
      remindDays: 30,
    });
    expect((await info(c.zhang)).agencyId).toBe(org.demo);
    const theirs = await info(c.other);
    expect(theirs).toMatchObject({
      agencyId: org.other,
      planLabel: '专业版',
      daysLeft: 10,
      qyzt: '2',
      clientsUsed: 20,
    });
  });

  it('settingSaveZhzt: only the administrator, with valid reminder days', async () => {
    const member = await t.call(settingSaveZhztCall.path, { remindDays: 15, sfgxbzts: '1' }, c.zhang);
    expect(member.code).toBe(CODE.NO_PERMISSION);
    expect(member.msg).toBe(ACCOUNT_MSG.adminOnly);
    const factory = await t.call(settingSaveZhztCall.path, { remindDays: 15, sfgxbzts: '1' }, c.factory);
    expect(factory.code).toBe(CODE.NO_PERMISSION);
    for (const remindDays of [0, 91, 1.5]) {
      const bad = await t.call(settingSaveZhztCall.path, { remindDays, sfgxbzts: '0' }, c.admin);
      expect(bad.code).toBe(CODE.BAD_REQUEST);
      expect(bad.msg).toContain(ACCOUNT_MSG.remindBad);
    }
    const ok = await t.call<AgencyAccount>(settingSaveZhztCall.path, { remindDays: 15, sfgxbzts: '1' }, c.admin);
    expect(ok.code).toBe(CODE.OK);
    expect(ok.data).toMatchObject({ remindDays: 15, sfgxbzts: '1' });
    expect((await orgRow(org.demo))?.sfgxbzts).toBe('1');
    expect((await info(c.other)).remindDays).toBe(30);
  });
});

describe('机构权益: the operator grants and extends plans', () => {
  it('refuses a member of an agency', async () => {
    for (const cookie of [c.admin, c.other, c.zhang]) {
      const r = await grant({}, cookie);
      expect(r.code).toBe(CODE.NO_PERMISSION);
      expect(r.msg).toBe(MSG.noPermission);
      expect((await t.call(accountListCall.path, {}, cookie)).code).toBe(CODE.NO_PERMISSION);
      expect((await t.call(setting365SaveZhztCall.path, { agencyId: org.demo, service365: '1' }, cookie)).code).toBe(
        CODE.NO_PERMISSION,
      );
    }
    expect((await info(c.admin)).plan).toBe('standard');
    expect(await t.ownerQuery('select 1 from benefit_grants')).toHaveLength(0);
  });

  it('refuses bad input in Chinese, an unknown agency and an accounting factory', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ plan: 'gold' }, ACCOUNT_MSG.planRequired],
      [{ expiresOn: '2026-02-30' }, ACCOUNT_MSG.dateBad],
      [{ startsOn: day(10), expiresOn: day(5) }, ACCOUNT_MSG.expiresBeforeStart],
      [{ expiresOn: day(-1) }, ACCOUNT_MSG.expiresPast],
      [{ clientCount: -1 }, ACCOUNT_MSG.clientsBad],
      [{ clientCount: 10 }, ACCOUNT_MSG.clientsBelowUsed(60)],
    ];
    for (const [body, msg] of cases) {
      const r = await grant(body);
      expect(r.code, JSON.stringify(body)).toBe(CODE.BAD_REQUEST);
      expect(r.msg).toContain(msg);
    }
    expect((await grant({ agencyId: 999_999 })).code).toBe(CODE.NOT_FOUND);
    expect((await grant({ agencyId: org.factory })).code).toBe(CODE.NOT_FOUND);
    const grants = await t.ownerQuery<{ n: number }>('select count(*)::int as n from benefit_grants');
    expect(Number(grants[0]?.n)).toBe(0);
  });

  it('a year of 标准版 for 100 clients: active, the licence the client book enforces, reminded again', async () => {
    const r = await grant({ remark: '年度续费' });
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({ plan: 'standard', planLabel: '标准版', qyzt: '1', clientCount: 100, daysLeft: 365 });
    expect(await orgRow(org.demo)).toMatchObject({ qyzt: '1', licence_customers: 100, sfgxbzts: '0' });
    const mine = await info(c.admin);
    expect(mine).toMatchObject({ plan: 'standard', expiresOn: day(365), startsOn: chinaToday(), clientsUsed: 60 });
    expect((await info(c.other)).plan).toBe('pro');
    const history = await t.call<BenefitGrant[]>(grantListCall.path, { agencyId: org.demo }, c.op);
    expect(history.data).toHaveLength(1);
    expect(history.data[0]).toMatchObject({ planLabel: '标准版', remark: '年度续费', clientCount: 100 });
    const audit = await t.ownerQuery<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'account.benefit_grant' and target = 'agency:${org.demo}'`,
    );
    expect(Number(audit[0]?.n)).toBe(1);
  });

  it('an expiry within the reminder days is 即将到期, and the benefit dialog follows', async () => {
    const r = await grant({ plan: 'pro', expiresOn: day(10) });
    expect(r.data).toMatchObject({ qyzt: '2', qyztLabel: '即将到期', planLabel: '专业版' });
    const eq = await t.call<{ qyzt: string }>(agencyEquityCall.path, {}, c.admin);
    expect(eq.data.qyzt).toBe('2');
  });

  it('once the expiry has passed the status reads 已到期, in the book too', async () => {
    await t.ownerQuery(`update agency_accounts set expires_on = '${day(-1)}' where agency_id = ${org.demo}`);
    // The daily sweep turns it, without anyone opening the account page first.
    expect(await refreshBenefitStatus(t.db, chinaToday())).toBe(1);
    expect(await refreshBenefitStatus(t.db, chinaToday())).toBe(0);
    expect((await orgRow(org.demo))?.qyzt).toBe('3');
    const eq = await t.call<{ qyzt: string }>(agencyEquityCall.path, {}, c.admin);
    expect(eq.data.qyzt).toBe('3');
    const mine = await info(c.admin);
    expect(mine).toMatchObject({ qyzt: '3', qyztLabel: '已到期', daysLeft: -1 });
    // Extended: active again.
    expect((await grant({ expiresOn: day(400) })).data.qyzt).toBe('1');
    const history = await t.call<BenefitGrant[]>(grantListCall.path, { agencyId: org.demo }, c.op);
    expect(history.data.map((g) => g.planLabel)).toEqual(['标准版', '专业版', '标准版']);
  });

  it('365基础服务 on with an expiry, then off', async () => {
    const on = await t.call<AgencyAccount>(
      setting365SaveZhztCall.path,
      { agencyId: org.other, service365: '1', expiresOn: day(30) },
      c.op,
    );
    expect(on.code).toBe(CODE.OK);
    expect(on.data).toMatchObject({ service365: '1', service365ExpiresOn: day(30) });
    expect((await info(c.other)).service365).toBe('1');
    const bad = await t.call(setting365SaveZhztCall.path, { agencyId: org.other, service365: '2' }, c.op);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    const off = await t.call<AgencyAccount>(
      setting365SaveZhztCall.path,
      { agencyId: org.other, service365: '0' },
      c.op,
    );
    expect(off.data).toMatchObject({ service365: '0', service365ExpiresOn: null });
    expect((await t.call(setting365SaveZhztCall.path, { agencyId: org.factory, service365: '1' }, c.op)).code).toBe(
      CODE.NOT_FOUND,
    );
  });

  it('the operator’s list: every agency (no factory) with authorised and used clients, searchable', async () => {
    const r = await t.call<{ list: (AgencyAccount & { id: number })[]; total: number }>(
      accountListCall.path,
      { pageSize: 100 },
      c.op,
    );
    expect(r.code).toBe(CODE.OK);
    const names = r.data.list.map((a) => a.agencyName);
    expect(names).toContain('演示财税代理有限公司');
    expect(names).toContain('鸿信财务咨询有限公司');
    expect(names).not.toContain('启航会计工厂');
    const demo = r.data.list.find((a) => a.agencyId === org.demo);
    expect(demo).toMatchObject({ clientsUsed: 60, clientCount: 100, planLabel: '标准版' });
    expect(r.data.list.find((a) => a.agencyId === org.other)?.clientsUsed).toBe(20);
    const found = await t.call<{ total: number }>(accountListCall.path, { keyword: '鸿信' }, c.op);
    expect(found.data.total).toBe(1);
  });
});
