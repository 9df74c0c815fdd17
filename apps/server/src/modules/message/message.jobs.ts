import { EXPIRED_MARK, MESSAGE_KEEP_MONTHS } from '@dzy/shared';
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { enterprises, memberships, messages } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate, enqueue, enqueueForEveryAgency, type JobHandler, startDailyTimer } from '../../plugins/jobs.js';
import { notifyEvent } from './notify.js';

export const CLEANUP_QUEUE = 'message.cleanup';
export const EXPIRY_SCAN_QUEUE = 'message.expiry-scan';
export const EXPIRY_QUEUE = 'message.expiry';

/**
 * Creates the day's jobs of every agency: delete its messages older than six months, look for clients
 * whose membership expired. Keys hold the date, so several server processes create each job once.
 */
export async function scheduleDailyJobs(deps: Deps, date = chinaDate()): Promise<number> {
  return enqueueForEveryAgency(deps, date, [
    { queue: CLEANUP_QUEUE, key: 'cleanup' },
    { queue: EXPIRY_SCAN_QUEUE, key: 'expiry-scan' },
  ]);
}

/** Starts the daily timer with the server. */
export function startDailySchedule(app: FastifyInstance, deps: Deps) {
  startDailyTimer(app, 'message jobs', (date) => scheduleDailyJobs(deps, date));
}

const base = { perAgencyCap: 1, workers: 1, leaseSeconds: 30, maxAttempts: 3 } as const;

export const messageJobs: JobHandler[] = [
  {
    ...base,
    queue: CLEANUP_QUEUE,
    // Records are kept six months (foundation.md §9): older ones are deleted for good.
    async run({ job, inTx }) {
      const deleted = await inTx(async (tx) => {
        const rows = await tx
          .delete(messages)
          .where(
            and(
              eq(messages.agencyId, job.agencyId),
              lt(messages.createdAt, sql`now() - make_interval(months => ${MESSAGE_KEEP_MONTHS})`),
            ),
          )
          .returning({ id: messages.id });
        return rows.length;
      });
      return { deleted };
    },
  },
  {
    ...base,
    queue: EXPIRY_SCAN_QUEUE,
    // One reminder job per client and expiry date: a client is reminded once for each expiry.
    async run({ job, inTx, deps }) {
      const date = String(job.payload.date ?? chinaDate());
      const found = await inTx(async (tx) => {
        const rows = await tx
          .select({ id: enterprises.id, hydqsj: enterprises.hydqsj })
          .from(enterprises)
          .where(
            and(
              eq(enterprises.agencyId, job.agencyId),
              isNull(enterprises.deletedAt),
              isNotNull(enterprises.allocateUser),
              isNotNull(enterprises.hydqsj),
              lt(enterprises.hydqsj, date),
            ),
          );
        for (const r of rows) {
          await enqueue(tx, {
            agencyId: job.agencyId,
            queue: EXPIRY_QUEUE,
            key: `expiry:${r.id}:${r.hydqsj}`,
            payload: { enterpriseId: r.id, hydqsj: r.hydqsj },
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
    queue: EXPIRY_QUEUE,
    workers: 2,
    async run({ job, inTx, deps }) {
      const enterpriseId = Number(job.payload.enterpriseId);
      const after: (() => Promise<void>)[] = [];
      const sent = await inTx(async (tx) => {
        const [ent] = await tx
          .select({
            id: enterprises.id,
            qymc: enterprises.qymc,
            hydqsj: enterprises.hydqsj,
            user: enterprises.allocateUser,
          })
          .from(enterprises)
          .innerJoin(
            memberships,
            and(eq(memberships.agencyId, enterprises.agencyId), eq(memberships.userId, enterprises.allocateUser)),
          )
          .where(
            and(
              eq(enterprises.id, enterpriseId),
              eq(enterprises.agencyId, job.agencyId),
              isNull(enterprises.deletedAt),
            ),
          )
          .limit(1);
        // Renewed, deleted or handed to nobody since the scan: nothing to say.
        if (!ent?.user || ent.hydqsj !== job.payload.hydqsj) return [];
        return notifyEvent(tx, deps.push, (fn) => void after.push(fn), {
          event: 'reminder',
          label: EXPIRED_MARK,
          agencyId: job.agencyId,
          userIds: [ent.user],
          detail: `客户「${ent.qymc}」的会员服务已于 ${ent.hydqsj} 到期，请及时联系客户续费。`,
          msgStyleSmall: 'customer',
          targetId: ent.id,
        });
      });
      for (const fn of after) await fn();
      return { sent: sent.length };
    },
  },
];
