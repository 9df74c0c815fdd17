import {
  CODE,
  DEFAULT_STAFF_PERMS,
  deleteRoleCall,
  type MemberRoles,
  memberRoleListCall,
  type PermNode,
  permTreeCall,
  type RoleItem,
  roleListCall,
  type SessionInfo,
  type StationItem,
  saveDepartmentCall,
  saveMemberRolesCall,
  savePermsCall,
  saveRoleCall,
  sessionCall,
  stationListCall,
} from '@dzy/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { auditLog } from '../src/db/schema/index.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, expectUnknownField } from './helpers.js';

const ADMIN = '13800000000';
const HEAD = '13800000001';
const STAFF = '13800000002';
const OTHER_ADMIN = '13900000000';
const OPERATOR = '13600000000';

let t: TestApp;
let admin: string;
let staff: string;
let other: string;
let operator: string;
let ids: { staffUser: number; headUser: number; otherUser: number };

type Page<T> = { list: T[]; total: number };

const roles = async (cookie: string, body: object = {}) =>
  (await t.call<Page<RoleItem>>(roleListCall.path, body, cookie)).data;
const roleByName = async (cookie: string, name: string) => {
  const r = (await roles(cookie, { name, pageSize: 500 })).list.find((x) => x.name === name);
  if (!r) throw new Error(`no role ${name}`);
  return r;
};
const members = async (cookie: string, body: object = {}) =>
  (await t.call<Page<MemberRoles>>(memberRoleListCall.path, body, cookie)).data;
const memberOf = async (cookie: string, userId: number) => {
  const m = (await members(cookie, { pageSize: 500 })).list.find((x) => x.userId === userId);
  if (!m) throw new Error(`no member ${userId}`);
  return m;
};
const perms = async (cookie: string) => (await t.call<SessionInfo>(sessionCall.path, {}, cookie)).data.perms;
const stationIdOf = async (cookie: string, name: string) => {
  const s = (await t.call<Page<StationItem>>(stationListCall.path, { name }, cookie)).data.list.find(
    (x) => x.name === name,
  );
  if (!s) throw new Error(`no station ${name}`);
  return s.id;
};
const audits = (agencyId: number, action: string) =>
  inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
    tx
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.agencyId, agencyId), eq(auditLog.action, action)))
      .orderBy(desc(auditLog.id)),
  );
const flatten = (nodes: PermNode[]): PermNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

/** Gives a member one more role holding only `perms`, as an administrator would; answers how to undo it. */
async function alsoGrant(adminCookie: string, userId: number, perms: string[]): Promise<() => Promise<void>> {
  const list = (await t.call<{ list: RoleItem[] }>(roleListCall.path, { pageSize: 500 }, adminCookie)).data.list;
  const normal = list.find((r) => r.isDefault);
  const extra = (await t.call<{ id: number }>(saveRoleCall.path, { name: '只读查看' }, adminCookie)).data.id;
  await t.call(savePermsCall.path, { roleId: extra, perms }, adminCookie);
  const member = (
    await t.call<{ list: MemberRoles[] }>(memberRoleListCall.path, { pageSize: 500 }, adminCookie)
  ).data.list.find((m) => m.userId === userId);
  const stationIds = member?.stations.map((s) => s.id) ?? [];
  await t.call(saveMemberRolesCall.path, { userId, roleIds: [normal?.id, extra], stationIds }, adminCookie);
  return async () => {
    await t.call(saveMemberRolesCall.path, { userId, roleIds: [normal?.id], stationIds }, adminCookie);
    await t.call(deleteRoleCall.path, { id: extra }, adminCookie);
  };
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  staff = await t.login(STAFF);
  other = await t.login(OTHER_ADMIN);
  operator = await t.login(OPERATOR);
  const list = (await members(admin)).list;
  const otherList = (await members(other)).list;
  ids = {
    staffUser: list.find((m) => m.phone === STAFF)?.userId ?? 0,
    headUser: list.find((m) => m.phone === HEAD)?.userId ?? 0,
    otherUser: otherList[0]?.userId ?? 0,
  };
});
afterAll(() => t.close());

describe('role list (selectAgencyRoleListByUserAgency)', () => {
  it('lists the agency roles, the default first, with member counts and permissions', async () => {
    const page = await roles(admin);
    expect(page.total).toBe(2);
    expect(page.list.map((r) => r.name)).toEqual(['普通员工', '部门主管']);
    const [normal, head] = page.list;
    expect(normal).toMatchObject({ isDefault: true, memberCount: 2, remark: '新成员默认角色' });
    expect(normal?.perms).toEqual([...DEFAULT_STAFF_PERMS].sort());
    expect(head).toMatchObject({ isDefault: false, memberCount: 0 });
    expect(head?.perms).toContain('org:dept:edit');
    expect(normal?.perms).not.toContain('org:dept:edit');
  });

  it('searches by name, pages and sorts', async () => {
    expect((await roles(admin, { name: '主管' })).list.map((r) => r.name)).toEqual(['部门主管']);
    expect((await roles(admin, { name: '%' })).total).toBe(0);
    const first = await roles(admin, { pageNo: 1, pageSize: 1 });
    const second = await roles(admin, { pageNo: 2, pageSize: 1 });
    expect(first.total).toBe(2);
    expect([first.list[0]?.name, second.list[0]?.name]).toEqual(['普通员工', '部门主管']);
    const byCount = await roles(admin, { sortField: 'memberCount', sortOrder: 'ascend' });
    expect(byCount.list.map((r) => r.memberCount)).toEqual([0, 2]);
  });

  it('普通员工 opens no administration page; a role granting 角色权限 lets a member see the roles', async () => {
    expectNoPermission(await t.call(roleListCall.path, {}, staff));
    const undo = await alsoGrant(admin, ids.staffUser, ['role:list:view']);
    expect((await roles(staff)).list.map((r) => r.name)).toEqual(['普通员工', '部门主管', '只读查看']);
    // Viewing is not editing.
    expectNoPermission(await t.call(saveRoleCall.path, { name: '越权角色' }, staff));
    await undo();
    expectNoPermission(await t.call(roleListCall.path, {}, staff));
    expect((await roles(admin)).total).toBe(2);
  });

  it('refuses bad input, signed-out callers and users without the permission', async () => {
    expectBadInput(await t.call(roleListCall.path, { pageSize: 0 }, admin), '每页条数');
    expectBadInput(await t.call(roleListCall.path, { pageNo: 'x' }, admin), '页码');
    expectUnknownField(await t.call(roleListCall.path, { agencyId: 2 }, admin), 'agencyId');
    expectSignedOut(await t.call(roleListCall.path, {}));
    expectNoPermission(await t.call(roleListCall.path, {}, operator));
  });

  it('another agency sees only its own roles', async () => {
    const theirs = await roles(other);
    expect(theirs.total).toBe(2);
    const mine = await roles(admin);
    expect(theirs.list.map((r) => r.id).some((id) => mine.list.some((m) => m.id === id))).toBe(false);
  });
});

describe('saving a role (saveOrUpdateRole)', () => {
  it('creates a role without permissions and renames it', async () => {
    const created = await t.call<{ id: number }>(saveRoleCall.path, { name: ' 外勤组 ', remark: '跑税务局' }, admin);
    expect(created.code).toBe(CODE.OK);
    const role = await roleByName(admin, '外勤组');
    expect(role).toMatchObject({
      id: created.data.id,
      remark: '跑税务局',
      perms: [],
      memberCount: 0,
      isDefault: false,
    });
    const renamed = await t.call(saveRoleCall.path, { id: role.id, name: '外勤专员组' }, admin);
    expect(renamed.code).toBe(CODE.OK);
    // Leaving the remark out keeps it.
    expect(await roleByName(admin, '外勤专员组')).toMatchObject({ id: role.id, remark: '跑税务局' });
    const [log] = await audits(1, 'role.update');
    expect(log?.detail).toMatchObject({ before: { name: '外勤组' }, after: { name: '外勤专员组' } });
    expect((await audits(1, 'role.create')).length).toBeGreaterThan(0);
  });

  it('refuses a name already used in the agency, but another agency may use it', async () => {
    const dup = await t.call(saveRoleCall.path, { name: '部门主管' }, admin);
    expect(dup.code).toBe(CODE.CONFLICT);
    expect(dup.msg).toBe('角色名称已存在');
    const normal = await roleByName(admin, '普通员工');
    const renameDup = await t.call(saveRoleCall.path, { id: normal.id, name: '部门主管' }, admin);
    expect(renameDup.msg).toBe('角色名称已存在');
    // Saving a role under its own name is fine.
    expect((await t.call(saveRoleCall.path, { id: normal.id, name: '普通员工' }, admin)).code).toBe(CODE.OK);
    expect((await t.call(saveRoleCall.path, { name: '外勤专员组' }, other)).code).toBe(CODE.OK);
  });

  it('checks the name and remark', async () => {
    expectBadInput(await t.call(saveRoleCall.path, { name: '  ' }, admin), '名称', '请输入角色名称');
    expectBadInput(await t.call(saveRoleCall.path, {}, admin), '名称');
    expectBadInput(
      await t.call(saveRoleCall.path, { name: '角'.repeat(21) }, admin),
      '名称',
      '角色名称不能超过20个字符',
    );
    expectBadInput(
      await t.call(saveRoleCall.path, { name: '好名字', remark: '备'.repeat(101) }, admin),
      '备注',
      '备注不能超过100个字符',
    );
    expect((await t.call(saveRoleCall.path, { name: '角'.repeat(20), remark: '备'.repeat(100) }, admin)).code).toBe(
      CODE.OK,
    );
  });

  it('refuses signed-out callers and non-administrators (编辑角色 is administrator-only)', async () => {
    expectSignedOut(await t.call(saveRoleCall.path, { name: '越权角色' }));
    expectNoPermission(await t.call(saveRoleCall.path, { name: '越权角色' }, staff));
    expect((await roles(admin, { name: '越权角色' })).total).toBe(0);
  });

  it("answers 404 for another agency's role and changes nothing", async () => {
    const theirs = await roleByName(other, '部门主管');
    const r = await t.call(saveRoleCall.path, { id: theirs.id, name: '被改名' }, admin);
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect((await roleByName(other, '部门主管')).id).toBe(theirs.id);
    expect((await roles(admin, { name: '被改名' })).total).toBe(0);
  });
});

describe('the permission tree (gnqxTreeQuery) and saving it (saveGnqx)', () => {
  it('shows directories, pages and buttons, checked as the role holds them', async () => {
    const normal = await roleByName(admin, '普通员工');
    const tree = (await t.call<PermNode[]>(permTreeCall.path, { roleId: normal.id }, admin)).data;
    const nodes = flatten(tree);
    const byTitle = (title: string) => nodes.find((n) => n.title === title);
    expect(tree.map((n) => n.title)).toEqual(expect.arrayContaining(['门户', '设置']));
    expect(tree.map((n) => n.title)).not.toContain('平台运营');
    expect(byTitle('设置')).toMatchObject({ menutype: 'M', perm: null, checkable: false });
    expect(byTitle('部门管理')).toMatchObject({
      menutype: 'C',
      perm: 'org:dept:view',
      checked: false,
      checkable: true,
    });
    expect(byTitle('编辑部门')).toMatchObject({
      menutype: 'F',
      perm: 'org:dept:edit',
      checked: false,
      checkable: true,
    });
    expect(byTitle('编辑角色')).toMatchObject({ menutype: 'F', checkable: false, checked: false, adminOnly: true });
    // Nothing of the platform operators; nothing a role could not grant is checked.
    expect(byTitle('入驻审核')).toBeUndefined();
    expect(byTitle('个人设置')).toBeUndefined();
    expect(
      nodes
        .filter((n) => n.checked)
        .map((n) => n.perm)
        .sort(),
    ).toEqual([...DEFAULT_STAFF_PERMS].sort());
    const head = flatten(
      (await t.call<PermNode[]>(permTreeCall.path, { roleId: (await roleByName(admin, '部门主管')).id }, admin)).data,
    );
    expect(head.find((n) => n.title === '部门管理')?.checked).toBe(true);
  });

  it('saves a role permissions, which the tree and list then show, and audits the change', async () => {
    const role = await roleByName(admin, '外勤专员组');
    const saved = await t.call(
      savePermsCall.path,
      { roleId: role.id, perms: ['org:dept:view', 'org:dept:edit', 'org:dept:view'] },
      admin,
    );
    expect(saved.code).toBe(CODE.OK);
    expect((await roleByName(admin, '外勤专员组')).perms).toEqual(['org:dept:edit', 'org:dept:view']);
    const tree = flatten((await t.call<PermNode[]>(permTreeCall.path, { roleId: role.id }, admin)).data);
    expect(tree.filter((n) => n.checked).map((n) => n.title)).toEqual(['部门管理', '编辑部门']);
    const [log] = await audits(1, 'role.perms_change');
    expect(log?.detail).toMatchObject({ added: ['org:dept:edit', 'org:dept:view'], removed: [] });
    expect(log?.userId).not.toBeNull();
  });

  it('refuses permissions a role cannot grant and changes nothing', async () => {
    const role = await roleByName(admin, '外勤专员组');
    for (const bad of ['role:edit', '*:*:*', 'platform:apply:review', 'no:such:perm']) {
      const r = await t.call(savePermsCall.path, { roleId: role.id, perms: ['org:dept:view', bad] }, admin);
      expect(r.code, bad).toBe(CODE.BAD_REQUEST);
      expect(r.msg).toContain(bad);
    }
    expectBadInput(await t.call(savePermsCall.path, { roleId: role.id, perms: 'org:dept:view' }, admin), '功能权限');
    expectBadInput(await t.call(permTreeCall.path, { roleId: 'x' }, admin), '角色ID');
    expect((await roleByName(admin, '外勤专员组')).perms).toEqual(['org:dept:edit', 'org:dept:view']);
  });

  it('refuses signed-out callers and users without the permission', async () => {
    const role = await roleByName(admin, '外勤专员组');
    expectSignedOut(await t.call(permTreeCall.path, { roleId: role.id }));
    expectSignedOut(await t.call(savePermsCall.path, { roleId: role.id, perms: [] }));
    expectNoPermission(await t.call(permTreeCall.path, { roleId: role.id }, operator));
    expectNoPermission(await t.call(savePermsCall.path, { roleId: role.id, perms: [] }, staff));
    expect((await roleByName(admin, '外勤专员组')).perms).toHaveLength(2);
  });

  it("answers 404 for another agency's role", async () => {
    const theirs = await roleByName(other, '普通员工');
    expect((await t.call(permTreeCall.path, { roleId: theirs.id }, admin)).code).toBe(CODE.NOT_FOUND);
    const r = await t.call(savePermsCall.path, { roleId: theirs.id, perms: [] }, admin);
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect((await roleByName(other, '普通员工')).perms).toEqual([...DEFAULT_STAFF_PERMS].sort());
  });
});

describe("a member's roles and posts (saveYhGw, selectMemberRoleList)", () => {
  it('lists the agency members with their roles and posts, not the bound factory staff', async () => {
    const page = await members(admin);
    expect(page.list.map((m) => m.phone)).toEqual([ADMIN, HEAD, STAFF]);
    expect(page.list[0]).toMatchObject({ isAdmin: true, roles: [] });
    expect((await memberOf(admin, ids.staffUser)).roles.map((r) => r.name)).toEqual(['普通员工']);
    expect((await memberOf(admin, ids.staffUser)).stations.map((s) => s.name)).toEqual(['服务顾问']);
    expect((await members(admin, { keyword: '张' })).list.map((m) => m.phone)).toEqual([STAFF]);
    expect((await members(admin, { keyword: '13800000001' })).list.map((m) => m.phone)).toEqual([HEAD]);
    const normal = await roleByName(admin, '普通员工');
    expect((await members(admin, { roleId: normal.id })).total).toBe(2);
    expect((await members(admin, { pageSize: 1, pageNo: 3 })).list.map((m) => m.phone)).toEqual([STAFF]);
    expectSignedOut(await t.call(memberRoleListCall.path, {}));
    expectNoPermission(await t.call(memberRoleListCall.path, {}, operator));
    expect((await members(other)).list.map((m) => m.phone)).toEqual([OTHER_ADMIN]);
  });

  it('a changed role takes effect on the member’s next request', async () => {
    const head = await roleByName(admin, '部门主管');
    const normal = await roleByName(admin, '普通员工');
    const post = await stationIdOf(admin, '主办会计');
    const dept = { name: '张伟试建部门' };
    // 张伟 holds 普通员工: no 编辑部门.
    expect(await perms(staff)).not.toContain('org:dept:edit');
    expectNoPermission(await t.call(saveDepartmentCall.path, dept, staff));

    const r = await t.call(
      saveMemberRolesCall.path,
      { userId: ids.staffUser, roleIds: [head.id], stationIds: [post] },
      admin,
    );
    expect(r.code).toBe(CODE.OK);
    // The same session, no new sign-in.
    expect(await perms(staff)).toContain('org:dept:edit');
    expect((await t.call(saveDepartmentCall.path, dept, staff)).code).toBe(CODE.OK);
    const m = await memberOf(admin, ids.staffUser);
    expect(m.roles.map((x) => x.name)).toEqual(['部门主管']);
    expect(m.stations.map((x) => x.name)).toEqual(['主办会计']);
    const [log] = await audits(1, 'role.member_assign');
    expect(log?.detail).toMatchObject({
      before: { roles: ['普通员工'] },
      after: { roles: ['部门主管'], stationIds: [post] },
    });

    // Taking a permission away from the role also shows on the next request.
    await t.call(
      savePermsCall.path,
      { roleId: head.id, perms: head.perms.filter((p) => p !== 'org:dept:edit') },
      admin,
    );
    expect(await perms(staff)).not.toContain('org:dept:edit');
    expectNoPermission(await t.call(saveDepartmentCall.path, { name: '又一个部门' }, staff));
    await t.call(savePermsCall.path, { roleId: head.id, perms: head.perms }, admin);

    const back = await t.call(
      saveMemberRolesCall.path,
      { userId: ids.staffUser, roleIds: [normal.id], stationIds: [await stationIdOf(admin, '服务顾问')] },
      admin,
    );
    expect(back.code).toBe(CODE.OK);
    expect(await perms(staff)).toEqual([...DEFAULT_STAFF_PERMS].sort());
  });

  it('holds the permissions of all roles together', async () => {
    const normal = await roleByName(admin, '普通员工');
    const extra = await roleByName(admin, '外勤专员组');
    await t.call(
      saveMemberRolesCall.path,
      { userId: ids.staffUser, roleIds: [normal.id, extra.id], stationIds: [] },
      admin,
    );
    expect(await perms(staff)).toContain('org:dept:edit');
    expect((await memberOf(admin, ids.staffUser)).stations).toEqual([]);
    await t.call(saveMemberRolesCall.path, { userId: ids.staffUser, roleIds: [normal.id], stationIds: [] }, admin);
    expect(await perms(staff)).not.toContain('org:dept:edit');
  });

  it('needs at least one role and well-formed ids', async () => {
    expectBadInput(
      await t.call(saveMemberRolesCall.path, { userId: ids.staffUser, roleIds: [], stationIds: [] }, admin),
      '角色',
      '请至少选择一个角色',
    );
    expectBadInput(await t.call(saveMemberRolesCall.path, { userId: ids.staffUser, roleIds: [1] }, admin), '岗位');
    expectBadInput(
      await t.call(saveMemberRolesCall.path, { userId: 0, roleIds: [1], stationIds: [] }, admin),
      '用户ID',
    );
  });

  it('refuses signed-out callers and non-administrators', async () => {
    const head = await roleByName(admin, '部门主管');
    const body = { userId: ids.staffUser, roleIds: [head.id], stationIds: [] };
    expectSignedOut(await t.call(saveMemberRolesCall.path, body));
    expectNoPermission(await t.call(saveMemberRolesCall.path, body, staff));
    expect((await memberOf(admin, ids.staffUser)).roles.map((r) => r.name)).toEqual(['普通员工']);
  });

  it("answers 404 for another agency's member, role or post and changes nothing", async () => {
    const normal = await roleByName(admin, '普通员工');
    const theirRole = await roleByName(other, '部门主管');
    const theirPost = await stationIdOf(other, '主办会计');
    const before = await memberOf(admin, ids.staffUser);
    const cases = [
      { userId: ids.otherUser, roleIds: [normal.id], stationIds: [] },
      { userId: ids.staffUser, roleIds: [normal.id, theirRole.id], stationIds: [] },
      { userId: ids.staffUser, roleIds: [normal.id], stationIds: [theirPost] },
      { userId: 999999, roleIds: [normal.id], stationIds: [] },
    ];
    for (const body of cases) expect((await t.call(saveMemberRolesCall.path, body, admin)).code).toBe(CODE.NOT_FOUND);
    expect(await memberOf(admin, ids.staffUser)).toEqual(before);
    expect((await memberOf(other, ids.otherUser)).roles).toEqual([]);
  });
});

describe('deleting a role (deleteAgencyRole)', () => {
  it('refuses the default role', async () => {
    const normal = await roleByName(admin, '普通员工');
    const r = await t.call(deleteRoleCall.path, { id: normal.id }, admin);
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe('默认角色不可删除');
    expect((await roleByName(admin, '普通员工')).id).toBe(normal.id);
  });

  it('deletes a role; its members keep their other roles, and one left with none gets the default role', async () => {
    const normal = await roleByName(admin, '普通员工');
    const extra = await roleByName(admin, '外勤专员组');
    await t.call(
      saveMemberRolesCall.path,
      { userId: ids.staffUser, roleIds: [normal.id, extra.id], stationIds: [] },
      admin,
    );
    await t.call(saveMemberRolesCall.path, { userId: ids.headUser, roleIds: [extra.id], stationIds: [] }, admin);
    expect((await roleByName(admin, '外勤专员组')).memberCount).toBe(2);

    const r = await t.call(deleteRoleCall.path, { id: extra.id }, admin);
    expect(r.code).toBe(CODE.OK);
    expect((await roles(admin, { name: '外勤专员组' })).total).toBe(0);
    expect((await memberOf(admin, ids.staffUser)).roles.map((x) => x.name)).toEqual(['普通员工']);
    expect((await memberOf(admin, ids.headUser)).roles.map((x) => x.name)).toEqual(['普通员工']);
    expect(await perms(staff)).not.toContain('org:dept:edit');
    const [log] = await audits(1, 'role.delete');
    expect(log?.detail).toMatchObject({ name: '外勤专员组' });
  });

  it('refuses bad input, signed-out callers, non-administrators, and another agency’s role', async () => {
    const spare = (await t.call<{ id: number }>(saveRoleCall.path, { name: '临时角色' }, admin)).data.id;
    expectBadInput(await t.call(deleteRoleCall.path, {}, admin), 'ID');
    expectBadInput(await t.call(deleteRoleCall.path, { id: '1' }, admin), 'ID');
    expectSignedOut(await t.call(deleteRoleCall.path, { id: spare }));
    expectNoPermission(await t.call(deleteRoleCall.path, { id: spare }, staff));
    const theirs = await roleByName(other, '部门主管');
    expect((await t.call(deleteRoleCall.path, { id: theirs.id }, admin)).code).toBe(CODE.NOT_FOUND);
    expect((await roleByName(other, '部门主管')).id).toBe(theirs.id);
    expect((await roleByName(admin, '临时角色')).id).toBe(spare);
  });
});
