import {
  chinaToday,
  currentFilingMonth,
  FILING_REMIND_QUEUE,
  FILING_TAX_TYPE_NAMES,
  filingReminderText,
  REMIND_DAYS_DEFAULT,
} from '@dzy/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { agencyFilingSettings, filingReminders, memberships } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate, enqueueForEveryAgency, type JobHandler, startDailyTimer } from '../../plugins/jobs.js';
import { notifyEvent } from '../message/notify.js';
import { calendarMonths, dueReturns, isFiledState } from './due.js';

/** The agency's reminder days (申报设置), the default when never set. */
export async function remindDaysOf(tx: Queryable, agencyId: number): Promise<number> {
  const [row] = await tx
    .select({ d: agencyFilingSettings.remindDays })
    .from(agencyFilingSettings)
    .where(eq(agencyFilingSettings.agencyId, agencyId));
  return row?.d ?? REMIND_DAYS_DEFAULT;
}

const addDays = (date: string, n: number) => new Date(Date.parse(date) + n * 86_400_000).toISOString().slice(0, 10);

/** Creates the day's reminder scan of every agency (the key holds the date: once per day, whatever ticks). */
export async function scheduleFilingReminders(deps: Deps, date = chinaDate()): Promise<number> {
  return enqueueForEveryAgency(deps, date, [{ queue: FILING_REMIND_QUEUE, key: 'filing-remind' }]);
}

export function startFilingReminders(app: FastifyInstance, deps: Deps) {
  startDailyTimer(app, 'filing reminders', (date) => scheduleFilingReminders(deps, date));
}

/**
 * One agency's reminders of a day: each return not yet filed whose deadline is within the agency's days,
 * to the client's assigned staff member (still a member), once per (client, tax type, 所属期): the row in
 * filing_reminders is written with the message, so a rerun or a restart sends nothing twice.
 */
export const filingRemindJob: JobHandler = {
  queue: FILING_REMIND_QUEUE,
  perAgencyCap: 1,
  workers: 1,
  leaseSeconds: 60,
  maxAttempts: 3,
  async run({ job, inTx, deps }) {
    const date = String(job.payload.date ?? chinaToday());
    const after: (() => Promise<void>)[] = [];
    const sent = await inTx(async (tx) => {
      const days = await remindDaysOf(tx, job.agencyId);
      const horizon = addDays(date, days);
      const due = (await dueReturns(tx, job.agencyId, sql`true`, calendarMonths(currentFilingMonth(date)))).filter(
        (r) => !isFiledState(r.state) && r.allocateUser !== null && r.sbqx >= date && r.sbqx <= horizon,
      );
      if (due.length === 0) return 0;
      const members = new Set(
        (
          await tx
            .select({ userId: memberships.userId })
            .from(memberships)
            .where(
              and(
                eq(memberships.agencyId, job.agencyId),
                inArray(memberships.userId, [...new Set(due.map((r) => r.allocateUser as number))]),
              ),
            )
        ).map((m) => m.userId),
      );
      let n = 0;
      for (const r of due) {
        if (!members.has(r.allocateUser as number)) continue;
        const [fresh] = await tx
          .insert(filingReminders)
          .values({
            agencyId: job.agencyId,
            enterpriseId: r.aeiId,
            taxType: r.type,
            skssqq: r.skssqq,
            sbqx: r.sbqx,
            userId: r.allocateUser,
          })
          .onConflictDoNothing()
          .returning({ id: filingReminders.enterpriseId });
        if (!fresh) continue;
        await notifyEvent(tx, deps.push, (fn) => void after.push(fn), {
          event: 'reminder',
          label: '申报期限提醒',
          agencyId: job.agencyId,
          userIds: [r.allocateUser as number],
          detail: filingReminderText({ ...r, typeName: FILING_TAX_TYPE_NAMES[r.type] }),
          targetId: r.aeiId,
        });
        n += 1;
      }
      return n;
    });
    for (const fn of after) await fn();
    return { sent };
  },
};
