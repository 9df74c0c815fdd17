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
 * purge_audit_log() never deletes anything younger than 180 days whatever is set), and platform rows
 * older than 180 days, in batches of RETENTION_BATCH. Resumable: a restarted job deletes what is still old.
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
    // The agency's rows, then the platform's (no agency): whichever agency's job runs first takes those.
    for (const whose of [agencyId, null]) {
      for (;;) {
        const n = await ctx.inTx(async (tx) =>
          rowsOf(await tx.execute(sql`select purge_audit_log(${whose}::int, ${RETENTION_BATCH}::int) as n`)),
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
