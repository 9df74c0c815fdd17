import {
  CODE,
  deleteRoleCall,
  deleteStationCall,
  type MemberRoles,
  memberRoleListCall,
  type RoleItem,
  roleListCall,
  type StationItem,
  type StationMember,
  saveMemberRolesCall,
  savePermsCall,
  saveRoleCall,
  saveStationCall,
  saveStationMembersCall,
  stationCandidatesCall,
  stationListCall,
  stationMembersCall,
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

let t: TestApp;
let admin: string;
let staff: string;
let other: string;
let operator: string;
let users: { admin: number; head: number; staff: number; other: number; factory: number };

type Page<T> = { list: T[]; total: number };

const stations = async (cookie: string, body: object = {}) =>
  (await t.call<Page<StationItem>>(stationListCall.path, body, cookie)).data;
const stationByName = async (cookie: string, name: string) => {
  const s = (await stations(cookie, { pageSize: 500 })).list.find((x) => x.name === name);
  if (!s) throw new Error(`no station ${name}`);
  return s;
};
const membersOf = async (cookie: string, stationId: number) =>
  (await t.call<StationMember[]>(stationMembersCall.path, { stationId }, cookie)).data;
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
  admin = await t.login(ADMIN);
  staff = await t.login(STAFF);
  other = await t.login('13900000000');
  operator = await t.login('13600000000');
  const idOf = async (cookie: string) =>
    (await t.call<{ token: { id: number } }>('userext/v1.0/common/user/session', {}, cookie)).data.token.id;
  users = {
    admin: await idOf(admin),
    head: await idOf(await t.login(HEAD)),
    staff: await idOf(staff),
    other: await idOf(other),
    factory: await idOf(await t.login('13700000000')),
  };
});
afterAll(() => t.close());

describe('post list (user/station/list)', () => {
  it('lists the agency posts, the default 服务顾问 first, with member counts', async () => {
    const page = await stations(admin);
    expect(page.total).toBe(4);
    expect(page.list.map((s) => s.name)).toEqual(['服务顾问', '主办会计', '记账会计', '外勤专员']);
    // New members get 服务顾问: 李晓梅 and 张伟 (the administrator was not added as a member).
    expect(page.list[0]).toMatchObject({ isDefault: true, memberCount: 2 });
    expect(page.list.slice(1).every((s) => !s.isDefault && s.memberCount === 0)).toBe(true);
  });

  it('searches, pages and sorts', async () => {
    expect((await stations(admin, { name: '会计' })).list.map((s) => s.name)).toEqual(['主办会计', '记账会计']);
    expect((await stations(admin, { name: '_' })).total).toBe(0);
    const p2 = await stations(admin, { pageNo: 2, pageSize: 3 });
    expect(p2).toMatchObject({ total: 4, list: [{ name: '外勤专员' }] });
    const byCount = await stations(admin, { sortField: 'memberCount', sortOrder: 'descend' });
    expect(byCount.list[0]?.name).toBe('服务顾问');
    expectNoPermission(await t.call(stationListCall.path, {}, staff));
  });

  it('refuses bad input, signed-out callers and users without the permission; shows only its agency', async () => {
    expectBadInput(await t.call(stationListCall.path, { pageSize: 501 }, admin), '每页条数');
    expectUnknownField(await t.call(stationListCall.path, { agencyId: 2 }, admin), 'agencyId');
    expectSignedOut(await t.call(stationListCall.path, {}));
    expectNoPermission(await t.call(stationListCall.path, {}, operator));
    const mine = (await stations(admin)).list.map((s) => s.id);
    const theirs = (await stations(other)).list.map((s) => s.id);
    expect(theirs).toHaveLength(4);
    expect(theirs.some((id) => mine.includes(id))).toBe(false);
  });
});

describe('saving and deleting posts (user/station/save, user/station/delete)', () => {
  it('adds and renames a post, and audits both', async () => {
    const r = await t.call<{ id: number }>(saveStationCall.path, { name: ' 税务专员 ' }, admin);
    expect(r.code).toBe(CODE.OK);
    expect(await stationByName(admin, '税务专员')).toMatchObject({ id: r.data.id, isDefault: false, memberCount: 0 });
    // A new post goes to the end of the default order.
    expect((await stations(admin)).list.at(-1)?.name).toBe('税务专员');
    expect((await t.call(saveStationCall.path, { id: r.data.id, name: '税务顾问' }, admin)).code).toBe(CODE.OK);
    expect((await stationByName(admin, '税务顾问')).id).toBe(r.data.id);
    expect((await audits('station.create'))[0]?.detail).toMatchObject({ name: '税务专员' });
    expect((await audits('station.update'))[0]?.detail).toMatchObject({ before: '税务专员', after: '税务顾问' });
  });

  it('refuses a duplicate or bad name', async () => {
    const dup = await t.call(saveStationCall.path, { name: '主办会计' }, admin);
    expect(dup).toMatchObject({ code: CODE.CONFLICT, msg: '岗位名称已存在' });
    const own = await stationByName(admin, '主办会计');
    expect((await t.call(saveStationCall.path, { id: own.id, name: '主办会计' }, admin)).code).toBe(CODE.OK);
    expectBadInput(await t.call(saveStationCall.path, { name: '' }, admin), '名称', '请输入岗位名称');
    expectBadInput(
      await t.call(saveStationCall.path, { name: '岗'.repeat(21) }, admin),
      '名称',
      '岗位名称不能超过20个字符',
    );
    // Another agency may use the same name.
    expect((await t.call(saveStationCall.path, { name: '税务顾问' }, other)).code).toBe(CODE.OK);
  });

  it('refuses the default post 服务顾问', async () => {
    const def = await stationByName(admin, '服务顾问');
    const r = await t.call(deleteStationCall.path, { id: def.id }, admin);
    expect(r).toMatchObject({ code: CODE.BAD_REQUEST, msg: '默认岗位不可删除' });
    expect((await stationByName(admin, '服务顾问')).memberCount).toBe(2);
  });

  it('deletes a post with its member list, and audits it', async () => {
    const post = await stationByName(admin, '税务顾问');
    await t.call(saveStationMembersCall.path, { stationId: post.id, userIds: [users.staff] }, admin);
    expect((await t.call(deleteStationCall.path, { id: post.id }, admin)).code).toBe(CODE.OK);
    expect((await stations(admin, { name: '税务顾问' })).total).toBe(0);
    expect((await audits('station.delete'))[0]?.detail).toMatchObject({ name: '税务顾问', userIds: [users.staff] });
    expect((await t.call(stationMembersCall.path, { stationId: post.id }, admin)).code).toBe(CODE.NOT_FOUND);
  });

  it('refuses signed-out callers and 张伟, whose 普通员工 role lacks 编辑岗位', async () => {
    const post = await stationByName(admin, '外勤专员');
    expectSignedOut(await t.call(saveStationCall.path, { name: '越权' }));
    expectSignedOut(await t.call(deleteStationCall.path, { id: post.id }));
    expectNoPermission(await t.call(saveStationCall.path, { name: '越权' }, staff));
    expectNoPermission(await t.call(deleteStationCall.path, { id: post.id }, staff));
    expectBadInput(await t.call(deleteStationCall.path, {}, admin), 'ID');
    expect((await stations(admin, { name: '越权' })).total).toBe(0);
    expect((await stationByName(admin, '外勤专员')).id).toBe(post.id);
  });

  it("answers 404 for another agency's post and changes nothing", async () => {
    const theirs = await stationByName(other, '外勤专员');
    expect((await t.call(saveStationCall.path, { id: theirs.id, name: '改名' }, admin)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(deleteStationCall.path, { id: theirs.id }, admin)).code).toBe(CODE.NOT_FOUND);
    expect(await stationByName(other, '外勤专员')).toMatchObject({ id: theirs.id });
  });
});

describe('post members (getUsersByStationId, saveMembers, candidates)', () => {
  it('lists a post members; phones masked except to the administrator and oneself', async () => {
    const def = await stationByName(admin, '服务顾问');
    expect(await membersOf(admin, def.id)).toEqual([
      { userId: users.head, hymc: '李晓梅', phone: HEAD },
      { userId: users.staff, hymc: '张伟', phone: STAFF },
    ]);
    const undo = await alsoGrant(admin, users.staff, ['station:list:view']);
    expect((await membersOf(staff, def.id)).map((m) => m.phone)).toEqual(['138****0001', '13800000002']);
    await undo();
    expectNoPermission(await t.call(stationMembersCall.path, { stationId: def.id }, staff));
  });

  it('replaces a post members and audits who came and went', async () => {
    const post = await stationByName(admin, '主办会计');
    const r = await t.call(
      saveStationMembersCall.path,
      { stationId: post.id, userIds: [users.staff, users.admin, users.staff] },
      admin,
    );
    expect(r.code).toBe(CODE.OK);
    expect((await membersOf(admin, post.id)).map((m) => m.hymc)).toEqual(['王建国', '张伟']);
    expect((await stationByName(admin, '主办会计')).memberCount).toBe(2);
    await t.call(saveStationMembersCall.path, { stationId: post.id, userIds: [users.head] }, admin);
    expect((await membersOf(admin, post.id)).map((m) => m.hymc)).toEqual(['李晓梅']);
    expect((await audits('station.members_change'))[0]?.detail).toMatchObject({
      added: [users.head],
      removed: expect.arrayContaining([users.staff, users.admin]),
    });
    expect((await t.call(saveStationMembersCall.path, { stationId: post.id, userIds: [] }, admin)).code).toBe(CODE.OK);
    expect(await membersOf(admin, post.id)).toEqual([]);
  });

  it('offers the agency members as candidates (not the bound factory staff)', async () => {
    const r = await t.call<StationMember[]>(stationCandidatesCall.path, {}, admin);
    expect(r.data.map((m) => m.hymc)).toEqual(['王建国', '李晓梅', '张伟']);
    expectSignedOut(await t.call(stationCandidatesCall.path, {}));
    expectNoPermission(await t.call(stationCandidatesCall.path, {}, staff));
    expect((await t.call<StationMember[]>(stationCandidatesCall.path, {}, other)).data.map((m) => m.userId)).toEqual([
      users.other,
    ]);
  });

  it('refuses bad input, signed-out callers and users without the permission', async () => {
    const post = await stationByName(admin, '记账会计');
    expectBadInput(await t.call(stationMembersCall.path, {}, admin), '岗位ID');
    expectBadInput(await t.call(saveStationMembersCall.path, { stationId: post.id }, admin), '成员');
    expectBadInput(await t.call(saveStationMembersCall.path, { stationId: post.id, userIds: ['x'] }, admin), '成员');
    expectSignedOut(await t.call(stationMembersCall.path, { stationId: post.id }));
    expectSignedOut(await t.call(saveStationMembersCall.path, { stationId: post.id, userIds: [] }));
    expectNoPermission(await t.call(stationMembersCall.path, { stationId: post.id }, operator));
    expectNoPermission(
      await t.call(saveStationMembersCall.path, { stationId: post.id, userIds: [users.staff] }, staff),
    );
    expect(await membersOf(admin, post.id)).toEqual([]);
  });

  it("answers 404 for another agency's post or people and changes nothing", async () => {
    const mine = await stationByName(admin, '记账会计');
    const theirs = await stationByName(other, '记账会计');
    expect((await t.call(stationMembersCall.path, { stationId: theirs.id }, admin)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(saveStationMembersCall.path, { stationId: theirs.id, userIds: [] }, admin)).code).toBe(
      CODE.NOT_FOUND,
    );
    for (const outsider of [users.other, users.factory, 999999]) {
      const r = await t.call(
        saveStationMembersCall.path,
        { stationId: mine.id, userIds: [users.staff, outsider] },
        admin,
      );
      expect(r.code, String(outsider)).toBe(CODE.NOT_FOUND);
    }
    expect(await membersOf(admin, mine.id)).toEqual([]);
    expect((await membersOf(other, theirs.id)).length).toBe(0);
  });
});
