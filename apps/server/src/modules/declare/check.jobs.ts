import { CHECK_PUSH_TYPE, CHECK_QUEUE } from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { checkBatches, checkResults, enterprises, etaxSessions } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { type JobHandler, RetryableError } from '../../plugins/jobs.js';
import { liveSessionOf, readSessionBlob } from './bureau-login.js';
import { type BatchRow, rateOf, recordOutcome } from './check.repo.js';
import { type CheckOutcome, checkEnterprise, exhausted, retryable } from './check.service.js';

/** The job's payload: which enterprise of which batch. */
export interface CheckPayload {
  batchId: number;
  enterpriseId: number;
}

const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** C: enterprises of one agency checked at once (each job makes its bureau calls one after another). */
export const checkConcurrency = () => envInt('CHECK_CONCURRENCY', 10);
/** Tries per enterprise for a busy or failing bureau (backoff 0.5 s, 1 s, 2 s ... between them). */
export const CHECK_MAX_ATTEMPTS = 4;

export async function publishRate(deps: Deps, b: BatchRow) {
  try {
    await deps.push.publish([b.userId], { type: CHECK_PUSH_TYPE, data: { ...rateOf(b) } });
  } catch {
    // The page polls as well.
  }
}

/**
 * One enterprise of a batch check (queue declare-check). Skips when the batch was stopped or the
 * outcome is already recorded (a resumed job); retries a busy or failing bureau with backoff and
 * records 6 (the busy message) when the tries are used up. Short transactions only: none is held
 * while the bureau answers.
 */
export const checkJob: JobHandler = {
  queue: CHECK_QUEUE,
  // Read when the runner starts and at every claim, so CHECK_CONCURRENCY / CHECK_LEASE_SECONDS apply.
  get perAgencyCap() {
    return checkConcurrency();
  },
  get workers() {
    return checkConcurrency();
  },
  get leaseSeconds() {
    return envInt('CHECK_LEASE_SECONDS', 30);
  },
  maxAttempts: CHECK_MAX_ATTEMPTS,
  async run(ctx) {
    const { deps, job } = ctx;
    const p = job.payload as unknown as CheckPayload;
    // One query: the run, this enterprise's result row, the enterprise and its cached bureau session.
    const start = await ctx.inTx(async (tx) => {
      const [row] = await tx
        .select({
          state: checkBatches.state,
          ssq: checkBatches.ssq,
          msgType: checkResults.msgType,
          ent: enterprises,
          sessionEnc: etaxSessions.sessionEnc,
        })
        .from(checkResults)
        .innerJoin(checkBatches, eq(checkBatches.id, checkResults.batchId))
        .innerJoin(enterprises, eq(enterprises.id, checkResults.enterpriseId))
        .leftJoin(etaxSessions, liveSessionOf(enterprises))
        .where(and(eq(checkResults.batchId, p.batchId), eq(checkResults.enterpriseId, p.enterpriseId)));
      return row && row.state === 'running' && row.msgType === null ? row : null;
    });
    if (!start) return { skipped: true };

    let outcome: CheckOutcome;
    try {
      outcome = await checkEnterprise(deps, ctx.inTx, start.ent, start.ssq, {
        cached: readSessionBlob(deps, start.sessionEnc),
      });
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      if (retryable(err) && job.attempts < CHECK_MAX_ATTEMPTS) throw new RetryableError(msg);
      // Out of tries, or something unexpected: the enterprise still gets its outcome, the batch goes on.
      outcome = exhausted();
    }
    // The outcome, the batch's counts and the job's end in one transaction: per enterprise, the claim,
    // one read and this one write are all the database sees (besides the bureau calls).
    const after = await ctx.inTx(async (tx) => {
      const row = await recordOutcome(
        tx,
        { agencyId: job.agencyId, batchId: p.batchId, enterpriseId: p.enterpriseId },
        outcome,
        deps,
      );
      await ctx.doneIn(tx, { msgType: outcome.msgType });
      return row;
    });
    if (after) await publishRate(deps, after);
    return { msgType: outcome.msgType };
  },
};
