import { BUREAU_MSG, BureauError, INVOICE_POOL_MSG, INVOICE_RUN_QUEUE, type InvoiceDirection } from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  auditLog,
  enterprises,
  etaxSessions,
  invoiceRunClients,
  invoiceRuns,
  invoices,
} from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate, type JobContext, type JobHandler, RetryableError } from '../../plugins/jobs.js';
import {
  type EnterpriseRow,
  liveSessionOf,
  readSessionBlob,
  saveBureauSession,
  withBureauSession,
} from '../declare/bureau-login.js';
import { CHECK_MAX_ATTEMPTS } from '../declare/check.jobs.js';
import { serviceExpired } from '../declare/check.service.js';
import { filingConcurrency } from '../filing/filing.jobs.js';
import { saveInvoices } from '../invoice-store/invoice-store.js';
import { finishIfDone, fromBureau, publishStatus, type RunRow, restate, runStatus } from './invoice-pool.repo.js';

/** The job's payload: which client of which run. */
export interface PoolRunPayload {
  runId: number;
  enterpriseId: number;
}

const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Invoices asked of the bureau per page (fp/cxfp allows 500); each page is saved in its own transaction. */
export const COLLECT_PAGE_SIZE = () => envInt('INVOICE_COLLECT_PAGE_SIZE', 100);

type Outcome = { ok: boolean; msg: string; invoiceNum: number };

interface Start {
  run: RunRow;
  rcState: 'ok' | 'failed' | null;
  ent: EnterpriseRow;
  cached: string | null;
  fresh?: string;
}

const failMsg = (err: unknown) => (err instanceof BureauError && err.kind === 'failed' ? err.message : BUREAU_MSG.busy);

const lastPush = new Map<number, number>();
const PUSH_EVERY_MS = 500;

/** Bureau work on the client's session: a busy bureau is retried by the runner, then recorded as the reason. */
async function onSession<T>(
  ctx: JobContext,
  s: Start,
  fn: (session: string) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; msg: string }> {
  if (serviceExpired(s.ent, chinaDate())) return { ok: false, msg: BUREAU_MSG.serviceExpired };
  try {
    const res = await withBureauSession(ctx.deps, ctx.inTx, s.ent, fn, {
      cached: s.cached,
      keep: (x) => {
        s.fresh = x;
        s.cached = x;
      },
    });
    return res.ok ? res : { ok: false, msg: res.msg };
  } catch (err) {
    if (err instanceof BureauError && err.kind !== 'failed' && ctx.job.attempts < CHECK_MAX_ATTEMPTS)
      throw new RetryableError(err.message);
    if (err instanceof BureauError) return { ok: false, msg: failMsg(err) };
    throw err;
  }
}

/** Keeps a fresh login's session at once, so the next page's call reuses it. */
async function keepSession(ctx: JobContext, s: Start) {
  if (!s.fresh) return;
  const fresh = s.fresh;
  s.fresh = undefined;
  await ctx.inTx((tx) => saveBureauSession(ctx.deps, tx, s.ent, fresh));
}

const DIRECTIONS: readonly [InvoiceDirection, 'out' | 'in'][] = [
  ['xx', 'out'],
  ['jx', 'in'],
];

/**
 * Collects a client's month: both directions, page by page, each page saved by number in its own short
 * transaction (a job killed after some pages reruns them: the store's unique key counts none twice).
 */
async function collect(ctx: JobContext, s: Start): Promise<Outcome> {
  let seen = 0;
  let inserted = 0;
  const size = COLLECT_PAGE_SIZE();
  for (const [dir, direction] of DIRECTIONS) {
    for (let pageNo = 1; ; pageNo++) {
      const res = await onSession(ctx, s, (session) =>
        ctx.deps.bureau.invoicePage(session, { direction: dir, month: s.run.month, pageNo, pageSize: size }),
      );
      if (!res.ok) return { ok: false, msg: res.msg, invoiceNum: 0 };
      await keepSession(ctx, s);
      const page = res.value;
      if (page.list.length > 0) {
        const saved = await ctx.inTx((tx) =>
          saveInvoices(
            tx,
            { agencyId: s.run.agencyId, enterpriseId: s.ent.id, direction, source: 'collected' },
            page.list.map((b) => fromBureau(b, direction)),
          ),
        );
        inserted += saved.inserted;
      }
      seen += page.list.length;
      if (page.list.length === 0 || pageNo * size >= page.total) break;
    }
  }
  void inserted;
  return { ok: true, msg: INVOICE_POOL_MSG.collected, invoiceNum: seen };
}

/**
 * 用途确认 of the run's period for a client: the bureau's qrtj (idempotent: a rerun after a crash gets the
 * first answer), then the invoices ticked for the period become confirmed in the store, audited with the
 * bureau's figures.
 */
async function confirm(ctx: JobContext, s: Start): Promise<{ outcome: Outcome; save: (tx: Tx) => Promise<void> }> {
  const res = await onSession(ctx, s, (session) => ctx.deps.bureau.confirmDeduction(session, s.run.month));
  if (!res.ok) return { outcome: { ok: false, msg: res.msg, invoiceNum: 0 }, save: async () => {} };
  const r = res.value;
  if (r.status === 'refused') return { outcome: { ok: false, msg: r.msg, invoiceNum: 0 }, save: async () => {} };
  const c = r.confirmation;
  return {
    outcome: {
      ok: true,
      msg: r.status === 'confirmed' ? INVOICE_POOL_MSG.confirmed : INVOICE_POOL_MSG.alreadyConfirmed,
      invoiceNum: c.fs,
    },
    save: async (tx) => {
      const rows = await tx
        .select()
        .from(invoices)
        .where(
          and(
            eq(invoices.agencyId, s.run.agencyId),
            eq(invoices.enterpriseId, s.ent.id),
            eq(invoices.direction, 'in'),
            eq(invoices.deductState, 'selected'),
            eq(invoices.deductPeriod, s.run.month),
          ),
        );
      await restate(tx, s.run.agencyId, s.ent.id, rows, 'confirmed', s.run.month);
      await tx.insert(auditLog).values({
        agencyId: s.run.agencyId,
        userId: s.run.userId,
        action: 'invoice.input.confirm',
        target: String(s.ent.id),
        detail: {
          runId: s.run.id,
          aeiId: s.ent.id,
          ssq: c.ssq,
          fs: c.fs,
          je: c.je,
          se: c.se,
          qrrq: c.qrrq,
          status: r.status,
        },
        ip: '',
      });
    },
  };
}

async function pushStatus(deps: Deps, ctx: JobContext, runId: number, finished: boolean) {
  const at = Date.now();
  if (!finished && at - (lastPush.get(runId) ?? 0) < PUSH_EVERY_MS) return;
  if (finished) lastPush.delete(runId);
  else lastPush.set(runId, at);
  const b = await ctx.inTx(async (tx) => {
    const [row] = await tx.select().from(invoiceRuns).where(eq(invoiceRuns.id, runId));
    return row ? { row, status: (await runStatus(tx, [row], false))[0] } : null;
  });
  if (b?.status) await publishStatus(deps, b.row.userId, b.status);
}

/**
 * One client of a pool run (queue invoice-run): collect its month, or confirm its period. Skips when the
 * run was stopped or the client's outcome is recorded (a resumed job). No transaction is held while the
 * bureau answers.
 */
export const invoiceRunJob: JobHandler = {
  queue: INVOICE_RUN_QUEUE,
  get perAgencyCap() {
    return envInt('INVOICE_CONCURRENCY', filingConcurrency());
  },
  get workers() {
    return envInt('INVOICE_CONCURRENCY', filingConcurrency());
  },
  get leaseSeconds() {
    return envInt('INVOICE_LEASE_SECONDS', envInt('CHECK_LEASE_SECONDS', 30));
  },
  maxAttempts: CHECK_MAX_ATTEMPTS,
  async run(ctx) {
    const { deps, job } = ctx;
    const p = job.payload as unknown as PoolRunPayload;
    const start = await ctx.inTx(async (tx): Promise<Start | null> => {
      const [row] = await tx
        .select({
          run: invoiceRuns,
          rcState: invoiceRunClients.state,
          ent: enterprises,
          sessionEnc: etaxSessions.sessionEnc,
        })
        .from(invoiceRunClients)
        .innerJoin(invoiceRuns, eq(invoiceRuns.id, invoiceRunClients.runId))
        .innerJoin(enterprises, eq(enterprises.id, invoiceRunClients.enterpriseId))
        .leftJoin(etaxSessions, liveSessionOf(enterprises))
        .where(and(eq(invoiceRunClients.runId, p.runId), eq(invoiceRunClients.enterpriseId, p.enterpriseId)));
      return row
        ? { run: row.run, rcState: row.rcState, ent: row.ent, cached: readSessionBlob(deps, row.sessionEnc) }
        : null;
    });
    if (start?.run.state !== 'running') return { skipped: true };
    if (start.rcState !== null) {
      const finished = await ctx.inTx((tx) => finishIfDone(tx, p.runId));
      if (finished) await pushStatus(deps, ctx, p.runId, true);
      return { skipped: true };
    }
    let outcome: Outcome;
    let save: (tx: Tx) => Promise<void> = async () => {};
    if (start.run.kind === 'confirm') ({ outcome, save } = await confirm(ctx, start));
    else outcome = await collect(ctx, start);
    await ctx.inTx(async (tx) => {
      if (start.fresh) await saveBureauSession(deps, tx, start.ent, start.fresh);
      await save(tx);
      await tx
        .update(invoiceRunClients)
        .set({
          state: outcome.ok ? 'ok' : 'failed',
          msg: outcome.msg,
          invoiceNum: outcome.invoiceNum,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(invoiceRunClients.runId, p.runId),
            eq(invoiceRunClients.enterpriseId, p.enterpriseId),
            sql`${invoiceRunClients.state} is null`,
          ),
        );
      await ctx.doneIn(tx, { ok: outcome.ok, invoiceNum: outcome.invoiceNum });
    });
    const finished = await ctx.inTx((tx) => finishIfDone(tx, p.runId));
    await pushStatus(deps, ctx, p.runId, finished !== null);
    return { ok: outcome.ok };
  },
};
