import { createHmac, randomInt } from 'node:crypto';
import { CODE, SMS_RESEND_SECONDS } from '@dzy/shared';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { smsCodes } from '../../db/schema/index.js';
import { Answer, AppError } from '../../plugins/errors.js';
import type { SmsSender } from '../../plugins/sms.js';

const VALID_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;
const MAX_PER_DAY = 10;

const PURPOSE_TEXT: Record<string, string> = {
  login: '登录',
  reset: '找回密码',
  changePhone: '更换手机号',
  reveal: '查看客户账号密码',
};

const hashCode = (secret: Buffer, phone: string, code: string) =>
  createHmac('sha256', secret).update(`${phone}:${code}`).digest('hex');

/** Issues a 6-digit code: one per 60 s and at most 10 a day per phone. */
export async function issueCode(tx: Queryable, sms: SmsSender, secret: Buffer, phone: string, purpose: string) {
  const [last] = await tx
    .select({ sentAt: smsCodes.sentAt })
    .from(smsCodes)
    .where(eq(smsCodes.phone, phone))
    .orderBy(desc(smsCodes.sentAt))
    .limit(1);
  if (last) {
    const wait = Math.ceil((last.sentAt.getTime() + SMS_RESEND_SECONDS * 1000 - Date.now()) / 1000);
    if (wait > 0) throw new AppError(CODE.TOO_MANY, `验证码已发送，请${wait}秒后再试`, { resendAfter: wait });
  }
  const [{ n } = { n: 0 }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), gt(smsCodes.sentAt, sql`now() - interval '1 day'`)));
  if (n >= MAX_PER_DAY) throw new AppError(CODE.TOO_MANY, '今日验证码发送次数已达上限，请明天再试');
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  await tx.insert(smsCodes).values({
    phone,
    purpose,
    codeHash: hashCode(secret, phone, code),
    expiresAt: new Date(Date.now() + VALID_MS),
  });
  await sms.send(
    tx,
    phone,
    `【代账云】您的${PURPOSE_TEXT[purpose] ?? ''}验证码为${code}，5分钟内有效。如非本人操作，请忽略本短信。`,
  );
}

/**
 * Consumes a code. Returns an Answer to send (and keep: the failed attempt counts) when it is wrong,
 * expired or used up; null when it is right.
 */
export async function consumeCode(
  tx: Queryable,
  secret: Buffer,
  phone: string,
  purpose: string,
  code: string,
): Promise<Answer | null> {
  const [row] = await tx
    .select()
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose), isNull(smsCodes.usedAt)))
    .orderBy(desc(smsCodes.sentAt))
    .limit(1);
  const wrong = new Answer(CODE.BAD_REQUEST, '验证码错误或已失效，请重新获取');
  if (!row || row.expiresAt.getTime() < Date.now() || row.attempts >= MAX_ATTEMPTS) return wrong;
  if (row.codeHash !== hashCode(secret, phone, code)) {
    await tx
      .update(smsCodes)
      .set({ attempts: row.attempts + 1 })
      .where(eq(smsCodes.id, row.id));
    return wrong;
  }
  await tx.update(smsCodes).set({ usedAt: new Date() }).where(eq(smsCodes.id, row.id));
  return null;
}
