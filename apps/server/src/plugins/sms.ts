import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/client.js';
import { smsOutbox } from '../db/schema/index.js';

/** Sends a text message. Every message is kept in sms_outbox; a real gateway adapter would also send it. */
export interface SmsSender {
  send(tx: Queryable, phone: string, content: string): Promise<void>;
}

/**
 * The outbox sender. In development the outbox is readable at /#/dev/outbox and each text is logged;
 * in production neither, and a gateway adapter belongs here (no SMS gateway can be reached from here).
 */
export function outboxSms(log: FastifyBaseLogger, production: boolean): SmsSender {
  return {
    async send(tx, phone, content) {
      await tx.insert(smsOutbox).values({ phone, content });
      if (!production) log.info({ phone, sms: content }, 'sms to dev outbox');
    },
  };
}
