import { AUDIT_RETENTION_MIN_DAYS } from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { agencySecurity } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import {
  chinaDate,
  enqueueForEveryAgency,
  type JobHandler,
  startDailyTimer,
  yieldToRequests,
} from '../../plugins/jobs.js';

export const AUDIT_RETENTION_QUEUE = 'audit.retention';
/** Rows deleted per transaction: short transactions, the requests in between. */
export const RETENTION_BATCH = 1000;

/** Creates the day's retention job of every agency (keyed by the date: once a day whatever the ticks). */
export function scheduleAuditRetention(deps: Deps, date = chinaDate()): Promise<number> {
  return enqueueForEveryAgency(deps, date, [{ queue: AUDIT_RETENTION_QUEUE, key: 'audit-retention' }]);
}

export function startAuditRetention(app: FastifyInstance, deps: Deps) {
  startDailyTimer(app, 'audit log retention', (date) => scheduleAuditRetention(deps, date));
}

const rowsOf = (res: unknown) => (res as { rows: { n: number }[] }).rows[0]?.n ?? 0;

/**
 * Deletes the agency's audit rows older than its retention (180 days unless the administrator set more;
 * the database refuses anything younger than 180 days whatever is set), and platform rows older than 180
 * days, in batches of RETENTION_BATCH. Resumable: a restarted job just deletes what is still old.
 */
export const auditRetentionJob: JobHandler = {
  queue: AUDIT_RETENTION_QUEUE,
  perAgencyCap: 1,
  workers: 1,
  leaseSeconds: 30,
  maxAttempts: 3,
  async run(ctx) {
    const agencyId = ctx.job.agencyId;
    const days = await ctx.inTx(async (tx) => {
      const [row] = await tx
        .select({ d: agencySecurity.auditRetentionDays })
        .from(agencySecurity)
        .where(eq(agencySecurity.agencyId, agencyId));
      return Math.max(AUDIT_RETENTION_MIN_DAYS, row?.d ?? AUDIT_RETENTION_MIN_DAYS);
    });
    let deleted = 0;
    for (const own of [true, false]) {
      const keep = own ? days : AUDIT_RETENTION_MIN_DAYS;
      const whose = own ? sql`agency_id = ${agencyId}` : sql`agency_id is null`;
      for (;;) {
        const n = await ctx.inTx(async (tx) =>
          rowsOf(
            await tx.execute(sql`with gone as (
              delete from audit_log where id in (
                select id from audit_log where ${whose} and at < now() - make_interval(days => ${keep}) order by id limit ${RETENTION_BATCH})
              returning 1)
            select count(*)::int as n from gone`),
          ),
        );
        deleted += n;
        if (n > 0) await ctx.setProgress({ deleted });
        if (n < RETENTION_BATCH) break;
        await yieldToRequests();
      }
    }
    return { deleted, days };
  },
};
