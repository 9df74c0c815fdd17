import {
  CHECK_MSG,
  type CheckLog,
  type CheckRate,
  CODE,
  IS_CHECKS,
  isUnlinkedFactory,
  LINKED_AGENCY_MSG,
  type SummaryLog,
} from '@dzy/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import { checkBatches, checkResults, enterpriseTaxData, users } from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { emitWebhook } from '../apikey/webhook.js';
import { saveBureauSession } from './bureau-login.js';
import type { CheckOutcome } from './check.service.js';

export type BatchRow = typeof checkBatches.$inferSelect;

/** The caller's tenant; every check call needs one. */
export function agencyOf(session: SessionCtx): number {
  // A factory not bound to an agency has no clients to check (foundation.md §6, tax-bureau.md §2).
  if (isUnlinkedFactory(session)) throw new AppError(CODE.NO_PERMISSION, LINKED_AGENCY_MSG);
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, CHECK_MSG.notFound);
  return session.agencyId;
}

/** Batches the caller may see: the tenant, and the data scope over who started them. */
export const batchVisible = (session: SessionCtx) =>
  and(eq(checkBatches.agencyId, agencyOf(session)), dataScope(session, checkBatches.userId));

export function rateOf(b: BatchRow): CheckRate {
  const completeNum = b.successNum + b.failNum;
  return {
    batchId: b.id,
    ssq: b.ssq,
    isChecks: b.state === 'running' ? IS_CHECKS.started : IS_CHECKS.finished,
    state: b.state,
    completeNum,
    successNum: b.successNum,
    failNum: b.failNum,
    totalNum: b.totalNum,
    rate: b.totalNum === 0 ? 100 : Math.floor((completeNum * 100) / b.totalNum),
  };
}

/** The batch asked for (it must be visible), or the caller's latest one when none is named. */
export async function findBatch(tx: Queryable, session: SessionCtx, batchId?: number): Promise<BatchRow | null> {
  if (batchId !== undefined) {
    const [b] = await tx
      .select()
      .from(checkBatches)
      .where(and(batchVisible(session), eq(checkBatches.id, batchId)));
    if (!b) throw new AppError(CODE.NOT_FOUND, CHECK_MSG.notFound);
    return b;
  }
  const [b] = await tx
    .select()
    .from(checkBatches)
    .where(and(eq(checkBatches.agencyId, agencyOf(session)), eq(checkBatches.userId, session.userId)))
    .orderBy(desc(checkBatches.id))
    .limit(1);
  return b ?? null;
}

export async function requireBatch(tx: Queryable, session: SessionCtx, batchId: number): Promise<BatchRow> {
  const b = await findBatch(tx, session, batchId);
  if (!b) throw new AppError(CODE.NOT_FOUND, CHECK_MSG.notFound);
  return b;
}

export const summaryColumns = {
  id: checkBatches.id,
  ssq: checkBatches.ssq,
  userId: checkBatches.userId,
  userName: sql<string>`coalesce(nullif(${users.hymc}, ''), ${users.phone})`,
  state: checkBatches.state,
  successNum: checkBatches.successNum,
  failNum: checkBatches.failNum,
  totalNum: checkBatches.totalNum,
  createdAt: checkBatches.createdAt,
  finishedAt: checkBatches.finishedAt,
};

type SummaryRow = { [K in keyof typeof summaryColumns]: unknown } & {
  id: number;
  ssq: string;
  userId: number;
  userName: string;
  state: BatchRow['state'];
  successNum: number;
  failNum: number;
  totalNum: number;
  createdAt: Date;
  finishedAt: Date | null;
};

export const toSummary = (r: SummaryRow): SummaryLog => ({
  id: r.id,
  ssq: r.ssq,
  userId: r.userId,
  userName: r.userName,
  state: r.state,
  checkNum: r.successNum + r.failNum,
  successNum: r.successNum,
  failNum: r.failNum,
  totalNum: r.totalNum,
  createdAt: r.createdAt.toISOString(),
  finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
});

export const toCheckLog = (r: typeof checkResults.$inferSelect, ssq: string): CheckLog => ({
  id: r.id,
  batchId: r.batchId,
  aeiId: r.enterpriseId,
  qysh: r.qysh,
  qymc: r.qymc,
  ssq,
  msg_type: r.msgType,
  msg: r.msg,
  geshui_type: r.geshuiType,
  updatedAt: r.updatedAt.toISOString(),
});

/**
 * Records one enterprise's outcome once: the result row is written only while it has none, and only
 * then are the batch's counts moved (in the same transaction, the batch row locked by the update), so
 * a job run twice after a crash or a lost lease never counts an enterprise twice. The last outcome
 * finishes the batch. Returns the batch after the change, or null when the outcome was already there.
 */
export async function recordOutcome(
  tx: Queryable,
  p: { agencyId: number; batchId: number; enterpriseId: number },
  o: CheckOutcome,
  deps?: Pick<Deps, 'config'>,
): Promise<BatchRow | null> {
  // A bureau session the check opened is cached even when the outcome was already there.
  if (o.session && deps)
    await saveBureauSession(deps, tx as Tx, { agencyId: p.agencyId, id: p.enterpriseId }, o.session);
  const updated = await tx
    .update(checkResults)
    .set({ msgType: o.msgType, msg: o.msg, geshuiType: o.geshuiType, updatedAt: new Date() })
    .where(
      and(
        eq(checkResults.batchId, p.batchId),
        eq(checkResults.enterpriseId, p.enterpriseId),
        isNull(checkResults.msgType),
      ),
    )
    .returning({ id: checkResults.id });
  if (updated.length === 0) return null;
  if (o.collected) {
    await tx
      .insert(enterpriseTaxData)
      .values({ agencyId: p.agencyId, enterpriseId: p.enterpriseId, collected: o.collected, batchId: p.batchId })
      .onConflictDoUpdate({
        target: [enterpriseTaxData.agencyId, enterpriseTaxData.enterpriseId],
        set: { collected: o.collected, batchId: p.batchId, collectedAt: new Date() },
      });
  }
  const ok = o.msgType === 1 ? 1 : 0;
  const lastOne = sql`${checkBatches.state} = 'running' and ${checkBatches.successNum} + ${checkBatches.failNum} + 1 >= ${checkBatches.totalNum}`;
  const [b] = await tx
    .update(checkBatches)
    .set({
      successNum: sql`${checkBatches.successNum} + ${ok}`,
      failNum: sql`${checkBatches.failNum} + ${1 - ok}`,
      state: sql`case when ${lastOne} then 'done' else ${checkBatches.state} end`,
      finishedAt: sql`case when ${lastOne} then now() else ${checkBatches.finishedAt} end`,
    })
    .where(eq(checkBatches.id, p.batchId))
    .returning();
  if (b?.state === 'done' && b.successNum + b.failNum === b.totalNum)
    await emitWebhook(tx, p.agencyId, 'check.finished', {
      batchId: b.id,
      successNum: b.successNum,
      failNum: b.failNum,
    });
  return b ?? null;
}
