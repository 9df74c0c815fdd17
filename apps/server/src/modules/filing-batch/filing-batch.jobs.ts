import {
  BUREAU_MSG,
  BureauError,
  FILING_BATCH_MSG,
  FILING_RUN_QUEUE,
  type PayResult,
  type ReturnFigures,
  type ReturnReceipt,
  type SubmitResult,
  taxYuanToFen,
} from '@dzy/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  auditLog,
  enterprises,
  etaxSessions,
  filedReturns,
  filingCells,
  filingPlanItems,
  filingPlans,
  filingRunClients,
  filingRuns,
} from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate, type JobContext, type JobHandler, RetryableError } from '../../plugins/jobs.js';
import { emitWebhook } from '../apikey/webhook.js';
import { bookAnswersFor } from '../book-reports/books-source.js';
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
import { keepReceipts } from '../filing-evidence/receipt.jobs.js';
import {
  batchSettings,
  finishIfDone,
  type ItemRow,
  liveRate,
  publishRunRate,
  type RunRow,
} from './filing-batch.repo.js';
import { type GeneratedItem, generateClient, needsBureau, offlineFigures } from './filing-batch.sources.js';

/** The job's payload: which client of which run. */
export interface RunPayload {
  runId: number;
  enterpriseId: number;
}

const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

type Outcome = { ok: boolean; msg: string };
interface Start {
  /** Milliseconds spent waiting on the bureau (login and calls), for the job's result (the bench reads it). */
  bureauMs: number;
  /** A session from a fresh login, saved with the job's records (one transaction fewer). */
  fresh?: string;
  run: RunRow;
  rcState: 'ok' | 'fail' | null;
  ent: EnterpriseRow;
  cached: string | null;
}

const fen = (y: string) => taxYuanToFen(y) ?? 0;
const lastPush = new Map<number, number>();
const PUSH_EVERY_MS = 500;

/** A bureau failure after the job's tries: its message (the busy text for busy / unreachable). */
const failMsg = (err: unknown) =>
  err instanceof BureauError && err.kind === 'failed'
    ? err.message
    : err instanceof BureauError
      ? err.message || BUREAU_MSG.busy
      : BUREAU_MSG.busy;

async function auditIn(tx: Tx, run: RunRow, action: string, target: string, detail: Record<string, unknown>) {
  await tx.insert(auditLog).values({ agencyId: run.agencyId, userId: run.userId, action, target, detail, ip: '' });
}

/** Runs bureau work on the client's session; a busy bureau is retried by the runner, then recorded. */
async function onSession<T>(
  ctx: JobContext,
  s: Start,
  fn: (session: string) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; msg: string }> {
  if (serviceExpired(s.ent, chinaDate())) return { ok: false, msg: BUREAU_MSG.serviceExpired };
  let fresh: string | undefined;
  const t0 = performance.now();
  try {
    const res = await withBureauSession(ctx.deps, ctx.inTx, s.ent, fn, {
      cached: s.cached,
      keep: (x) => {
        fresh = x;
      },
    });
    s.bureauMs += performance.now() - t0;
    if (fresh) s.fresh = fresh;
    return res.ok ? res : { ok: false, msg: res.msg };
  } catch (err) {
    if (err instanceof BureauError && ctx.job.attempts < CHECK_MAX_ATTEMPTS) throw new RetryableError(err.message);
    if (err instanceof BureauError) return { ok: false, msg: failMsg(err) };
    throw err;
  }
}

const itemsOf = (tx: Tx, s: Start, states: ItemRow['state'][]) =>
  tx
    .select()
    .from(filingPlanItems)
    .where(
      and(
        eq(filingPlanItems.runId, s.run.id),
        eq(filingPlanItems.enterpriseId, s.ent.id),
        inArray(filingPlanItems.state, states),
      ),
    )
    .orderBy(filingPlanItems.id);

// --- generate / update -----------------------------------------------------------------------------

async function generate(ctx: JobContext, s: Start): Promise<{ outcome: Outcome; save: (tx: Tx) => Promise<void> }> {
  const { items, diffPercent, fromBooks } = await ctx.inTx(async (tx) => {
    const items = await itemsOf(tx, s, ['pending']);
    const fromBooks = await bookAnswersFor(tx, s.run.agencyId, s.ent.id, items);
    return { items, diffPercent: (await batchSettings(tx, s.run.agencyId)).diffPercent, fromBooks };
  });
  const online = items.filter(needsBureau);
  const gen: GeneratedItem[] = items.filter((i) => !needsBureau(i)).map((i) => offlineFigures(i, fromBooks.get(i.id)));
  let outcome: Outcome = { ok: true, msg: FILING_BATCH_MSG.generated };
  if (online.length > 0) {
    const res = await onSession(ctx, s, (session) => generateClient(ctx.deps.bureau, session, online, diffPercent));
    if (res.ok) gen.push(...res.value);
    else {
      const msg = s.run.kind === 'update' ? `${FILING_BATCH_MSG.updateFailed}：${res.msg}` : res.msg;
      outcome = { ok: false, msg };
      for (const it of online) gen.push({ ...offlineFigures(it), source: it.source, state: 'planFailed', msg });
    }
  }
  return {
    outcome,
    save: async (tx) => {
      if (gen.length === 0) return;
      // One statement for the client's items, whatever their number.
      const values = sql.join(
        gen.map(
          (g) =>
            sql`(${g.id}::int, ${g.source}::text, ${g.sbsj === null ? null : JSON.stringify(g.sbsj)}::jsonb,
              ${g.srze}::bigint, ${g.ybtse}::bigint, ${g.estimate}::boolean,
              ${g.diff === null ? null : JSON.stringify(g.diff)}::jsonb, ${g.flagged}::boolean, ${g.state}::text,
              ${g.msg}::text, ${g.prevSrze ?? null}::bigint, ${g.prevYbtse ?? null}::bigint)`,
        ),
        sql`, `,
      );
      await tx.execute(sql`update filing_plan_items i set source = v.source, sbsj = v.sbsj, srze = v.srze,
          ybtse = v.ybtse, estimate = v.estimate, diff = v.diff, flagged = v.flagged, state = v.state, msg = v.msg,
          prev_srze = coalesce(v.prev_srze, i.prev_srze), prev_ybtse = coalesce(v.prev_ybtse, i.prev_ybtse),
          updated_at = now()
        from (values ${values}) as v(id, source, sbsj, srze, ybtse, estimate, diff, flagged, state, msg, prev_srze, prev_ybtse)
        where i.id = v.id and i.state = 'pending'`);
    },
  };
}

// --- file ------------------------------------------------------------------------------------------

const cellKey = (s: Start, it: Pick<ItemRow, 'taxType' | 'skssqq'>) =>
  and(
    eq(filingCells.agencyId, s.run.agencyId),
    eq(filingCells.enterpriseId, s.ent.id),
    eq(filingCells.taxType, it.taxType),
    eq(filingCells.skssqq, it.skssqq),
  );
const ledgerKey = (s: Start, it: Pick<ItemRow, 'taxType' | 'skssqq'>) =>
  and(
    eq(filedReturns.agencyId, s.run.agencyId),
    eq(filedReturns.enterpriseId, s.ent.id),
    eq(filedReturns.taxType, it.taxType),
    eq(filedReturns.skssqq, it.skssqq),
  );

interface FiledFigures {
  pzxh: string;
  sbrq: string;
  srze: number;
  ybtse: number;
}

/** A filed return on the item and the roster (ysb with tax to pay, else yjk). */
async function markFiled(tx: Tx, s: Start, it: ItemRow, f: FiledFigures, msg: string) {
  await tx
    .update(filingPlanItems)
    .set({
      state: 'filed',
      msg,
      pzxh: f.pzxh,
      sbrq: f.sbrq,
      srze: f.srze,
      ybtse: f.ybtse,
      estimate: false,
      payState: f.ybtse > 0 ? 'none' : 'nothing',
      updatedAt: new Date(),
    })
    .where(eq(filingPlanItems.id, it.id));
  await tx
    .update(filingCells)
    .set({ state: f.ybtse > 0 ? 'ysb' : 'yjk', sbrq: f.sbrq, pzxh: f.pzxh, srze: f.srze, ybtse: f.ybtse })
    .where(and(cellKey(s, it), sql`${filingCells.state} in ('wsb', 'yqwsb')`));
}

/**
 * A client's filed returns recorded in four statements whatever their number: the ledger rows (receipt,
 * who, when), the items, the roster cells (ysb with tax to pay, else yjk) and the audit entries.
 */
async function recordFiled(
  tx: Tx,
  s: Start,
  filed: readonly { it: ItemRow; rc: ReturnReceipt; status: 'filed' | 'alreadyFiled' }[],
) {
  const rows = filed.map(({ it, rc, status }) => ({
    it,
    rc,
    srze: fen(rc.srze),
    ybtse: fen(rc.ybtse),
    msg: status === 'filed' ? FILING_BATCH_MSG.filed : FILING_BATCH_MSG.alreadyFiled,
    status,
  }));
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.it.id}::int, ${r.it.taxType}::text, ${r.it.skssqq}::text, ${r.rc.pzxh}::text, ${r.rc.sbrq}::text,
          ${r.srze}::bigint, ${r.ybtse}::bigint, ${r.rc.lsb}::boolean, ${r.rc.yqsb}::boolean,
          ${JSON.stringify({ mx: r.rc.mx, tzs: r.rc.tzs ?? '', hzdz: r.rc.hzdz })}::jsonb, ${r.msg}::text)`,
    ),
    sql`, `,
  );
  const v = sql`(values ${values}) as v(item_id, tax_type, skssqq, pzxh, sbrq, srze, ybtse, lsb, yqsb, receipt, msg)`;
  await tx.execute(sql`update filed_returns f set state = 'filed', plan_item_id = v.item_id, pzxh = v.pzxh,
      sbrq = v.sbrq, srze = v.srze, ybtse = v.ybtse, lsb = v.lsb, yqsb = v.yqsb, receipt = v.receipt,
      filed_by = ${s.run.userId}, filed_at = now()
    from ${v}
    where f.agency_id = ${s.run.agencyId} and f.enterprise_id = ${s.ent.id} and f.tax_type = v.tax_type
      and f.skssqq = v.skssqq and f.state = 'submitting'`);
  await tx.execute(sql`update filing_plan_items i set state = 'filed', msg = v.msg, pzxh = v.pzxh, sbrq = v.sbrq,
      srze = v.srze, ybtse = v.ybtse, estimate = false,
      pay_state = case when v.ybtse > 0 then 'none' else 'nothing' end, updated_at = now()
    from ${v} where i.id = v.item_id`);
  await tx.execute(sql`update filing_cells c set state = case when v.ybtse > 0 then 'ysb' else 'yjk' end,
      sbrq = v.sbrq, pzxh = v.pzxh, srze = v.srze, ybtse = v.ybtse
    from ${v}
    where c.agency_id = ${s.run.agencyId} and c.enterprise_id = ${s.ent.id} and c.tax_type = v.tax_type
      and c.skssqq = v.skssqq and c.state in ('wsb', 'yqwsb')`);
  await keepReceipts(tx, s.run.agencyId, s.ent.id, s.run.id);
  await tx.insert(auditLog).values(
    rows.map((r) => ({
      agencyId: s.run.agencyId,
      userId: s.run.userId,
      action: 'declare.filing.file',
      target: String(r.it.id),
      detail: {
        planId: s.run.planId,
        aeiId: s.ent.id,
        taxType: r.it.taxType,
        skssqq: r.it.skssqq,
        skssqz: r.it.skssqz,
        srze: r.rc.srze,
        ybtse: r.rc.ybtse,
        pzxh: r.rc.pzxh,
        status: r.status,
      },
      ip: '',
    })),
  );
  for (const r of rows)
    await emitWebhook(tx, s.run.agencyId, 'return.filed', {
      enterpriseId: s.ent.id,
      taxType: r.it.taxType,
      skssqq: r.it.skssqq,
      pzxh: r.rc.pzxh,
      ybtseFen: r.ybtse,
    });
}

async function file(ctx: JobContext, s: Start): Promise<{ outcome: Outcome; save: (tx: Tx) => Promise<void> }> {
  // One transaction: the ledger rows claimed, returns filed before (another plan, an earlier run) taken
  // from the ledger, the rest marked submitting — committed before anything is sent, so that a return
  // found submitting later (a crash, a lost reply, another plan's job) may have reached the bureau.
  const toSubmit = await ctx.inTx(async (tx) => {
    const items = await itemsOf(tx, s, ['planned', 'submitting']);
    if (items.length === 0) return [];
    await tx
      .insert(filedReturns)
      .values(
        items.map((it) => ({
          agencyId: s.run.agencyId,
          enterpriseId: s.ent.id,
          taxType: it.taxType,
          skssqq: it.skssqq,
          skssqz: it.skssqz,
          state: 'submitting' as const,
          planItemId: it.id,
        })),
      )
      .onConflictDoNothing();
    const ledger = await tx
      .select()
      .from(filedReturns)
      .where(
        and(
          eq(filedReturns.agencyId, s.run.agencyId),
          eq(filedReturns.enterpriseId, s.ent.id),
          inArray(
            filedReturns.skssqq,
            items.map((i) => i.skssqq),
          ),
        ),
      );
    const out: (ItemRow & { uncertain: boolean })[] = [];
    for (const it of items) {
      const l = ledger.find((x) => x.taxType === it.taxType && x.skssqq === it.skssqq);
      if (l?.state === 'filed') {
        await markFiled(tx, s, it, l, FILING_BATCH_MSG.filedFromLedger);
        continue;
      }
      // Marked before (this item) or held by another plan's item: the bureau may have it already.
      out.push({ ...it, uncertain: it.state === 'submitting' || (l !== undefined && l.planItemId !== it.id) });
    }
    if (out.length > 0)
      await tx
        .update(filingPlanItems)
        .set({ state: 'submitting', updatedAt: new Date() })
        .where(
          inArray(
            filingPlanItems.id,
            out.map((i) => i.id),
          ),
        );
    return out;
  });
  if (toSubmit.length === 0) return { outcome: { ok: true, msg: FILING_BATCH_MSG.filed }, save: async () => {} };

  // Kept across a re-login (withBureauSession runs the work again on a fresh session): a return answered
  // once is not sent again.
  const results: SubmitResult[] = [];
  const res = await onSession(ctx, s, async (session) => {
    for (const [i, it] of toSubmit.entries()) {
      if (results[i]) continue;
      // Exactly once without leaning on the bureau's 41002: a return that may have reached it is asked for
      // first (sbztcx) and submitted only when the bureau does not have it.
      const known = it.uncertain
        ? await ctx.deps.bureau.returnStatus(session, { type: it.taxType, skssqq: it.skssqq })
        : null;
      results[i] = known
        ? { status: 'alreadyFiled', receipt: known }
        : await ctx.deps.bureau.submitReturn(session, {
            type: it.taxType,
            skssqq: it.skssqq,
            skssqz: it.skssqz,
            ...(it.source === 'zero' ? { lsb: true } : { sbsj: (it.sbsj ?? {}) as ReturnFigures }),
            ...(it.overdue && s.run.lateNotice ? { yqsb: true } : {}),
          });
    }
    return results;
  });
  const save = async (tx: Tx) => {
    const filed: { it: ItemRow; rc: ReturnReceipt; status: 'filed' | 'alreadyFiled' }[] = [];
    for (const [i, it] of toSubmit.entries()) {
      const r: SubmitResult | { status: 'login'; msg: string } = res.ok
        ? (res.value[i] as SubmitResult)
        : { status: 'login', msg: res.msg };
      if (r.status === 'filed' || r.status === 'alreadyFiled') {
        filed.push({ it, rc: r.receipt, status: r.status });
        continue;
      }
      await tx
        .update(filingPlanItems)
        .set({ state: 'rejected', msg: r.msg, updatedAt: new Date() })
        .where(eq(filingPlanItems.id, it.id));
      await tx.delete(filedReturns).where(and(ledgerKey(s, it), eq(filedReturns.state, 'submitting')));
    }
    if (filed.length > 0) await recordFiled(tx, s, filed);
  };
  // The outcome is known only once save ran; compute it from the results here.
  const failed = res.ok ? res.value.find((r) => r.status === 'rejected') : null;
  const msg = !res.ok ? res.msg : failed && failed.status === 'rejected' ? failed.msg : FILING_BATCH_MSG.filed;
  return { outcome: { ok: res.ok && !failed, msg }, save };
}

// --- pay -------------------------------------------------------------------------------------------

async function pay(ctx: JobContext, s: Start): Promise<{ outcome: Outcome; save: (tx: Tx) => Promise<void> }> {
  // Marked paying (committed) before any 缴款 is sent; one found paying later may have been paid.
  const items = await ctx.inTx(async (tx) => {
    const rows = (await itemsOf(tx, s, ['filed'])).filter(
      (i) => i.ybtse > 0 && (i.payState === 'none' || i.payState === 'refused' || i.payState === 'paying'),
    );
    if (rows.length > 0)
      await tx
        .update(filingPlanItems)
        .set({ payState: 'paying', updatedAt: new Date() })
        .where(
          inArray(
            filingPlanItems.id,
            rows.map((i) => i.id),
          ),
        );
    return rows;
  });
  if (items.length === 0) return { outcome: { ok: true, msg: FILING_BATCH_MSG.paid }, save: async () => {} };
  // Kept across a re-login, as for filing: a payment answered once is not sent again.
  const out: PayResult[] = [];
  const res = await onSession(ctx, s, async (session) => {
    for (const [i, it] of items.entries()) {
      if (out[i]) continue;
      const key = { type: it.taxType, skssqq: it.skssqq };
      // Paying before: asked for first (jkztcx), paid only when the bureau has no payment.
      const known = it.payState === 'paying' ? await ctx.deps.bureau.paymentStatus(session, key) : null;
      out[i] = known ? { status: 'alreadyPaid', receipt: known } : await ctx.deps.bureau.payReturn(session, key);
    }
    return out;
  });
  const save = async (tx: Tx) => {
    for (const [i, it] of items.entries()) {
      const r: PayResult | { status: 'login'; msg: string } = res.ok
        ? (res.value[i] as PayResult)
        : { status: 'login', msg: res.msg };
      if (r.status === 'paid' || r.status === 'alreadyPaid') {
        const rc = r.receipt;
        await tx
          .update(filedReturns)
          .set({
            jkrq: rc.jkrq,
            dzsphm: rc.dzsphm,
            sjje: fen(rc.sjje),
            znj: fen(rc.znj),
            paidBy: s.run.userId,
            paidAt: new Date(),
          })
          .where(ledgerKey(s, it));
        await tx
          .update(filingPlanItems)
          .set({
            payState: 'paid',
            payMsg: r.status === 'paid' ? FILING_BATCH_MSG.paid : FILING_BATCH_MSG.alreadyPaid,
            jkrq: rc.jkrq,
            updatedAt: new Date(),
          })
          .where(eq(filingPlanItems.id, it.id));
        await tx.update(filingCells).set({ state: 'yjk', jkrq: rc.jkrq }).where(cellKey(s, it));
        await auditIn(tx, s.run, 'declare.filing.pay', String(it.id), {
          planId: s.run.planId,
          aeiId: s.ent.id,
          taxType: it.taxType,
          skssqq: it.skssqq,
          dzsphm: rc.dzsphm,
          sjje: rc.sjje,
          znj: rc.znj,
          status: r.status,
        });
        continue;
      }
      const nothing = r.status === 'refused' && r.reason === 'nothingToPay';
      await tx
        .update(filingPlanItems)
        .set({ payState: nothing ? 'nothing' : 'refused', payMsg: r.msg, updatedAt: new Date() })
        .where(eq(filingPlanItems.id, it.id));
    }
  };
  const failed = res.ok ? res.value.find((r) => r.status === 'refused' && r.reason !== 'nothingToPay') : null;
  const msg = !res.ok ? res.msg : failed && failed.status === 'refused' ? failed.msg : FILING_BATCH_MSG.paid;
  return { outcome: { ok: res.ok && !failed, msg }, save };
}

// --- the handler -------------------------------------------------------------------------------------

async function pushRate(deps: Deps, ctx: JobContext, runId: number, finished: RunRow | null) {
  const at = Date.now();
  if (finished) {
    lastPush.delete(runId);
    const rate = await ctx.inTx((tx) => liveRate(tx, finished));
    await publishRunRate(deps, finished.userId, rate);
  } else if (at - (lastPush.get(runId) ?? 0) >= PUSH_EVERY_MS) {
    lastPush.set(runId, at);
    const b = await ctx.inTx(async (tx) => {
      const [row] = await tx.select().from(filingRuns).where(eq(filingRuns.id, runId));
      return row ? { row, rate: await liveRate(tx, row) } : null;
    });
    if (b) await publishRunRate(deps, b.row.userId, b.rate);
  }
}

/**
 * One client of a plan run (queue filing-run): generate (or update) its items' figures, file its returns
 * (exactly once: docs/decisions/filing.md "Exactly once without leaning on the bureau"), or pay them. Skips when the run was stopped
 * or the client's outcome is recorded (a resumed job). No transaction is held while the bureau answers.
 */
export const filingRunJob: JobHandler = {
  queue: FILING_RUN_QUEUE,
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
    const p = job.payload as unknown as RunPayload;
    const began = performance.now();
    const start = await ctx.inTx(async (tx): Promise<Start | null> => {
      const [row] = await tx
        .select({
          run: filingRuns,
          rcState: filingRunClients.state,
          ent: enterprises,
          sessionEnc: etaxSessions.sessionEnc,
        })
        .from(filingRunClients)
        .innerJoin(filingRuns, eq(filingRuns.id, filingRunClients.runId))
        .innerJoin(enterprises, eq(enterprises.id, filingRunClients.enterpriseId))
        .leftJoin(etaxSessions, liveSessionOf(enterprises))
        .where(and(eq(filingRunClients.runId, p.runId), eq(filingRunClients.enterpriseId, p.enterpriseId)));
      return row
        ? {
            bureauMs: 0,
            run: row.run,
            rcState: row.rcState,
            ent: row.ent,
            cached: readSessionBlob(deps, row.sessionEnc),
          }
        : null;
    });
    if (start?.run.state !== 'running') return { skipped: true };
    if (start.rcState !== null) {
      const finished = await ctx.inTx((tx) => finishIfDone(tx, p.runId));
      if (finished) await pushRate(deps, ctx, p.runId, finished);
      return { skipped: true };
    }
    const work = start.run.kind === 'file' ? file : start.run.kind === 'pay' ? pay : generate;
    const t0 = performance.now();
    const { outcome, save } = await work(ctx, start);
    const workMs = performance.now() - t0;
    const recorded = await ctx.inTx(async (tx) => {
      if (start.fresh) await saveBureauSession(deps, tx, start.ent, start.fresh);
      await save(tx);
      const done = await tx
        .update(filingRunClients)
        .set({ state: outcome.ok ? 'ok' : 'fail', msg: outcome.msg, updatedAt: new Date() })
        .where(
          and(
            eq(filingRunClients.runId, p.runId),
            eq(filingRunClients.enterpriseId, p.enterpriseId),
            sql`${filingRunClients.state} is null`,
          ),
        )
        .returning({ id: filingRunClients.id });
      // Where the job's time went (ms): the bureau, and the whole job but the final records.
      await ctx.doneIn(tx, {
        ok: outcome.ok,
        bureauMs: Math.round(start.bureauMs),
        workMs: Math.round(workMs),
        jobMs: Math.round(performance.now() - began),
      });
      return done.length > 0;
    });
    const finished = await ctx.inTx((tx) => finishIfDone(tx, p.runId));
    if (recorded || finished) await pushRate(deps, ctx, p.runId, finished);
    return { ok: outcome.ok };
  },
};

/** Plans whose generation the user stopped before it ended are left generating: make them ready. */
export async function planReady(tx: Tx, planId: number) {
  await tx
    .update(filingPlans)
    .set({ state: 'ready' })
    .where(and(eq(filingPlans.id, planId), eq(filingPlans.state, 'generating')));
}
