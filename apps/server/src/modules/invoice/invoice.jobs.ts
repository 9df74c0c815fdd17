import { INVOICE_ISSUE_QUEUE } from '@dzy/shared';
import { and, asc, eq } from 'drizzle-orm';
import { enterprises, invoiceRequests, invoiceRuns } from '../../db/schema/index.js';
import { type JobHandler, RetryableError, yieldToRequests } from '../../plugins/jobs.js';
import { sendBlue } from './invoice.service.js';

/**
 * 批量开票: one job per run, over the run's pending requests in order, each sent with its own request id
 * (committed when the file was read). Resumable: a crash or a lost reply leaves the request pending, and
 * the job taken again sends the same id, so the bureau issues it at most once.
 */
export const invoiceIssueJob: JobHandler = {
  queue: INVOICE_ISSUE_QUEUE,
  perAgencyCap: 2,
  workers: 1,
  leaseSeconds: 60,
  maxAttempts: 8,
  async run(ctx) {
    const { runId, userId } = ctx.job.payload as { runId: number; userId: number };
    const agencyId = ctx.job.agencyId;
    for (;;) {
      const next = await ctx.inTx(async (tx) => {
        const [r] = await tx
          .select()
          .from(invoiceRequests)
          .where(
            and(
              eq(invoiceRequests.agencyId, agencyId),
              eq(invoiceRequests.runId, runId),
              eq(invoiceRequests.state, 'pending'),
            ),
          )
          .orderBy(asc(invoiceRequests.id))
          .limit(1);
        if (!r) return null;
        const [ent] = await tx
          .select()
          .from(enterprises)
          .where(and(eq(enterprises.agencyId, agencyId), eq(enterprises.id, r.enterpriseId)));
        return ent ? { r, ent } : null;
      }, userId);
      if (!next) break;
      const out = await sendBlue(ctx.deps, (fn) => ctx.inTx(fn, userId), next.ent, next.r, userId);
      if (out.status === 'lost') throw new RetryableError(out.msg);
      await ctx.setProgress({ runId, last: next.r.id });
      await yieldToRequests();
    }
    await ctx.inTx(async (tx) => {
      await tx
        .update(invoiceRuns)
        .set({ state: 'done', finishedAt: new Date() })
        .where(and(eq(invoiceRuns.agencyId, agencyId), eq(invoiceRuns.id, runId)));
      await ctx.doneIn(tx, { runId });
    }, userId);
    return undefined;
  },
};
