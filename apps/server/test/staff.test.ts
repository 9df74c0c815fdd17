import {
  CODE,
  DEFAULT_STAFF_PERMS,
  deleteAgUserConnectionIsConnCall,
  getAgencyInviteUserListV3Call,
  getStaffOptionsCall,
  MSG,
  personalQuitAgencyCall,
  quitCheckCall,
  type SessionInfo,
  STAFF_MSG,
  saveUserQuitSettingCall,
  sessionCall,
  updateAgUserConnectionIsAdminV3Call,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments, membershipRoles, memberships, organisations, stationMembers } from '../src/db/schema/index.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, expectUnknownField, registerBySms } from './helpers.js';
import {
  ADMIN,
  auditOf,
  byName,
  FACTORY,
  grantRole,
  ID,
  inAgency,
  joinByInvite,
  LI,
  OTHER_ADMIN,
  staffOf,
  ZHANG,
} from './staff-helpers.js';

let t: TestApp;
let admin: string;
let li: string;
let zhang: string;
let otherAdmin: string;
let loner: string;
let otherDept: number;

beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      await owner.insert(departments).values({ agencyId: 2, name: '鸿信一部' });
    },
  });
  admin = await t.login(ADMIN);
  li = await t.login(LI);
  zhang = await t.login(ZHANG);
  otherAdmin = await t.login(OTHER_ADMIN);
  loner = await registerBySms(t, '13811113333');
  // 李晓梅 may view the staff page (not manage it); 张伟 has only the default role, which may not.
  await grantRole(t, 1, ID.li, '员工查看', ['staff:list:view']);
  const other = await t.call<{ departments: { id: number }[] }>(getStaffOptionsCall.path, {}, otherAdmin);
  otherDept = other.data.departments[0]?.id ?? 0;
});
afterAll(() => t.close());

const list = (body: Record<string, unknown>, cookie = admin) =>
  t.call<{ list: { hymc: string }[]; total: number }>(getAgencyInviteUserListV3Call.path, body, cookie);
const names = async (body: Record<string, unknown>, cookie = admin) =>
  (await list(body, cookie)).data.list.map((s) => s.hymc);
const memberRow = (agencyId: number, userId: number) =>
  inAgency(t, agencyId, (tx) =>
    tx
      .select()
      .from(memberships)
      .where(and(eq(memberships.orgId, agencyId), eq(memberships.userId, userId))),
  );

describe('getAgencyInviteUserListV3 (the staff list)', () => {
  it("lists the agency's own members with department, posts, roles and client counts; not the bound factory's staff", async () => {
    const { list: rows, total } = await staffOf(t, admin);
    expect(total).toBe(3);
    expect(rows.map((r) => r.hymc)).toEqual(['王建国', '李晓梅', '张伟']);
    expect(rows[0]).toMatchObject({
      userId: ID.admin,
      phone: ADMIN,
      zw: '总经理',
      role: 1,
      isAdmin: '1',
      departmentName: '',
      roles: ['管理员'],
      clientCount: 20,
    });
    expect(byName(rows, '李晓梅')).toMatchObject({
      phone: LI,
      role: 2,
      isAdmin: '0',
      departmentName: '记账一部',
      stations: ['服务顾问'],
      roles: ['普通员工', '员工查看'],
      clientCount: 20,
    });
    expect(Date.parse(rows[0]?.joinedAt ?? '')).not.toBeNaN();
  });

  it('masks colleagues’ phones to everyone but the administrator; a member sees their own in full', async () => {
    const { list: rows } = await staffOf(t, li);
    expect(byName(rows, '王建国')?.phone).toBe('138****0000');
    expect(byName(rows, '张伟')?.phone).toBe('138****0002');
    expect(byName(rows, '李晓梅')?.phone).toBe(LI);
  });

  it('searches by name and phone, filters by department and role label', async () => {
    expect(await names({ hymc: '晓梅' })).toEqual(['李晓梅']);
    expect(await names({ hymc: '%' })).toEqual([]);
    expect(await names({ sjh: '0002' })).toEqual(['张伟']);
    // Phones are masked to 李晓梅, so she finds a colleague by the whole number only.
    expect(await names({ sjh: '0002' }, li)).toEqual([]);
    expect(await names({ sjh: ZHANG }, li)).toEqual(['张伟']);
    const opts = await t.call<{ departments: { id: number; label: string }[] }>(getStaffOptionsCall.path, {}, admin);
    const dept1 = opts.data.departments.find((d) => d.label === '记账一部')?.id;
    expect(await names({ departmentId: dept1 })).toEqual(['李晓梅', '张伟']);
    expect(await names({ role: 2 })).toEqual(['李晓梅']);
    expect(await names({ role: 1 })).toEqual(['王建国']);
  });

  it('sorts by client count and join date, and pages', async () => {
    // One more client for 张伟 makes him first by client count.
    await inAgency(t, 1, async (tx) => {
      const { enterprises } = await import('../src/db/schema/index.js');
      await tx.insert(enterprises).values({ agencyId: 1, qymc: '排序测试有限公司', allocateUser: ID.zhang });
    });
    expect((await names({ sortField: 'clientCount', sortOrder: 'descend' }))[0]).toBe('张伟');
    expect((await names({ sortField: 'clientCount', sortOrder: 'ascend' }))[2]).toBe('张伟');
    expect(await names({ sortField: 'joinedAt', sortOrder: 'descend' })).toEqual(['张伟', '李晓梅', '王建国']);
    expect(await names({ sortField: 'joinedAt', sortOrder: 'ascend' })).toEqual(['王建国', '李晓梅', '张伟']);
    const page2 = await list({ pageNo: 2, pageSize: 20 });
    expect(page2.data).toEqual({ list: [], total: 3, cursor: { next: null, prev: null } });
  });

  it('refuses bad input naming the field', async () => {
    expectBadInput(await list({ pageSize: 7 }), '每页条数', '每页条数须为20、50、100或500');
    expectBadInput(await list({ pageNo: 0 }), '页码');
    expectBadInput(await list({ sjh: '138abc' }), '手机号', '手机号只能包含数字');
    expectBadInput(await list({ role: 5 }), '角色');
    expectBadInput(await list({ sortField: 'phone' }), '排序字段');
    expectUnknownField(await list({ agencyId: 2 }), 'agencyId');
  });

  it("refuses another agency's department, no session, no permission and a user outside any agency", async () => {
    const r = await list({ departmentId: otherDept });
    expect(r.code).toBe(CODE.NOT_FOUND);
    expectSignedOut(await t.call(getAgencyInviteUserListV3Call.path, {}));
    expectNoPermission(await list({}, zhang));
    expectNoPermission(await list({}, loner));
  });

  it('shows another agency only its own members', async () => {
    expect(await names({}, otherAdmin)).toEqual(['陈思远']);
  });
});

describe('getStaffOptions', () => {
  it('gives the department options and the quit setting', async () => {
    const r = await t.call<{ departments: { label: string }[]; quitSet: string }>(getStaffOptionsCall.path, {}, li);
    expect(r.code).toBe(CODE.OK);
    expect(r.data.departments.map((d) => d.label)).toEqual(['记账一部', '记账二部']);
    expect(r.data.quitSet).toBe('1');
  });

  it('labels a sub-department with its path', async () => {
    const opts = await t.call<{ departments: { id: number; label: string }[] }>(getStaffOptionsCall.path, {}, admin);
    const parent = opts.data.departments.find((d) => d.label === '记账二部')?.id ?? null;
    await inAgency(t, 1, (tx) =>
      tx.insert(departments).values({ agencyId: 1, name: '二部一组', parentId: parent, sort: 3 }),
    );
    const after = await t.call<{ departments: { label: string }[] }>(getStaffOptionsCall.path, {}, admin);
    expect(after.data.departments.map((d) => d.label)).toContain('记账二部 / 二部一组');
  });

  it('refuses no session, no permission, a user outside any agency, and unknown fields', async () => {
    expectSignedOut(await t.call(getStaffOptionsCall.path, {}));
    expectNoPermission(await t.call(getStaffOptionsCall.path, {}, zhang));
    expectNoPermission(await t.call(getStaffOptionsCall.path, {}, loner));
    expectUnknownField(await t.call(getStaffOptionsCall.path, { agencyId: 2 }, admin), 'agencyId');
  });
});

describe('quit setting, quitCheck and personalQuitAgency', () => {
  const quitSetOf = async (orgId: number) =>
    (await t.db.app.select({ q: organisations.quitSet }).from(organisations).where(eq(organisations.id, orgId)))[0]?.q;

  it('lets only the administrator change the quit setting (audited)', async () => {
    expectNoPermission(await t.call(saveUserQuitSettingCall.path, { quitSet: '0' }, zhang));
    expectSignedOut(await t.call(saveUserQuitSettingCall.path, { quitSet: '0' }));
    expectBadInput(await t.call(saveUserQuitSettingCall.path, { quitSet: '2' }, admin), '退出设置');
    expectBadInput(await t.call(saveUserQuitSettingCall.path, { quitSet: 0 }, admin), '退出设置');
    expectUnknownField(await t.call(saveUserQuitSettingCall.path, { quitSet: '0', orgId: 2 }, admin), 'orgId');
    expect(await quitSetOf(1)).toBe('1');
    const r = await t.call(saveUserQuitSettingCall.path, { quitSet: '0' }, admin);
    expect(r).toMatchObject({ code: CODE.OK, data: { quitSet: '0' } });
    expect(await quitSetOf(1)).toBe('0');
    expect(await quitSetOf(2)).toBe('1');
    expect((await auditOf(t, 1, 'staff.quit_setting'))[0]?.detail).toEqual({ quitSet: '0' });
  });

  it('with quitSet 0 a member may not leave by themselves', async () => {
    const r = await t.call(quitCheckCall.path, {}, zhang);
    expect(r.data).toMatchObject({ canQuit: false, reason: '本机构不允许员工自行退出，请联系管理员办理' });
    const q = await t.call(personalQuitAgencyCall.path, {}, zhang);
    expect(q.code).toBe(CODE.CONFLICT);
    expect(await memberRow(1, ID.zhang)).toHaveLength(1);
    await t.call(saveUserQuitSettingCall.path, { quitSet: '1' }, admin);
  });

  it('refuses the administrator (transfer first) and a member with clients (handover first)', async () => {
    expect((await t.call(quitCheckCall.path, {}, admin)).data).toEqual({
      canQuit: false,
      reason: '管理员不能退出代理机构，请先转让管理员',
      clientCount: 20,
    });
    const z = await t.call<{ canQuit: boolean; reason: string; clientCount: number }>(quitCheckCall.path, {}, zhang);
    expect(z.data.canQuit).toBe(false);
    expect(z.data.reason).toBe(`您名下还有${z.data.clientCount}家客户，请先联系管理员进行工作交接`);
    const q = await t.call(personalQuitAgencyCall.path, {}, zhang);
    expect(q.code).toBe(CODE.CONFLICT);
    expect(q.msg).toBe(z.data.reason);
    expect((await t.call(personalQuitAgencyCall.path, {}, admin)).code).toBe(CODE.CONFLICT);
    expect(await memberRow(1, ID.zhang)).toHaveLength(1);
  });

  it('refuses a department director (handover first)', async () => {
    const { cookie, userId } = await joinByInvite(t, admin, '13800000021', '部门头');
    await inAgency(t, 1, (tx) =>
      tx.update(departments).set({ directorUserId: userId }).where(eq(departments.name, '记账二部')),
    );
    expect((await t.call(quitCheckCall.path, {}, cookie)).data).toMatchObject({
      canQuit: false,
      reason: '您是部门负责人，请先联系管理员进行工作交接',
    });
    await inAgency(t, 1, (tx) =>
      tx.update(departments).set({ directorUserId: null }).where(eq(departments.name, '记账二部')),
    );
  });

  it('lets a member without clients leave: membership, roles and posts go, the session has no organisation', async () => {
    const { cookie, userId } = await joinByInvite(t, admin, '13800000022', '赵六');
    expect((await t.call(quitCheckCall.path, {}, cookie)).data).toEqual({ canQuit: true, reason: '', clientCount: 0 });
    const r = await t.call(personalQuitAgencyCall.path, {}, cookie);
    expect(r.code).toBe(CODE.OK);
    expect(await memberRow(1, userId)).toHaveLength(0);
    const posts = await inAgency(t, 1, (tx) =>
      tx.select().from(stationMembers).where(eq(stationMembers.userId, userId)),
    );
    expect(posts).toHaveLength(0);
    const s = await t.call<SessionInfo>(sessionCall.path, {}, cookie);
    expect(s.data).toMatchObject({ orgId: null, perms: [] });
    expect(byName((await staffOf(t, admin)).list, '赵六')).toBeUndefined();
    expect((await auditOf(t, 1, 'staff.quit'))[0]?.target).toBe(`user:${userId}`);
  });

  it('refuses no session, a user outside any agency and unknown fields', async () => {
    expectSignedOut(await t.call(quitCheckCall.path, {}));
    expectSignedOut(await t.call(personalQuitAgencyCall.path, {}));
    expect((await t.call(quitCheckCall.path, {}, loner)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(personalQuitAgencyCall.path, {}, loner)).code).toBe(CODE.NOT_FOUND);
    expectUnknownField(await t.call(quitCheckCall.path, { id: ID.zhang }, admin), 'id');
    expectUnknownField(await t.call(personalQuitAgencyCall.path, { id: ID.zhang }, admin), 'id');
  });
});

describe('deleteAgUserConnectionIsConn (removing a member)', () => {
  const remove = (userId: unknown, cookie = admin) => t.call(deleteAgUserConnectionIsConnCall.path, { userId }, cookie);

  it('refuses while the member still owns clients', async () => {
    const r = await remove(ID.zhang);
    expect(r.code).toBe(CODE.CONFLICT);
    expect(r.msg).toBe(STAFF_MSG.needHandover);
    expect(await memberRow(1, ID.zhang)).toHaveLength(1);
  });

  it('refuses the administrator and oneself', async () => {
    const r = await remove(ID.admin);
    expect(r.code).toBe(CODE.CONFLICT);
    expect(r.msg).toBe('不能移除管理员，请先转让管理员');
    expect(await memberRow(1, ID.admin)).toHaveLength(1);
  });

  it("refuses another agency's member as not found, and changes nothing", async () => {
    expect((await remove(ID.otherAdmin)).code).toBe(CODE.NOT_FOUND);
    expect(await memberRow(2, ID.otherAdmin)).toHaveLength(1);
    // The factory's staff share the tenant but are not the agency's members.
    expect((await remove(ID.factory)).code).toBe(CODE.NOT_FOUND);
  });

  it('refuses bad input, no session and no permission (张伟)', async () => {
    expectBadInput(await remove('3'), '用户ID');
    expectBadInput(await t.call(deleteAgUserConnectionIsConnCall.path, {}, admin), '用户ID');
    expectSignedOut(await t.call(deleteAgUserConnectionIsConnCall.path, { userId: ID.zhang }));
    expectNoPermission(await remove(ID.li, zhang));
    expect(await memberRow(1, ID.li)).toHaveLength(1);
  });

  it('removes a member: membership, roles and posts; their session loses the agency on its next request', async () => {
    const { cookie, userId } = await joinByInvite(t, admin, '13800000023', '钱七');
    await grantRole(t, 1, userId, '临时查看', ['staff:list:view']);
    expect((await staffOf(t, cookie)).total).toBeGreaterThan(0);
    const r = await remove(userId);
    expect(r.code).toBe(CODE.OK);
    expect(await memberRow(1, userId)).toHaveLength(0);
    expect(byName((await staffOf(t, admin)).list, '钱七')).toBeUndefined();
    expectNoPermission(await t.call(getAgencyInviteUserListV3Call.path, {}, cookie));
    expect((await t.call<SessionInfo>(sessionCall.path, {}, cookie)).data).toMatchObject({ orgId: null, perms: [] });
    const roleRows = await inAgency(t, 1, (tx) =>
      tx
        .select()
        .from(membershipRoles)
        .innerJoin(memberships, eq(memberships.id, membershipRoles.membershipId))
        .where(eq(memberships.userId, userId)),
    );
    expect(roleRows).toHaveLength(0);
    const [rec] = await auditOf(t, 1, 'staff.remove');
    expect(rec).toMatchObject({ userId: ID.admin, target: `user:${userId}`, detail: { hymc: '钱七' } });
  });
});

describe('updateAgUserConnectionIsAdminV3 (administrator transfer)', () => {
  const transfer = (body: unknown, cookie = admin) => t.call(updateAgUserConnectionIsAdminV3Call.path, body, cookie);
  const isAdmin = async (agencyId: number, userId: number) => (await memberRow(agencyId, userId))[0]?.isAdmin;

  it('refuses no session, and anyone but the administrator', async () => {
    expectSignedOut(await t.call(updateAgUserConnectionIsAdminV3Call.path, { admin_user_id: 3, notadmin_user_id: 1 }));
    expectNoPermission(await transfer({ admin_user_id: ID.zhang, notadmin_user_id: ID.admin }, zhang));
    expectNoPermission(await transfer({ admin_user_id: ID.zhang, notadmin_user_id: ID.zhang }, li));
    expect(await isAdmin(1, ID.admin)).toBe(true);
  });

  it('refuses bad input: missing ids, someone else as the giver, oneself as the receiver', async () => {
    expectBadInput(await transfer({ notadmin_user_id: ID.admin }), '新管理员', '请选择新管理员');
    expectBadInput(await transfer({ admin_user_id: ID.li }), '原管理员');
    const notMe = await transfer({ admin_user_id: ID.li, notadmin_user_id: ID.zhang });
    expect(notMe.code).toBe(CODE.NO_PERMISSION);
    expect(notMe.msg).toBe('只有管理员本人可以转让管理员');
    const self = await transfer({ admin_user_id: ID.admin, notadmin_user_id: ID.admin });
    expect(self.code).toBe(CODE.BAD_REQUEST);
    expect(await isAdmin(1, ID.admin)).toBe(true);
    expect(await isAdmin(1, ID.zhang)).toBe(false);
  });

  it("refuses another agency's user as not found, and changes nothing", async () => {
    const r = await transfer({ admin_user_id: ID.otherAdmin, notadmin_user_id: ID.admin });
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect(await isAdmin(1, ID.admin)).toBe(true);
    expect(await isAdmin(2, ID.otherAdmin)).toBe(true);
  });

  it('swaps the administrator in one step (audited); the former one holds the default role', async () => {
    const r = await transfer({ admin_user_id: ID.li, notadmin_user_id: ID.admin });
    expect(r.code).toBe(CODE.OK);
    const rows = (await staffOf(t, li)).list;
    expect(byName(rows, '李晓梅')).toMatchObject({ isAdmin: '1', role: 1, roles: ['管理员'] });
    expect(byName(rows, '王建国')).toMatchObject({ isAdmin: '0', role: 0, roles: ['普通员工'] });
    const former = await t.call<SessionInfo>(sessionCall.path, {}, admin);
    expect(former.data.isAdmin).toBe('0');
    expect(former.data.perms).toEqual([...DEFAULT_STAFF_PERMS].sort());
    const now = await t.call<SessionInfo>(sessionCall.path, {}, li);
    expect(now.data.perms).toEqual(['*:*:*']);
    expect((await auditOf(t, 1, 'staff.admin_transfer'))[0]?.detail).toEqual({ from: ID.admin, to: ID.li });
    // The former administrator can no longer transfer; the new one can give it back.
    expectNoPermission(await transfer({ admin_user_id: ID.admin, notadmin_user_id: ID.admin }));
    expect((await transfer({ admin_user_id: ID.admin, notadmin_user_id: ID.li }, li)).code).toBe(CODE.OK);
    expect(await isAdmin(1, ID.admin)).toBe(true);
    expect(await isAdmin(1, ID.li)).toBe(false);
  });

  it('is refused to a factory administrator for the agency members', async () => {
    const factory = await t.login(FACTORY);
    const r = await transfer({ admin_user_id: ID.zhang, notadmin_user_id: ID.factory }, factory);
    expect(r.code).toBe(CODE.NO_PERMISSION);
    expect(await isAdmin(1, ID.zhang)).toBe(false);
    expect(MSG.ok).toBeTruthy();
  });
});
