import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CODE, RECOVERY_CODE_COUNT, REMEMBER_DEVICE_DAYS, TWO_FACTOR_MSG, type TwoFactorPending } from '@dzy/shared';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Queryable, setScope, type Tx } from '../../db/client.js';
import { twoFactorDevices, twoFactorRecoveryCodes, userTwoFactor } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { decrypt } from '../../lib/crypto.js';
import { matchStep } from '../../lib/totp.js';
import { Answer, AppError } from '../../plugins/errors.js';

export const DEVICE_COOKIE = 'dzy_2fa_device';
const DEVICE_MS = REMEMBER_DEVICE_DAYS * 24 * 3600_000;
/** A pending second step lasts 5 minutes. */
export const TICKET_MS = 5 * 60_000;
/** Five wrong codes lock the second step for 15 minutes. */
export const LOCK_AFTER = 5;
export const LOCK_MS = 15 * 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export type TicketPurpose = 'verify' | 'enrol';

/** A short-lived proof that the user passed the first step (password or SMS), signed with the server key. */
export function twoFactorTicket(key: Buffer, userId: number, purpose: TicketPurpose, now = Date.now()): string {
  const exp = now + TICKET_MS;
  const sig = createHmac('sha256', key).update(`2fa:${purpose}:${userId}:${exp}`).digest('base64url');
  return `${purpose}.${userId}.${exp}.${sig}`;
}

/** The user and purpose of a valid, unexpired ticket, or null. */
export function readTicket(key: Buffer, ticket: string): { userId: number; purpose: TicketPurpose } | null {
  const [purpose, uid, exp, sig] = ticket.split('.');
  if ((purpose !== 'verify' && purpose !== 'enrol') || !uid || !exp || !sig) return null;
  if (!/^\d+$/.test(uid) || !/^\d+$/.test(exp) || Number(exp) < Date.now()) return null;
  const want = createHmac('sha256', key).update(`2fa:${purpose}:${uid}:${exp}`).digest();
  const got = Buffer.from(sig, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  return { userId: Number(uid), purpose };
}

/**
 * A ticket is spent by the sign-in it finishes (issue 26 point 7): its hash is kept as a key of
 * `rate_limits` (no table of its own without a migration; the table's daily sweep drops it long after the
 * ticket's 5 minutes are over). Wrong codes do not spend it, so a mistyped code can be tried again.
 */
const spentKey = (ticket: string) => `2fa-ticket:${sha256(ticket)}`;

/** Refuses a ticket already spent on a finished sign-in. */
export async function refuseSpentTicket(tx: Queryable, ticket: string): Promise<void> {
  const res = (await tx.execute(sql`select 1 from rate_limits where key = ${spentKey(ticket)}`)) as unknown as {
    rows: unknown[];
  };
  if (res.rows.length > 0) throw new AppError(CODE.BAD_REQUEST, TWO_FACTOR_MSG.ticketUsed);
}

/**
 * Spends the ticket in the transaction that finishes the sign-in. The key is unique: of two uses at
 * once the second waits for the first to commit, inserts nothing and is refused (its transaction,
 * session included, is undone).
 */
export async function spendTicket(tx: Queryable, ticket: string): Promise<void> {
  const res = (await tx.execute(
    sql`insert into rate_limits (key, window_start, hits) values (${spentKey(ticket)}, now(), 1)
        on conflict (key) do nothing returning key`,
  )) as unknown as { rows: unknown[] };
  if (res.rows.length === 0) throw new AppError(CODE.BAD_REQUEST, TWO_FACTOR_MSG.ticketUsed);
}

/**
 * Whether an agency the user belongs to requires two factors of them: 全体员工, or 管理员 and they
 * administer it. The transaction must act as the user (their memberships in every tenant are visible).
 */
export async function requiredFor(tx: Queryable, userId: number): Promise<boolean> {
  const res = (await tx.execute(sql`
    select 1 from memberships m join agency_security s on s.agency_id = m.agency_id
    where m.user_id = ${userId} and (s.require_two_factor = 'all' or (s.require_two_factor = 'admins' and m.is_admin))
    limit 1`)) as unknown as { rows: unknown[] };
  return res.rows.length > 0;
}

export async function factorOf(tx: Queryable, userId: number) {
  const [row] = await tx.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId)).limit(1);
  return row ?? null;
}

/** Whether the request carries this user's remembered-device cookie, unexpired and not revoked. */
async function deviceRemembered(tx: Queryable, req: FastifyRequest, userId: number): Promise<boolean> {
  const token = req.cookies[DEVICE_COOKIE];
  if (!token) return false;
  const [row] = await tx
    .select({ id: twoFactorDevices.id })
    .from(twoFactorDevices)
    .where(
      and(
        eq(twoFactorDevices.tokenHash, sha256(token)),
        eq(twoFactorDevices.userId, userId),
        isNull(twoFactorDevices.revokedAt),
        gt(twoFactorDevices.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return !!row;
}

/**
 * After the first step: the pending second step the login answers with (no session yet), or null when
 * the user may go straight in (no two factors, or a remembered device).
 */
export async function secondStep(
  tx: Tx,
  req: FastifyRequest,
  key: Buffer,
  userId: number,
): Promise<TwoFactorPending | null> {
  await setScope(tx, { agencyId: null, userId, kjgcId: null });
  const factor = await factorOf(tx, userId);
  if (factor?.enabledAt) {
    if (await deviceRemembered(tx, req, userId)) return null;
    return { twoFactor: { ticket: twoFactorTicket(key, userId, 'verify'), enrol: false } };
  }
  if (await requiredFor(tx, userId))
    return { twoFactor: { ticket: twoFactorTicket(key, userId, 'enrol'), enrol: true } };
  return null;
}

const lockedAnswer = () => new Answer(CODE.LOCKED, TWO_FACTOR_MSG.locked);

/**
 * Checks a TOTP code (±1 step, never a step already used) or a recovery code (single-use) for the user,
 * counting failures: the fifth wrong one in a row locks the second step for 15 minutes. Answers the
 * refusal, or null when the code was right (its step or recovery code is then spent).
 */
export async function checkCode(
  tx: Queryable,
  req: FastifyRequest,
  key: Buffer,
  userId: number,
  given: { code?: string | undefined; recoveryCode?: string | undefined },
  agencyId: number | null,
  now = Date.now(),
): Promise<Answer | null> {
  const factor = await factorOf(tx, userId);
  if (!factor) return new Answer(CODE.BAD_REQUEST, TWO_FACTOR_MSG.notEnrolled);
  if (factor.lockedUntil && factor.lockedUntil.getTime() > now) return lockedAnswer();
  let ok = false;
  if (given.code !== undefined) {
    const step = matchStep(decrypt(key, factor.secretEnc), given.code, now, factor.lastStep);
    if (step !== null) {
      ok = true;
      await tx
        .update(userTwoFactor)
        .set({ lastStep: step, failedCount: 0, lockedUntil: null, updatedAt: new Date() })
        .where(eq(userTwoFactor.userId, userId));
    }
  } else if (given.recoveryCode !== undefined && factor.enabledAt) {
    const [used] = await tx
      .update(twoFactorRecoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(twoFactorRecoveryCodes.userId, userId),
          eq(twoFactorRecoveryCodes.codeHash, recoveryHash(given.recoveryCode)),
          isNull(twoFactorRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: twoFactorRecoveryCodes.id });
    if (used) {
      ok = true;
      await tx
        .update(userTwoFactor)
        .set({ failedCount: 0, lockedUntil: null, updatedAt: new Date() })
        .where(eq(userTwoFactor.userId, userId));
      await audit(tx, req, { agencyId, userId }, 'two_factor.recovery_used');
    }
  }
  if (ok) return null;
  const failed = factor.failedCount + 1;
  const lock = failed >= LOCK_AFTER;
  await tx
    .update(userTwoFactor)
    .set({ failedCount: lock ? 0 : failed, lockedUntil: lock ? new Date(now + LOCK_MS) : null, updatedAt: new Date() })
    .where(eq(userTwoFactor.userId, userId));
  if (lock) {
    await audit(tx, req, { agencyId, userId }, 'two_factor.locked');
    return lockedAnswer();
  }
  return new Answer(
    CODE.BAD_REQUEST,
    given.code !== undefined ? TWO_FACTOR_MSG.wrongCode : TWO_FACTOR_MSG.wrongRecovery,
  );
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const normaliseRecovery = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');
export const recoveryHash = (code: string) => sha256(`recovery:${normaliseRecovery(code)}`);

/** Ten fresh recovery codes (xxxxx-xxxxx), replacing any earlier ones; only their hashes are kept. */
export async function issueRecoveryCodes(tx: Queryable, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await tx.insert(twoFactorRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: recoveryHash(c) })));
  return codes;
}

/** Remembers this browser for 30 days: a random token in an httpOnly cookie, its hash stored with the expiry. */
export async function rememberDevice(tx: Queryable, req: FastifyRequest, reply: FastifyReply, userId: number) {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(twoFactorDevices).values({
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + DEVICE_MS),
    ip: req.ip,
    userAgent: (req.headers['user-agent'] ?? '').slice(0, 300),
  });
  reply.setCookie(DEVICE_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: DEVICE_MS / 1000,
  });
}

/** Turns a user's two factors off: the secret, the recovery codes, and every remembered device. */
export async function removeFactor(tx: Queryable, userId: number) {
  await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await tx
    .update(twoFactorDevices)
    .set({ revokedAt: new Date() })
    .where(and(eq(twoFactorDevices.userId, userId), isNull(twoFactorDevices.revokedAt)));
}

export async function statusOf(tx: Queryable, userId: number) {
  const factor = await factorOf(tx, userId);
  const [counts] = (
    (await tx.execute(sql`select
      (select count(*)::int from two_factor_recovery_codes where user_id = ${userId} and used_at is null) as recovery,
      (select count(*)::int from two_factor_devices where user_id = ${userId} and revoked_at is null and expires_at > now()) as devices`)) as unknown as {
      rows: { recovery: number; devices: number }[];
    }
  ).rows;
  const enabled = !!factor?.enabledAt;
  return {
    enabled,
    enabledAt: factor?.enabledAt?.toISOString() ?? null,
    recoveryLeft: enabled ? Number(counts?.recovery ?? 0) : 0,
    rememberedDevices: enabled ? Number(counts?.devices ?? 0) : 0,
    required: await requiredFor(tx, userId),
  };
}
