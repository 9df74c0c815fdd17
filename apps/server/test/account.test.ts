import { CODE, changePasswordCall, checkPassword, getProfileCall, profileSchema, updateProfileCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectSignedOut, expectUnknownField, passwordLogin, registerBySms } from './helpers.js';

let t: TestApp;
let admin: string;
let otherAgencyAdmin: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('13800000000');
  otherAgencyAdmin = await t.login('13900000000');
});
afterAll(() => t.close());

const profileOf = async (cookie: string) => (await t.call(getProfileCall.path, {}, cookie)).data;

describe('getProfile', () => {
  it("answers the caller's own profile", async () => {
    const r = await t.call(getProfileCall.path, {}, admin);
    expect(r.code).toBe(CODE.OK);
    expect(profileSchema.parse(r.data)).toEqual({
      id: 1,
      hymc: '王建国',
      zw: '总经理',
      phone: '13800000000',
      headimg: '',
      hasPassword: true,
    });
  });

  it('refuses without a session', async () => {
    expectSignedOut(await t.call(getProfileCall.path, {}));
  });

  it('cannot be pointed at another user', async () => {
    expectUnknownField(await t.call(getProfileCall.path, { id: 1 }, otherAgencyAdmin), 'id');
    expectUnknownField(await t.call(getProfileCall.path, { phone: '13800000000' }, otherAgencyAdmin), 'phone');
  });
});

describe('updateProfile', () => {
  it('saves the trimmed name and position, and answers the new profile', async () => {
    const cookie = await t.login('13800000002');
    const r = await t.call(updateProfileCall.path, { hymc: '  张伟伟 ', zw: ' 主办会计 ' }, cookie);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({ id: 3, hymc: '张伟伟', zw: '主办会计' });
    expect(await profileOf(cookie)).toMatchObject({ hymc: '张伟伟', zw: '主办会计' });
    // The session reports the new name too.
    const session = await t.call<{ token: { hymc: string } }>('userext/v1.0/common/user/session', {}, cookie);
    expect(session.data.token.hymc).toBe('张伟伟');
  });

  it('allows an empty position', async () => {
    const cookie = await t.login('13800000001');
    const r = await t.call(updateProfileCall.path, { hymc: '李晓梅', zw: '' }, cookie);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({ hymc: '李晓梅', zw: '' });
  });

  it('refuses bad input naming the field, and keeps the profile', async () => {
    const before = await profileOf(admin);
    const update = (body: unknown) => t.call(updateProfileCall.path, body, admin);
    expectBadInput(await update({ hymc: '', zw: '总经理' }), '姓名', '请输入姓名');
    expectBadInput(await update({ hymc: '   ', zw: '总经理' }), '姓名', '请输入姓名');
    expectBadInput(await update({ hymc: '王'.repeat(21), zw: '总经理' }), '姓名', '姓名不能超过20个字符');
    expectBadInput(await update({ hymc: '王建国', zw: '职'.repeat(21) }), '职位', '职位不能超过20个字符');
    expectBadInput(await update({ zw: '总经理' }), '姓名');
    expectBadInput(await update({ hymc: '王建国' }), '职位');
    expectBadInput(await update({ hymc: 42, zw: '总经理' }), '姓名');
    expectBadInput(await update({ hymc: '王建国', zw: null }), '职位');
    expect(await profileOf(admin)).toEqual(before);
  });

  it('changes only the caller: a user id in the body is refused, and the other user is untouched', async () => {
    const before = await profileOf(admin);
    const r = await t.call(updateProfileCall.path, { id: 1, hymc: '越权改名', zw: '' }, otherAgencyAdmin);
    expectUnknownField(r, 'id');
    expect(await profileOf(admin)).toEqual(before);
    expect(await profileOf(otherAgencyAdmin)).toMatchObject({ hymc: '陈思远' });
  });

  it('refuses without a session', async () => {
    expectSignedOut(await t.call(updateProfileCall.path, { hymc: '匿名', zw: '' }));
  });
});

describe('changePassword', () => {
  const NEW_PASSWORD = 'Changed#2026a';

  it('refuses a wrong old password, and keeps the password', async () => {
    const cookie = await t.login('13800000001');
    const r = await t.call(changePasswordCall.path, { oldPassword: 'Wrong@2026', password: NEW_PASSWORD }, cookie);
    expect(r.status).toBe(400);
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe('原密码错误');
    const missing = await t.call(changePasswordCall.path, { password: NEW_PASSWORD }, cookie);
    expect(missing.msg).toBe('原密码错误');
    expect((await passwordLogin(t, '13800000001', DEMO_PASSWORD)).code).toBe(CODE.OK);
    expect((await passwordLogin(t, '13800000001', NEW_PASSWORD)).code).toBe(CODE.BAD_REQUEST);
  });

  it('refuses a weak new password with the shared password rule', async () => {
    const cookie = await t.login('13800000001');
    const weak = ['abc', 'abcdefgh', 'Abcdefg1', 'Aaaa@1234', '密码Abc@1234', 'AAAAb1@xyz'];
    for (const password of weak) {
      const rule = checkPassword(password);
      expect(rule, password).not.toBeNull();
      const r = await t.call(changePasswordCall.path, { oldPassword: DEMO_PASSWORD, password }, cookie);
      expectBadInput(r, '密码', rule ?? '');
    }
    expect((await passwordLogin(t, '13800000001', DEMO_PASSWORD)).code).toBe(CODE.OK);
  });

  it('refuses other bad input naming the field', async () => {
    const cookie = await t.login('13800000001');
    expectBadInput(await t.call(changePasswordCall.path, { oldPassword: DEMO_PASSWORD }, cookie), '密码');
    expectBadInput(await t.call(changePasswordCall.path, { oldPassword: 1, password: NEW_PASSWORD }, cookie), '原密码');
    expectUnknownField(
      await t.call(changePasswordCall.path, { oldPassword: DEMO_PASSWORD, password: NEW_PASSWORD, userId: 1 }, cookie),
      'userId',
    );
  });

  it('changes the password: the new one signs in, the old one no longer does', async () => {
    const cookie = await t.login('13800000002');
    const r = await t.call(changePasswordCall.path, { oldPassword: DEMO_PASSWORD, password: NEW_PASSWORD }, cookie);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toBeNull();
    expect((await passwordLogin(t, '13800000002', NEW_PASSWORD)).code).toBe(CODE.OK);
    const old = await passwordLogin(t, '13800000002', DEMO_PASSWORD);
    expect(old.code).toBe(CODE.BAD_REQUEST);
    expect(old.msg).toBe('账号或密码错误');
  });

  it('lets a user who signed up by SMS set a first password without an old one', async () => {
    const phone = '13811120001';
    const cookie = await registerBySms(t, phone);
    expect(await profileOf(cookie)).toMatchObject({ phone, hasPassword: false });
    const r = await t.call(changePasswordCall.path, { password: NEW_PASSWORD }, cookie);
    expect(r.code).toBe(CODE.OK);
    expect(await profileOf(cookie)).toMatchObject({ hasPassword: true });
    expect((await passwordLogin(t, phone, NEW_PASSWORD)).code).toBe(CODE.OK);
  });

  it('refuses without a session', async () => {
    expectSignedOut(await t.call(changePasswordCall.path, { oldPassword: DEMO_PASSWORD, password: NEW_PASSWORD }));
  });
});
