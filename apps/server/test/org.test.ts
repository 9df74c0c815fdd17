import {
  agencyUserRelationCall,
  CODE,
  DEFAULT_STAFF_PERMS,
  existsWhiteOrderCall,
  getCompartmentInfoCall,
  getOrgListCall,
  getQyBookCountInfoCall,
  judgeSwitchingButtonCall,
  needsLinkedAgency,
  type SessionInfo,
  sessionCall,
  sessionInfoSchema,
  updateSessionUserInfoCall,
} from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, inScope } from '../src/db/client.js';
import { organisations, users, whitelistOrders } from '../src/db/schema/index.js';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { addMember, provisionAgency } from '../src/modules/org/provision.js';
import { hashPassword } from '../src/plugins/password.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectSignedOut, expectUnknownField, registerBySms } from './helpers.js';

const DEMO = '演示财税代理有限公司';
const OTHER = '鸿信财务咨询有限公司';
const FACTORY = '启航会计工厂';
const KD = '云帆会计工厂代理有限公司';
const LONE_FACTORY = '独立记账会计工厂';
const KD_ADMIN = '13500000001';
const LONE_FACTORY_ADMIN = '13500000002';
const TWO_AGENCY_ADMIN = '13900000000';

const ids: Record<string, number> = {};

async function orgId(owner: Db, name: string) {
  const [o] = await owner.select({ id: organisations.id }).from(organisations).where(eq(organisations.name, name));
  if (!o) throw new Error(`no ${name}`);
  return o.id;
}
async function userId(owner: Db, phone: string) {
  const [u] = await owner.select({ id: users.id }).from(users).where(eq(users.phone, phone));
  if (!u) throw new Error(`no ${phone}`);
  return u.id;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      ids.demo = await orgId(owner, DEMO);
      ids.other = await orgId(owner, OTHER);
      ids.factory = await orgId(owner, FACTORY);
      // 张伟 also works for the second agency; 赵敏 of the factory is also staff of the demo agency.
      await addMember(owner, {
        agencyId: ids.other,
        orgId: ids.other,
        userId: await userId(owner, '13800000002'),
        role: 0,
      });
      await addMember(owner, {
        agencyId: ids.demo,
        orgId: ids.demo,
        userId: await userId(owner, '13700000000'),
        role: 0,
      });
      // 陈思远, administrator of the second agency, is an administrator of the demo agency too.
      await addMember(owner, {
        agencyId: ids.demo,
        orgId: ids.demo,
        userId: await userId(owner, TWO_AGENCY_ADMIN),
        role: 1,
      });
      const hash = await hashPassword(DEMO_PASSWORD);
      const [kdAdmin, loneAdmin] = await owner
        .insert(users)
        .values([
          { phone: KD_ADMIN, hymc: '孙悦', passwordHash: hash },
          { phone: LONE_FACTORY_ADMIN, hymc: '周航', passwordHash: hash },
        ])
        .returning({ id: users.id });
      const [kd, lone] = await owner
        .insert(organisations)
        .values([
          { orgType: 'kd', name: KD, taxNo: '91330100MA2KDKD001', sssf: '130000', ssds: '130100', ssqx: '130102' },
          {
            orgType: 'kjgc',
            name: LONE_FACTORY,
            taxNo: '91330100MA2LONE002',
            sssf: '330000',
            ssds: '330100',
            ssqx: '330106',
          },
        ])
        .returning({ id: organisations.id });
      if (!kd || !lone || !kdAdmin || !loneAdmin) throw new Error('fixtures');
      ids.kd = kd.id;
      ids.lone = lone.id;
      await provisionAgency(owner, kd.id, kdAdmin.id);
      await addMember(owner, { agencyId: lone.id, orgId: lone.id, userId: loneAdmin.id, role: 1 });
      await owner
        .insert(whitelistOrders)
        .values([
          { type: 'wsbsdt', busiVal: '330000' },
          { type: 'lbsjc', busiVal: String(ids.demo) },
          { type: 'lbsjc', busiVal: String(ids.other) },
        ])
        .onConflictDoNothing(); // the demo seed puts the demo agency on lbsjc already
    },
  });
});
afterAll(() => t.close());

type OrgList = {
  orgList: { id: number; orgName: string; orgTypeName: string; orgTax: string; orgType: string }[];
  dlsSl: number;
  kjgcSl: number;
};
const orgList = (cookie: string, orgName?: string) =>
  t.call<OrgList>(getOrgListCall.path, orgName === undefined ? {} : { orgName }, cookie);
const session = async (cookie: string) =>
  sessionInfoSchema.parse((await t.call<SessionInfo>(sessionCall.path, {}, cookie)).data);
const switchTo = (cookie: string, orgId: unknown) =>
  t.call<SessionInfo>(updateSessionUserInfoCall.path, { orgId }, cookie);

describe('getOrgList: the organisations of the signed-in user', () => {
  it('lists the one agency of its administrator with name, type name and tax number', async () => {
    const admin = await t.login('13800000000');
    const r = await orgList(admin);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toEqual({
      orgList: [
        {
          id: ids.demo,
          orgName: DEMO,
          orgTypeName: '代理机构',
          orgTax: expect.stringMatching(/^91330106/),
          orgType: 'dls',
        },
      ],
      dlsSl: 1,
      kjgcSl: 0,
    });
  });

  it('lists both agencies of a member of two, filtered by name or by tax number', async () => {
    const zhang = await t.login('13800000002');
    const all = await orgList(zhang);
    expect(all.data.orgList.map((o) => o.orgName)).toEqual([DEMO, OTHER]);
    expect(all.data.dlsSl).toBe(2);
    const byName = await orgList(zhang, '鸿信');
    expect(byName.data.orgList.map((o) => o.orgName)).toEqual([OTHER]);
    const byTax = await orgList(zhang, '91440300');
    expect(byTax.data.orgList.map((o) => o.orgName)).toEqual([OTHER]);
    const byLowerTax = await orgList(zhang, all.data.orgList[0]?.orgTax.slice(-6).toLowerCase());
    expect(byLowerTax.data.orgList.map((o) => o.orgName)).toEqual([DEMO]);
    const none = await orgList(zhang, '不存在的机构');
    expect(none.data).toEqual({ orgList: [], dlsSl: 2, kjgcSl: 0 });
  });

  it('counts a factory and an agency for the factory user who is also agency staff', async () => {
    const zhao = await t.login('13700000000');
    const r = await orgList(zhao);
    expect(r.data.orgList.map((o) => [o.orgName, o.orgTypeName])).toEqual([
      [FACTORY, '会计工厂'],
      [DEMO, '代理机构'],
    ]);
    expect([r.data.dlsSl, r.data.kjgcSl]).toEqual([1, 1]);
  });

  it('is empty for a user without an organisation', async () => {
    const fresh = await registerBySms(t, '13500000011');
    expect((await orgList(fresh)).data).toEqual({ orgList: [], dlsSl: 0, kjgcSl: 0 });
  });

  it('refuses a long search, unknown fields and callers without a session', async () => {
    const admin = await t.login('13800000000');
    expectBadInput(await orgList(admin, '机'.repeat(51)), '组织名称', '搜索内容不能超过50个字符');
    expectUnknownField(await t.call(getOrgListCall.path, { userId: 2 }, admin), 'userId');
    expectSignedOut(await t.call(getOrgListCall.path, {}));
  });
});

describe('updateSessionUserInfo: switching organisation', () => {
  it('moves a member of two agencies into the other one and back', async () => {
    const zhang = await t.login('13800000002');
    expect((await session(zhang)).orgName).toBe(DEMO);
    const r = await switchTo(zhang, ids.other);
    expect(r.code).toBe(CODE.OK);
    const info = sessionInfoSchema.parse(r.data);
    expect(info).toMatchObject({
      orgId: ids.other,
      orgName: OTHER,
      orgType: 'dls',
      isAdmin: '0',
      role: 0,
      kjgcDlsId: null,
    });
    // The member holds the default role of the agency switched to.
    expect([...info.perms].sort()).toEqual([...DEFAULT_STAFF_PERMS].sort());
    // The next request acts in the new organisation, with the same permissions.
    expect(await session(zhang)).toEqual(info);
    expect((await t.call<{ curQyCount: number }>(getQyBookCountInfoCall.path, {}, zhang)).data.curQyCount).toBe(20);
    // Another sign-in of the same user keeps its own organisation.
    expect((await session(await t.login('13800000002'))).orgName).toBe(DEMO);
    expect((await switchTo(zhang, ids.demo)).data).toMatchObject({ orgId: ids.demo, orgName: DEMO });
    expect((await session(zhang)).orgName).toBe(DEMO);
  });

  it("an administrator of two agencies sees the other agency's data after switching", async () => {
    const chen = await t.login(TWO_AGENCY_ADMIN);
    const counts = async () =>
      (await t.call<{ curQyCount: number }>(getQyBookCountInfoCall.path, {}, chen)).data.curQyCount;
    expect((await session(chen)).orgName).toBe(OTHER);
    expect(await counts()).toBe(20);
    expect((await switchTo(chen, ids.demo)).data).toMatchObject({ orgName: DEMO, isAdmin: '1', perms: ['*:*:*'] });
    expect(await counts()).toBe(60);
    await switchTo(chen, ids.other);
    expect(await counts()).toBe(20);
  });

  it('writes the switch to the audit log of the organisation switched to', async () => {
    const zhang = await t.login('13800000002');
    await switchTo(zhang, ids.other);
    const rows = await inScope(t.db.app, { agencyId: ids.other ?? 0, userId: null, kjgcId: null }, (tx) =>
      tx.execute(
        sql`select action, target, detail from audit_log where action = 'org.switch' order by id desc limit 1`,
      ),
    );
    expect((rows as unknown as { rows: unknown[] }).rows[0]).toMatchObject({
      action: 'org.switch',
      target: String(ids.other),
      detail: { from: ids.demo, to: ids.other },
    });
  });

  it('moves a factory user between the factory and the agency it is bound to', async () => {
    const zhao = await t.login('13700000000');
    expect(await session(zhao)).toMatchObject({ orgName: FACTORY, orgType: 'kjgc', kjgcDlsId: ids.demo });
    const r = await switchTo(zhao, ids.demo);
    expect(r.data).toMatchObject({ orgName: DEMO, orgType: 'dls', kjgcDlsId: null, isAdmin: '0' });
    expect(await session(zhao)).toMatchObject({ orgName: DEMO, orgType: 'dls', kjgcDlsId: null });
    expect((await switchTo(zhao, ids.factory)).data).toMatchObject({
      orgName: FACTORY,
      kjgcDlsId: ids.demo,
      isAdmin: '1',
    });
  });

  it('refuses an organisation the user is not a member of with 404 and leaves the session as it was', async () => {
    const admin = await t.login('13800000000');
    const before = await session(admin);
    for (const orgId of [ids.other, ids.factory, ids.kd, 999999]) {
      const r = await switchTo(admin, orgId);
      expect(r.status).toBe(404);
      expect(r.code).toBe(CODE.NOT_FOUND);
      expect(r.msg).toBe('组织不存在或您不是该组织成员');
    }
    expect(await session(admin)).toEqual(before);
    expect((await t.call<{ curQyCount: number }>(getQyBookCountInfoCall.path, {}, admin)).data.curQyCount).toBe(60);
  });

  it('refuses bad input and callers without a session', async () => {
    const admin = await t.login('13800000000');
    expectBadInput(await switchTo(admin, 'abc'), '组织ID', '请选择组织');
    expectBadInput(await t.call(updateSessionUserInfoCall.path, {}, admin), '组织ID', '请选择组织');
    expectBadInput(await switchTo(admin, 0), '组织ID', '请选择组织');
    expectUnknownField(await t.call(updateSessionUserInfoCall.path, { orgId: ids.demo, userId: 1 }, admin), 'userId');
    expectSignedOut(await switchTo('dzy_session=forged', ids.demo));
  });
});

type Judge = { show: boolean; targetOrgId: number | null; targetName: string | null };
const judge = (cookie: string) => t.call<Judge>(judgeSwitchingButtonCall.path, {}, cookie);

describe('judgeSwitchingButton: the identity switch', () => {
  it('is hidden for a user who is only in an agency', async () => {
    expect((await judge(await t.login('13800000000'))).data).toEqual({
      show: false,
      targetOrgId: null,
      targetName: null,
    });
    expect((await judge(await t.login('13800000002'))).data.show).toBe(false);
  });

  it('offers the bound agency to a factory user who is also its staff, and back', async () => {
    const zhao = await t.login('13700000000');
    expect((await judge(zhao)).data).toEqual({ show: true, targetOrgId: ids.demo, targetName: DEMO });
    await switchTo(zhao, ids.demo);
    expect((await judge(zhao)).data).toEqual({ show: true, targetOrgId: ids.factory, targetName: FACTORY });
  });

  it('is always shown in a kd agency, without a target when the user has no factory', async () => {
    expect((await judge(await t.login(KD_ADMIN))).data).toEqual({ show: true, targetOrgId: null, targetName: null });
  });

  it('is hidden without an organisation; refuses unknown fields and callers without a session', async () => {
    const fresh = await registerBySms(t, '13500000012');
    expect((await judge(fresh)).data.show).toBe(false);
    expectUnknownField(await t.call(judgeSwitchingButtonCall.path, { orgType: 'kd' }, fresh), 'orgType');
    expectSignedOut(await t.call(judgeSwitchingButtonCall.path, {}));
  });
});

type Relation = {
  isAdmin: string;
  isAgency: string;
  agencyApplyStatus: number | null;
  agencyInfo: { id: number; agency_name: string; sssf: string } | null;
};
const relation = (cookie: string) => t.call<Relation>(agencyUserRelationCall.path, {}, cookie);

describe('agencyUserRelation', () => {
  it('tells an administrator of an agency about the agency', async () => {
    const r = await relation(await t.login('13800000000'));
    expect(r.data).toEqual({
      isAdmin: '1',
      isAgency: '1',
      agencyApplyStatus: null,
      agencyInfo: {
        id: ids.demo,
        agency_name: DEMO,
        agency_tax: expect.any(String),
        org_type: 'dls',
        sssf: '330000',
        ssds: '330100',
        ssqx: '330106',
      },
    });
  });

  it('gives a factory user the agency the factory is bound to', async () => {
    const r = await relation(await t.login('13700000000'));
    expect(r.data).toMatchObject({ isAdmin: '1', isAgency: '0', agencyInfo: { id: ids.demo, agency_name: DEMO } });
  });

  it('is empty for a user without an organisation; refuses callers without a session', async () => {
    const fresh = await registerBySms(t, '13500000013');
    expect((await relation(fresh)).data).toEqual({
      isAdmin: '0',
      isAgency: '0',
      agencyApplyStatus: null,
      agencyInfo: null,
    });
    expectUnknownField(await t.call(agencyUserRelationCall.path, { userId: 1 }, fresh), 'userId');
    expectSignedOut(await t.call(agencyUserRelationCall.path, {}));
  });
});

describe('a factory not bound to an agency', () => {
  it('has no agency in its session, so declaration and account pages are refused', async () => {
    const lone = await t.login(LONE_FACTORY_ADMIN);
    const info = await session(lone);
    expect(info).toMatchObject({ orgName: LONE_FACTORY, orgType: 'kjgc', kjgcDlsId: null });
    expect(needsLinkedAgency(info, '/declare/bssz')).toBe(true);
    expect(needsLinkedAgency(info, '/dashboard')).toBe(false);
    expect(needsLinkedAgency(await session(await t.login('13700000000')), '/declare/bssz')).toBe(false);
  });
});

type Regions = { dataType: number; dataArray: { code: string; name: string }[] };
const regions = (cookie: string | undefined, body: unknown) =>
  t.call<Regions>(getCompartmentInfoCall.path, body, cookie);

describe('getCompartmentInfo: provinces, cities and districts', () => {
  let cookie = '';
  beforeAll(async () => {
    cookie = await registerBySms(t, '13500000014');
  });

  it('lists the 31 provinces with 6-digit codes', async () => {
    const r = await regions(cookie, { dataType: 1 });
    expect(r.data.dataType).toBe(1);
    expect(r.data.dataArray).toHaveLength(31);
    expect(r.data.dataArray).toContainEqual({ code: '130000', name: '河北省' });
    expect(r.data.dataArray.every((p) => /^\d{2}0000$/.test(p.code))).toBe(true);
  });

  it('lists the cities of a province and the districts of a city', async () => {
    const cities = await regions(cookie, { dataType: 2, parentCode: '330000' });
    expect(cities.data.dataArray).toContainEqual({ code: '330100', name: '杭州市' });
    expect(cities.data.dataArray.every((c) => c.code.startsWith('33') && c.code.endsWith('00'))).toBe(true);
    const districts = await regions(cookie, { dataType: 3, parentCode: '330100' });
    expect(districts.data).toMatchObject({ dataType: 3 });
    expect(districts.data.dataArray).toContainEqual({ code: '330106', name: '西湖区' });
  });

  it('offers a city without districts as its own district', async () => {
    const r = await regions(cookie, { dataType: 3, parentCode: '441900' });
    expect(r.data.dataArray).toEqual([{ code: '441900', name: '东莞市' }]);
  });

  it('refuses a bad level, a missing or unknown parent, and callers without a session', async () => {
    expectBadInput(await regions(cookie, { dataType: 4 }), '地区级别', '请选择地区级别（1省 2市 3区县）');
    expectBadInput(await regions(cookie, { dataType: 2 }), '上级地区编码', '请选择上级地区');
    expectBadInput(await regions(cookie, { dataType: 2, parentCode: '33' }), '上级地区编码', '地区编码为6位数字');
    const unknown = await regions(cookie, { dataType: 3, parentCode: '999999' });
    expect([unknown.status, unknown.code, unknown.msg]).toEqual([404, CODE.NOT_FOUND, '地区不存在，请重新选择']);
    expectSignedOut(await regions(undefined, { dataType: 1 }));
  });
});

const exists = (cookie: string | undefined, type: string, busiVal: string) =>
  t.call<{ exists: boolean }>(existsWhiteOrderCall.path, { type, busiVal }, cookie);

describe('existsByTypeAndBusiVal: white-list orders of the own agency or province', () => {
  it('answers for the own province and the own agency id', async () => {
    const admin = await t.login('13800000000');
    expect((await exists(admin, 'wsbsdt', '330000')).data).toEqual({ exists: true });
    expect((await exists(admin, 'lbsjc', String(ids.demo))).data).toEqual({ exists: true });
    expect((await exists(admin, 'kxdlmmjy', String(ids.demo))).data).toEqual({ exists: false });
    expect((await exists(admin, 'dljghdkjgcmenu', '330000')).data).toEqual({ exists: false });
  });

  it('a factory user asks with the agency it is bound to', async () => {
    const zhao = await t.login('13700000000');
    expect((await exists(zhao, 'lbsjc', String(ids.demo))).data.exists).toBe(true);
  });

  it("refuses another agency's id or province with 404", async () => {
    const admin = await t.login('13800000000');
    for (const busiVal of [String(ids.other), '440000', String(ids.factory), 'x']) {
      const r = await exists(admin, 'lbsjc', busiVal);
      expect([r.status, r.code], busiVal).toEqual([404, CODE.NOT_FOUND]);
    }
    const fresh = await registerBySms(t, '13500000015');
    expect((await exists(fresh, 'wsbsdt', '330000')).code).toBe(CODE.NOT_FOUND);
  });

  it('refuses a bad type, an empty value and callers without a session', async () => {
    const admin = await t.login('13800000000');
    expectBadInput(
      await exists(admin, 'abc', '330000'),
      '类型',
      '白名单类型须为 lbsjc、dljghdkjgcmenu、wsbsdt 或 kxdlmmjy',
    );
    expectBadInput(await exists(admin, 'wsbsdt', ' '), '业务值', '请输入业务值');
    expectSignedOut(await exists(undefined, 'wsbsdt', '330000'));
  });
});
