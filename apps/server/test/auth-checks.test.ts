import {
  CODE,
  checkPersonHasMenuAuthCall,
  checkPersonHasMenuAuthV2Call,
  checkSmsCodeCall,
  getUserV3Call,
  loginCall,
  type UserV3,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import {
  expectBadInput,
  expectNoPermission,
  expectSignedOut,
  expectUnknownField,
  registerBySms,
  smsCodeFor,
} from './helpers.js';

// The demo agency 演示财税代理有限公司: its administrator and an accountant on the default role;
// 鸿信财务咨询有限公司's administrator is another tenant.
const ADMIN = '13800000000';
const ACCOUNTANT = '13800000001';
const OTHER_ADMIN = '13900000000';
const WRONG_CODE = '验证码错误或已失效，请重新获取';

const MY_CLIENTS = 211; // 我的客户 (customer:list:view)
const PURGE = 2122; // 彻底删除 (customer:purge, administrators only)
const STAFF_PAGE = 226; // 员工管理 (staff:list:view)

type MenuAuth = { menuId: number; title: string; menuType: string; hasAuth: boolean };

let t: TestApp;
let admin: string;
let accountant: string;
let otherAdmin: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestApp();
  [admin, accountant, otherAdmin] = await Promise.all([t.login(ADMIN), t.login(ACCOUNTANT), t.login(OTHER_ADMIN)]);
  const rows = await t.ownerQuery<{ id: number; phone: string }>(
    `select id, phone from users where phone in ('${ADMIN}', '${ACCOUNTANT}', '${OTHER_ADMIN}')`,
  );
  for (const r of rows) ids[r.phone] = r.id;
  // A fresh seeded database: slow on a busy machine.
}, 300_000);
afterAll(() => t.close());

describe('getUserV3', () => {
  it('answers the session user with the organisation, role, membership and quitSet', async () => {
    const r = await t.call<UserV3>(getUserV3Call.path, {}, admin);
    expect(r.code).toBe(CODE.OK);
    const [org] = await t.ownerQuery<{ id: number; quit_set: string }>(
      "select id, quit_set from organisations where name = '演示财税代理有限公司'",
    );
    expect(r.data).toMatchObject({
      user_id: ids[ADMIN],
      phone: ADMIN,
      agency_id: org?.id,
      org_id: org?.id,
      org_name: '演示财税代理有限公司',
      org_type: 'dls',
      isAdmin: '1',
      is_connection: '1',
      quitSet: org?.quit_set,
    });
    const staff = await t.call<UserV3>(getUserV3Call.path, {}, accountant);
    expect(staff.data).toMatchObject({
      user_id: ids[ACCOUNTANT],
      isAdmin: '0',
      is_connection: '1',
      agency_id: org?.id,
    });
  });

  it('says a user of no organisation is not connected', async () => {
    const cookie = await registerBySms(t, '13500000801');
    const r = await t.call<UserV3>(getUserV3Call.path, {}, cookie);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({
      phone: '13500000801',
      agency_id: null,
      is_connection: '0',
      quitSet: null,
      role: null,
    });
  });

  it('takes identity from the session only', async () => {
    expectSignedOut(await t.call(getUserV3Call.path, {}));
    expectUnknownField(await t.call(getUserV3Call.path, { user_id: ids[OTHER_ADMIN] }, admin), 'user_id');
  });
});

describe('checkPersonHasMenuAuth', () => {
  const check = (cookie: string, body: unknown) => t.call<MenuAuth>(checkPersonHasMenuAuthCall.path, body, cookie);

  it('tells the caller whether they hold a page or a button', async () => {
    expect((await check(accountant, { menuId: MY_CLIENTS })).data).toEqual({
      menuId: MY_CLIENTS,
      title: '我的客户',
      menuType: 'C',
      hasAuth: true,
    });
    expect((await check(accountant, { menuId: PURGE })).data.hasAuth).toBe(false);
    expect((await check(accountant, { menuId: STAFF_PAGE })).data.hasAuth).toBe(false);
    expect((await check(admin, { menuId: PURGE })).data.hasAuth).toBe(true);
    expect((await check(admin, { menuId: STAFF_PAGE })).data.hasAuth).toBe(true);
  });

  it('lets a holder of the staff list ask about a member of the same agency', async () => {
    const r = await check(admin, { menuId: PURGE, userId: ids[ACCOUNTANT] });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.hasAuth).toBe(false);
    expect((await check(admin, { menuId: MY_CLIENTS, userId: ids[ACCOUNTANT] })).data.hasAuth).toBe(true);
    // Asking about oneself by id needs no extra permission.
    expect((await check(accountant, { menuId: MY_CLIENTS, userId: ids[ACCOUNTANT] })).data.hasAuth).toBe(true);
  });

  it('refuses another person to a member without the staff list, and another agency`s person', async () => {
    expectNoPermission(await check(accountant, { menuId: PURGE, userId: ids[ADMIN] }));
    const foreign = await check(admin, { menuId: PURGE, userId: ids[OTHER_ADMIN] });
    expect(foreign.code).toBe(CODE.NOT_FOUND);
    expect(foreign.msg).toBe('该人员不属于本机构');
    const back = await check(otherAdmin, { menuId: PURGE, userId: ids[ACCOUNTANT] });
    expect(back.code).toBe(CODE.NOT_FOUND);
  });

  it('refuses bad input with Chinese messages', async () => {
    expectSignedOut(await t.call(checkPersonHasMenuAuthCall.path, { menuId: MY_CLIENTS }));
    expectBadInput(await check(admin, {}), '菜单');
    expectBadInput(await check(admin, { menuId: 'abc' }), '菜单', '请选择菜单');
    expectBadInput(await check(admin, { menuId: -3 }), '菜单', '请选择菜单');
    const unknown = await check(admin, { menuId: 999_999 });
    expect(unknown.code).toBe(CODE.NOT_FOUND);
    expect(unknown.msg).toBe('菜单不存在：999999');
    expectUnknownField(await check(admin, { menuId: MY_CLIENTS, agencyId: 1 }), 'agencyId');
  });

  it('V2 answers a list of menus in one call', async () => {
    const r = await t.call<{ list: MenuAuth[] }>(
      checkPersonHasMenuAuthV2Call.path,
      { menuIds: [MY_CLIENTS, PURGE, STAFF_PAGE, MY_CLIENTS] },
      accountant,
    );
    expect(r.code).toBe(CODE.OK);
    expect(r.data.list.map((m) => [m.menuId, m.hasAuth])).toEqual([
      [MY_CLIENTS, true],
      [PURGE, false],
      [STAFF_PAGE, false],
    ]);
    const v2 = (body: unknown, cookie = admin) => t.call(checkPersonHasMenuAuthV2Call.path, body, cookie);
    expectBadInput(await v2({ menuIds: [] }), '菜单', '请选择菜单');
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    expectBadInput(await v2({ menuIds: many }), '菜单', '一次最多查询100个菜单');
    expect((await v2({ menuIds: [MY_CLIENTS], userId: ids[OTHER_ADMIN] })).code).toBe(CODE.NOT_FOUND);
    expectNoPermission(await v2({ menuIds: [MY_CLIENTS], userId: ids[ADMIN] }, accountant));
  });
});

describe('checkSmsVerificationCodeMsg', () => {
  const check = (body: unknown) => t.call<{ valid: boolean }>(checkSmsCodeCall.path, body);

  it('checks a code without using it up: the sign-in still takes it', async () => {
    const phone = '13800000002';
    const code = await smsCodeFor(t, phone, 'login');
    const ok = await check({ phone, dictLabel: 'login', code });
    expect(ok.code).toBe(CODE.OK);
    expect(ok.data).toEqual({ valid: true });
    // A code for another purpose is not this one.
    const otherPurpose = await check({ phone, dictLabel: 'reset', code });
    expect(otherPurpose.code).toBe(CODE.BAD_REQUEST);
    expect(otherPurpose.msg).toBe(WRONG_CODE);
    const signIn = await t.call(loginCall.path, { type: '2', account: phone, code });
    expect(signIn.code).toBe(CODE.OK);
    // Used by the sign-in, it no longer checks.
    expect((await check({ phone, dictLabel: 'login', code })).msg).toBe(WRONG_CODE);
  });

  it('counts wrong codes: after five the right one is refused too', async () => {
    const phone = '13500000802';
    const code = await smsCodeFor(t, phone, 'login');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await check({ phone, dictLabel: 'login', code: wrong });
      expect(r.status).toBe(400);
      expect(r.msg).toBe(WRONG_CODE);
    }
    const [row] = await t.ownerQuery<{ attempts: number }>(
      `select attempts from sms_codes where phone = '${phone}' order by id desc limit 1`,
    );
    expect(row?.attempts).toBe(5);
    expect((await check({ phone, dictLabel: 'login', code })).msg).toBe(WRONG_CODE);
  });

  it('refuses bad input and a phone with no code', async () => {
    expect((await check({ phone: '13500000803', dictLabel: 'login', code: '123456' })).msg).toBe(WRONG_CODE);
    const badPhone = await check({ phone: '123', dictLabel: 'login', code: '123456' });
    expect(badPhone.status).toBe(400);
    expect(badPhone.code).toBe(CODE.BAD_REQUEST);
    const badCode = await check({ phone: '13500000803', dictLabel: 'login', code: '12' });
    expect(badCode.code).toBe(CODE.BAD_REQUEST);
    const badPurpose = await check({ phone: '13500000803', dictLabel: 'changePhone', code: '123456' });
    expect(badPurpose.code).toBe(CODE.BAD_REQUEST);
  });
});
