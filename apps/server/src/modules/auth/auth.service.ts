import { createHmac, timingSafeEqual } from 'node:crypto';
import { CODE } from '@dzy/shared';
import { and, eq, gt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { loginAttempts, loginLocks, users } from '../../db/schema/index.js';
import { Answer } from '../../plugins/errors.js';

export const LOCK_AFTER_FAILURES = 5;
export const LOCK_WINDOW_MS = 15 * 60_000;
export const WRONG_CREDENTIALS = '账号或密码错误';

export const normaliseAccount = (account: string) => account.trim().toLowerCase();

export async function findUserByAccount(tx: Queryable, account: string) {
  const [user] = await tx
    .select()
    .from(users)
    .where(or(eq(users.phone, account), eq(sql`lower(${users.account})`, account)))
    .limit(1);
  return user ?? null;
}

export async function findUserByPhone(tx: Queryable, phone: string) {
  const [user] = await tx.select().from(users).where(eq(users.phone, phone)).limit(1);
  return user ?? null;
}

const shanghaiTime = (d: Date) =>
  new Intl.DateTimeFormat('zh-CN', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  })
    .format(d)
    .replaceAll('/', '-');

/**
 * The refusal for an account locked at this address, or null when it may try. A lock holds for one
 * account at one address: an outsider guessing someone's password locks only themselves out, and the
 * owner signs in from their own address (or by SMS code) as usual.
 */
export async function lockedAnswer(tx: Queryable, account: string, ip: string): Promise<Answer | null> {
  const [lock] = await tx
    .select()
    .from(loginLocks)
    .where(and(eq(loginLocks.account, account), eq(loginLocks.ip, ip), gt(loginLocks.lockedUntil, new Date())));
  if (!lock) return null;
  return new Answer(
    CODE.LOCKED,
    `密码错误次数过多，账号已锁定至 ${shanghaiTime(lock.lockedUntil)}，请稍后再试，或使用验证码登录、找回密码`,
    { lockedUntil: lock.lockedUntil.toISOString() },
  );
}

/**
 * Records a password attempt; the fifth failure for the account from one address within 15 minutes
 * (since the account's last success) locks the account at that address.
 */
export async function recordAttempt(tx: Queryable, account: string, ok: boolean, ip: string): Promise<Answer | null> {
  await tx.insert(loginAttempts).values({ account, ok, ip });
  if (ok) return null;
  const since = new Date(Date.now() - LOCK_WINDOW_MS);
  const [{ n } = { n: 0 }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.account, account),
        eq(loginAttempts.ip, ip),
        eq(loginAttempts.ok, false),
        gt(loginAttempts.at, since),
        sql`${loginAttempts.at} > coalesce((select max(la.at) from login_attempts la where la.account = ${account} and la.ok), '-infinity')`,
      ),
    );
  if (n < LOCK_AFTER_FAILURES) return new Answer(CODE.BAD_REQUEST, WRONG_CREDENTIALS);
  const lockedUntil = new Date(Date.now() + LOCK_WINDOW_MS);
  await tx
    .insert(loginLocks)
    .values({ account, ip, lockedUntil })
    .onConflictDoUpdate({ target: [loginLocks.account, loginLocks.ip], set: { lockedUntil } });
  return lockedAnswer(tx, account, ip);
}

const TICKET_MS = 10 * 60_000;

/** A short-lived proof that a phone passed SMS verification, for registering it with saveUser. */
export function registerTicket(secret: Buffer, phone: string): string {
  const exp = Date.now() + TICKET_MS;
  const sig = createHmac('sha256', secret).update(`register:${phone}:${exp}`).digest('base64url');
  return `${exp}.${sig}`;
}

export function ticketValid(secret: Buffer, phone: string, ticket: string): boolean {
  const [exp, sig] = ticket.split('.');
  if (!exp || !sig || Number(exp) < Date.now()) return false;
  const want = createHmac('sha256', secret).update(`register:${phone}:${exp}`).digest();
  const got = Buffer.from(sig, 'base64url');
  return got.length === want.length && timingSafeEqual(got, want);
}
