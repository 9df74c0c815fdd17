import {
  CODE,
  type SessionInfo,
  securitySettingsSaveCall,
  TWO_FACTOR_MSG,
  type TwoFactorPending,
  twoFactorEnrolConfirmCall,
  twoFactorEnrolStartCall,
  twoFactorVerifyCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { totpAt } from '../src/lib/totp.js';
import { ADMIN, ID, LI } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { freshCode, useStepClock } from './two-factor-helpers.js';

/** Issue 26 point 7: the ticket of a sign-in's second step finishes one sign-in, never a second. */

// Sign-ins hash passwords: on a loaded machine a test of several sign-ins needs more than the default.
vi.setConfig({ testTimeout: 120_000 });

let t: TestApp;
let admin: string;

beforeAll(async () => {
  useStepClock();
  t = await startTestApp();
  admin = await t.login(ADMIN);
}, 300_000);
afterAll(() => t.close());

const cookieOf = (setCookie: string | string[] | undefined, name: string) =>
  [setCookie]
    .flat()
    .find((c) => c?.startsWith(`${name}=`))
    ?.split(';')[0] ?? null;

async function post(path: string, payload: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  return {
    body: res.json() as { code: number; msg: string; data: unknown },
    session: cookieOf(res.headers['set-cookie'], 'dzy_session'),
  };
}

/** The first step (password): the pending second step's ticket. */
async function firstStep(account: string) {
  const r = await post('userext/v1.0/common/user/login', { type: '1', account, password: DEMO_PASSWORD });
  expect(r.body.code, r.body.msg).toBe(CODE.OK);
  expect(r.session).toBeNull();
  return (r.body.data as TwoFactorPending).twoFactor;
}

const sessionsOf = async (userId: number) =>
  Number(
    (await t.ownerQuery<{ n: number }>('select count(*)::int as n from sessions where user_id = $1', [userId]))[0]?.n,
  );
const unusedRecovery = async (userId: number) =>
  Number(
    (
      await t.ownerQuery<{ n: number }>(
        'select count(*)::int as n from two_factor_recovery_codes where user_id = $1 and used_at is null',
        [userId],
      )
    )[0]?.n,
  );

describe('the second-step ticket is single use', () => {
  let secret = '';
  let recovery: string[] = [];

  beforeAll(async () => {
    const start = await t.call<{ secret: string }>(twoFactorEnrolStartCall.path, {}, admin);
    expect(start.code).toBe(CODE.OK);
    secret = start.data.secret;
    const done = await t.call<{ recoveryCodes: string[] }>(
      twoFactorEnrolConfirmCall.path,
      { code: totpAt(secret, Date.now()) },
      admin,
    );
    expect(done.code, done.msg).toBe(CODE.OK);
    recovery = done.data.recoveryCodes;
  });

  it('signs in once; the same ticket with the next code or a recovery code is refused in Chinese', async () => {
    const ticket = (await firstStep(ADMIN)).ticket;
    const first = await post(twoFactorVerifyCall.path, { ticket, code: await freshCode(t, ID.admin, secret) });
    expect(first.body.code, first.body.msg).toBe(CODE.OK);
    expect((first.body.data as SessionInfo).phone).toBe(ADMIN);
    expect(first.session).not.toBeNull();
    const sessions = await sessionsOf(ID.admin);
    const unused = await unusedRecovery(ID.admin);

    const replay = await post(twoFactorVerifyCall.path, { ticket, code: await freshCode(t, ID.admin, secret) });
    expect([replay.body.code, replay.body.msg]).toEqual([CODE.BAD_REQUEST, TWO_FACTOR_MSG.ticketUsed]);
    expect(replay.session).toBeNull();
    const byRecovery = await post(twoFactorVerifyCall.path, { ticket, recoveryCode: recovery[0] });
    expect([byRecovery.body.code, byRecovery.body.msg]).toEqual([CODE.BAD_REQUEST, TWO_FACTOR_MSG.ticketUsed]);
    expect(byRecovery.session).toBeNull();
    expect(await sessionsOf(ID.admin)).toBe(sessions);
    // The refused replay spent nothing: the recovery code still works (on a ticket of its own).
    expect(await unusedRecovery(ID.admin)).toBe(unused);
  });

  it('a wrong code does not spend the ticket: the person may type it again', async () => {
    const ticket = (await firstStep(ADMIN)).ticket;
    const right = await freshCode(t, ID.admin, secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const miss = await post(twoFactorVerifyCall.path, { ticket, code: wrong });
    expect([miss.body.code, miss.body.msg]).toEqual([CODE.BAD_REQUEST, TWO_FACTOR_MSG.wrongCode]);
    const hit = await post(twoFactorVerifyCall.path, { ticket, code: right });
    expect(hit.body.code, hit.body.msg).toBe(CODE.OK);
    expect(hit.session).not.toBeNull();
  });

  it('two uses of one ticket at the same moment start exactly one session', async () => {
    const ticket = (await firstStep(ADMIN)).ticket;
    const before = await sessionsOf(ID.admin);
    const unused = await unusedRecovery(ID.admin);
    const [a, b] = await Promise.all([
      post(twoFactorVerifyCall.path, { ticket, code: await freshCode(t, ID.admin, secret) }),
      post(twoFactorVerifyCall.path, { ticket, recoveryCode: recovery[1] }),
    ]);
    const outcomes = [a, b].map((r) => r.body.code);
    expect(outcomes.filter((c) => c === CODE.OK)).toHaveLength(1);
    const loser = [a, b].find((r) => r.body.code !== CODE.OK);
    expect(loser?.body.msg).toBe(TWO_FACTOR_MSG.ticketUsed);
    expect(loser?.session).toBeNull();
    expect(await sessionsOf(ID.admin)).toBe(before + 1);
    // A recovery code is spent only by the use that won.
    expect(await unusedRecovery(ID.admin)).toBe(b.body.code === CODE.OK ? unused - 1 : unused);
  });
});

describe('the enrolment ticket (an agency requires two factors) is single use too', () => {
  afterAll(async () => {
    await t.call(securitySettingsSaveCall.path, { requireTwoFactor: 'none', auditRetentionDays: 180 }, admin);
  });

  it('enrols and signs in once; the ticket cannot restart or confirm an enrolment again', async () => {
    const saved = await t.call(
      securitySettingsSaveCall.path,
      { requireTwoFactor: 'all', auditRetentionDays: 180 },
      admin,
    );
    expect(saved.code, saved.msg).toBe(CODE.OK);
    const pending = await firstStep(LI);
    expect(pending.enrol).toBe(true);
    const start = await post(twoFactorEnrolStartCall.path, { ticket: pending.ticket });
    expect(start.body.code, start.body.msg).toBe(CODE.OK);
    const liSecret = (start.body.data as { secret: string }).secret;
    const done = await post(twoFactorEnrolConfirmCall.path, {
      ticket: pending.ticket,
      code: totpAt(liSecret, Date.now()),
    });
    expect(done.body.code, done.body.msg).toBe(CODE.OK);
    expect(done.session).not.toBeNull();
    const sessions = await sessionsOf(ID.li);

    const again = await post(twoFactorEnrolConfirmCall.path, {
      ticket: pending.ticket,
      code: await freshCode(t, ID.li, liSecret),
    });
    expect([again.body.code, again.body.msg]).toEqual([CODE.BAD_REQUEST, TWO_FACTOR_MSG.ticketUsed]);
    expect(again.session).toBeNull();
    const restart = await post(twoFactorEnrolStartCall.path, { ticket: pending.ticket });
    expect([restart.body.code, restart.body.msg]).toEqual([CODE.BAD_REQUEST, TWO_FACTOR_MSG.ticketUsed]);
    expect(await sessionsOf(ID.li)).toBe(sessions);
    // The secret the person enrolled is the one kept.
    const [row] = await t.ownerQuery<{ enabled: boolean }>(
      'select enabled_at is not null as enabled from user_two_factor where user_id = $1',
      [ID.li],
    );
    expect(row?.enabled).toBe(true);
  });
});
