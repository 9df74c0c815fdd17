import { CODE } from '@dzy/shared';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/client.js';
import { smsOutbox } from '../db/schema/index.js';
import { AppError } from './errors.js';

/** Sends a text message. Every message is kept in sms_outbox; a real gateway adapter would also send it. */
export interface SmsSender {
  /** `agencyId`: the agency the text is sent for (it counts against that agency's daily budget). */
  send(tx: Queryable, phone: string, content: string, agencyId?: number | null): Promise<void>;
}

export const SMS_BUDGET_MSG = '今日短信发送量已达上限，请明天再试，或联系平台客服';

/** Midnight in China (the budgets' day), as a timestamp the database compares with. */
const chinaMidnight = sql`(date_trunc('day', now() at time zone 'Asia/Shanghai') at time zone 'Asia/Shanghai')`;

/**
 * The outbox sender. In development the outbox is readable at /#/dev/outbox and each text is logged;
 * in production neither, and a gateway adapter belongs here (no SMS gateway can be reached from here).
 * Texts cost money and can be abused to flood phones: a daily budget for the platform and per agency.
 */
export function outboxSms(
  log: FastifyBaseLogger,
  opts: { production: boolean; dailyBudget: number; agencyDailyBudget: number },
): SmsSender {
  const sentToday = async (tx: Queryable, agencyId?: number | null) => {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(smsOutbox)
      .where(and(gte(smsOutbox.createdAt, chinaMidnight), agencyId ? eq(smsOutbox.agencyId, agencyId) : undefined));
    return row?.n ?? 0;
  };
  return {
    async send(tx, phone, content, agencyId) {
      if ((await sentToday(tx)) >= opts.dailyBudget) {
        log.error({ budget: opts.dailyBudget }, 'platform SMS budget for today used up');
        throw new AppError(CODE.TOO_MANY, SMS_BUDGET_MSG);
      }
      if (agencyId && (await sentToday(tx, agencyId)) >= opts.agencyDailyBudget) {
        throw new AppError(CODE.TOO_MANY, SMS_BUDGET_MSG);
      }
      await tx.insert(smsOutbox).values({ phone, content, agencyId: agencyId ?? null });
      if (!opts.production) log.info({ phone, sms: content }, 'sms to dev outbox');
    },
  };
}
