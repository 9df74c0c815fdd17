import {
  CODE,
  FILING_BATCH_MSG,
  FILING_RUN_PUSH_TYPE,
  FILING_RUN_QUEUE,
  type FilingPlan,
  type FilingRunRate,
  ITEM_STATE_NAMES,
  type PlanItem,
  type RunKind,
  taxFenToYuan,
} from '@dzy/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import {
  agencyFilingSettings,
  enterprises,
  filingPlanItems,
  filingPlans,
  filingRunClients,
  filingRuns,
  users,
} from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { agencyOf } from '../declare/check.repo.js';

export { agencyOf };

export type PlanRow = typeof filingPlans.$inferSelect;
export type RunRow = typeof filingRuns.$inferSelect;
export type ItemRow = typeof filingPlanItems.$inferSelect;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** The agency's batch settings (no row: the defaults). */
export async function batchSettings(tx: Queryable, agencyId: number) {
  const [s] = await tx
    .select({
      confirmThreshold: agencyFilingSettings.confirmThreshold,
      confirmRequired: agencyFilingSettings.confirmRequired,
      diffPercent: agencyFilingSettings.diffPercent,
    })
    .from(agencyFilingSettings)
    .where(eq(agencyFilingSettings.agencyId, agencyId));
  return s ?? { confirmThreshold: 1, confirmRequired: false, diffPercent: 30 };
}

/** A plan of the tenant in the caller's data scope (by its creator), or 404. */
export async function findPlan(tx: Queryable, session: SessionCtx, planId: number): Promise<PlanRow> {
  const [p] = await tx
    .select()
    .from(filingPlans)
    .where(
      and(
        eq(filingPlans.agencyId, agencyOf(session)),
        eq(filingPlans.id, planId),
        dataScope(session, filingPlans.userId),
      ),
    );
  if (!p) throw new AppError(CODE.NOT_FOUND, FILING_BATCH_MSG.planNotFound);
  return p;
}

/** A run by its redisKey (tenant, caller's data scope), or 404. */
export async function findRun(tx: Queryable, session: SessionCtx, redisKey: string): Promise<RunRow> {
  const id = Number(redisKey);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647)
    throw new AppError(CODE.NOT_FOUND, FILING_BATCH_MSG.runNotFound);
  const [r] = await tx
    .select()
    .from(filingRuns)
    .where(
      and(eq(filingRuns.agencyId, agencyOf(session)), eq(filingRuns.id, id), dataScope(session, filingRuns.userId)),
    );
  if (!r) throw new AppError(CODE.NOT_FOUND, FILING_BATCH_MSG.runNotFound);
  return r;
}

/** The plan's run still running, if any. */
export async function runningRun(tx: Queryable, planId: number): Promise<RunRow | null> {
  const [r] = await tx
    .select()
    .from(filingRuns)
    .where(and(eq(filingRuns.planId, planId), eq(filingRuns.state, 'running')))
    .orderBy(desc(filingRuns.id))
    .limit(1);
  return r ?? null;
}

/**
 * Starts a run over the plan's items matched by `which` (a condition on filing_plan_items): the items
 * point at the run, one outcome row and one job per client. Set-based: three statements whatever the size.
 */
export async function createRun(
  tx: Tx,
  p: { agencyId: number; planId: number; userId: number; kind: RunKind; lateNotice?: boolean },
  which: ReturnType<typeof sql>,
): Promise<{ run: RunRow; items: number }> {
  const [run] = await tx
    .insert(filingRuns)
    .values({
      agencyId: p.agencyId,
      planId: p.planId,
      userId: p.userId,
      kind: p.kind,
      totalNum: 0,
      lateNotice: p.lateNotice ?? false,
    })
    .returning();
  if (!run) throw new Error('run not created');
  const moved = await tx.execute(
    sql`update filing_plan_items i set run_id = ${run.id}, updated_at = now()
        where i.agency_id = ${p.agencyId} and i.plan_id = ${p.planId} and (${which})`,
  );
  const items = Number(
    (moved as { affectedRows?: number; rowCount?: number }).affectedRows ??
      (moved as { rowCount?: number }).rowCount ??
      0,
  );
  const clients = rowsOf<{ n: number }>(
    await tx.execute(
      sql`with c as (
            insert into filing_run_clients (agency_id, run_id, enterprise_id)
            select distinct ${p.agencyId}::int, ${run.id}::int, i.enterprise_id from filing_plan_items i
            where i.agency_id = ${p.agencyId} and i.plan_id = ${p.planId} and i.run_id = ${run.id}
            returning enterprise_id
          ), j as (
            insert into jobs (agency_id, queue, key, payload)
            select ${p.agencyId}::int, ${FILING_RUN_QUEUE}, ${run.id}::text || ':' || c.enterprise_id::text,
              jsonb_build_object('runId', ${run.id}::int, 'enterpriseId', c.enterprise_id)
            from c
            on conflict (queue, key) do nothing
            returning 1
          )
          select (select count(*) from c)::int as n`,
    ),
  );
  const n = clients[0]?.n ?? 0;
  const [after] = await tx.update(filingRuns).set({ totalNum: n }).where(eq(filingRuns.id, run.id)).returning();
  return { run: after ?? run, items };
}

export function rateOf(r: RunRow, successNum: number, failNum: number): FilingRunRate {
  const completeNum = successNum + failNum;
  return {
    redisKey: String(r.id),
    planId: r.planId,
    kind: r.kind,
    state: r.state,
    totalNum: r.totalNum,
    successNum,
    failNum,
    completeNum,
    rate: r.totalNum === 0 ? 100 : Math.floor((completeNum * 100) / r.totalNum),
  };
}

/** A run's progress, counted from its clients' outcome rows. */
export async function liveRate(tx: Queryable, r: RunRow): Promise<FilingRunRate> {
  const [c] = await tx
    .select({
      ok: sql<number>`count(*) filter (where ${filingRunClients.state} = 'ok')`.mapWith(Number),
      bad: sql<number>`count(*) filter (where ${filingRunClients.state} = 'fail')`.mapWith(Number),
    })
    .from(filingRunClients)
    .where(eq(filingRunClients.runId, r.id));
  return rateOf(r, c?.ok ?? 0, c?.bad ?? 0);
}

/**
 * Ends a run once no client is left (called after each client's outcome committed); a generate or update
 * run that ends makes its plan ready. Null while clients remain, or when it had ended already.
 */
export async function finishIfDone(tx: Queryable, runId: number): Promise<RunRow | null> {
  const [r] = await tx
    .update(filingRuns)
    .set({ state: 'done', finishedAt: new Date() })
    .where(
      and(
        eq(filingRuns.id, runId),
        eq(filingRuns.state, 'running'),
        sql`not exists (select 1 from ${filingRunClients} c where c.run_id = ${runId} and c.state is null)`,
      ),
    )
    .returning();
  if (!r) return null;
  if (r.kind === 'generate' || r.kind === 'update')
    await tx
      .update(filingPlans)
      .set({ state: 'ready' })
      .where(and(eq(filingPlans.id, r.planId), eq(filingPlans.state, 'generating')));
  return r;
}

export async function publishRunRate(deps: Deps, userId: number, rate: FilingRunRate) {
  try {
    await deps.push.publish([userId], { type: FILING_RUN_PUSH_TYPE, data: { ...rate } });
  } catch {
    // The page polls as well.
  }
}

// --- the wire ------------------------------------------------------------------------------------

const yuanOrNull = (fen: number | null) => (fen === null ? null : taxFenToYuan(fen));

export type ItemWithClient = ItemRow & { qymc: string; qysh: string };

export function toPlanItem(i: ItemWithClient): PlanItem {
  return {
    itemId: i.id,
    planId: i.planId,
    aeiId: i.enterpriseId,
    qymc: i.qymc,
    qysh: i.qysh,
    nsrlx: i.nsrlx === '0' ? '0' : '1',
    taxType: i.taxType,
    cycle: i.cycle,
    skssqq: i.skssqq,
    skssqz: i.skssqz,
    sbqx: i.sbqx,
    overdue: i.overdue,
    source: i.source,
    sbsj: i.sbsj ?? null,
    srze: taxFenToYuan(i.srze),
    ybtse: taxFenToYuan(i.ybtse),
    estimate: i.estimate,
    prevSrze: yuanOrNull(i.prevSrze),
    prevYbtse: yuanOrNull(i.prevYbtse),
    flagged: i.flagged,
    diff: i.diff ?? null,
    state: i.state,
    stateText: ITEM_STATE_NAMES[i.state],
    msg: i.msg,
    pzxh: i.pzxh,
    sbrq: i.sbrq,
    payState: i.payState,
    payMsg: i.payMsg,
    jkrq: i.jkrq,
    confirmState: i.confirmState,
    updatedAt: i.updatedAt.toISOString(),
  };
}

/** Items by id with their client's name and tax number. */
export async function itemsById(tx: Queryable, agencyId: number, ids: number[]): Promise<ItemWithClient[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ item: filingPlanItems, qymc: enterprises.qymc, qysh: enterprises.qysh })
    .from(filingPlanItems)
    .innerJoin(enterprises, eq(enterprises.id, filingPlanItems.enterpriseId))
    .where(and(eq(filingPlanItems.agencyId, agencyId), inArray(filingPlanItems.id, ids)));
  return rows.map((r) => ({ ...r.item, qymc: r.qymc, qysh: r.qysh }));
}

/** Plans on the wire: counts of their items and their latest run. */
export async function plansById(
  tx: Queryable,
  agencyId: number,
  ids: number[],
): Promise<(FilingPlan & { id: number })[]> {
  if (ids.length === 0) return [];
  const plans = await tx
    .select({ p: filingPlans, userName: sql<string>`coalesce(nullif(${users.hymc}, ''), ${users.phone}, '')` })
    .from(filingPlans)
    .leftJoin(users, eq(users.id, filingPlans.userId))
    .where(and(eq(filingPlans.agencyId, agencyId), inArray(filingPlans.id, ids)));
  const counts = await tx
    .select({
      planId: filingPlanItems.planId,
      n: sql<number>`count(*) filter (where ${filingPlanItems.state} <> 'dropped')`.mapWith(Number),
      filed: sql<number>`count(*) filter (where ${filingPlanItems.state} = 'filed')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${filingPlanItems.state} in ('rejected', 'planFailed'))`.mapWith(
        Number,
      ),
    })
    .from(filingPlanItems)
    .where(and(eq(filingPlanItems.agencyId, agencyId), inArray(filingPlanItems.planId, ids)))
    .groupBy(filingPlanItems.planId);
  const runs = await tx
    .selectDistinctOn([filingRuns.planId], {
      planId: filingRuns.planId,
      id: filingRuns.id,
      kind: filingRuns.kind,
      state: filingRuns.state,
    })
    .from(filingRuns)
    .where(and(eq(filingRuns.agencyId, agencyId), inArray(filingRuns.planId, ids)))
    .orderBy(filingRuns.planId, desc(filingRuns.id));
  const byPlan = new Map(counts.map((c) => [c.planId, c]));
  const runOf = new Map(runs.map((r) => [r.planId, r]));
  return plans.map(({ p, userName }) => {
    const c = byPlan.get(p.id);
    const r = runOf.get(p.id);
    return {
      id: p.id,
      planId: p.id,
      filingMonth: p.filingMonth,
      kind: p.kind,
      state: p.state,
      userId: p.userId,
      userName: userName ?? '',
      createdAt: p.createdAt.toISOString(),
      itemNum: c?.n ?? 0,
      filedNum: c?.filed ?? 0,
      failedNum: c?.failed ?? 0,
      redisKey: r ? String(r.id) : '',
      runKind: r?.kind ?? null,
      runState: r?.state ?? null,
    };
  });
}
