import {
  CHECK_MSG,
  CHECK_QUEUE,
  CODE,
  checkCountCall,
  checkListCall,
  checkQyshCountCall,
  checkRateCall,
  checkResultListCall,
  checkStartCall,
  checkStopCall,
  failCheckListCall,
  lastCheckInfoCall,
} from '@dzy/shared';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, like, ne, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { listPage, type Sort } from '../../db/paging.js';
import { checkBatches, checkResults, enterprises, jobs, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import { type Served, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { contractBlocks } from '../contract/contract-status.js';
import { checkJob, publishRate } from './check.jobs.js';
import {
  agencyOf,
  batchVisible,
  findBatch,
  rateOf,
  requireBatch,
  summaryColumns,
  toCheckLog,
  toSummary,
} from './check.repo.js';
import { taxDataCalls } from './tax-data.routes.js';

const CHUNK = 1000;

/** Enterprises in the book the caller may see (tenant, not in the recycle bin, data scope). */
const enterprisesInScope = (session: SessionCtx) =>
  and(
    eq(enterprises.agencyId, agencyOf(session)),
    isNull(enterprises.deletedAt),
    dataScope(session, enterprises.allocateUser),
  );

const start = serve(checkStartCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = agencyOf(session);
  // One check at a time per user: two quick clicks must not start two.
  await tx.execute(sql`select pg_advisory_xact_lock(${7_001}, ${session.userId})`);
  const [running] = await tx
    .select({ id: checkBatches.id })
    .from(checkBatches)
    .where(
      and(
        eq(checkBatches.agencyId, agencyId),
        eq(checkBatches.userId, session.userId),
        eq(checkBatches.state, 'running'),
      ),
    );
  if (running) throw new AppError(CODE.CONFLICT, CHECK_MSG.busyRunning);

  const wanted = [...new Set(body.aeiIds)];
  let chosen = await tx
    .select({ id: enterprises.id, qysh: enterprises.qysh, qymc: enterprises.qymc })
    .from(enterprises)
    .where(
      and(
        enterprisesInScope(session),
        body.scope === 'selected'
          ? inArray(enterprises.id, wanted)
          : // "All" is every client being served; a stopped service is not checked unless chosen by hand.
            eq(enterprises.serviceStatus, '1'),
      ),
    )
    .orderBy(asc(enterprises.id));
  if (body.scope === 'selected' && chosen.length !== wanted.length) {
    throw new AppError(CODE.NOT_FOUND, CHECK_MSG.notYours);
  }
  if (chosen.length === 0) throw new AppError(CODE.EMPTY, CHECK_MSG.noEnterprise);
  // The 申报 contract reminder at level 2 (提醒并限制操作) keeps an enterprise out of the check.
  const blocks = await contractBlocks(
    tx,
    agencyId,
    chosen.map((e) => e.id),
    'sb',
    chinaDate(),
  );
  const blocked = chosen
    .filter((e) => blocks.has(e.id))
    .map((e) => ({ aeiId: e.id, qymc: e.qymc, qysh: e.qysh, warning: blocks.get(e.id) ?? '' }));
  if (blocked.length > 0) chosen = chosen.filter((e) => !blocks.has(e.id));
  if (chosen.length === 0) {
    throw new AppError(CODE.CONFLICT, blocked.length === 1 ? (blocked[0]?.warning ?? '') : CHECK_MSG.allBlocked);
  }

  const [batch] = await tx
    .insert(checkBatches)
    .values({ agencyId, userId: session.userId, ssq: body.ssq, totalNum: chosen.length })
    .returning();
  if (!batch) throw new Error('batch not created');
  for (let i = 0; i < chosen.length; i += CHUNK) {
    const part = chosen.slice(i, i + CHUNK);
    await tx
      .insert(checkResults)
      .values(part.map((e) => ({ agencyId, batchId: batch.id, enterpriseId: e.id, qysh: e.qysh, qymc: e.qymc })));
    // enqueue(), in bulk: one job per enterprise, the same key twice is one job.
    await tx
      .insert(jobs)
      .values(
        part.map((e) => ({
          agencyId,
          queue: CHECK_QUEUE,
          key: `${batch.id}:${e.id}`,
          payload: { batchId: batch.id, enterpriseId: e.id },
        })),
      )
      .onConflictDoNothing({ target: [jobs.queue, jobs.key] });
  }
  await audit(tx, req, { agencyId, userId: session.userId }, 'declare.check.start', String(batch.id), {
    ssq: body.ssq,
    scope: body.scope,
    totalNum: chosen.length,
    blocked: blocked.map((b) => b.aeiId),
  });
  afterCommit(() => deps.wakeJobs());
  return { ...rateOf(batch), blocked };
});

const rate = serve(checkRateCall, async ({ body, session, tx }) => {
  const b = await findBatch(tx, session, body.batchId);
  return b ? rateOf(b) : null;
});

const counts = serve(checkCountCall, async ({ body, session, tx }) => {
  const b = await findBatch(tx, session, body.batchId);
  if (!b) return null;
  const rows = await tx
    .select({ msgType: checkResults.msgType, n: count() })
    .from(checkResults)
    .where(and(eq(checkResults.batchId, b.id), isNotNull(checkResults.msgType)))
    .groupBy(checkResults.msgType);
  const byType: Record<string, number> = {};
  for (const r of rows) byType[String(r.msgType)] = r.n;
  const r = rateOf(b);
  return {
    batchId: b.id,
    completeNum: r.completeNum,
    failNum: r.failNum,
    successNum: r.successNum,
    totalNum: r.totalNum,
    byType,
  };
});

const stop = serve(checkStopCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const b = await requireBatch(tx, session, body.batchId);
  if (b.state !== 'running') throw new AppError(CODE.CONFLICT, CHECK_MSG.notRunning);
  const [after] = await tx
    .update(checkBatches)
    .set({ state: 'stopped', finishedAt: new Date() })
    .where(and(eq(checkBatches.id, b.id), eq(checkBatches.state, 'running')))
    .returning();
  // Enterprises not started yet are not checked; those in flight finish and are counted.
  await tx
    .update(jobs)
    .set({ state: 'done', result: { stopped: true }, finishedAt: new Date() })
    .where(and(eq(jobs.queue, CHECK_QUEUE), like(jobs.key, `${b.id}:%`), eq(jobs.state, 'queued')));
  await audit(tx, req, { agencyId: b.agencyId, userId: session.userId }, 'declare.check.stop', String(b.id), {
    completeNum: b.successNum + b.failNum,
    totalNum: b.totalNum,
  });
  const out = after ?? b;
  afterCommit(() => publishRate(deps, out));
  return rateOf(out);
});

const lastInfo = serve(lastCheckInfoCall, async ({ session, tx }) => {
  const [r] = await tx
    .select(summaryColumns)
    .from(checkBatches)
    .innerJoin(users, eq(users.id, checkBatches.userId))
    .where(and(eq(checkBatches.agencyId, agencyOf(session)), eq(checkBatches.userId, session.userId)))
    .orderBy(desc(checkBatches.id))
    .limit(1);
  return r ? toSummary(r) : null;
});

const summaryList = serve(checkListCall, async ({ body, session, tx }) => {
  const { pageNum, pageSize, cursor, ...filter } = body;
  const where = and(batchVisible(session), body.ssq ? eq(checkBatches.ssq, body.ssq) : undefined) as SQL;
  const page = await listPage(
    tx,
    {
      from: sql`${checkBatches}`,
      where,
      sort: { name: 'id', keys: [checkBatches.id], desc: true },
      ask: { pageNo: pageNum, pageSize, cursor },
      filter,
    },
    (ids) =>
      tx
        .select(summaryColumns)
        .from(checkBatches)
        .innerJoin(users, eq(users.id, checkBatches.userId))
        .where(inArray(checkBatches.id, ids)),
  );
  return { ...page, list: page.list.map(toSummary) };
});

/** Finished ones first (newest on top), then those still waiting: the index check_results_batch_order_idx. */
const RESULT_SORT: Sort = {
  name: 'finished',
  keys: [sql`(case when ${checkResults.msgType} is null then 0 else 1 end)`, checkResults.updatedAt, checkResults.id],
  desc: true,
};

async function listResults(
  tx: Tx,
  session: SessionCtx,
  body: { batchId: number; pageNum: number; pageSize: number; cursor?: string; keyword: string; msg_type?: number },
  failedOnly: boolean,
) {
  const b = await requireBatch(tx, session, body.batchId);
  const { pageNum, pageSize, cursor, ...filter } = body;
  const where = and(
    eq(checkResults.batchId, b.id),
    failedOnly ? ne(checkResults.msgType, 1) : undefined,
    !failedOnly && body.msg_type !== undefined ? eq(checkResults.msgType, body.msg_type) : undefined,
    nameOrTaxNumber(checkResults.qymc, checkResults.qysh, body.keyword),
  ) as SQL;
  const page = await listPage(
    tx,
    {
      from: sql`${checkResults}`,
      where,
      sort: RESULT_SORT,
      ask: { pageNo: pageNum, pageSize, cursor },
      filter: { ...filter, failedOnly },
    },
    (ids) => tx.select().from(checkResults).where(inArray(checkResults.id, ids)),
  );
  return { ...page, list: page.list.map((r) => toCheckLog(r, b.ssq)) };
}

const results = serve(checkResultListCall, ({ body, session, tx }) => listResults(tx, session, body, false));
const failed = serve(failCheckListCall, ({ body, session, tx }) => listResults(tx, session, body, true));

const qyshCount = serve(checkQyshCountCall, async ({ session, tx }) => {
  const [r] = await tx
    .select({
      totalNum: count(),
      qyshNum: sql<number>`count(*) filter (where ${enterprises.qysh} <> '')`.mapWith(Number),
    })
    .from(enterprises)
    .where(and(enterprisesInScope(session), eq(enterprises.serviceStatus, '1')));
  const totalNum = r?.totalNum ?? 0;
  const qyshNum = r?.qyshNum ?? 0;
  return { totalNum, qyshNum, noQyshNum: totalNum - qyshNum };
});

/** The calls of the declare module; 7c's tax-data calls join this list. */
export const declareCalls: Served[] = [start, rate, counts, stop, lastInfo, summaryList, results, failed, qyshCount];

export const declareModule: ServerModule = {
  name: 'declare',
  calls: [...declareCalls, ...taxDataCalls],
  jobs: [checkJob],
};
