import {
  CODE,
  copyCommandCall,
  DELETE_PERSONAL_MSG,
  DELETE_PERSONAL_WORD,
  deletePersonalCall,
  getPhoneSettingInfoCall,
  getStaffOptionsCall,
  type PhoneSetting,
  parseInviteLines,
  saveAgencyInviteCall,
  saveAgencyInviteListCall,
  savePhoneSettingCall,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments, enterprises, invites } from '../src/db/schema/index.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, outboxFor } from './helpers.js';
import {
  ADMIN,
  auditOf,
  byName,
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
let otherDept: number;

type BatchReply = {
  sent: number;
  failed: number;
  results: { sjh: string; hymc: string; ok: boolean; msg: string; id: number | null }[];
};

beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      await owner.insert(departments).values({ agencyId: 2, name: '鸿信一部' });
    },
  });
  admin = await t.login(ADMIN);
  zhang = await t.login(ZHANG);
  otherAdmin = await t.login(OTHER_ADMIN);
  // 李晓梅 may see the staff list and invite, as a role grants; 号码显示设置 stays the administrator's.
  await grantRole(t, 1, ID.li, '人事', ['staff:list:view', 'staff:invite', 'staff:phone:setting']);
  li = await t.login(LI);
  const other = await t.call<{ departments: { id: number }[] }>(getStaffOptionsCall.path, {}, otherAdmin);
  otherDept = other.data.departments[0]?.id ?? 0;
  expect(otherDept).toBeGreaterThan(0);
}, 900_000);
afterAll(() => t.close());

const batch = (body: unknown, cookie = admin) => t.call<BatchReply>(saveAgencyInviteListCall.path, body, cookie);
const invitesTo = (phone: string) =>
  inAgency(t, 1, (tx) =>
    tx
      .select()
      .from(invites)
      .where(and(eq(invites.agencyId, 1), eq(invites.phone, phone))),
  );

describe('saveAgencyInviteList: a batch of invitations with a result per phone', () => {
  it('sends the good phones and answers each bad one with its reason', async () => {
    await t.call(saveAgencyInviteCall.path, { sjh: '13500000011', role: 0 }, admin);
    const pasted = parseInviteLines(
      ['13500000010 王一', '135 0000 0012，赵二', '12345', '13500000010', ZHANG, '13500000011', ''].join('\n'),
    );
    const r = await batch({ list: pasted, role: 0 });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.results.map((x) => [x.sjh, x.ok, x.msg])).toEqual([
      ['13500000010', true, '已发送邀请'],
      ['13500000012', true, '已发送邀请'],
      ['12345', false, '请输入正确的手机号'],
      ['13500000010', false, '名单中重复的手机号'],
      [ZHANG, false, '该用户已加入代理机构，不能重复加入'],
      ['13500000011', false, '已邀请该手机号，请勿重复邀请'],
    ]);
    expect([r.data.sent, r.data.failed]).toEqual([2, 4]);
    expect(r.data.results[1]?.hymc).toBe('赵二');
    const [row] = await invitesTo('13500000010');
    expect(row?.hymc).toBe('王一');
    expect((await invitesTo('13500000011')).length).toBe(1);
    expect((await outboxFor(t, '13500000012')).some((m) => m.content.includes('acceptInvite'))).toBe(true);
    const [log] = await auditOf(t, 1, 'staff.invite_batch');
    expect(log?.detail).toMatchObject({ sent: 2, failed: 4 });
  });

  it('refuses a member without 邀请员工, and bad input, with nothing sent', async () => {
    expectNoPermission(await batch({ list: [{ sjh: '13500000020' }], role: 0 }, zhang));
    expectBadInput(await batch({ list: [], role: 0 }), '列表', '请填写要邀请的手机号');
    expectBadInput(await batch({ list: [{ sjh: '13500000020' }], role: 2 }), '部门ID', '部门负责人须选择部门');
    const many = Array.from({ length: 201 }, (_, i) => ({ sjh: `1350001${String(i).padStart(4, '0')}` }));
    expectBadInput(await batch({ list: many, role: 0 }), '列表', '一次最多邀请200人');
    expect(await invitesTo('13500000020')).toEqual([]);
  });

  it("refuses another agency's department for the whole batch", async () => {
    const r = await batch({ list: [{ sjh: '13500000021' }], role: 2, departmentId: otherDept });
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect(r.msg).toBe('部门不存在');
    expect(await invitesTo('13500000021')).toEqual([]);
  });
});

describe('copyCommand: the invitation text to paste elsewhere', () => {
  it('gives the link and words for a pending invitation of the agency', async () => {
    const [row] = await invitesTo('13500000010');
    const r = await t.call<{ text: string; link: string }>(copyCommandCall.path, { id: row?.id }, li);
    expect(r.code).toBe(CODE.OK);
    expect(r.data.link).toMatch(new RegExp(`#/acceptInvite\\?id=${row?.id}$`));
    expect(r.data.text).toContain('王一，');
    expect(r.data.text).toContain('13500000010');
    expect(r.data.text).toContain(r.data.link);
  });

  it("refuses another agency's invitation, a member without permission, and a cancelled one", async () => {
    const [row] = await invitesTo('13500000010');
    const other = await t.call(copyCommandCall.path, { id: row?.id }, otherAdmin);
    expect([other.code, other.msg]).toEqual([CODE.NOT_FOUND, '邀请记录不存在']);
    expectNoPermission(await t.call(copyCommandCall.path, { id: row?.id }, zhang));
    await t.call('user/agency/cancelAgInviteLog', { id: row?.id }, admin);
    const cancelled = await t.call(copyCommandCall.path, { id: row?.id }, admin);
    expect([cancelled.code, cancelled.msg]).toEqual([CODE.CONFLICT, '只能复制待接受的邀请，请重新邀请']);
    expectBadInput(await t.call(copyCommandCall.path, {}, admin), 'ID');
  });
});

describe('phone settings: who sees full phone numbers', () => {
  const setting = (cookie: string) =>
    t.call<PhoneSetting & { editable: boolean }>(getPhoneSettingInfoCall.path, {}, cookie);
  const save = (body: unknown, cookie = admin) => t.call<PhoneSetting>(savePhoneSettingCall.path, body, cookie);
  const zhangPhoneAs = async (cookie: string) => byName((await staffOf(t, cookie)).list, '张伟')?.phone;

  it("masks colleagues' phones by default, and the administrator's saving changes what members see", async () => {
    const initial = await setting(li);
    expect(initial.data).toEqual({ staffPhone: 'admin', clientPhone: 'all', userIds: [], editable: false });
    expect(await zhangPhoneAs(li)).toBe('138****0002');
    expect(await zhangPhoneAs(admin)).toBe(ZHANG);

    expect((await save({ staffPhone: 'all', clientPhone: 'all' })).code).toBe(CODE.OK);
    expect(await zhangPhoneAs(li)).toBe(ZHANG);

    expect((await save({ staffPhone: 'admin', clientPhone: 'admin', userIds: [ID.li] })).code).toBe(CODE.OK);
    expect(await zhangPhoneAs(li)).toBe(ZHANG);
    expect((await setting(admin)).data).toEqual({
      staffPhone: 'admin',
      clientPhone: 'admin',
      userIds: [ID.li],
      editable: true,
    });
    // Client contact phones follow clientPhone: 张伟 is not listed, so his own client's contact is masked to him.
    const [contact] = await t.ownerQuery<{ id: number; mobile: string }>(
      `select e.id, c.mobile from enterprises e join enterprise_contacts c on c.enterprise_id = e.id
        where e.agency_id = 1 and e.allocate_user = $1 and c.mobile like '1%' and e.deleted_at is null limit 1`,
      [ID.zhang],
    );
    if (!contact) throw new Error('no demo contact of 张伟');
    const contactsAs = async (cookie: string) =>
      (await t.call<{ mobile: string }[]>('user/agency/getContactList', { enterpriseId: contact.id }, cookie)).data.map(
        (x) => x.mobile,
      );
    expect(await contactsAs(zhang)).toContain(`${contact.mobile.slice(0, 3)}****${contact.mobile.slice(-4)}`);
    expect(await contactsAs(admin)).toContain(contact.mobile);
    expect((await save({ staffPhone: 'admin', clientPhone: 'all', userIds: [] })).code).toBe(CODE.OK);
    expect(await contactsAs(zhang)).toContain(contact.mobile);
    expect(await zhangPhoneAs(li)).toBe('138****0002');
    const [log] = await auditOf(t, 1, 'staff.phone_setting');
    expect(log?.detail).toMatchObject({ staffPhone: 'admin', clientPhone: 'all' });
  });

  it("refuses a member (the permission is the administrator's), another agency's member, and bad input", async () => {
    expectNoPermission(await save({ staffPhone: 'all', clientPhone: 'all' }, li));
    expectNoPermission(await setting(zhang));
    const foreign = await save({ staffPhone: 'all', clientPhone: 'all', userIds: [ID.otherAdmin] });
    expect([foreign.code, foreign.msg]).toEqual([CODE.NOT_FOUND, '员工不存在或不属于本机构']);
    expectBadInput(await save({ staffPhone: 'some', clientPhone: 'all' }), '员工号码显示', '请选择号码显示方式');
    expectBadInput(await save({ staffPhone: 'all' }), '客户号码显示');
    expect((await setting(admin)).data.staffPhone).toBe('admin');
    // The other agency keeps its own (default) setting.
    expect((await setting(otherAdmin)).data).toMatchObject({ staffPhone: 'admin', userIds: [] });
  });
});

describe('deletePersonal: deleting one’s own account', () => {
  const del = (cookie: string, body: unknown = { confirm: DELETE_PERSONAL_WORD }) =>
    t.call(deletePersonalCall.path, body, cookie);

  it('is refused to an administrator and while clients await handover; then done, and the phone is free', async () => {
    const refused = await del(admin);
    expect([refused.code, refused.msg]).toEqual([CODE.CONFLICT, DELETE_PERSONAL_MSG.admin]);

    const phone = '13500000030';
    const joined = await joinByInvite(t, admin, phone, '孙五');
    const [client] = await inAgency(t, 1, (tx) =>
      tx.select({ id: enterprises.id, owner: enterprises.allocateUser }).from(enterprises).limit(1),
    );
    if (!client) throw new Error('no demo client');
    await inAgency(t, 1, (tx) =>
      tx.update(enterprises).set({ allocateUser: joined.userId }).where(eq(enterprises.id, client.id)),
    );
    const pending = await del(joined.cookie);
    expect([pending.code, pending.msg]).toEqual([CODE.CONFLICT, DELETE_PERSONAL_MSG.handover]);
    expect(byName((await staffOf(t, admin)).list, '孙五')).toBeDefined();

    expectBadInput(await del(joined.cookie, {}), '确认文字', DELETE_PERSONAL_MSG.confirm);
    expectBadInput(await del(joined.cookie, { confirm: '注销' }), '确认文字', DELETE_PERSONAL_MSG.confirm);

    await inAgency(t, 1, (tx) =>
      tx.update(enterprises).set({ allocateUser: client.owner }).where(eq(enterprises.id, client.id)),
    );
    const done = await del(joined.cookie);
    expect(done.code).toBe(CODE.OK);
    expectSignedOut(await t.call('user/agency/quitCheck', {}, joined.cookie));
    expect(byName((await staffOf(t, admin)).list, '孙五')).toBeUndefined();
    const [user] = await t.ownerQuery<{ phone: string; password_hash: string | null }>(
      'select phone, password_hash from users where id = $1',
      [joined.userId],
    );
    expect(user).toEqual({ phone: `deleted:${joined.userId}`, password_hash: null });
    const [log] = await auditOf(t, 1, 'staff.delete_personal');
    expect(log?.userId).toBe(joined.userId);
    // The phone is free to sign up again: no user holds it any more.
    expect(await t.ownerQuery('select id from users where phone = $1', [phone])).toEqual([]);
  }, 120_000);

  it('needs a session', async () => {
    expectSignedOut(await t.call(deletePersonalCall.path, { confirm: DELETE_PERSONAL_WORD }));
  });
});
