import { INVOICE_ISSUE_QUEUE, INVOICE_OUT_MSG } from '@dzy/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { enterprises, invoiceRequests, invoiceRuns, jobs } from '../../db/schema/index.js';
import { isConnectionLost } from '../../plugins/errors.js';
import { type JobHandler, RetryableError, yieldToRequests } from '../../plugins/jobs.js';
import { sendBlue } from './invoice.service.js';

const MAX_ATTEMPTS = 8;
/** Requests not answered yet: pending, or sending (committed before a bureau call whose answer never came). */
const OPEN: ('pending' | 'sending')[] = ['pending', 'sending'];

/**
 * Ends a batch-issue run whose job gave up: its pending requests fail with a reason (the first one, the
 * one being sent when the job stopped, may have been issued by the bureau: the reason says to check), and
 * the run is done, so its progress ends and the failure file lists them. Idempotent (only pending rows
 * and a running run change).
 */
export async function closeIssueRun(tx: Queryable, agencyId: number, runId: number, why: string) {
  const reason = why.trim().slice(0, 200) || '任务失败';
  const pending = await tx
    .select({ id: invoiceRequests.id })
    .from(invoiceRequests)
    .where(
      and(
        eq(invoiceRequests.agencyId, agencyId),
        eq(invoiceRequests.runId, runId),
        inArray(invoiceRequests.state, OPEN),
      ),
    )
    .orderBy(asc(invoiceRequests.id))
    .limit(1);
  const first = pending[0]?.id;
  if (first !== undefined) {
    await tx
      .update(invoiceRequests)
      .set({
        state: 'failed',
        msg: sql`case when ${invoiceRequests.id} = ${first} then ${INVOICE_OUT_MSG.batchUnknown(reason)} else ${INVOICE_OUT_MSG.batchStopped(reason)} end`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(invoiceRequests.agencyId, agencyId),
          eq(invoiceRequests.runId, runId),
          inArray(invoiceRequests.state, OPEN),
        ),
      );
  }
  await tx
    .update(invoiceRuns)
    .set({ state: 'done', finishedAt: new Date() })
    .where(and(eq(invoiceRuns.agencyId, agencyId), eq(invoiceRuns.id, runId), eq(invoiceRuns.state, 'running')));
}

/**
 * A run still running whose job has ended without ending it (failed after its attempts — e.g. the database
 * kept losing its connection, so the job could not record its own end): closed when its progress is read.
 */
export async function settleIssueRun(tx: Queryable, run: typeof invoiceRuns.$inferSelect) {
  if (run.state !== 'running') return run;
  const [job] = await tx
    .select({ state: jobs.state, error: jobs.error })
    .from(jobs)
    .where(and(eq(jobs.queue, INVOICE_ISSUE_QUEUE), eq(jobs.key, String(run.id))));
  if (!job || (job.state !== 'failed' && job.state !== 'done')) return run;
  await closeIssueRun(tx, run.agencyId, run.id, job.error || '任务已结束');
  const [after] = await tx.select().from(invoiceRuns).where(eq(invoiceRuns.id, run.id));
  return after ?? run;
}

/**
 * 批量开票: one job per run, over the run's pending requests in order, each sent with its own request id
 * (committed when the file was read). Resumable: a crash or a lost reply leaves the request pending, and
 * the job taken again sends the same id, so the bureau issues it at most once. When the job gives up
 * (its last attempt fails, a failure that is not worth another try, or it is taken again after more
 * attempts than it has — crashes), the run ends with the requests left failed with the reason.
 */
export const invoiceIssueJob: JobHandler = {
  queue: INVOICE_ISSUE_QUEUE,
  perAgencyCap: 2,
  workers: 1,
  leaseSeconds: 60,
  maxAttempts: MAX_ATTEMPTS,
  async run(ctx) {
    const { runId, userId } = ctx.job.payload as { runId: number; userId: number };
    const agencyId = ctx.job.agencyId;
    const giveUp = async (why: string) => {
      await ctx.inTx(async (tx) => {
        await closeIssueRun(tx, agencyId, runId, why);
        await ctx.doneIn(tx, { runId, gaveUp: why });
      }, userId);
      return undefined;
    };
    // Taken again after crashes beyond its attempts (the runner retakes a job whose lease lapsed).
    if (ctx.job.attempts > MAX_ATTEMPTS) return giveUp('任务多次中断');
    try {
      for (;;) {
        const next = await ctx.inTx(async (tx) => {
          const [r] = await tx
            .select()
            .from(invoiceRequests)
            .where(
              and(
                eq(invoiceRequests.agencyId, agencyId),
                eq(invoiceRequests.runId, runId),
                inArray(invoiceRequests.state, OPEN),
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
    } catch (err) {
      // A lost database connection: nothing can be recorded now; the runner tries again (and the progress
      // read settles the run if it never can).
      if (isConnectionLost(err)) throw err;
      if (err instanceof RetryableError && ctx.job.attempts < MAX_ATTEMPTS) throw err;
      return giveUp(err instanceof Error ? err.message : String(err));
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
