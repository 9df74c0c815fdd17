import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { enterprises, filedReturns } from '../../db/schema/index.js';
import { enqueue, type JobHandler, jobScope, RetryableError } from '../../plugins/jobs.js';
import { type FiledReturn, receiptPdfOf } from './evidence.repo.js';

/** The queue that keeps the 申报回执 of returns just filed (one job per client and file run). */
export const RECEIPT_QUEUE = 'filing-receipt';

/** Queues the keeping of a client's new receipts; call in the transaction that records the filing. */
export function keepReceipts(tx: Tx, agencyId: number, enterpriseId: number, runId: number) {
  return enqueue(tx, {
    agencyId,
    queue: RECEIPT_QUEUE,
    key: `${runId}:${enterpriseId}`,
    payload: { enterpriseId },
  });
}

/**
 * Fetches the receipt PDF of every filed return of one client that has none yet and keeps it on the
 * ledger row: the evidence stays with the agency whatever the bureau keeps later. Low priority (two at
 * a time per agency) and after the filing's commit, so it never slows a batch; a receipt the bureau
 * cannot give now is retried, and a view fetches it on demand meanwhile.
 */
export const receiptJob: JobHandler = {
  queue: RECEIPT_QUEUE,
  perAgencyCap: 2,
  workers: 2,
  leaseSeconds: 60,
  maxAttempts: 5,
  async run(ctx) {
    const { enterpriseId } = ctx.job.payload as { enterpriseId: number };
    const agencyId = ctx.job.agencyId;
    const missing: FiledReturn[] = await ctx.inTx((tx) =>
      tx
        .select({
          aeiId: filedReturns.enterpriseId,
          qymc: enterprises.qymc,
          qysh: enterprises.qysh,
          taxType: filedReturns.taxType,
          skssqq: filedReturns.skssqq,
          skssqz: filedReturns.skssqz,
          pzxh: filedReturns.pzxh,
          ledgerId: filedReturns.id,
        })
        .from(filedReturns)
        .innerJoin(enterprises, eq(enterprises.id, filedReturns.enterpriseId))
        .where(
          and(
            eq(filedReturns.agencyId, agencyId),
            eq(filedReturns.enterpriseId, enterpriseId),
            eq(filedReturns.state, 'filed'),
            isNull(filedReturns.receiptPdf),
          ),
        )
        .then((rows) => rows.filter((r) => r.pzxh !== '').map((r) => ({ ...r, hasPdf: false }))),
    );
    let kept = 0;
    for (const r of missing) {
      try {
        await receiptPdfOf(ctx.deps, { ...jobScope(ctx.job), agencyId }, r);
      } catch (err) {
        // The bureau cannot give it now: again later, with backoff (those kept so far stay kept).
        throw new RetryableError(err instanceof Error ? err.message : String(err));
      }
      kept++;
    }
    return { kept };
  },
};
