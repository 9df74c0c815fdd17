import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { enterprises, workOrderSteps, workOrders } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate, enqueueForEveryAgency, type JobHandler, startDailyTimer } from '../../plugins/jobs.js';
import { notifyEvent } from '../message/notify.js';

export const WO_OVERDUE_QUEUE = 'workorder.overdue';

/** Creates the day's overdue scan of every agency (keyed by the date: once a day, whatever reruns). */
export async function scheduleOverdueScans(deps: Deps, date = chinaDate()): Promise<number> {
  return enqueueForEveryAgency(deps, date, [{ queue: WO_OVERDUE_QUEUE, key: 'wo-overdue' }]);
}

export function startOverdueSchedule(app: FastifyInstance, deps: Deps) {
  startDailyTimer(app, 'work-order overdue reminders', (date) => scheduleOverdueScans(deps, date));
}

/**
 * Tells the assignee of every current step past its due date, once per step (overdue_notified_at): a system
 * reminder (always delivered) that opens the work-order list. Returns the steps reminded.
 */
export async function remindOverdue(
  tx: Tx,
  deps: Pick<Deps, 'push'>,
  afterCommit: (fn: () => Promise<void>) => void,
  agencyId: number,
  date: string,
): Promise<number> {
  const due = await tx
    .select({
      id: workOrderSteps.id,
      name: workOrderSteps.name,
      assigneeId: workOrderSteps.assigneeId,
      dueDate: workOrderSteps.dueDate,
      orderId: workOrders.id,
      orderNo: workOrders.orderNo,
      qymc: enterprises.qymc,
    })
    .from(workOrderSteps)
    .innerJoin(workOrders, eq(workOrders.id, workOrderSteps.workOrderId))
    .innerJoin(enterprises, eq(enterprises.id, workOrders.enterpriseId))
    .where(
      and(
        eq(workOrderSteps.agencyId, agencyId),
        eq(workOrderSteps.state, 'doing'),
        lt(workOrderSteps.dueDate, date),
        isNull(workOrderSteps.overdueNotifiedAt),
      ),
    )
    .orderBy(asc(workOrderSteps.id))
    .limit(5000)
    .for('update', { of: workOrderSteps, skipLocked: true });
  for (const s of due) {
    if (s.assigneeId) {
      await notifyEvent(tx, deps.push, afterCommit, {
        event: 'reminder',
        label: '工单逾期提醒',
        msgStyleSmall: 'workorder',
        agencyId,
        userIds: [s.assigneeId],
        detail: `工单 ${s.orderNo}（客户「${s.qymc}」）的步骤「${s.name}」应于 ${s.dueDate} 完成，已逾期，请尽快处理。`,
        targetId: s.orderId,
      });
    }
  }
  if (due.length) {
    await tx
      .update(workOrderSteps)
      .set({ overdueNotifiedAt: sql`now()` })
      .where(
        inArray(
          workOrderSteps.id,
          due.map((d) => d.id),
        ),
      );
  }
  return due.length;
}

export const workOrderJobs: JobHandler[] = [
  {
    queue: WO_OVERDUE_QUEUE,
    perAgencyCap: 1,
    workers: 1,
    leaseSeconds: 30,
    maxAttempts: 3,
    async run({ job, inTx, deps }) {
      const date = String(job.payload.date ?? chinaDate());
      const after: (() => Promise<void>)[] = [];
      const reminded = await inTx((tx) => remindOverdue(tx, deps, (fn) => void after.push(fn), job.agencyId, date));
      for (const fn of after) await fn();
      return { reminded };
    },
  },
];
