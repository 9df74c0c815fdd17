import {
  acceptInviteCall,
  CODE,
  cancelAgInviteLogCall,
  DEFAULT_STAFF_PERMS,
  deleteAgInviteLogCall,
  getAgencyInviteLogListCall,
  getInviteInfoCall,
  getStaffOptionsCall,
  INVITE_VALID_DAYS,
  type InviteInfo,
  MSG,
  type SessionInfo,
  STAFF_CODE,
  STAFF_MSG,
  saveAgencyInviteCall,
  sessionCall,
} from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments, invites, memberships, users } from '../src/db/schema/index.js';
import { startTestApp, type TestApp } from './harness.js';
import {
  expectBadInput,
  expectNoPermission,
  expectSignedOut,
  expectUnknownField,
  outboxFor,
  registerBySms,
} from './helpers.js';
import {
  ADMIN,
  auditOf,
  byName,
  DEMO_AGENCY_NAME,
  FACTORY,
  grantRole,
  ID,
  inAgency,
  inviteIdFromSms,
  inviteLogOf,
  LI,
  OTHER_ADMIN,
  staffOf,
  ZHANG,
} from './staff-helpers.js';

let t: TestApp;
let admin: string;
let zhang: string;
let otherAdmin: string;
/** 记账一部 and 记账二部 of the demo agency; a department of the other agency. */
let dept1: number;
let dept2: number;
let otherDept: number;

beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      await owner.insert(departments).values({ agencyId: 2, name: '鸿信一部' });
    },
  });
  admin = await t.login(ADMIN);
  zhang = await t.login(ZHANG);
  otherAdmin = await t.login(OTHER_ADMIN);
  const opts = await t.call<{ departments: { id: number; label: string }[] }>(getStaffOptionsCall.path, {}, admin);
  dept1 = opts.data.departments.find((d) => d.label === '记账一部')?.id ?? 0;
  dept2 = opts.data.departments.find((d) => d.label === '记账二部')?.id ?? 0;
  const other = await t.call<{ departments: { id: number; label: string }[] }>(
    getStaffOptionsCall.path,
    {},
    otherAdmin,
  );
  otherDept = other.data.departments[0]?.id ?? 0;
  expect([dept1, dept2, otherDept].every((id) => id > 0)).toBe(true);
});
afterAll(() => t.close());

const invite = (body: unknown, cookie = admin) => t.call<{ id: number }>(saveAgencyInviteCall.path, body, cookie);
const invitesTo = (agencyId: number, phone: string) =>
  inAgency(t, agencyId, (tx) =>
    tx
      .select()
      .from(invites)
      .where(and(eq(invites.agencyId, agencyId), eq(invites.phone, phone))),
  );

describe('saveAgencyInvite', () => {
  it('creates a pending invitation valid 7 days and texts the invitee the agency name and the link', async () => {
    const r = await invite({ sjh: '13800000009', hymc: '周小青', role: 0, departmentId: dept2 });
    expect(r.code).toBe(CODE.OK);
    const id = r.data.id;
    const [sms] = await outboxFor(t, '13800000009');
    expect(sms?.content).toContain(DEMO_AGENCY_NAME);
    expect(sms?.content).toContain('王建国');
    expect(sms?.content).toContain(`#/acceptInvite?id=${id}`);
    expect(await inviteIdFromSms(t, '13800000009')).toBe(id);

    const log = await inviteLogOf(t, admin);
    const row = log.list.find((i) => i.id === id);
    expect(row).toMatchObject({
      sjh: '13800000009',
      hymc: '周小青',
      role: 0,
      departmentName: '记账二部',
      inviterName: '王建国',
      status: 0,
      statusName: '待接受',
      acceptedAt: null,
    });
    const days = (Date.parse(row?.expiresAt ?? '') - Date.parse(row?.createdAt ?? '')) / 86_400_000;
    expect(days).toBeCloseTo(INVITE_VALID_DAYS, 2);
    const [rec] = await auditOf(t, 1, 'staff.invite');
    expect(rec).toMatchObject({ userId: ID.admin, target: `invite:${id}` });
    expect(rec?.detail).toMatchObject({ phone: '138****0009', role: 0, departmentId: dept2 });
  });

  it('refuses a phone that already belongs to a member with code 101', async () => {
    const r = await invite({ sjh: ZHANG, role: 0 });
    expect(r.code).toBe(STAFF_CODE.alreadyMember);
    expect(r.msg).toBe('该用户已加入代理机构，不能重复加入');
    expect(await invitesTo(1, ZHANG)).toHaveLength(0);
  });

  it('refuses a second pending invitation for the same phone', async () => {
    const r = await invite({ sjh: '13800000009', role: 2, departmentId: dept1 });
    expect(r.code).toBe(CODE.CONFLICT);
    expect(r.msg).toBe(STAFF_MSG.invitePending);
    expect(await invitesTo(1, '13800000009')).toHaveLength(1);
  });

  it('refuses bad input naming the field, and creates nothing', async () => {
    expectBadInput(await invite({ sjh: '123', role: 0 }), '手机号', '请输入正确的手机号');
    expectBadInput(await invite({ sjh: '', role: 0 }), '手机号', '手机号不能为空');
    expectBadInput(await invite({ role: 0 }), '手机号');
    expectBadInput(await invite({ sjh: '13800000010', role: 1 }), '角色', '请选择角色标签');
    expectBadInput(await invite({ sjh: '13800000010' }), '角色', '请选择角色标签');
    expectBadInput(await invite({ sjh: '13800000010', role: 2 }), '部门ID', '部门负责人须选择部门');
    expectBadInput(
      await invite({ sjh: '13800000010', role: 0, hymc: '名'.repeat(21) }),
      '姓名',
      '姓名不能超过20个字符',
    );
    expectUnknownField(await invite({ sjh: '13800000010', role: 0, agencyId: 2 }), 'agencyId');
    expect(await invitesTo(1, '13800000010')).toHaveLength(0);
  });

  it('refuses a department of another agency as not found, and creates nothing', async () => {
    const r = await invite({ sjh: '13800000010', role: 0, departmentId: otherDept });
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect(await invitesTo(1, '13800000010')).toHaveLength(0);
    expect(await invitesTo(2, '13800000010')).toHaveLength(0);
  });

  it('refuses without a session, and without the permission (张伟 holds the default role)', async () => {
    expectSignedOut(await t.call(saveAgencyInviteCall.path, { sjh: '13800000010', role: 0 }));
    expectNoPermission(await invite({ sjh: '13800000010', role: 0 }, zhang));
    expect(await invitesTo(1, '13800000010')).toHaveLength(0);
  });

  it('is refused to an accounting factory session: invitations go to the agency itself', async () => {
    // A factory acting for its agency holds no staff permission, its administrator included.
    const factory = await t.login(FACTORY);
    const r = await invite({ sjh: '13800000010', role: 0 }, factory);
    expect(r.code).toBe(CODE.NO_PERMISSION);
    expect(await invitesTo(1, '13800000010')).toHaveLength(0);
  });
});

describe('getAgencyInviteLogList', () => {
  it("lists only the caller's agency, filtered by status and paged", async () => {
    const theirs = await invite({ sjh: '13900000011', role: 0 }, otherAdmin);
    expect(theirs.code).toBe(CODE.OK);
    const mine = await inviteLogOf(t, admin);
    expect(mine.list.map((i) => i.sjh)).not.toContain('13900000011');
    const other = await inviteLogOf(t, otherAdmin);
    expect(other.list.map((i) => i.sjh)).toEqual(['13900000011']);

    await invite({ sjh: '13800000011', role: 0 });
    await invite({ sjh: '13800000012', role: 0 });
    const page = await t.call<{ list: unknown[]; total: number }>(
      getAgencyInviteLogListCall.path,
      { pageNo: 1, pageSize: 20, status: 0 },
      admin,
    );
    expect(page.data.total).toBe(3);
    expect((await inviteLogOf(t, admin, { status: 2 })).total).toBe(0);
    expect((await inviteLogOf(t, admin, { sjh: '0012' })).list.map((i) => i.sjh)).toEqual(['13800000012']);
  });

  it('is readable with 员工管理 only, not with the default role alone (张伟)', async () => {
    const li = await t.login(LI);
    await grantRole(t, 1, ID.li, '员工查看', ['staff:list:view']);
    expect((await t.call(getAgencyInviteLogListCall.path, {}, li)).code).toBe(CODE.OK);
    expectNoPermission(await t.call(getAgencyInviteLogListCall.path, {}, zhang));
  });

  it('refuses bad input, no session, and a user outside any agency', async () => {
    expectBadInput(await t.call(getAgencyInviteLogListCall.path, { pageSize: 7 }, admin), '每页条数');
    expectBadInput(await t.call(getAgencyInviteLogListCall.path, { status: 9 }, admin), '状态');
    expectSignedOut(await t.call(getAgencyInviteLogListCall.path, {}));
    const loner = await registerBySms(t, '13811112222');
    expectNoPermission(await t.call(getAgencyInviteLogListCall.path, {}, loner));
  });
});

describe('cancelAgInviteLog and deleteAgInviteLog', () => {
  let id: number;
  beforeAll(async () => {
    id = (await invite({ sjh: '13800000013', role: 0 })).data.id;
  });

  it('refuses to delete a pending invitation', async () => {
    const r = await t.call(deleteAgInviteLogCall.path, { id }, admin);
    expect(r.code).toBe(CODE.CONFLICT);
    expect(r.msg).toBe('只能删除已取消或已过期的邀请记录');
  });

  it('refuses without a session or without the permission, and another agency', async () => {
    expectSignedOut(await t.call(cancelAgInviteLogCall.path, { id }));
    expectNoPermission(await t.call(cancelAgInviteLogCall.path, { id }, zhang));
    expectNoPermission(await t.call(deleteAgInviteLogCall.path, { id }, zhang));
    const r = await t.call(cancelAgInviteLogCall.path, { id }, otherAdmin);
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect((await t.call(deleteAgInviteLogCall.path, { id }, otherAdmin)).code).toBe(CODE.NOT_FOUND);
    expect((await invitesTo(1, '13800000013'))[0]?.status).toBe(0);
  });

  it('refuses bad input', async () => {
    expectBadInput(await t.call(cancelAgInviteLogCall.path, { id: 0 }, admin), 'ID');
    expectBadInput(await t.call(cancelAgInviteLogCall.path, { id: '1' }, admin), 'ID');
    expectBadInput(await t.call(deleteAgInviteLogCall.path, {}, admin), 'ID');
  });

  it('cancels a pending invitation (audited), once', async () => {
    const r = await t.call(cancelAgInviteLogCall.path, { id }, admin);
    expect(r.code).toBe(CODE.OK);
    const row = (await inviteLogOf(t, admin, { status: 2 })).list.find((i) => i.id === id);
    expect(row?.statusName).toBe('已取消');
    expect((await auditOf(t, 1, 'staff.invite_cancel'))[0]?.target).toBe(`invite:${id}`);
    const again = await t.call(cancelAgInviteLogCall.path, { id }, admin);
    expect(again.code).toBe(CODE.CONFLICT);
    expect(again.msg).toBe('只能取消待接受的邀请');
  });

  it('deletes a cancelled invitation, and an expired one', async () => {
    expect((await t.call(deleteAgInviteLogCall.path, { id }, admin)).code).toBe(CODE.OK);
    expect(await invitesTo(1, '13800000013')).toHaveLength(0);
    expect((await auditOf(t, 1, 'staff.invite_delete'))[0]?.target).toBe(`invite:${id}`);

    const old = (await invite({ sjh: '13800000014', role: 0 })).data.id;
    await inAgency(t, 1, (tx) =>
      tx.update(invites).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(invites.id, old)),
    );
    const expired = (await inviteLogOf(t, admin, { status: 3 })).list.map((i) => [i.id, i.statusName]);
    expect(expired).toEqual([[old, '已过期']]);
    expect((await t.call(cancelAgInviteLogCall.path, { id: old }, admin)).code).toBe(CODE.CONFLICT);
    expect((await t.call(deleteAgInviteLogCall.path, { id: old }, admin)).code).toBe(CODE.OK);
    // An expired invitation no longer blocks a new one.
    expect((await invite({ sjh: '13800000014', role: 0 })).code).toBe(CODE.OK);
  });
});

describe('getInviteInfo and acceptInvite', () => {
  let id: number;
  let invitee: string;
  beforeAll(async () => {
    id = await inviteIdFromSms(t, '13800000009');
    invitee = await registerBySms(t, '13800000009');
  });

  it('shows the invitee the agency, the inviter and the department', async () => {
    const r = await t.call<InviteInfo>(getInviteInfoCall.path, { id }, invitee);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({
      id,
      agencyName: DEMO_AGENCY_NAME,
      inviterName: '王建国',
      sjh: '13800000009',
      hymc: '周小青',
      departmentName: '记账二部',
      status: 0,
      statusName: '待接受',
      alreadyMember: false,
    });
  });

  it('hides an invitation from anyone but the invitee, even inside the inviting agency', async () => {
    for (const cookie of [zhang, admin, otherAdmin]) {
      const r = await t.call(getInviteInfoCall.path, { id }, cookie);
      expect(r.code).toBe(CODE.NOT_FOUND);
      expect((await t.call(acceptInviteCall.path, { id }, cookie)).code).toBe(CODE.NOT_FOUND);
    }
    expect((await invitesTo(1, '13800000009'))[0]?.status).toBe(0);
  });

  it('refuses without a session and bad input', async () => {
    expectSignedOut(await t.call(getInviteInfoCall.path, { id }));
    expectSignedOut(await t.call(acceptInviteCall.path, { id }));
    expectBadInput(await t.call(acceptInviteCall.path, { id: -1 }, invitee), 'ID');
    expectUnknownField(await t.call(acceptInviteCall.path, { id, orgId: 2 }, invitee), 'orgId');
  });

  it('joins the agency with the default role and post, takes the given name, and switches the session', async () => {
    const before = await t.call<SessionInfo>(sessionCall.path, {}, invitee);
    expect(before.data.orgId).toBeNull();
    const r = await t.call<{ orgId: number; orgName: string }>(acceptInviteCall.path, { id }, invitee);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toEqual({ orgId: 1, orgName: DEMO_AGENCY_NAME });

    const after = await t.call<SessionInfo>(sessionCall.path, {}, invitee);
    expect(after.data).toMatchObject({ orgId: 1, orgName: DEMO_AGENCY_NAME, isAdmin: '0', role: 0 });
    expect(after.data.token.hymc).toBe('周小青');
    expect(after.data.perms).toEqual([...DEFAULT_STAFF_PERMS].sort());

    const me = byName((await staffOf(t, admin)).list, '周小青');
    expect(me).toMatchObject({
      phone: '13800000009',
      role: 0,
      isAdmin: '0',
      departmentName: '记账二部',
      stations: ['服务顾问'],
      roles: ['普通员工'],
      clientCount: 0,
    });
    const log = await inviteLogOf(t, admin, { status: 1 });
    expect(log.list.find((i) => i.id === id)?.acceptedAt).not.toBeNull();
    const [rec] = await auditOf(t, 1, 'staff.invite_accept');
    expect(rec).toMatchObject({ target: `invite:${id}`, detail: { inviterId: ID.admin } });
  });

  it('cannot be accepted twice, and a member cannot be invited again', async () => {
    const again = await t.call(acceptInviteCall.path, { id }, invitee);
    expect(again.code).toBe(CODE.CONFLICT);
    expect(again.msg).toBe('该邀请已接受');
    const info = await t.call<InviteInfo>(getInviteInfoCall.path, { id }, invitee);
    expect(info.data).toMatchObject({ status: 1, alreadyMember: true });
    expect((await invite({ sjh: '13800000009', role: 0 })).code).toBe(STAFF_CODE.alreadyMember);
  });

  it('refuses a cancelled or expired invitation, and changes nothing', async () => {
    const cancelledId = (await invite({ sjh: '13800000015', role: 0 })).data.id;
    await t.call(cancelAgInviteLogCall.path, { id: cancelledId }, admin);
    const who = await registerBySms(t, '13800000015');
    const c = await t.call(acceptInviteCall.path, { id: cancelledId }, who);
    expect(c.code).toBe(CODE.CONFLICT);
    expect(c.msg).toBe('该邀请已取消，请联系邀请人重新邀请');

    const lateId = (await invite({ sjh: '13800000015', role: 0 })).data.id;
    await inAgency(t, 1, (tx) =>
      tx.update(invites).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(invites.id, lateId)),
    );
    const e = await t.call(acceptInviteCall.path, { id: lateId }, who);
    expect(e.code).toBe(CODE.CONFLICT);
    expect(e.msg).toBe('该邀请已过期，请联系邀请人重新邀请');
    expect(byName((await staffOf(t, admin)).list, '')).toBeUndefined();
    expect((await t.call<SessionInfo>(sessionCall.path, {}, who)).data.orgId).toBeNull();
  });

  it("lets a member of another agency join too, but never through another agency's invitation", async () => {
    // 陈思远 (agency 2's administrator) is invited by agency 1 and accepts: he now belongs to both.
    const r = await invite({ sjh: OTHER_ADMIN, role: 0 });
    expect(r.code).toBe(CODE.OK);
    const other = await t.login(OTHER_ADMIN);
    const ok = await t.call(acceptInviteCall.path, { id: r.data.id }, other);
    expect(ok.code).toBe(CODE.OK);
    expect((await t.call<SessionInfo>(sessionCall.path, {}, other)).data.orgId).toBe(1);
    // Agency 2's invitation to 13900000011 cannot be accepted by 张伟.
    const theirs = (await inviteLogOf(t, otherAdmin)).list.find((i) => i.sjh === '13900000011');
    expect((await t.call(acceptInviteCall.path, { id: theirs?.id }, zhang)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call<SessionInfo>(sessionCall.path, {}, zhang)).data.orgId).toBe(1);
  });

  it('answers 101 when the invitee already belongs to the agency', async () => {
    // An invitation written straight into the table to someone who is a member already.
    const [row] = await inAgency(t, 1, (tx) =>
      tx
        .insert(invites)
        .values({ agencyId: 1, phone: ZHANG, inviterId: ID.admin, expiresAt: sql`now() + interval '1 day'` })
        .returning({ id: invites.id }),
    );
    const r = await t.call(acceptInviteCall.path, { id: row?.id }, zhang);
    expect(r.code).toBe(STAFF_CODE.alreadyMember);
    expect(r.msg).toBe(STAFF_MSG.alreadyMember);
    const rows = await inAgency(t, 1, (tx) =>
      tx
        .select()
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.agencyId, 1), eq(users.phone, ZHANG))),
    );
    expect(rows).toHaveLength(1);
    expect(MSG.noPermission).toBeTruthy();
  });
});
