import {
  CODE,
  type SessionInfo,
  securitySettingsGetCall,
  securitySettingsSaveCall,
  TWO_FACTOR_MSG,
  type TwoFactorPending,
  type TwoFactorStatus,
  twoFactorDisableCall,
  twoFactorEnrolConfirmCall,
  twoFactorEnrolStartCall,
  twoFactorResetCall,
  twoFactorStatusCall,
  twoFactorVerifyCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { base32Decode, base32Encode, hotp, matchStep, stepAt, totpAt } from '../src/lib/totp.js';
import { ADMIN, ID, LI, OTHER_ADMIN, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { freshCode, useStepClock } from './two-factor-helpers.js';

// Sign-ins hash passwords: on a loaded machine a test of several sign-ins needs more than the default.
vi.setConfig({ testTimeout: 120_000 });

let t: TestApp;
let admin: string;
let li: string;
let zhang: string;
let other: string;

beforeAll(async () => {
  useStepClock();
  t = await startTestApp();
  [admin, li, zhang, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG), t.login(OTHER_ADMIN)]);
}, 400_000);
afterAll(() => t.close());

const cookieOf = (setCookie: string | string[] | undefined, name: string) =>
  [setCookie]
    .flat()
    .find((c) => c?.startsWith(`${name}=`))
    ?.split(';')[0] ?? null;

/** A password sign-in as the browser makes it (with whatever cookies it holds); the reply and its cookies. */
async function signIn(account: string, cookie?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/userext/v1.0/common/user/login',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify({ type: '1', account, password: DEMO_PASSWORD }),
  });
  const body = res.json() as { code: number; msg: string; data: SessionInfo | TwoFactorPending };
  return { body, session: cookieOf(res.headers['set-cookie'], 'dzy_session') };
}

/** The second step as the browser makes it: the reply, the session cookie and the remembered-device cookie. */
async function verify(payload: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${twoFactorVerifyCall.path}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  return {
    body: res.json() as { code: number; msg: string; data: SessionInfo },
    session: cookieOf(res.headers['set-cookie'], 'dzy_session'),
    device: cookieOf(res.headers['set-cookie'], 'dzy_2fa_device'),
  };
}

const pending = (b: { data: unknown }) => (b.data as TwoFactorPending).twoFactor;

/** Enrols the signed-in user; their secret and recovery codes. */
async function enrol(cookie: string) {
  const start = await t.call<{ secret: string; otpauth: string }>(twoFactorEnrolStartCall.path, {}, cookie);
  expect(start.code).toBe(CODE.OK);
  const done = await t.call<{ recoveryCodes: string[] }>(
    twoFactorEnrolConfirmCall.path,
    { code: totpAt(start.data.secret, Date.now()) },
    cookie,
  );
  expect(done.code).toBe(CODE.OK);
  return { secret: start.data.secret, codes: done.data.recoveryCodes };
}

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC 6238 test vectors for SHA-1, SHA-256 and SHA-512', () => {
    const k1 = Buffer.from('12345678901234567890');
    const k256 = Buffer.from('12345678901234567890123456789012');
    const k512 = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234');
    const vectors: [number, string, string, string][] = [
      [59, '94287082', '46119246', '90693936'],
      [1111111109, '07081804', '68084774', '25091201'],
      [1111111111, '14050471', '67062674', '99943326'],
      [1234567890, '89005924', '91819424', '93441116'],
      [2000000000, '69279037', '90698825', '38618901'],
      [20000000000, '65353130', '77737706', '47863826'],
    ];
    for (const [time, sha1, sha256, sha512] of vectors) {
      const step = Math.floor(time / 30);
      expect(hotp(k1, step, 8)).toBe(sha1);
      expect(hotp(k256, step, 8, 'sha256')).toBe(sha256);
      expect(hotp(k512, step, 8, 'sha512')).toBe(sha512);
    }
    expect(base32Encode(k1)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').equals(k1)).toBe(true);
  });

  it('accepts one step of clock skew either way, refuses two, and refuses a step already used', () => {
    const secret = base32Encode(Buffer.from('12345678901234567890'));
    const now = 1_700_000_015_000;
    const at = stepAt(now);
    const code = (d: number) => totpAt(secret, now + d * 30_000);
    expect(matchStep(secret, code(0), now, null)).toBe(at);
    expect(matchStep(secret, code(-1), now, null)).toBe(at - 1);
    expect(matchStep(secret, code(1), now, null)).toBe(at + 1);
    expect(matchStep(secret, code(-2), now, null)).toBeNull();
    expect(matchStep(secret, code(2), now, null)).toBeNull();
    // Replay: the step accepted last time (and any earlier) is refused; a later one is not.
    expect(matchStep(secret, code(0), now, at)).toBeNull();
    expect(matchStep(secret, code(-1), now, at)).toBeNull();
    expect(matchStep(secret, code(1), now, at)).toBe(at + 1);
    expect(matchStep(secret, '12345', now, null)).toBeNull();
  });
});

describe('two-factor sign-in', () => {
  let secret = '';
  let codes: string[] = [];

  it('enrols with a server-made secret shown as otpauth:// and confirmed by a first code; 10 recovery codes', async () => {
    const start = await t.call<{ secret: string; otpauth: string }>(twoFactorEnrolStartCall.path, {}, admin);
    expect(start.code).toBe(CODE.OK);
    expect(start.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(start.data.otpauth).toMatch(
      /^otpauth:\/\/totp\/.+\?secret=[A-Z2-7]{32}&issuer=.+&algorithm=SHA1&digits=6&period=30$/,
    );
    // Stored encrypted, never in clear.
    const [stored] = await t.ownerQuery<{ secret_enc: string; enabled_at: unknown }>(
      'select secret_enc, enabled_at from user_two_factor where user_id = $1',
      [ID.admin],
    );
    expect(stored?.secret_enc.startsWith('v1:')).toBe(true);
    expect(stored?.secret_enc).not.toContain(start.data.secret);
    expect(stored?.enabled_at).toBeNull();

    const bad = await t.call(twoFactorEnrolConfirmCall.path, { code: '12a456' }, admin);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg).toContain(TWO_FACTOR_MSG.codeFormat);
    const wrong = await t.call(
      twoFactorEnrolConfirmCall.path,
      { code: totpAt(start.data.secret, Date.now() + 300_000) },
      admin,
    );
    expect(wrong.msg).toBe(TWO_FACTOR_MSG.wrongCode);

    // Pasted as people do: spaced in two groups, half of it full-width.
    const now = totpAt(start.data.secret, Date.now());
    const pasted = ` ${now.slice(0, 3)} ${[...now.slice(3)].map((d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0)).join('')} `;
    const done = await t.call<{ recoveryCodes: string[] }>(twoFactorEnrolConfirmCall.path, { code: pasted }, admin);
    expect(done.code).toBe(CODE.OK);
    expect(done.data.recoveryCodes).toHaveLength(10);
    expect(new Set(done.data.recoveryCodes).size).toBe(10);
    secret = start.data.secret;
    codes = done.data.recoveryCodes;
    const hashes = await t.ownerQuery<{ code_hash: string }>(
      'select code_hash from two_factor_recovery_codes where user_id = $1',
      [ID.admin],
    );
    expect(hashes).toHaveLength(10);
    expect(hashes.map((h) => h.code_hash)).not.toContain(codes[0]);

    const status = await t.call<TwoFactorStatus>(twoFactorStatusCall.path, {}, admin);
    expect(status.data).toMatchObject({ enabled: true, recoveryLeft: 10, required: false });
    const again = await t.call(twoFactorEnrolStartCall.path, {}, admin);
    expect(again.msg).toBe(TWO_FACTOR_MSG.alreadyEnabled);
    const audits = await t.ownerQuery('select 1 from audit_log where action = $1 and user_id = $2', [
      'two_factor.enrol',
      ID.admin,
    ]);
    expect(audits).toHaveLength(1);
  });

  it('asks for the code after the password: no session until it is given; a used code is refused', async () => {
    const first = await signIn(ADMIN);
    expect(first.body.code).toBe(CODE.OK);
    expect(first.session).toBeNull();
    const step = pending(first.body);
    expect(step.enrol).toBe(false);

    const [row] = await t.ownerQuery<{ last_step: number }>(
      'select last_step from user_two_factor where user_id = $1',
      [ID.admin],
    );
    const replay = await verify({ ticket: step.ticket, code: hotp(base32Decode(secret), Number(row?.last_step)) });
    expect(replay.body.msg).toBe(TWO_FACTOR_MSG.wrongCode);
    expect(replay.session).toBeNull();

    const forged = await verify({ ticket: `${step.ticket}x`, code: await freshCode(t, ID.admin, secret) });
    expect(forged.body.msg).toBe(TWO_FACTOR_MSG.ticketExpired);

    const ok = await verify({ ticket: step.ticket, code: await freshCode(t, ID.admin, secret) });
    expect(ok.body.code).toBe(CODE.OK);
    expect(ok.session).not.toBeNull();
    expect(ok.device).toBeNull();
    expect(ok.body.data.phone).toBe(ADMIN);
  });

  it('remembers the device for 30 days when asked: the next sign-in there skips the code', async () => {
    const step = pending((await signIn(ADMIN)).body);
    const ok = await verify({ ticket: step.ticket, code: await freshCode(t, ID.admin, secret), remember: true });
    expect(ok.device).not.toBeNull();
    const [device] = await t.ownerQuery<{ days: number }>(
      'select round(extract(epoch from expires_at - now()) / 86400)::int as days from two_factor_devices where user_id = $1 and revoked_at is null',
      [ID.admin],
    );
    expect(device?.days).toBe(30);
    const there = await signIn(ADMIN, ok.device ?? '');
    expect(there.session).not.toBeNull();
    const other = await signIn(ADMIN);
    expect(other.session).toBeNull();
    // After 30 days the device is asked again.
    await t.ownerQuery("update two_factor_devices set expires_at = now() - interval '1 second' where user_id = $1", [
      ID.admin,
    ]);
    const late = await signIn(ADMIN, ok.device ?? '');
    expect(late.session).toBeNull();
  });

  it('takes each recovery code once', async () => {
    const step = pending((await signIn(ADMIN)).body);
    const ok = await verify({ ticket: step.ticket, recoveryCode: (codes[0] ?? '').toUpperCase() });
    expect(ok.body.code).toBe(CODE.OK);
    const step2 = pending((await signIn(ADMIN)).body);
    const again = await verify({ ticket: step2.ticket, recoveryCode: codes[0] });
    expect(again.body.msg).toBe(TWO_FACTOR_MSG.wrongRecovery);
    expect(again.session).toBeNull();
    const status = await t.call<TwoFactorStatus>(twoFactorStatusCall.path, {}, admin);
    expect(status.data.recoveryLeft).toBe(9);
    const used = await t.ownerQuery('select 1 from audit_log where action = $1 and user_id = $2', [
      'two_factor.recovery_used',
      ID.admin,
    ]);
    expect(used).toHaveLength(1);
  });

  it('locks the second step for 15 minutes after five wrong codes', async () => {
    // A right code resets the count; start from none wrong (the earlier tests left one).
    await t.ownerQuery('update user_two_factor set failed_count = 0 where user_id = $1', [ID.admin]);
    const step = pending((await signIn(ADMIN)).body);
    const wrong = totpAt(secret, Date.now() + 600_000);
    for (let i = 0; i < 4; i++)
      expect((await verify({ ticket: step.ticket, code: wrong })).body.code).toBe(CODE.BAD_REQUEST);
    const fifth = await verify({ ticket: step.ticket, code: wrong });
    expect(fifth.body.code).toBe(CODE.LOCKED);
    expect(fifth.body.msg).toBe(TWO_FACTOR_MSG.locked);
    const right = await verify({ ticket: step.ticket, code: await freshCode(t, ID.admin, secret) });
    expect(right.body.code).toBe(CODE.LOCKED);
    expect(right.session).toBeNull();
    await t.ownerQuery('update user_two_factor set locked_until = null where user_id = $1', [ID.admin]);
  });

  it('turns off with a code, ending remembered devices', async () => {
    const missing = await t.call(twoFactorDisableCall.path, {}, admin);
    expect(missing.code).toBe(CODE.BAD_REQUEST);
    const wrong = await t.call(twoFactorDisableCall.path, { code: totpAt(secret, Date.now() + 600_000) }, admin);
    expect(wrong.msg).toBe(TWO_FACTOR_MSG.wrongCode);
    const off = await t.call(twoFactorDisableCall.path, { code: await freshCode(t, ID.admin, secret) }, admin);
    expect(off.code).toBe(CODE.OK);
    expect((await signIn(ADMIN)).session).not.toBeNull();
    const left = await t.ownerQuery('select 1 from two_factor_devices where user_id = $1 and revoked_at is null', [
      ID.admin,
    ]);
    expect(left).toHaveLength(0);
    const audits = await t.ownerQuery('select 1 from audit_log where action = $1 and user_id = $2', [
      'two_factor.disable',
      ID.admin,
    ]);
    expect(audits).toHaveLength(1);
  });
});

describe("an administrator resets a member's two factors", () => {
  it('refuses staff and another agency; resets, audits, and forgets the remembered devices', async () => {
    const { secret } = await enrol(li);
    const step = pending((await signIn(LI)).body);
    const ok = await verify({ ticket: step.ticket, code: await freshCode(t, ID.li, secret), remember: true });
    expect(ok.device).not.toBeNull();

    const byStaff = await t.call(twoFactorResetCall.path, { userId: ID.li }, zhang);
    expect(byStaff.code).toBe(CODE.NO_PERMISSION);
    const byOther = await t.call(twoFactorResetCall.path, { userId: ID.li }, other);
    expect(byOther.code).toBe(CODE.NOT_FOUND);
    expect(byOther.msg).toBe(TWO_FACTOR_MSG.memberNotFound);
    expect((await t.ownerQuery('select 1 from user_two_factor where user_id = $1', [ID.li])).length).toBe(1);

    const reset = await t.call(twoFactorResetCall.path, { userId: ID.li }, admin);
    expect(reset.code).toBe(CODE.OK);
    const [row] = await t.ownerQuery<{ agency_id: number; user_id: number; target: string }>(
      "select agency_id, user_id, target from audit_log where action = 'two_factor.reset'",
    );
    expect(row).toMatchObject({ agency_id: 1, user_id: ID.admin, target: `user:${ID.li}` });
    expect((await signIn(LI)).session).not.toBeNull();

    // Enrolled again, the device remembered before the reset is asked for the code.
    await enrol(li);
    const after = await signIn(LI, ok.device ?? '');
    expect(after.session).toBeNull();
    expect(pending(after.body).enrol).toBe(false);
    await t.call(twoFactorResetCall.path, { userId: ID.li }, admin);
  });
});

describe("the agency's requirement", () => {
  it('only an administrator sets it; the retention is never under 180 days', async () => {
    const byStaff = await t.call(
      securitySettingsSaveCall.path,
      { requireTwoFactor: 'all', auditRetentionDays: 180 },
      zhang,
    );
    expect(byStaff.code).toBe(CODE.NO_PERMISSION);
    const short = await t.call(
      securitySettingsSaveCall.path,
      { requireTwoFactor: 'all', auditRetentionDays: 90 },
      admin,
    );
    expect(short.code).toBe(CODE.BAD_REQUEST);
    expect(short.msg).toContain('日志保留天数不能少于180天');
    const bad = await t.call(
      securitySettingsSaveCall.path,
      { requireTwoFactor: 'some', auditRetentionDays: 180 },
      admin,
    );
    expect(bad.code).toBe(CODE.BAD_REQUEST);
  });

  it('管理员: administrators must enrol before anything else, staff need not', async () => {
    expect(
      (await t.call(securitySettingsSaveCall.path, { requireTwoFactor: 'admins', auditRetentionDays: 200 }, admin))
        .code,
    ).toBe(CODE.OK);
    const got = await t.call<{ requireTwoFactor: string; auditRetentionDays: number; members: { userId: number }[] }>(
      securitySettingsGetCall.path,
      {},
      admin,
    );
    expect(got.data).toMatchObject({ requireTwoFactor: 'admins', auditRetentionDays: 200 });
    expect(got.data.members.map((m) => m.userId)).toContain(ID.li);
    expect((await signIn(ZHANG)).session).not.toBeNull();
    const forced = await signIn(ADMIN);
    expect(forced.session).toBeNull();
    expect(pending(forced.body).enrol).toBe(true);
    // Agency 2 does not require it of its administrator.
    expect((await signIn(OTHER_ADMIN)).session).not.toBeNull();
  });

  it('全体员工: a member enrols at sign-in with the ticket and is signed in; cannot turn it off', async () => {
    await t.call(securitySettingsSaveCall.path, { requireTwoFactor: 'all', auditRetentionDays: 180 }, admin);
    const first = await signIn(ZHANG);
    expect(first.session).toBeNull();
    const step = pending(first.body);
    expect(step.enrol).toBe(true);
    // The enrolment ticket does not pass the code step, nor the reverse.
    expect((await verify({ ticket: step.ticket, code: '123456' })).body.msg).toBe(TWO_FACTOR_MSG.ticketExpired);

    const start = await t.call<{ secret: string }>(twoFactorEnrolStartCall.path, { ticket: step.ticket });
    expect(start.code).toBe(CODE.OK);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${twoFactorEnrolConfirmCall.path}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ticket: step.ticket, code: totpAt(start.data.secret, Date.now()) }),
    });
    const body = res.json() as { code: number; data: { recoveryCodes: string[]; session: SessionInfo } };
    expect(body.code).toBe(CODE.OK);
    expect(body.data.recoveryCodes).toHaveLength(10);
    expect(body.data.session.phone).toBe(ZHANG);
    const cookie = cookieOf(res.headers['set-cookie'], 'dzy_session') ?? '';
    expect(cookie).not.toBe('');

    const status = await t.call<TwoFactorStatus>(twoFactorStatusCall.path, {}, cookie);
    expect(status.data).toMatchObject({ enabled: true, required: true });
    const off = await t.call(
      twoFactorDisableCall.path,
      { code: await freshCode(t, ID.zhang, start.data.secret) },
      cookie,
    );
    expect(off.msg).toBe(TWO_FACTOR_MSG.requiredByAgency);
    // Without a ticket or a session the enrolment is refused.
    expect((await t.call(twoFactorEnrolStartCall.path, {})).code).toBe(CODE.SESSION_EXPIRED);
    await t.call(securitySettingsSaveCall.path, { requireTwoFactor: 'none', auditRetentionDays: 180 }, admin);
  });
});
