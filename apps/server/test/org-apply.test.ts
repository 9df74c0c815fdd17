import {
  AGENCY_APPLY_OK_MSG,
  AGENCY_APPLY_PENDING_MSG,
  AGENCY_NAME_TAKEN_MSG,
  type AgencyApplyItem,
  type AgencyInfo,
  agencyApplyCall,
  agencyUserRelationCall,
  approveAgencyApplyCall,
  CODE,
  changePasswordCall,
  deleteWhiteOrderCall,
  existsWhiteOrderCall,
  getAgencyInfoCall,
  getOrgListCall,
  getRoutersCall,
  listAgencyApplyCall,
  listWhiteOrderCall,
  rejectAgencyApplyCall,
  type SessionInfo,
  saveWhiteOrderCall,
  selectPersonalAgencyInfoCall,
  sessionCall,
  updateAgencyInfoCall,
  type WhiteOrderItem,
} from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { organisations } from '../src/db/schema/index.js';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { startTestApp, type TestApp } from './harness.js';
import {
  expectBadInput,
  expectNoPermission,
  expectSignedOut,
  expectUnknownField,
  outboxFor,
  registerBySms,
} from './helpers.js';

const DEMO = '演示财税代理有限公司';
const OPERATOR = '13600000000';
const ids: Record<string, number> = {};

let t: TestApp;
let operator = '';
let admin = '';
let staff = '';
let otherAdmin = '';
let factory = '';
beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      for (const [key, name] of [
        ['demo', DEMO],
        ['other', '鸿信财务咨询有限公司'],
        ['factory', '启航会计工厂'],
      ] as const) {
        const [o] = await owner
          .select({ id: organisations.id })
          .from(organisations)
          .where(eq(organisations.name, name));
        if (!o) throw new Error(name);
        ids[key] = o.id;
      }
    },
  });
  operator = await t.login(OPERATOR);
  admin = await t.login('13800000000');
  staff = await t.login('13800000002');
  otherAdmin = await t.login('13900000000');
  factory = await t.login('13700000000');
});
afterAll(() => t.close());

const form = (over: Record<string, unknown> = {}) => ({
  agencyName: '杭州明远财税服务有限公司',
  agencyTax: '91330106MA2MY0001X',
  address: '杭州市西湖区天目山路 176 号',
  agencyScale: 1,
  staffNum: 2,
  sssf: '330000',
  ssds: '330100',
  ssqx: '330106',
  ...over,
});
const apply = (cookie: string | undefined, body: unknown) => t.call<{ id: number }>(agencyApplyCall.path, body, cookie);
const nameExists = (cookie: string | undefined, agencyName: unknown) =>
  t.call<{ exists: boolean }>(selectPersonalAgencyInfoCall.path, { agencyName }, cookie);
type ApplyList = { list: AgencyApplyItem[]; total: number; pendingCount: number };
const applications = (cookie: string | undefined, body: Record<string, unknown> = {}) =>
  t.call<ApplyList>(listAgencyApplyCall.path, body, cookie);
const relationStatus = async (cookie: string) =>
  (await t.call<{ agencyApplyStatus: number | null }>(agencyUserRelationCall.path, {}, cookie)).data.agencyApplyStatus;

describe('selectPersonalAgencyInfo: is an agency name taken', () => {
  it('answers for existing organisations and free names', async () => {
    expect((await nameExists(admin, DEMO)).data).toEqual({ exists: true });
    expect((await nameExists(admin, ` ${DEMO} `)).data).toEqual({ exists: true });
    expect((await nameExists(admin, '一个还没有的名字有限公司')).data).toEqual({ exists: false });
  });

  it('refuses an empty name and callers without a session', async () => {
    expectBadInput(await nameExists(admin, ''), '代理机构名称', '请输入代理所名称');
    expectBadInput(await nameExists(admin, '  '), '代理机构名称', '请输入代理所名称');
    expectSignedOut(await nameExists(undefined, DEMO));
  });
});

describe('agencyApply: the create-agency form', () => {
  let applicant = '';
  beforeAll(async () => {
    applicant = await registerBySms(t, '13500000021');
  });

  it('refuses each bad field with the spec message and writes nothing', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ agencyName: '' }, '代理机构名称', '请输入代理所名称'],
      [{ agencyName: undefined }, '代理机构名称', '请输入代理所名称'],
      [{ agencyTax: '' }, '代理机构税号', '请输入代理所税号'],
      [{ agencyTax: 'ab12' }, '代理机构税号', '税号为6-20位数字或字母'],
      [{ agencyTax: '91330106MA2MY0001X123' }, '代理机构税号', '税号为6-20位数字或字母'],
      [{ agencyTax: '913301-06MA' }, '代理机构税号', '税号为6-20位数字或字母'],
      [{ sssf: '' }, '所属省份', '请选择地区'],
      [{ ssds: undefined }, '所属地市', '请选择地区'],
      [{ ssqx: '' }, '所属区县', '请选择区县'],
      [{ ssds: '440300' }, '所属地市', '请选择地区'],
      [{ ssqx: '330205' }, '所属区县', '请选择区县'],
      [{ address: '  ' }, '地址', '请输入地址'],
      [{ agencyScale: 6 }, '机构规模', '请选择机构规模'],
      [{ staffNum: undefined }, '会计人数', '请选择会计人数'],
      [{ linkPhone: '12345' }, '联系电话', '请输入正确的手机号'],
    ];
    for (const [over, field, msg] of cases) expectBadInput(await apply(applicant, form(over)), field, msg);
    expectUnknownField(await apply(applicant, form({ userId: 1 })), 'userId');
    expect(await relationStatus(applicant)).toBeNull();
  });

  it('refuses the name of an existing organisation', async () => {
    const r = await apply(applicant, form({ agencyName: DEMO }));
    expect([r.status, r.code, r.msg]).toEqual([409, CODE.CONFLICT, AGENCY_NAME_TAKEN_MSG]);
  });

  it('accepts a good application with the spec message, once per user, and reserves the name', async () => {
    const r = await apply(applicant, form({ agencyTax: ' 91330106 MA2MY0001X ' }));
    expect([r.code, r.msg]).toEqual([CODE.OK, AGENCY_APPLY_OK_MSG]);
    expect(await relationStatus(applicant)).toBe(0);

    const again = await apply(applicant, form({ agencyName: '另一个名字财税有限公司' }));
    expect([again.code, again.msg]).toEqual([CODE.CONFLICT, AGENCY_APPLY_PENDING_MSG]);

    expect((await nameExists(admin, '杭州明远财税服务有限公司')).data.exists).toBe(true);
    const someoneElse = await registerBySms(t, '13500000022');
    const taken = await apply(someoneElse, form());
    expect([taken.code, taken.msg]).toEqual([CODE.CONFLICT, AGENCY_NAME_TAKEN_MSG]);

    const listed = await applications(operator, { keyword: '明远' });
    expect(listed.data.list).toHaveLength(1);
    expect(listed.data.list[0]).toMatchObject({
      agencyName: '杭州明远财税服务有限公司',
      agencyTax: '91330106MA2MY0001X',
      agencyType: 'dls',
      regionName: '浙江省 杭州市 西湖区',
      applicantPhone: '13500000021',
      // Contact defaults to the applicant.
      linkPhone: '13500000021',
      status: 0,
      reviewerName: null,
    });
  });

  it('refuses callers without a session', async () => {
    expectSignedOut(await apply(undefined, form()));
  });
});

describe('platform review of applications', () => {
  const applicantPhone = '13500000031';
  const rejectedPhone = '13500000032';
  let applicant = '';
  let rejected = '';
  let approveId = 0;
  let rejectId = 0;
  beforeAll(async () => {
    applicant = await registerBySms(t, applicantPhone);
    rejected = await registerBySms(t, rejectedPhone);
    approveId = (
      await apply(
        applicant,
        form({ agencyName: '宁波启明代理记账有限公司', sssf: '330000', ssds: '330200', ssqx: '330203' }),
      )
    ).data.id;
    rejectId = (await apply(rejected, form({ agencyName: '驳回测试财税有限公司', agencyType: 'kd' }))).data.id;
  });

  it('the operator lists applications with status filter, keyword, sorting and paging', async () => {
    const all = await applications(operator);
    expect(all.code).toBe(CODE.OK);
    expect(all.data.total).toBeGreaterThanOrEqual(3);
    expect(all.data.pendingCount).toBe(all.data.total);
    // Newest first by default.
    expect(all.data.list[0]?.agencyName).toBe('驳回测试财税有限公司');
    const names = async (sortOrder: string) =>
      (await applications(operator, { sortField: 'agencyName', sortOrder })).data.list.map((a) => a.agencyName);
    const ascending = await names('ascend');
    expect(new Set(ascending).size).toBe(ascending.length);
    expect(await names('descend')).toEqual([...ascending].reverse());
    expect((await applications(operator, { status: 1 })).data).toMatchObject({ list: [], total: 0 });
    expect((await applications(operator, { keyword: applicantPhone })).data.list.map((a) => a.id)).toEqual([approveId]);
    expect((await applications(operator, { keyword: '%' })).data.total).toBe(0);
    const page2 = await applications(operator, { pageNo: 2, pageSize: 20 });
    expect(page2.data.list).toEqual([]);
    expect(page2.data.total).toBe(all.data.total);
  });

  it('refuses bad paging, agency administrators and staff (460), and callers without a session', async () => {
    expectBadInput(await applications(operator, { pageSize: 30 }), '每页条数', '每页条数须为20、50、100或500');
    expectBadInput(await applications(operator, { pageNo: 0 }), '页码', '页码须为正整数');
    expectBadInput(await applications(operator, { status: 5 }), '状态');
    for (const who of [admin, staff, applicant]) expectNoPermission(await applications(who));
    expectSignedOut(await applications(undefined));
  });

  it('nobody but the operator can approve or reject; unknown ids are 404; nothing changes', async () => {
    for (const who of [admin, otherAdmin, applicant]) {
      expectNoPermission(await t.call(approveAgencyApplyCall.path, { id: approveId }, who));
      expectNoPermission(await t.call(rejectAgencyApplyCall.path, { id: approveId, reason: '不通过' }, who));
    }
    expectSignedOut(await t.call(approveAgencyApplyCall.path, { id: approveId }));
    expectSignedOut(await t.call(rejectAgencyApplyCall.path, { id: approveId, reason: '不通过' }));
    const unknown = await t.call(approveAgencyApplyCall.path, { id: 999999 }, operator);
    expect([unknown.status, unknown.code, unknown.msg]).toEqual([404, CODE.NOT_FOUND, '申请不存在']);
    expect((await t.call(rejectAgencyApplyCall.path, { id: 999999, reason: '不通过' }, operator)).code).toBe(
      CODE.NOT_FOUND,
    );
    expectBadInput(await t.call(approveAgencyApplyCall.path, { id: 'x' }, operator), 'ID');
    expect(await relationStatus(applicant)).toBe(0);
  });

  it('approval creates a working agency whose administrator is the applicant, and texts them', async () => {
    const r = await t.call<{ agencyId: number }>(approveAgencyApplyCall.path, { id: approveId }, operator);
    expect(r.code).toBe(CODE.OK);
    const agencyId = r.data.agencyId;

    const sms = await outboxFor(t, applicantPhone);
    expect(sms[0]?.content).toContain('“宁波启明代理记账有限公司”已审核通过');
    expect(await relationStatus(applicant)).toBe(1);

    // The applicant's open session now acts in the new agency, as its administrator.
    const info = (await t.call<SessionInfo>(sessionCall.path, {}, applicant)).data;
    expect(info).toMatchObject({ orgId: agencyId, orgName: '宁波启明代理记账有限公司', orgType: 'dls', isAdmin: '1' });

    // They set a password, sign in afresh and see their organisation, its menus and its details.
    expect((await t.call(changePasswordCall.path, { password: DEMO_PASSWORD }, applicant)).code).toBe(CODE.OK);
    const cookie = await t.login(applicantPhone);
    expect((await t.call<SessionInfo>(sessionCall.path, {}, cookie)).data).toMatchObject({
      orgId: agencyId,
      isAdmin: '1',
    });
    const orgs = await t.call<{ orgList: { orgName: string }[] }>(getOrgListCall.path, {}, cookie);
    expect(orgs.data.orgList.map((o) => o.orgName)).toEqual(['宁波启明代理记账有限公司']);
    const menus = await t.call<{ menus: { path: string; children: { path: string }[] }[] }>(
      getRoutersCall.path,
      {},
      cookie,
    );
    expect(menus.data.menus.flatMap((m) => [m.path, ...m.children.map((c) => c.path)])).toContain(
      '/nested/manage/agency-info',
    );
    const agency = await t.call<AgencyInfo>(getAgencyInfoCall.path, {}, cookie);
    expect(agency.data).toMatchObject({
      id: agencyId,
      agencyName: '宁波启明代理记账有限公司',
      sssfmc: '浙江省',
      ssdsmc: '宁波市',
      ssqxmc: '海曙区',
      agencyScale: 1,
      staffNum: 2,
      staffCount: 1,
      clientCount: 0,
      editable: true,
    });

    const listed = (await applications(operator, { status: 1 })).data.list;
    expect(listed.map((a) => [a.id, a.reviewerName, a.agencyId])).toEqual([[approveId, '平台运营', agencyId]]);

    const audited = await inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
      tx.execute(sql`select action, target from audit_log where action = 'platform.agency_approve'`),
    );
    expect((audited as unknown as { rows: unknown[] }).rows).toEqual([
      { action: 'platform.agency_approve', target: String(approveId) },
    ]);
  });

  it('a reviewed application cannot be reviewed again', async () => {
    const again = await t.call(approveAgencyApplyCall.path, { id: approveId }, operator);
    expect([again.code, again.msg]).toEqual([CODE.CONFLICT, '该申请已审核，请刷新列表']);
    expect((await t.call(rejectAgencyApplyCall.path, { id: approveId, reason: '重复' }, operator)).code).toBe(
      CODE.CONFLICT,
    );
  });

  it('rejection needs a reason, texts the applicant, and frees the name for a new application', async () => {
    expectBadInput(
      await t.call(rejectAgencyApplyCall.path, { id: rejectId, reason: ' ' }, operator),
      '原因',
      '请输入驳回原因',
    );
    expectBadInput(await t.call(rejectAgencyApplyCall.path, { id: rejectId }, operator), '原因', '请输入驳回原因');
    const r = await t.call(rejectAgencyApplyCall.path, { id: rejectId, reason: '营业执照信息与税号不一致' }, operator);
    expect(r.code).toBe(CODE.OK);
    expect((await outboxFor(t, rejectedPhone))[0]?.content).toContain('原因：营业执照信息与税号不一致');
    expect(await relationStatus(rejected)).toBe(2);
    const listed = (await applications(operator, { status: 2 })).data.list;
    expect(listed.map((a) => [a.id, a.reason, a.agencyType])).toEqual([[rejectId, '营业执照信息与税号不一致', 'kd']]);
    expect((await nameExists(rejected, '驳回测试财税有限公司')).data.exists).toBe(false);
    const again = await apply(rejected, form({ agencyName: '驳回测试财税有限公司', agencyTax: '91330106MA2MY0002X' }));
    expect(again.code).toBe(CODE.OK);
    expect(await relationStatus(rejected)).toBe(0);
  });

  it('an application whose name was taken meanwhile cannot be approved', async () => {
    const late = await registerBySms(t, '13500000033');
    const id = (await apply(late, form({ agencyName: '后来者财税有限公司' }))).data.id;
    await t.db.app.transaction(async (tx) => {
      // Simulates a name taken by another route (e.g. an organisation created by the seed or a migration).
      await tx
        .update(organisations)
        .set({ name: '后来者财税有限公司' })
        .where(eq(organisations.name, '鸿信财务咨询有限公司'));
    });
    const r = await t.call(approveAgencyApplyCall.path, { id }, operator);
    expect([r.code, r.msg]).toEqual([CODE.CONFLICT, `${AGENCY_NAME_TAKEN_MSG}，请驳回该申请`]);
    expect(await relationStatus(late)).toBe(0);
    await t.db.app.transaction(async (tx) => {
      await tx
        .update(organisations)
        .set({ name: '鸿信财务咨询有限公司' })
        .where(eq(organisations.name, '后来者财税有限公司'));
    });
  });
});

const info = (cookie: string | undefined) => t.call<AgencyInfo>(getAgencyInfoCall.path, {}, cookie);
const update = (cookie: string | undefined, over: Record<string, unknown> = {}) =>
  t.call<AgencyInfo>(
    updateAgencyInfoCall.path,
    {
      address: '杭州市西湖区文三路 398 号 9 楼',
      link: '王建国',
      linkPhone: '13800000000',
      agencyScale: 2,
      staffNum: 3,
      ...over,
    },
    cookie,
  );

describe('agency information', () => {
  it('shows the administrator the agency with region names and counts', async () => {
    const r = await info(admin);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({
      id: ids.demo,
      agencyName: DEMO,
      orgType: 'dls',
      orgTypeName: '代理机构',
      sssfmc: '浙江省',
      ssdsmc: '杭州市',
      ssqxmc: '西湖区',
      staffCount: 3,
      clientCount: 60,
      editable: true,
    });
  });

  it('shows a factory administrator the bound agency, read-only', async () => {
    const r = await info(factory);
    expect(r.data).toMatchObject({ id: ids.demo, agencyName: DEMO, editable: false });
    expectNoPermission(await update(factory));
    expect((await info(admin)).data.address).toBe(r.data.address);
  });

  it('refuses staff without the permission (460) and callers without a session', async () => {
    expectNoPermission(await info(staff));
    expectNoPermission(await update(staff));
    expectSignedOut(await info(undefined));
    expectSignedOut(await update(undefined));
    expectUnknownField(await t.call(getAgencyInfoCall.path, { agencyId: ids.other }, admin), 'agencyId');
  });

  it('the administrator changes address, contact, scale and accountant count; name and tax number stay', async () => {
    const before = (await info(admin)).data;
    const r = await update(admin);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({
      agencyName: before.agencyName,
      agencyTax: before.agencyTax,
      address: '杭州市西湖区文三路 398 号 9 楼',
      link: '王建国',
      linkPhone: '13800000000',
      agencyScale: 2,
      staffNum: 3,
    });
    expect((await info(admin)).data).toEqual(r.data);
    expectUnknownField(await update(admin, { agencyName: '改名有限公司' }), 'agencyName');
    expectUnknownField(await update(admin, { agencyTax: '123456789' }), 'agencyTax');
    // Only the caller's own agency changed.
    expect((await info(otherAdmin)).data).toMatchObject({
      agencyName: '鸿信财务咨询有限公司',
      address: '深圳市南山区科技园科发路 8 号',
    });
    const audited = await inScope(t.db.app, { agencyId: ids.demo ?? 0, userId: null, kjgcId: null }, (tx) =>
      tx.execute(sql`select detail from audit_log where action = 'org.agency_update' order by id desc limit 1`),
    );
    expect((audited as unknown as { rows: { detail: { after: unknown } }[] }).rows[0]?.detail.after).toMatchObject({
      scale: 2,
    });
  });

  it('refuses bad fields with Chinese messages and changes nothing', async () => {
    const before = (await info(admin)).data;
    expectBadInput(await update(admin, { address: '' }), '地址', '请输入地址');
    expectBadInput(await update(admin, { linkPhone: '123' }), '联系电话', '请输入正确的手机号');
    expectBadInput(await update(admin, { staffNum: 0 }), '会计人数', '请选择会计人数');
    expectBadInput(await update(admin, { agencyScale: 1.5 }), '机构规模', '请选择机构规模');
    expect((await update(admin, { linkPhone: '', link: '' })).code).toBe(CODE.OK);
    await update(admin, { linkPhone: before.linkPhone, link: before.link });
    expect((await info(admin)).data).toEqual(before);
  });
});

const whiteList = (cookie: string | undefined, body: Record<string, unknown> = {}) =>
  t.call<{ list: WhiteOrderItem[]; total: number }>(listWhiteOrderCall.path, body, cookie);
const whiteSave = (cookie: string | undefined, type: string, busiVal: string) =>
  t.call<{ id: number }>(saveWhiteOrderCall.path, { type, busiVal }, cookie);

describe('platform white-list orders', () => {
  // From an empty list: the demo seed's own orders (demo agency on lbsjc and wsbsdt) are set aside.
  beforeAll(() => t.ownerQuery('delete from whitelist_orders'));
  it('the operator adds a province and an agency, sees them named, and the agency sees them', async () => {
    const province = await whiteSave(operator, 'wsbsdt', '330000');
    expect(province.code).toBe(CODE.OK);
    const agency = await whiteSave(operator, 'dljghdkjgcmenu', String(ids.other));
    expect(agency.code).toBe(CODE.OK);
    const listed = await whiteList(operator);
    expect(listed.data.total).toBe(2);
    expect(listed.data.list.map((w) => [w.type, w.typeName, w.busiVal, w.busiName])).toEqual([
      ['dljghdkjgcmenu', '代理机构会计工厂菜单', String(ids.other), '鸿信财务咨询有限公司'],
      ['wsbsdt', '网上办税大厅', '330000', '浙江省'],
    ]);
    expect((await whiteList(operator, { type: 'wsbsdt' })).data.list.map((w) => w.busiVal)).toEqual(['330000']);

    const exists = (cookie: string, type: string, busiVal: string) =>
      t.call<{ exists: boolean }>(existsWhiteOrderCall.path, { type, busiVal }, cookie);
    expect((await exists(admin, 'wsbsdt', '330000')).data.exists).toBe(true);
    expect((await exists(otherAdmin, 'dljghdkjgcmenu', String(ids.other))).data.exists).toBe(true);
    expect((await exists(otherAdmin, 'wsbsdt', '440000')).data.exists).toBe(false);
  });

  it('refuses duplicates, values that are neither an agency nor a province, and bad types', async () => {
    const dup = await whiteSave(operator, 'wsbsdt', '330000');
    expect([dup.code, dup.msg]).toEqual([CODE.CONFLICT, '该白名单已存在']);
    for (const bad of ['999999', '990000', '123', String(ids.factory), 'abc']) {
      expectBadInput(await whiteSave(operator, 'lbsjc', bad), '业务值', '请输入代理机构ID或省份编码（如130000）');
    }
    expectBadInput(await whiteSave(operator, 'nope', '330000'), '类型');
    expectBadInput(await whiteSave(operator, 'lbsjc', ''), '业务值', '请输入业务值');
    expect((await whiteList(operator)).data.total).toBe(2);
  });

  it('only the operator lists, adds and removes (460 otherwise), nothing changes', async () => {
    const [first] = (await whiteList(operator)).data.list;
    for (const who of [admin, staff, otherAdmin]) {
      expectNoPermission(await whiteList(who));
      expectNoPermission(await whiteSave(who, 'lbsjc', '130000'));
      expectNoPermission(await t.call(deleteWhiteOrderCall.path, { id: first?.id }, who));
    }
    expectSignedOut(await whiteList(undefined));
    expectSignedOut(await whiteSave(undefined, 'lbsjc', '130000'));
    expectSignedOut(await t.call(deleteWhiteOrderCall.path, { id: first?.id }));
    expect((await whiteList(operator)).data.total).toBe(2);
  });

  it('the operator removes one; an unknown id is 404', async () => {
    const [first] = (await whiteList(operator)).data.list;
    expect((await t.call(deleteWhiteOrderCall.path, { id: first?.id }, operator)).code).toBe(CODE.OK);
    expect((await whiteList(operator)).data.total).toBe(1);
    const again = await t.call(deleteWhiteOrderCall.path, { id: first?.id }, operator);
    expect([again.status, again.code, again.msg]).toEqual([404, CODE.NOT_FOUND, '白名单不存在']);
    expectBadInput(await t.call(deleteWhiteOrderCall.path, { id: -1 }, operator), 'ID');
  });
});
