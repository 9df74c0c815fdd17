import { FEE_REMIND_DAYS, feeYuan } from '@dzy/shared';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { contracts, enterprises, memberships, receivables } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate, enqueue, enqueueForEveryAgency, type JobHandler, startDailyTimer } from '../../plugins/jobs.js';
import { addDays, daysBetween } from '../contract/contract-dates.js';
import { notifyEvent } from '../message/notify.js';

export const FEE_SCAN_QUEUE = 'fee.remind-scan';
export const FEE_REMIND_QUEUE = 'fee.remind';

/**
 * Creates the day's fee-reminder scan of every agency. The key holds the date, so several server
 * processes (or several ticks) create each once.
 */
export async function scheduleFeeReminders(deps: Deps, date = chinaDate()): Promise<number> {
  return enqueueForEveryAgency(deps, date, [{ queue: FEE_SCAN_QUEUE, key: 'fee-scan' }]);
}

/** Starts the daily timer with the server. */
export function startFeeSchedule(app: FastifyInstance, deps: Deps) {
  startDailyTimer(app, 'fee reminders', (date) => scheduleFeeReminders(deps, date));
}

/** The reminder text for one period on `date`. */
export function feeReminderText(
  p: { qymc: string; contractNo: string; periodNo: number; dueDate: string; amountFen: number; paidFen: number },
  date: string,
): string {
  const unpaid = feeYuan(p.amountFen - p.paidFen);
  const head = `客户「${p.qymc}」合同 ${p.contractNo} 第${p.periodNo}期应收 ¥${feeYuan(p.amountFen)}`;
  const late = daysBetween(p.dueDate, date);
  if (late > 0) return `${head}，应收日 ${p.dueDate}，已逾期 ${late} 天，尚未收 ¥${unpaid}，请及时催收。`;
  if (late === 0) return `${head}今日（${p.dueDate}）到期，尚未收 ¥${unpaid}，请及时收款。`;
  return `${head}将于 ${p.dueDate} 到期（还有 ${-late} 天），尚未收 ¥${unpaid}，请及时收款。`;
}

const base = { perAgencyCap: 1, workers: 1, leaseSeconds: 30, maxAttempts: 3 } as const;

export const feeJobs: JobHandler[] = [
  {
    ...base,
    queue: FEE_SCAN_QUEUE,
    // One reminder job per period and day: a period is reminded at most once a day, whatever reruns.
    async run({ job, inTx, deps }) {
      const date = String(job.payload.date ?? chinaDate());
      const horizon = addDays(date, FEE_REMIND_DAYS);
      const found = await inTx(async (tx) => {
        const rows = await tx
          .select({ id: receivables.id })
          .from(receivables)
          .innerJoin(contracts, eq(contracts.id, receivables.contractId))
          .where(
            and(
              eq(receivables.agencyId, job.agencyId),
              // In force or terminated (its past periods are still owed); not drafts or deleted ones.
              inArray(contracts.htzt, ['2', '3']),
              sql`${receivables.paidFen} < ${receivables.amountFen}`,
              lte(receivables.dueDate, horizon),
            ),
          );
        for (const r of rows) {
          await enqueue(tx, {
            agencyId: job.agencyId,
            queue: FEE_REMIND_QUEUE,
            key: `sftx:${r.id}:${date}`,
            payload: { receivableId: r.id, date },
          });
        }
        return rows.length;
      });
      if (found > 0) deps.wakeJobs();
      return { found };
    },
  },
  {
    ...base,
    queue: FEE_REMIND_QUEUE,
    workers: 2,
    async run({ job, inTx, deps }) {
      const receivableId = Number(job.payload.receivableId);
      const date = String(job.payload.date ?? chinaDate());
      const after: (() => Promise<void>)[] = [];
      const sent = await inTx(async (tx) => {
        const [p] = await tx
          .select({
            contractId: contracts.id,
            contractNo: contracts.contractNo,
            htzt: contracts.htzt,
            owner: contracts.contractUserId,
            qymc: enterprises.qymc,
            periodNo: receivables.periodNo,
            dueDate: receivables.dueDate,
            amountFen: receivables.amountFen,
            paidFen: receivables.paidFen,
          })
          .from(receivables)
          .innerJoin(contracts, eq(contracts.id, receivables.contractId))
          .innerJoin(enterprises, eq(enterprises.id, receivables.enterpriseId))
          // The owner must still be a member of the agency to be told.
          .innerJoin(
            memberships,
            and(eq(memberships.agencyId, contracts.agencyId), eq(memberships.userId, contracts.contractUserId)),
          )
          .where(and(eq(receivables.id, receivableId), eq(receivables.agencyId, job.agencyId)))
          .limit(1);
        // Paid, deleted or no longer owed since the scan: nothing to say.
        if (!p || p.paidFen >= p.amountFen || (p.htzt !== '2' && p.htzt !== '3')) return [];
        return notifyEvent(tx, deps.push, (fn) => void after.push(fn), {
          event: 'sftx',
          agencyId: job.agencyId,
          userIds: [p.owner],
          detail: feeReminderText(p, date),
          targetId: p.contractId,
        });
      });
      for (const fn of after) await fn();
      return { sent: sent.length };
    },
  },
];
