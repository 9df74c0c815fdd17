import { BUREAU_MSG, FILING_SYNC_PUSH_TYPE, FILING_SYNC_QUEUE, type FilingSyncRate, MSG_TYPE } from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { enterprises, etaxSessions, filingSyncBatches, filingSyncResults } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate, type JobHandler, RetryableError } from '../../plugins/jobs.js';
import {
  type EnterpriseRow,
  liveSessionOf,
  readSessionBlob,
  type TxAccess,
  withBureauSession,
} from '../declare/bureau-login.js';
import { CHECK_MAX_ATTEMPTS, checkConcurrency } from '../declare/check.jobs.js';
import { exhausted, retryable, serviceExpired } from '../declare/check.service.js';
import { finishIfDone, liveRate, rateOf, recordSync, type SyncOutcome } from './filing.repo.js';

/** The job's payload: which client of which sync. */
export interface SyncPayload {
  batchId: number;
  enterpriseId: number;
}

const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** C: clients of one agency synced at once; the batch check's setting unless FILING_CONCURRENCY is set. */
export const filingConcurrency = () => envInt('FILING_CONCURRENCY', checkConcurrency());

export async function publishSyncRate(deps: Deps, userId: number, rate: FilingSyncRate) {
  try {
    await deps.push.publish([userId], { type: FILING_SYNC_PUSH_TYPE, data: { ...rate } });
  } catch {
    // The page polls as well.
  }
}

/** The last progress push per run in this process: at most one every PUSH_EVERY_MS while it runs. */
const lastPush = new Map<number, number>();
const PUSH_EVERY_MS = 500;

/**
 * One client's roster from the bureau (sbSyncData): the service must not have expired (8), then the
 * e-tax login with the stored credentials or the cached session (2, 4, 5 as the batch check), then the
 * 应申报清册 of the month. Two bureau calls at most (login, roster); one with a cached session.
 */
export async function syncEnterprise(
  deps: Deps,
  db: TxAccess,
  e: EnterpriseRow,
  month: string,
  cached: string | null,
): Promise<SyncOutcome> {
  if (serviceExpired(e, chinaDate()))
    return { ok: false, msgType: MSG_TYPE.serviceExpired, msg: BUREAU_MSG.serviceExpired };
  let fresh: string | undefined;
  const res = await withBureauSession(deps, db, e, (session) => deps.bureau.filingRoster(session, month), {
    cached,
    keep: (s) => {
      fresh = s;
    },
  });
  const out: SyncOutcome = res.ok ? { ok: true, roster: res.value } : { ok: false, msgType: res.msgType, msg: res.msg };
  return fresh ? { ...out, session: fresh } : out;
}

/**
 * One client of a roster sync (queue filing-sync), the batch check's pattern: skips when the sync was
 * stopped or the outcome is already recorded (a resumed job); a busy or failing bureau is retried with
 * backoff and records 6 (the busy message) when the tries are used up. No transaction is held while the
 * bureau answers.
 */
export const filingSyncJob: JobHandler = {
  queue: FILING_SYNC_QUEUE,
  get perAgencyCap() {
    return filingConcurrency();
  },
  get workers() {
    return filingConcurrency();
  },
  get leaseSeconds() {
    return envInt('FILING_LEASE_SECONDS', envInt('CHECK_LEASE_SECONDS', 30));
  },
  maxAttempts: CHECK_MAX_ATTEMPTS,
  async run(ctx) {
    const { deps, job } = ctx;
    const p = job.payload as unknown as SyncPayload;
    const start = await ctx.inTx(async (tx) => {
      const [row] = await tx
        .select({
          state: filingSyncBatches.state,
          month: filingSyncBatches.filingMonth,
          msgType: filingSyncResults.msgType,
          ent: enterprises,
          sessionEnc: etaxSessions.sessionEnc,
        })
        .from(filingSyncResults)
        .innerJoin(filingSyncBatches, eq(filingSyncBatches.id, filingSyncResults.batchId))
        .innerJoin(enterprises, eq(enterprises.id, filingSyncResults.enterpriseId))
        .leftJoin(etaxSessions, liveSessionOf(enterprises))
        .where(and(eq(filingSyncResults.batchId, p.batchId), eq(filingSyncResults.enterpriseId, p.enterpriseId)));
      return row ?? null;
    });
    if (start?.state !== 'running') return { skipped: true };
    if (start.msgType !== null) {
      // Recorded before a crash: the run may still be waiting for that client's end.
      await ctx.inTx((tx) => finishIfDone(tx, p.batchId));
      return { skipped: true };
    }

    let outcome: SyncOutcome;
    try {
      outcome = await syncEnterprise(deps, ctx.inTx, start.ent, start.month, readSessionBlob(deps, start.sessionEnc));
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      if (retryable(err) && job.attempts < CHECK_MAX_ATTEMPTS) throw new RetryableError(msg);
      const x = exhausted();
      outcome = { ok: false, msgType: x.msgType, msg: x.msg };
    }
    const recorded = await ctx.inTx(async (tx) => {
      const now = await recordSync(
        tx,
        { agencyId: job.agencyId, batchId: p.batchId, enterpriseId: p.enterpriseId, month: start.month },
        outcome,
        deps,
      );
      await ctx.doneIn(tx, { msgType: outcome.ok ? 1 : outcome.msgType });
      return now;
    });
    // After the commit: the run ends with the last client (also when this outcome was already recorded), and
    // the page hears of the progress.
    const finished = await ctx.inTx((tx) => finishIfDone(tx, p.batchId));
    if (recorded || finished) {
      const at = Date.now();
      if (finished) {
        lastPush.delete(p.batchId);
        await publishSyncRate(deps, finished.userId, rateOf(finished));
      } else if (at - (lastPush.get(p.batchId) ?? 0) >= PUSH_EVERY_MS) {
        lastPush.set(p.batchId, at);
        const b = await ctx.inTx(async (tx) => {
          const [row] = await tx.select().from(filingSyncBatches).where(eq(filingSyncBatches.id, p.batchId));
          return row ? { row, rate: await liveRate(tx, row) } : null;
        });
        if (b) await publishSyncRate(deps, b.row.userId, b.rate);
      }
    }
    return { msgType: outcome.ok ? 1 : outcome.msgType };
  },
};
