import { BOOK_CLOSE_QUEUE, BOOK_RUN_PUSH_TYPE, type BookRunRate, type CjsRate } from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { bookRunClients, bookRuns } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import type { JobHandler } from '../../plugins/jobs.js';
import { closeOneForRun, rulesOf } from './close.service.js';

export type BookRunRow = typeof bookRuns.$inferSelect;

const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Books of one agency closed at once (and workers per process). */
export const closeConcurrency = () => envInt('BOOK_CLOSE_CONCURRENCY', 2);

/** A run's progress, counted from its books' outcome rows. */
export async function runRate(tx: Queryable, r: BookRunRow): Promise<BookRunRate> {
  const [c] = await tx
    .select({
      ok: sql<number>`count(*) filter (where ${bookRunClients.state} = 'ok')`.mapWith(Number),
      bad: sql<number>`count(*) filter (where ${bookRunClients.state} = 'failed')`.mapWith(Number),
    })
    .from(bookRunClients)
    .where(eq(bookRunClients.runId, r.id));
  const successNum = c?.ok ?? 0;
  const failNum = c?.bad ?? 0;
  const completeNum = successNum + failNum;
  return {
    runId: String(r.id),
    kind: r.kind,
    period: r.period,
    state: r.state,
    totalNum: r.totalNum,
    successNum,
    failNum,
    completeNum,
    rate: r.totalNum === 0 ? 100 : Math.floor((completeNum * 100) / r.totalNum),
  };
}

/** Ends a run once no book is left; null while books remain or when it had ended already. */
export async function finishIfDone(tx: Queryable, runId: number): Promise<BookRunRow | null> {
  const [r] = await tx
    .update(bookRuns)
    .set({ state: 'done', finishedAt: new Date() })
    .where(
      and(
        eq(bookRuns.id, runId),
        eq(bookRuns.state, 'running'),
        sql`not exists (select 1 from ${bookRunClients} c where c.run_id = ${runId} and c.state is null)`,
      ),
    )
    .returning();
  return r ?? null;
}

const lastPush = new Map<number, number>();
const PUSH_EVERY_MS = 500;

async function pushRate(deps: Deps, rate: BookRunRate, userId: number) {
  try {
    await deps.push.publish([userId], { type: BOOK_RUN_PUSH_TYPE, data: { ...rate } });
  } catch {
    // The page polls as well.
  }
}

/**
 * One book of a batch close (busi/qmJz): the transfers, the checks and the close, with the book's outcome
 * row, in ONE transaction — so a worker that dies mid-way leaves nothing, and the job taken again does the
 * book once; a book whose outcome is recorded is skipped (docs/decisions-16-close.md "Batch close").
 */
export const bookCloseJob: JobHandler = {
  queue: BOOK_CLOSE_QUEUE,
  get perAgencyCap() {
    return closeConcurrency();
  },
  get workers() {
    return closeConcurrency();
  },
  get leaseSeconds() {
    return envInt('BOOK_CLOSE_LEASE_SECONDS', 30);
  },
  maxAttempts: 5,
  async run(ctx) {
    const p = ctx.job.payload as { runId: number; bookId: number; userId?: number };
    const t0 = performance.now();
    const outcome = await ctx.inTx(async (tx) => {
      const [row] = await tx
        .select({ run: bookRuns, state: bookRunClients.state })
        .from(bookRunClients)
        .innerJoin(bookRuns, eq(bookRuns.id, bookRunClients.runId))
        .where(and(eq(bookRunClients.runId, p.runId), eq(bookRunClients.bookId, p.bookId)))
        .for('update', { of: bookRunClients });
      if (row?.run.state !== 'running' || row.state !== null) return null;
      const rules = await rulesOf(tx, row.run.agencyId);
      const cjsRate = (row.run.options.cjsRate as CjsRate | undefined) ?? rules.close.cjsRate;
      const res = await closeOneForRun(
        tx,
        { agencyId: row.run.agencyId, userId: row.run.userId },
        p.bookId,
        row.run.period,
        { cjsRate, halve: rules.close.halve, incomeTax: rules.close.incomeTax },
      );
      await tx
        .update(bookRunClients)
        .set({ state: res.ok ? 'ok' : 'failed', msg: res.msg, updatedAt: new Date() })
        .where(and(eq(bookRunClients.runId, p.runId), eq(bookRunClients.bookId, p.bookId)));
      // jobMs: the book's own transaction, for the bench's "where the time went" (86-books-close.ts).
      await ctx.doneIn(tx, { ok: res.ok, jobMs: Math.round(performance.now() - t0) });
      return { res, userId: row.run.userId };
    }, p.userId);
    const finished = await ctx.inTx((tx) => finishIfDone(tx, p.runId));
    const now = Date.now();
    if (finished || (outcome && now - (lastPush.get(p.runId) ?? 0) >= PUSH_EVERY_MS)) {
      lastPush.set(p.runId, now);
      if (finished) lastPush.delete(p.runId);
      const live = await ctx.inTx(async (tx) => {
        const [r] = await tx.select().from(bookRuns).where(eq(bookRuns.id, p.runId));
        return r ? { rate: await runRate(tx, r), userId: r.userId } : null;
      });
      if (live) await pushRate(ctx.deps, live.rate, live.userId);
    }
    return outcome ? { ok: outcome.res.ok } : { skipped: true };
  },
};
