import {
  CODE,
  DEFAULT_STAFF_PERMS,
  forgetPasswordCall,
  getUserCall,
  loginCall,
  logoutCall,
  type SessionInfo,
  saveUserCall,
  sendSmsCall,
  sessionCall,
  sessionInfoSchema,
} from '@dzy/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../src/db/schema/index.js';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { hashPassword } from '../src/plugins/password.js';
import { startTestApp, type TestApp } from './harness.js';
import {
  expectBadInput,
  expectSignedOut,
  expectUnknownField,
  outboxFor,
  passwordLogin,
  rawCall,
  registerBySms,
  smsCodeFor,
  tokenOf,
} from './helpers.js';

const WRONG_CREDENTIALS = '账号或密码错误';
const WRONG_CODE = '验证码错误或已失效，请重新获取';
const BAD_TICKET = '注册凭证已失效，请重新获取验证码登录';

// People only this file uses, so that locking or resetting them leaves the demo accounts alone.
const LOCK_VICTIM = '13500000001';
const BYSTANDER = '13500000002';
const CASE_USER = '13500000003';
const RESET_WINDOW_USER = '13500000004';
const LOCKED_THEN_RESET = '13500000005';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      const hash = await hashPassword(DEMO_PASSWORD);
      await owner.update(users).set({ account: 'LiXiaoMei' }).where(eq(users.phone, '13800000001'));
      await owner.insert(users).values([
        { phone: LOCK_VICTIM, hymc: '锁定测试', passwordHash: hash },
        { phone: BYSTANDER, hymc: '旁观者', passwordHash: hash },
        { phone: CASE_USER, account: 'Lock.Case', hymc: '大小写测试', passwordHash: hash },
        { phone: RESET_WINDOW_USER, hymc: '计数清零测试', passwordHash: hash },
        { phone: LOCKED_THEN_RESET, hymc: '重置解锁测试', passwordHash: hash },
      ]);
    },
  });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

/** Sets the server's clock (Date only; the database keeps real time) `ms` ahead of the real time. */
function clockForward(ms: number) {
  vi.useRealTimers();
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now + ms);
}

const session = (cookie?: string, headers: Record<string, string> = {}) =>
  rawCall(t, sessionCall.path, {}, { ...(cookie ? { cookie } : {}), ...headers });

/** The session check answers quietly when nobody is signed in: no refusal for the sign-in page to log. */
function expectNobody(r: Awaited<ReturnType<typeof session>>) {
  expect(r.status).toBe(200);
  expect(r.code).toBe(CODE.OK);
  expect(r.data).toBeNull();
}

describe('password sign-in', () => {
  it('signs the administrator in with the session the client keeps', async () => {
    const r = await passwordLogin(t, '13800000000', DEMO_PASSWORD);
    expect(r.status).toBe(200);
    expect(r.code).toBe(CODE.OK);
    const info = sessionInfoSchema.parse(r.data);
    expect(info).toEqual({
      token: { id: 1, hymc: '王建国', zw: '总经理', headimg: '', hasPassword: true },
      isAdmin: '1',
      isAgency: '1',
      phone: '13800000000',
      orgType: 'dls',
      orgId: 1,
      orgName: '演示财税代理有限公司',
      role: 1,
      kjgcDlsId: null,
      perms: ['*:*:*'],
    } satisfies SessionInfo);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, for the whole site', async () => {
    const r = await passwordLogin(t, '13800000000', DEMO_PASSWORD);
    const header = [r.res.headers['set-cookie']].flat().find((c) => c?.startsWith('dzy_session='));
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    expect(header).toMatch(/Path=\//);
  });

  it("gives an accountant isAdmin 0 and the default role's permissions, not the wildcard", async () => {
    // Both accountants hold the agency's default role 普通员工; 13800000001 also heads a department.
    for (const [phone, role] of [
      ['13800000002', 0],
      ['13800000001', 2],
    ] as const) {
      const r = await passwordLogin(t, phone, DEMO_PASSWORD);
      const info = r.data as SessionInfo;
      expect(r.code).toBe(CODE.OK);
      expect(info.isAdmin).toBe('0');
      expect(info.role).toBe(role);
      expect(info.orgName).toBe('演示财税代理有限公司');
      expect(info.perms).not.toContain('*:*:*');
      expect(info.perms, phone).toEqual([...DEFAULT_STAFF_PERMS].sort());
      expect(info.perms).toContain('dashboard:counts:view');
    }
  });

  it('signs a factory user in to the factory, bound to its agency', async () => {
    const r = await passwordLogin(t, '13700000000', DEMO_PASSWORD);
    const info = r.data as SessionInfo;
    expect(info).toMatchObject({ orgType: 'kjgc', orgName: '启航会计工厂', kjgcDlsId: 1, isAdmin: '1' });
  });

  it('answers a wrong password and an unknown account with the same words', async () => {
    const known = await passwordLogin(t, '13800000000', 'Wrong@2026');
    const unknown = await passwordLogin(t, '13811119999', 'Wrong@2026');
    for (const r of [known, unknown]) {
      expect(r.status).toBe(400);
      expect(r.code).toBe(CODE.BAD_REQUEST);
      expect(r.msg).toBe(WRONG_CREDENTIALS);
      expect(r.cookie).toBeNull();
    }
    expect({ ...known, res: null }).toEqual({ ...unknown, res: null });
  });

  it('trims the account and ignores its case', async () => {
    const byPhone = await passwordLogin(t, '  13800000000  ', DEMO_PASSWORD);
    expect(byPhone.code).toBe(CODE.OK);
    expect((byPhone.data as SessionInfo).token.id).toBe(1);
    for (const account of ['LiXiaoMei', ' lixiaomei ', 'LIXIAOMEI']) {
      const r = await passwordLogin(t, account, DEMO_PASSWORD);
      expect(r.code, account).toBe(CODE.OK);
      expect((r.data as SessionInfo).phone).toBe('13800000001');
    }
  });

  it('issues a new token at every sign-in', async () => {
    const a = await passwordLogin(t, '13800000000', DEMO_PASSWORD);
    const b = await passwordLogin(t, '13800000000', DEMO_PASSWORD);
    expect(a.cookie).toBeTruthy();
    expect(b.cookie).toBeTruthy();
    expect(a.cookie).not.toBe(b.cookie);
  });

  it('refuses bad input naming the field', async () => {
    expectBadInput(await t.call(loginCall.path, { type: '1', password: DEMO_PASSWORD }), '账号');
    expectBadInput(await t.call(loginCall.path, { type: '1', account: 13800000000, password: DEMO_PASSWORD }), '账号');
    expectBadInput(await t.call(loginCall.path, { type: '1', account: '   ', password: 'x' }), '账号', '请输入账号');
    expectBadInput(await t.call(loginCall.path, { type: '1', account: '13800000000' }), '密码');
    expectBadInput(await t.call(loginCall.path, { account: '13800000000', password: DEMO_PASSWORD }), '类型');
    expectBadInput(await t.call(loginCall.path, { type: 1, account: '13800000000', password: DEMO_PASSWORD }), '类型');
    expectBadInput(
      await t.call(loginCall.path, { type: '2', account: '1380000', code: '123456' }),
      '账号',
      '请输入正确的手机号',
    );
    expectBadInput(
      await t.call(loginCall.path, { type: '2', account: '13800000000', code: '12ab' }),
      '验证码',
      '请输入正确的验证码',
    );
    expectUnknownField(
      await t.call(loginCall.path, { type: '1', account: '13800000000', password: DEMO_PASSWORD, remember: true }),
      'remember',
    );
  });
});

describe('locking after wrong passwords', () => {
  it('locks the fifth wrong password and every try after it, the right password too', async () => {
    for (let i = 1; i <= 4; i++) {
      const r = await passwordLogin(t, LOCK_VICTIM, `Wrong@${i}x`);
      expect(r.code, `try ${i}`).toBe(CODE.BAD_REQUEST);
      expect(r.msg).toBe(WRONG_CREDENTIALS);
    }
    const fifth = await passwordLogin(t, LOCK_VICTIM, 'Wrong@5x');
    expect(fifth.status).toBe(423);
    expect(fifth.code).toBe(CODE.LOCKED);
    expect(fifth.msg).toContain('锁定至');
    const until = Date.parse((fifth.data as { lockedUntil: string }).lockedUntil);
    expect(until - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    const sixth = await passwordLogin(t, LOCK_VICTIM, 'Wrong@6x');
    expect(sixth.code).toBe(CODE.LOCKED);
    const right = await passwordLogin(t, LOCK_VICTIM, DEMO_PASSWORD);
    expect(right.code).toBe(CODE.LOCKED);
    expect(right.msg).toContain('锁定至');
    expect(right.cookie).toBeNull();
    // The same account written differently is the same lock.
    expect((await passwordLogin(t, ` ${LOCK_VICTIM} `, DEMO_PASSWORD)).code).toBe(CODE.LOCKED);
  });

  it('leaves other accounts alone', async () => {
    const r = await passwordLogin(t, BYSTANDER, DEMO_PASSWORD);
    expect(r.code).toBe(CODE.OK);
    expect(r.cookie).toBeTruthy();
  });

  it('locks an account name whatever its case', async () => {
    for (const account of ['LOCK.CASE', 'lock.case', 'Lock.Case', 'lOcK.cAsE', 'LOCK.case']) {
      await passwordLogin(t, account, 'Wrong@2026');
    }
    const r = await passwordLogin(t, 'lock.case', DEMO_PASSWORD);
    expect(r.code).toBe(CODE.LOCKED);
  });

  it('locks an unknown account the same way, so a lock tells nothing about existence', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await passwordLogin(t, 'nobody-here', 'Wrong@2026'));
    expect(answers.map((r) => r.code)).toEqual([400, 400, 400, 400, 423, 423]);
  });

  it('counts only the wrong passwords since the last right one', async () => {
    for (let i = 0; i < 4; i++) await passwordLogin(t, RESET_WINDOW_USER, 'Wrong@2026');
    expect((await passwordLogin(t, RESET_WINDOW_USER, DEMO_PASSWORD)).code).toBe(CODE.OK);
    for (let i = 0; i < 4; i++) {
      expect((await passwordLogin(t, RESET_WINDOW_USER, 'Wrong@2026')).code).toBe(CODE.BAD_REQUEST);
    }
  });
});

describe('the session', () => {
  it('answers the signed-in user with the cookie', async () => {
    const cookie = await t.login('13800000001');
    const r = await session(cookie);
    expect(r.code).toBe(CODE.OK);
    expect((r.data as SessionInfo).phone).toBe('13800000001');
  });

  it('accepts the token as a Bearer Authorization header just like the cookie', async () => {
    const cookie = await t.login('13800000000');
    const r = await session(undefined, { authorization: `Bearer ${tokenOf(cookie)}` });
    expect(r.code).toBe(CODE.OK);
    expect((r.data as SessionInfo).orgName).toBe('演示财税代理有限公司');
    expectNobody(await session(undefined, { authorization: 'Bearer not-a-real-token' }));
  });

  it('logout ends the session on the server: the old cookie is refused after', async () => {
    const cookie = await t.login('13800000000');
    const out = await rawCall(t, logoutCall.path, {}, { cookie });
    expect(out.code).toBe(CODE.OK);
    const cleared = [out.res.headers['set-cookie']].flat().find((c) => c?.startsWith('dzy_session='));
    expect(cleared).toMatch(/dzy_session=;|Max-Age=0|Expires=Thu, 01 Jan 1970/);
    // A client that kept the cookie anyway is still out.
    expectNobody(await session(cookie));
    expectSignedOut(await rawCall(t, logoutCall.path, {}, { cookie }));
  });

  it('logout through the Bearer header ends that session', async () => {
    const cookie = await t.login('13800000001');
    const authorization = `Bearer ${tokenOf(cookie)}`;
    expect((await rawCall(t, logoutCall.path, {}, { authorization })).code).toBe(CODE.OK);
    expectNobody(await session(undefined, { authorization }));
    expectNobody(await session(cookie));
  });

  it('logout of one session leaves the other sessions of the user signed in', async () => {
    const a = await t.login('13800000000');
    const b = await t.login('13800000000');
    await rawCall(t, logoutCall.path, {}, { cookie: a });
    expect((await session(b)).code).toBe(CODE.OK);
  });

  it('ends a session left unused for 30 minutes; using it keeps it alive', async () => {
    const idle = await t.login('13800000001');
    const busy = await t.login('13800000001');
    clockForward(20 * 60_000);
    expect((await session(busy)).code).toBe(CODE.OK);
    clockForward(30 * 60_000 + 1000);
    expectNobody(await session(idle));
    expect((await session(busy)).code).toBe(CODE.OK);
    // Last used at +30 min: gone at +61 min.
    clockForward(61 * 60_000);
    expectNobody(await session(busy));
  });

  it('refuses session and logout without a session, or with a made-up one', async () => {
    expectNobody(await session());
    // Signed-in calls still refuse with the spec's 登录超时 answer.
    expectSignedOut(await rawCall(t, getUserCall.path, {}, {}));
    expectNobody(await session('dzy_session=forged'));
    expectSignedOut(await t.call(logoutCall.path, {}));
  });

  it('refuses unknown fields on session and logout', async () => {
    const cookie = await t.login('13800000000');
    expectUnknownField(await t.call(sessionCall.path, { userId: 2 }, cookie), 'userId');
    expectUnknownField(await t.call(logoutCall.path, { sessionId: 1 }, cookie), 'sessionId');
    expect((await session(cookie)).code).toBe(CODE.OK);
  });
});

describe('SMS codes', () => {
  it('sends a 6-digit code to the phone, readable in the outbox', async () => {
    const r = await t.call(sendSmsCall.path, { phone: '13811110001', dictLabel: 'login' });
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toEqual({ resendAfter: 60 });
    const [sms] = await outboxFor(t, '13811110001');
    expect(sms?.content).toMatch(/登录验证码为\d{6}，5分钟内有效/);
  });

  it('refuses a second code to the same phone within 60 seconds', async () => {
    await t.call(sendSmsCall.path, { phone: '13811110002', dictLabel: 'login' });
    const again = await t.call<{ resendAfter: number }>(sendSmsCall.path, { phone: '13811110002', dictLabel: 'login' });
    expect(again.status).toBe(429);
    expect(again.code).toBe(CODE.TOO_MANY);
    expect(again.msg).toMatch(/^验证码已发送，请\d+秒后再试$/);
    expect(again.data.resendAfter).toBeGreaterThan(0);
    expect(again.data.resendAfter).toBeLessThanOrEqual(60);
    expect(await outboxFor(t, '13811110002')).toHaveLength(1);
  });

  it('after 60 seconds sends a new code, and only the newest code works', async () => {
    const phone = '13811110003';
    const first = await smsCodeFor(t, phone);
    clockForward(61_000);
    const second = await smsCodeFor(t, phone);
    expect(await outboxFor(t, phone)).toHaveLength(2);
    if (first !== second) {
      expect((await t.call(loginCall.path, { type: '2', account: phone, code: first })).msg).toBe(WRONG_CODE);
    }
    expect((await t.call(loginCall.path, { type: '2', account: phone, code: second })).code).toBe(CODE.EMPTY);
  });

  it('sends at most 10 codes a day to a phone', async () => {
    const phone = '13811110004';
    for (let i = 0; i < 10; i++) {
      clockForward(i * 61_000);
      expect((await t.call(sendSmsCall.path, { phone, dictLabel: 'login' })).code, `send ${i + 1}`).toBe(CODE.OK);
    }
    clockForward(11 * 61_000);
    const eleventh = await t.call(sendSmsCall.path, { phone, dictLabel: 'login' });
    expect(eleventh.code).toBe(CODE.TOO_MANY);
    expect(eleventh.msg).toBe('今日验证码发送次数已达上限，请明天再试');
  });

  it('refuses a wrong code', async () => {
    const code = await smsCodeFor(t, '13811110005');
    const wrong = code === '000000' ? '111111' : '000000';
    const r = await rawCall(t, loginCall.path, { type: '2', account: '13811110005', code: wrong });
    expect(r.status).toBe(400);
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe(WRONG_CODE);
    expect(r.cookie).toBeNull();
  });

  it('a code is used up after 5 wrong tries: the right one is refused after', async () => {
    const phone = '13811110006';
    const code = await smsCodeFor(t, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await t.call(loginCall.path, { type: '2', account: phone, code: wrong })).msg).toBe(WRONG_CODE);
    }
    const r = await t.call(loginCall.path, { type: '2', account: phone, code });
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe(WRONG_CODE);
  });

  it('a code works once', async () => {
    const code = await smsCodeFor(t, '13800000001');
    const first = await rawCall(t, loginCall.path, { type: '2', account: '13800000001', code });
    expect(first.code).toBe(CODE.OK);
    const again = await t.call(loginCall.path, { type: '2', account: '13800000001', code });
    expect(again.msg).toBe(WRONG_CODE);
  });

  it('a code expires after 5 minutes', async () => {
    const phone = '13811110007';
    const code = await smsCodeFor(t, phone);
    clockForward(5 * 60_000 + 1000);
    expect((await t.call(loginCall.path, { type: '2', account: phone, code })).msg).toBe(WRONG_CODE);
  });

  it('a code asked for resetting the password does not sign in', async () => {
    const code = await smsCodeFor(t, '13700000000', 'reset');
    const r = await t.call(loginCall.path, { type: '2', account: '13700000000', code });
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe(WRONG_CODE);
  });

  it('refuses bad input naming the field', async () => {
    const send = (body: unknown) => t.call(sendSmsCall.path, body);
    expectBadInput(await send({ phone: '12345', dictLabel: 'login' }), '手机号', '请输入正确的手机号');
    expectBadInput(await send({ phone: '', dictLabel: 'login' }), '手机号', '手机号不能为空');
    expectBadInput(await send({ dictLabel: 'login' }), '手机号');
    expectBadInput(await send({ phone: 13811110008, dictLabel: 'login' }), '手机号');
    expectBadInput(await send({ phone: '13811110008' }), '短信用途');
    expectBadInput(await send({ phone: '13811110008', dictLabel: 'spam' }), '短信用途');
    expectUnknownField(await send({ phone: '13811110008', dictLabel: 'login', count: 5 }), 'count');
    expect(await outboxFor(t, '13811110008')).toEqual([]);
  });
});

describe('SMS sign-in and registration', () => {
  it('signs an existing phone in with a code', async () => {
    const code = await smsCodeFor(t, '13800000002');
    const r = await rawCall(t, loginCall.path, { type: '2', account: '13800000002', code });
    expect(r.code).toBe(CODE.OK);
    expect(r.cookie).toBeTruthy();
    expect(r.data).toMatchObject({ phone: '13800000002', orgName: '演示财税代理有限公司', isAdmin: '0' });
  });

  it('answers an unknown phone with 406 and a ticket; saveUser registers it and signs it in', async () => {
    const phone = '13811110010';
    const code = await smsCodeFor(t, phone);
    const first = await rawCall(t, loginCall.path, { type: '2', account: phone, code });
    expect(first.code).toBe(CODE.EMPTY);
    expect(first.cookie).toBeNull();
    const { registerTicket } = first.data as { registerTicket: string };
    expect(registerTicket).toEqual(expect.any(String));
    expect(await t.db.app.select().from(users).where(eq(users.phone, phone))).toEqual([]);

    const saved = await rawCall(t, saveUserCall.path, { phone, isAgency: '1', dataSource: 'web', registerTicket });
    expect(saved.code).toBe(CODE.OK);
    expect(saved.cookie).toBeTruthy();
    const info = sessionInfoSchema.parse(saved.data);
    expect(info).toMatchObject({
      phone,
      isAgency: '1',
      isAdmin: '0',
      orgId: null,
      orgName: null,
      orgType: null,
      role: null,
      perms: [],
    });
    expect(info.token.hasPassword).toBe(false);
    const me = await session(saved.cookie ?? '');
    expect(me.data).toEqual(info);
    // Without a password, password sign-in answers like any wrong password.
    expect((await passwordLogin(t, phone, DEMO_PASSWORD)).msg).toBe(WRONG_CREDENTIALS);
  });

  it('refuses saveUser with a forged ticket, and registers nobody', async () => {
    const phone = '13811110011';
    for (const registerTicket of ['forged', `${Date.now() + 600_000}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`]) {
      const r = await rawCall(t, saveUserCall.path, { phone, isAgency: '1', registerTicket });
      expect(r.status).toBe(400);
      expect(r.msg).toBe(BAD_TICKET);
      expect(r.cookie).toBeNull();
    }
    expect(await t.db.app.select().from(users).where(eq(users.phone, phone))).toEqual([]);
  });

  it('refuses a ticket for another phone', async () => {
    const phone = '13811110012';
    const code = await smsCodeFor(t, phone);
    const first = await t.call<{ registerTicket: string }>(loginCall.path, { type: '2', account: phone, code });
    const other = '13811110013';
    const r = await rawCall(t, saveUserCall.path, {
      phone: other,
      isAgency: '1',
      registerTicket: first.data.registerTicket,
    });
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe(BAD_TICKET);
    expect(await t.db.app.select().from(users).where(eq(users.phone, other))).toEqual([]);
    // Nor can a ticket sign in an existing user it was not issued for.
    const admin = await rawCall(t, saveUserCall.path, {
      phone: '13800000000',
      isAgency: '1',
      registerTicket: first.data.registerTicket,
    });
    expect(admin.code).toBe(CODE.BAD_REQUEST);
    expect(admin.cookie).toBeNull();
  });

  it('refuses an expired ticket (older than 10 minutes)', async () => {
    const phone = '13811110014';
    const code = await smsCodeFor(t, phone);
    const first = await t.call<{ registerTicket: string }>(loginCall.path, { type: '2', account: phone, code });
    clockForward(10 * 60_000 + 1000);
    const r = await rawCall(t, saveUserCall.path, { phone, isAgency: '1', registerTicket: first.data.registerTicket });
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe(BAD_TICKET);
    expect(await t.db.app.select().from(users).where(eq(users.phone, phone))).toEqual([]);
  });

  it('refuses bad saveUser input naming the field', async () => {
    const save = (body: unknown) => t.call(saveUserCall.path, body);
    expectBadInput(await save({ phone: '13811110015', isAgency: '1' }), '注册凭证');
    expectBadInput(await save({ phone: '13811110015', isAgency: 1, registerTicket: 'x' }), '是否代理机构用户');
    expectBadInput(
      await save({ phone: '1381111', isAgency: '1', registerTicket: 'x' }),
      '手机号',
      '请输入正确的手机号',
    );
    expectUnknownField(await save({ phone: '13811110015', isAgency: '1', registerTicket: 'x', orgId: 1 }), 'orgId');
  });
});

describe('forgotten password', () => {
  const phone = '13800000002';
  const NEW_PASSWORD = 'Reset#2026ok';

  it('a reset code cannot be asked for an unknown phone', async () => {
    const r = await t.call(sendSmsCall.path, { phone: '13811110020', dictLabel: 'reset' });
    expect(r.status).toBe(404);
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect(r.msg).toBe('该手机号尚未注册');
    expect(await outboxFor(t, '13811110020')).toEqual([]);
  });

  it('refuses bad input naming the field', async () => {
    const reset = (body: unknown) => t.call(forgetPasswordCall.path, body);
    expectBadInput(await reset({ phone, password: NEW_PASSWORD }), '验证码');
    expectBadInput(await reset({ phone, code: '123456' }), '密码');
    expectBadInput(await reset({ phone, code: '123456', password: 'abc' }), '密码', '密码长度为8-20位');
    expectBadInput(await reset({ phone: '123', code: '123456', password: NEW_PASSWORD }), '手机号');
    expectUnknownField(await reset({ phone, code: '123456', password: NEW_PASSWORD, userId: 1 }), 'userId');
  });

  it('resets the password with the code: the old one fails, the new one works', async () => {
    // A sign-in code went to this phone earlier in this file; wait out the resend limit.
    clockForward(61_000);
    const code = await smsCodeFor(t, phone, 'reset');
    vi.useRealTimers();
    expect((await outboxFor(t, phone))[0]?.content).toContain('找回密码验证码');

    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await t.call(forgetPasswordCall.path, { phone, code: wrong, password: NEW_PASSWORD });
    expect(refused.code).toBe(CODE.BAD_REQUEST);
    expect(refused.msg).toBe(WRONG_CODE);
    expect((await passwordLogin(t, phone, DEMO_PASSWORD)).code).toBe(CODE.OK);

    const r = await t.call(forgetPasswordCall.path, { phone, code, password: NEW_PASSWORD });
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toBeNull();
    const fresh = await passwordLogin(t, phone, NEW_PASSWORD);
    expect(fresh.code).toBe(CODE.OK);
    expect((fresh.data as SessionInfo).phone).toBe(phone);
    expect((await passwordLogin(t, phone, DEMO_PASSWORD)).msg).toBe(WRONG_CREDENTIALS);
    // The code is spent.
    const replay = await t.call(forgetPasswordCall.path, { phone, code, password: 'Other#2026ok' });
    expect(replay.msg).toBe(WRONG_CODE);
  });

  it('a reset lifts a lock, and the count of wrong passwords starts again', async () => {
    for (let i = 0; i < 5; i++) await passwordLogin(t, LOCKED_THEN_RESET, 'Wrong@2026');
    expect((await passwordLogin(t, LOCKED_THEN_RESET, DEMO_PASSWORD)).code).toBe(CODE.LOCKED);
    const code = await smsCodeFor(t, LOCKED_THEN_RESET, 'reset');
    expect(
      (await t.call(forgetPasswordCall.path, { phone: LOCKED_THEN_RESET, code, password: NEW_PASSWORD })).code,
    ).toBe(CODE.OK);
    // One slip after the reset is a wrong password, not a new lock.
    const slip = await passwordLogin(t, LOCKED_THEN_RESET, DEMO_PASSWORD);
    expect(slip.code).toBe(CODE.BAD_REQUEST);
    expect(slip.msg).toBe(WRONG_CREDENTIALS);
    expect((await passwordLogin(t, LOCKED_THEN_RESET, NEW_PASSWORD)).code).toBe(CODE.OK);
  });
});

describe('getUser', () => {
  let admin1: string;
  let admin2: string;
  beforeAll(async () => {
    admin1 = await t.login('13800000000');
    admin2 = await t.login('13900000000');
  });

  it('answers the caller when asked nothing', async () => {
    const r = await t.call(getUserCall.path, {}, admin1);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toEqual({ id: 1, hymc: '王建国', phone: '13800000000', headimg: '' });
  });

  it('answers a member of the same agency by id or phone', async () => {
    const byId = await t.call(getUserCall.path, { id: 2 }, admin1);
    expect(byId.data).toEqual({ id: 2, hymc: '李晓梅', phone: '13800000001', headimg: '' });
    const byPhone = await t.call(getUserCall.path, { phone: '13800000001' }, admin1);
    expect(byPhone.data).toEqual(byId.data);
  });

  it("refuses another agency's user by id or phone, as not found", async () => {
    for (const body of [{ id: 1 }, { phone: '13800000000' }, { id: 2 }, { phone: '13800000001' }]) {
      const r = await t.call(getUserCall.path, body, admin2);
      expect(r.status, JSON.stringify(body)).toBe(404);
      expect(r.code).toBe(CODE.NOT_FOUND);
      expect(r.data).toBeNull();
    }
    // The same words as for an id nobody has: the two are not told apart.
    const none = await t.call(getUserCall.path, { id: 99999 }, admin2);
    const other = await t.call(getUserCall.path, { id: 1 }, admin2);
    expect(other.msg).toBe(none.msg);
    // And it changed nothing: agency 1 still sees its administrator as before.
    expect((await t.call(getUserCall.path, { id: 1 }, admin1)).data).toMatchObject({ hymc: '王建国' });
  });

  it('a user without an organisation sees nobody else', async () => {
    const cookie = await registerBySms(t, '13811110030');
    expect((await t.call(getUserCall.path, { id: 1 }, cookie)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(getUserCall.path, {}, cookie)).data).toMatchObject({ phone: '13811110030' });
  });

  it('refuses without a session', async () => {
    expectSignedOut(await t.call(getUserCall.path, { id: 1 }));
  });

  it('refuses bad input naming the field', async () => {
    expectBadInput(await t.call(getUserCall.path, { id: '1' }, admin1), 'ID');
    expectBadInput(await t.call(getUserCall.path, { id: -1 }, admin1), 'ID');
    expectBadInput(await t.call(getUserCall.path, { phone: '138' }, admin1), '手机号', '请输入正确的手机号');
    expectUnknownField(await t.call(getUserCall.path, { agencyId: 1 }, admin2), 'agencyId');
  });
});
