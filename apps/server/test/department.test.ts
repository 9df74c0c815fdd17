import {
  CODE,
  changeDepartmentCall,
  type DepartmentInfo,
  type DepartmentMember,
  type DepartmentNode,
  deleteDepartmentCall,
  deleteRoleCall,
  departmentAllStaffCall,
  departmentInfoCall,
  departmentStaffCall,
  departmentTreeCall,
  type MemberRoles,
  memberRoleListCall,
  type RoleItem,
  roleListCall,
  type SessionInfo,
  saveDepartmentCall,
  saveMemberRolesCall,
  savePermsCall,
  saveRoleCall,
  sessionCall,
  unassignedStaffCall,
} from '@dzy/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { auditLog } from '../src/db/schema/index.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, expectUnknownField } from './helpers.js';

let t: TestApp;
let admin: string;
let head: string;
let staff: string;
let other: string;
let operator: string;
let users: { admin: number; head: number; staff: number; other: number; factory: number };
let dept: { one: number; two: number; theirs: number };

const tree = async (cookie: string) => (await t.call<DepartmentNode[]>(departmentTreeCall.path, {}, cookie)).data;
const info = async (id: number, cookie = admin) =>
  (await t.call<DepartmentInfo>(departmentInfoCall.path, { id }, cookie)).data;
const staffOf = async (pid: number, cookie = admin) =>
  (await t.call<DepartmentMember[]>(departmentStaffCall.path, { pid }, cookie)).data;
const unassigned = async (cookie = admin) =>
  (await t.call<DepartmentMember[]>(unassignedStaffCall.path, {}, cookie)).data;
const save = (body: object, cookie = admin) => t.call<{ id: number }>(saveDepartmentCall.path, body, cookie);
const names = (rows: { hymc: string }[]) => rows.map((r) => r.hymc);
const roleOf = async (cookie: string) => (await t.call<SessionInfo>(sessionCall.path, {}, cookie)).data.role;
const audits = (action: string) =>
  inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
    tx
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.agencyId, 1), eq(auditLog.action, action)))
      .orderBy(desc(auditLog.id)),
  );

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
  admin = await t.login('13800000000');
  head = await t.login('13800000001');
  staff = await t.login('13800000002');
  other = await t.login('13900000000');
  operator = await t.login('13600000000');
  const idOf = async (cookie: string) => (await t.call<SessionInfo>(sessionCall.path, {}, cookie)).data.token.id;
  users = {
    admin: await idOf(admin),
    head: await idOf(head),
    staff: await idOf(staff),
    other: await idOf(other),
    factory: await idOf(await t.login('13700000000')),
  };
  const seeded = await tree(admin);
  const theirs = await save({ name: '鸿信财务部' }, other);
  dept = { one: seeded[0]?.id ?? 0, two: seeded[1]?.id ?? 0, theirs: theirs.data.id };
});
afterAll(() => t.close());

describe('the department tree (org/tree) and a department (getOrgInfo)', () => {
  it('shows the departments with their heads and member counts', async () => {
    expect(await tree(admin)).toEqual([
      {
        id: dept.one,
        name: '记账一部',
        directorUserId: users.head,
        directorName: '李晓梅',
        memberCount: 2,
        children: [],
      },
      { id: dept.two, name: '记账二部', directorUserId: null, directorName: null, memberCount: 0, children: [] },
    ]);
    // 普通员工 opens no administration page.
    expectNoPermission(await t.call(departmentTreeCall.path, {}, staff));
    expect(await info(dept.one)).toEqual({
      id: dept.one,
      pid: null,
      name: '记账一部',
      directorUserId: users.head,
      directorName: '李晓梅',
      memberCount: 2,
      childCount: 0,
    });
  });

  it('refuses bad input, signed-out callers and users without the permission', async () => {
    expectUnknownField(await t.call(departmentTreeCall.path, { agencyId: 1 }, admin), 'agencyId');
    expectBadInput(await t.call(departmentInfoCall.path, { id: 'x' }, admin), 'ID');
    expectSignedOut(await t.call(departmentTreeCall.path, {}));
    expectSignedOut(await t.call(departmentInfoCall.path, { id: dept.one }));
    expectNoPermission(await t.call(departmentTreeCall.path, {}, operator));
    expectNoPermission(await t.call(departmentInfoCall.path, { id: dept.one }, operator));
  });

  it('another agency sees only its own departments', async () => {
    expect((await tree(other)).map((d) => d.name)).toEqual(['鸿信财务部']);
    expect((await t.call(departmentInfoCall.path, { id: dept.theirs }, admin)).code).toBe(CODE.NOT_FOUND);
  });
});

describe('saving a department (saveOrgAndDirectorInfo)', () => {
  let audit: number;
  let group: number;

  it('adds top-level and sub-departments, and audits them', async () => {
    const a = await save({ name: ' 审计部 ' });
    expect(a.code).toBe(CODE.OK);
    audit = a.data.id;
    const g = await save({ name: '审计一组', pid: audit });
    expect(g.code).toBe(CODE.OK);
    group = g.data.id;
    const top = await tree(admin);
    expect(top.map((d) => d.name)).toEqual(['记账一部', '记账二部', '审计部']);
    expect(top[2]?.children.map((d) => d.name)).toEqual(['审计一组']);
    expect((await info(audit)).childCount).toBe(1);
    expect((await audits('department.create'))[0]?.detail).toMatchObject({ name: '审计一组', pid: audit });
  });

  it('keeps names unique among siblings only', async () => {
    const dup = await save({ name: '记账一部' });
    expect(dup).toMatchObject({ code: CODE.CONFLICT, msg: '部门名称已存在' });
    expect((await save({ name: '审计一组', pid: audit })).msg).toBe('部门名称已存在');
    expect((await save({ id: group, name: '审计一组', pid: audit })).code).toBe(CODE.OK);
    const cousin = await save({ name: '审计一组' });
    expect(cousin.code).toBe(CODE.OK);
    expect((await t.call(deleteDepartmentCall.path, { id: cousin.data.id }, admin)).code).toBe(CODE.OK);
  });

  it('checks the name', async () => {
    expectBadInput(await save({ name: ' ' }), '名称', '请输入部门名称');
    expectBadInput(await save({}), '名称');
    expectBadInput(await save({ name: '部'.repeat(31) }), '名称', '部门名称不能超过30个字符');
    expect((await save({ name: '部'.repeat(30), pid: group })).code).toBe(CODE.OK);
    expectBadInput(await save({ name: '好', pid: 'x' }), '上级部门');
  });

  it('renames and moves a department, never under itself or below it', async () => {
    expect((await save({ id: audit, name: '审计部', pid: group })).msg).toBe('上级部门不能是本部门或其下级部门');
    expect((await save({ id: audit, name: '审计部', pid: audit })).msg).toBe('上级部门不能是本部门或其下级部门');
    expect((await save({ id: group, name: '审计A组', pid: null })).code).toBe(CODE.OK);
    expect((await info(group)).pid).toBeNull();
    // Without pid the parent stays.
    expect((await save({ id: group, name: '审计B组' })).code).toBe(CODE.OK);
    expect(await info(group)).toMatchObject({ pid: null, name: '审计B组' });
    expect((await audits('department.update'))[0]?.detail).toMatchObject({
      before: { name: '审计A组' },
      after: { name: '审计B组' },
    });
    await save({ id: group, name: '审计一组', pid: audit });
  });

  it('makes a member head: role label 2, placed in that department, audited; removing the head undoes the label', async () => {
    expect(await roleOf(staff)).toBe(0);
    expect((await save({ id: dept.two, name: '记账二部', directorUserId: users.staff })).code).toBe(CODE.OK);
    expect(await info(dept.two)).toMatchObject({ directorUserId: users.staff, directorName: '张伟', memberCount: 1 });
    expect(await roleOf(staff)).toBe(2);
    expect(names(await staffOf(dept.two))).toEqual(['张伟']);
    expect(names(await staffOf(dept.one))).toEqual(['李晓梅']);
    expect((await audits('department.director_change'))[0]?.detail).toMatchObject({ from: null, to: users.staff });

    expect((await save({ id: dept.two, name: '记账二部', directorUserId: null })).code).toBe(CODE.OK);
    expect(await info(dept.two)).toMatchObject({ directorUserId: null, directorName: null, memberCount: 1 });
    expect(await roleOf(staff)).toBe(0);
    expect((await audits('department.director_change'))[0]?.detail).toMatchObject({
      from: users.staff,
      to: null,
      demoted: [users.staff],
    });
    await t.call(changeDepartmentCall.path, { userIds: [users.staff], orgId: dept.one }, admin);
  });

  it('a head directs one department: heading another ends the first', async () => {
    const created = await save({ name: '外勤部', directorUserId: users.head });
    expect(created.code).toBe(CODE.OK);
    expect((await info(dept.one)).directorUserId).toBeNull();
    expect(await info(created.data.id)).toMatchObject({ directorName: '李晓梅', memberCount: 1 });
    expect(await roleOf(head)).toBe(2);
    // Back as it was.
    await save({ id: dept.one, name: '记账一部', directorUserId: users.head });
    expect((await t.call(deleteDepartmentCall.path, { id: created.data.id }, admin)).code).toBe(CODE.OK);
    expect(await info(dept.one)).toMatchObject({ directorUserId: users.head, memberCount: 2 });
    expect(await roleOf(head)).toBe(2);
  });

  it('the administrator may head a department and stays administrator', async () => {
    const d = await save({ name: '总经办', directorUserId: users.admin });
    expect(await roleOf(admin)).toBe(1);
    expect(names(await staffOf(d.data.id))).toEqual(['王建国']);
    await t.call(deleteDepartmentCall.path, { id: d.data.id }, admin);
    expect(await roleOf(admin)).toBe(1);
    expect(names(await unassigned())).toEqual(['王建国']);
  });

  it('refuses signed-out callers and 张伟, whose 普通员工 role lacks 编辑部门', async () => {
    expectSignedOut(await save({ name: '越权部门' }, ''));
    expectNoPermission(await save({ name: '越权部门' }, staff));
    expectNoPermission(await save({ id: dept.one, name: '改名' }, staff));
    expect((await tree(admin)).some((d) => d.name === '越权部门' || d.name === '改名')).toBe(false);
  });

  it("answers 404 for another agency's department, parent or head, and changes nothing", async () => {
    expect((await save({ id: dept.theirs, name: '被改名' })).code).toBe(CODE.NOT_FOUND);
    expect((await save({ name: '挂到别家', pid: dept.theirs })).code).toBe(CODE.NOT_FOUND);
    expect((await save({ id: dept.two, name: '记账二部', directorUserId: users.other })).code).toBe(CODE.NOT_FOUND);
    expect((await save({ id: dept.two, name: '记账二部', directorUserId: users.factory })).code).toBe(CODE.NOT_FOUND);
    expect((await save({ name: '新部门', directorUserId: 999999 })).code).toBe(CODE.NOT_FOUND);
    expect((await tree(other)).map((d) => d.name)).toEqual(['鸿信财务部']);
    expect((await tree(admin)).map((d) => d.name)).not.toContain('挂到别家');
    expect((await tree(admin)).map((d) => d.name)).not.toContain('新部门');
    expect((await info(dept.two)).directorUserId).toBeNull();
  });
});

describe('members of departments (getOrgStaffs, getUnassigned, getAgencyStaffs)', () => {
  it('lists a department members, heads first; phones masked except to the administrator and oneself', async () => {
    const rows = await staffOf(dept.one);
    expect(rows).toEqual([
      expect.objectContaining({
        userId: users.head,
        hymc: '李晓梅',
        phone: '13800000001',
        role: 2,
        departmentName: '记账一部',
      }),
      expect.objectContaining({
        userId: users.staff,
        hymc: '张伟',
        phone: '13800000002',
        role: 0,
        departmentId: dept.one,
      }),
    ]);
    const undo = await alsoGrant(admin, users.staff, ['org:dept:view']);
    expect((await staffOf(dept.one, staff)).map((m) => m.phone)).toEqual(['138****0001', '13800000002']);
    // Seeing departments is not editing them.
    expectNoPermission(await save({ name: '越权部门' }, staff));
    await undo();
  });

  it('lists members without a department and all members, never the bound factory staff', async () => {
    expect(await unassigned()).toEqual([
      expect.objectContaining({ userId: users.admin, isAdmin: true, departmentId: null }),
    ]);
    const all = (await t.call<DepartmentMember[]>(departmentAllStaffCall.path, {}, admin)).data;
    expect(all.map((m) => [m.hymc, m.departmentName])).toEqual([
      ['王建国', null],
      ['李晓梅', '记账一部'],
      ['张伟', '记账一部'],
    ]);
  });

  it('refuses bad input, signed-out callers, users without the permission and another agency’s department', async () => {
    expectBadInput(await t.call(departmentStaffCall.path, {}, admin), '上级部门');
    expectSignedOut(await t.call(departmentStaffCall.path, { pid: dept.one }));
    expectSignedOut(await t.call(unassignedStaffCall.path, {}));
    expectSignedOut(await t.call(departmentAllStaffCall.path, {}));
    expectNoPermission(await t.call(departmentStaffCall.path, { pid: dept.one }, operator));
    expectNoPermission(await t.call(unassignedStaffCall.path, {}, operator));
    expectNoPermission(await t.call(departmentAllStaffCall.path, {}, operator));
    expect((await t.call(departmentStaffCall.path, { pid: dept.theirs }, admin)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call<DepartmentMember[]>(unassignedStaffCall.path, {}, other)).data.map((m) => m.userId)).toEqual([
      users.other,
    ]);
  });
});

describe('moving members (changePersonOrg)', () => {
  it('moves members to a department and back to unassigned, and audits it', async () => {
    const r = await t.call(changeDepartmentCall.path, { userIds: [users.staff, users.admin], orgId: dept.two }, admin);
    expect(r.code).toBe(CODE.OK);
    expect(names(await staffOf(dept.two))).toEqual(['王建国', '张伟']);
    expect(await unassigned()).toEqual([]);
    expect((await audits('department.members_move'))[0]?.detail).toMatchObject({
      to: { id: dept.two, name: '记账二部' },
    });
    await t.call(changeDepartmentCall.path, { userIds: [users.admin], orgId: null }, admin);
    expect(names(await unassigned())).toEqual(['王建国']);
    await t.call(changeDepartmentCall.path, { userIds: [users.staff], orgId: dept.one }, admin);
  });

  it('a head moved out of the department they direct stops directing it', async () => {
    await t.call(changeDepartmentCall.path, { userIds: [users.head], orgId: dept.two }, admin);
    expect((await info(dept.one)).directorUserId).toBeNull();
    expect(await roleOf(head)).toBe(0);
    expect((await audits('department.members_move'))[0]?.detail).toMatchObject({
      directorshipsEnded: [dept.one],
      demoted: [users.head],
    });
    await t.call(changeDepartmentCall.path, { userIds: [users.head], orgId: dept.one }, admin);
    await save({ id: dept.one, name: '记账一部', directorUserId: users.head });
    expect(await roleOf(head)).toBe(2);
  });

  it('refuses bad input, signed-out callers and 张伟, who lacks 调整部门', async () => {
    expectBadInput(
      await t.call(changeDepartmentCall.path, { userIds: [], orgId: dept.two }, admin),
      '成员',
      '请选择成员',
    );
    expectBadInput(await t.call(changeDepartmentCall.path, { userIds: [users.staff] }, admin), '组织ID');
    expectSignedOut(await t.call(changeDepartmentCall.path, { userIds: [users.staff], orgId: dept.two }));
    expectNoPermission(await t.call(changeDepartmentCall.path, { userIds: [users.staff], orgId: dept.two }, staff));
    expect(names(await staffOf(dept.one))).toEqual(['李晓梅', '张伟']);
  });

  it("answers 404 for another agency's department or members and changes nothing", async () => {
    expect((await t.call(changeDepartmentCall.path, { userIds: [users.staff], orgId: dept.theirs }, admin)).code).toBe(
      CODE.NOT_FOUND,
    );
    for (const outsider of [users.other, users.factory]) {
      const r = await t.call(changeDepartmentCall.path, { userIds: [users.staff, outsider], orgId: dept.two }, admin);
      expect(r.code).toBe(CODE.NOT_FOUND);
    }
    expect(names(await staffOf(dept.one))).toEqual(['李晓梅', '张伟']);
    expect((await t.call<DepartmentMember[]>(unassignedStaffCall.path, {}, other)).data).toHaveLength(1);
  });
});

describe('deleting a department (deleteOrg)', () => {
  it('refuses while it has sub-departments', async () => {
    const audit = (await tree(admin)).find((d) => d.name === '审计部');
    if (!audit) throw new Error('no 审计部');
    const r = await t.call(deleteDepartmentCall.path, { id: audit.id }, admin);
    expect(r).toMatchObject({ code: CODE.BAD_REQUEST, msg: '请先删除下级部门' });
    expect((await tree(admin)).find((d) => d.name === '审计部')?.children).toHaveLength(1);
  });

  it('deletes a department; its members become unassigned and its head a department employee', async () => {
    const r = await t.call(deleteDepartmentCall.path, { id: dept.one }, admin);
    expect(r.code).toBe(CODE.OK);
    expect((await tree(admin)).map((d) => d.name)).toEqual(['记账二部', '审计部']);
    expect(names(await unassigned())).toEqual(['王建国', '李晓梅', '张伟']);
    expect(await roleOf(head)).toBe(0);
    expect((await audits('department.delete'))[0]?.detail).toMatchObject({
      name: '记账一部',
      directorUserId: users.head,
      unassigned: expect.arrayContaining([users.head, users.staff]),
      demoted: [users.head],
    });
    expect((await t.call(departmentInfoCall.path, { id: dept.one }, admin)).code).toBe(CODE.NOT_FOUND);
  });

  it('refuses bad input, signed-out callers, 张伟, and another agency’s department', async () => {
    expectBadInput(await t.call(deleteDepartmentCall.path, {}, admin), 'ID');
    expectSignedOut(await t.call(deleteDepartmentCall.path, { id: dept.two }));
    expectNoPermission(await t.call(deleteDepartmentCall.path, { id: dept.two }, staff));
    expect((await t.call(deleteDepartmentCall.path, { id: dept.theirs }, admin)).code).toBe(CODE.NOT_FOUND);
    expect((await tree(other)).map((d) => d.name)).toEqual(['鸿信财务部']);
    expect((await tree(admin)).map((d) => d.name)).toContain('记账二部');
  });
});
