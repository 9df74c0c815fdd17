import {
  CODE,
  FILING_MSG,
  FILING_SYNC_QUEUE,
  FILING_TAX_TYPES,
  filingCountsCall,
  filingOverviewCall,
  filingRosterCall,
  filingScheduleCall,
  filingSyncRateCall,
  filingSyncStartCall,
  filingSyncStopCall,
} from '@dzy/shared';
import { and, eq, like, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { countOf, listPage } from '../../db/paging.js';
import {
  enterprises,
  filingCells,
  filingSyncBatches,
  filingSyncResults,
  filingSyncs,
  jobs,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Served, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { chooseBatchClients } from '../customer/batch-clients.js';
import { filingFileRoutes } from './filing.files.js';
import { filingSyncJob, publishSyncRate } from './filing.jobs.js';
import {
  agencyOf,
  cellsOfMonth,
  clientWhere,
  emptyByState,
  findBatch,
  liveRate,
  monthOf,
  ROSTER_SORT,
  rateOf,
  rosterClients,
  rosterFrom,
  rosterWhere,
  rowsFor,
  stateCounts,
} from './filing.repo.js';
import { scheduleOf } from './filing.schedule.js';

const CHUNK = 1000;

const start = serve(filingSyncStartCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = agencyOf(session);
  const month = monthOf(body.filingMonth);
  // One sync at a time per user: two quick clicks must not start two.
  await tx.execute(sql`select pg_advisory_xact_lock(${7_013}, ${session.userId})`);
  const [running] = await tx
    .select({ id: filingSyncBatches.id })
    .from(filingSyncBatches)
    .where(
      and(
        eq(filingSyncBatches.agencyId, agencyId),
        eq(filingSyncBatches.userId, session.userId),
        eq(filingSyncBatches.state, 'running'),
      ),
    );
  if (running) throw new AppError(CODE.CONFLICT, FILING_MSG.busyRunning);

  // Every id named must be a client of the caller's; no tax number, or a 申报 contract block, keeps one out.
  const { chosen, noQysh, blocked } = await chooseBatchClients(tx, session, body, {
    ly: 'sb',
    inServiceAlways: true,
    msg: FILING_MSG,
  });

  const [batch] = await tx
    .insert(filingSyncBatches)
    .values({ agencyId, userId: session.userId, filingMonth: month, totalNum: chosen.length })
    .returning();
  if (!batch) throw new Error('sync batch not created');
  for (let i = 0; i < chosen.length; i += CHUNK) {
    const part = chosen.slice(i, i + CHUNK);
    await tx.insert(filingSyncResults).values(part.map((e) => ({ agencyId, batchId: batch.id, enterpriseId: e.id })));
    await tx
      .insert(jobs)
      .values(
        part.map((e) => ({
          agencyId,
          queue: FILING_SYNC_QUEUE,
          key: `${batch.id}:${e.id}`,
          payload: { batchId: batch.id, enterpriseId: e.id },
        })),
      )
      .onConflictDoNothing({ target: [jobs.queue, jobs.key] });
  }
  await audit(tx, req, { agencyId, userId: session.userId }, 'declare.roster.sync', String(batch.id), {
    filingMonth: month,
    scope: body.scope,
    totalNum: chosen.length,
    blocked: blocked.map((b) => b.aeiId),
    noQysh: noQysh.map((b) => b.aeiId),
  });
  afterCommit(() => deps.wakeJobs());
  return { ...rateOf(batch), blocked, noQysh };
});

const rate = serve(filingSyncRateCall, async ({ body, session, tx }) => {
  const b = await findBatch(tx, session, body.batchId);
  return b ? liveRate(tx, b) : null;
});

const stop = serve(filingSyncStopCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const b = await findBatch(tx, session, body.batchId);
  if (!b) throw new AppError(CODE.NOT_FOUND, FILING_MSG.notFound);
  if (b.state !== 'running') throw new AppError(CODE.CONFLICT, FILING_MSG.notRunning);
  const [after] = await tx
    .update(filingSyncBatches)
    .set({ state: 'stopped', finishedAt: new Date() })
    .where(and(eq(filingSyncBatches.id, b.id), eq(filingSyncBatches.state, 'running')))
    .returning();
  // Clients not started are not synced; those in flight finish and are counted.
  await tx
    .update(jobs)
    .set({ state: 'done', result: { stopped: true }, finishedAt: new Date() })
    .where(and(eq(jobs.queue, FILING_SYNC_QUEUE), like(jobs.key, `${b.id}:%`), eq(jobs.state, 'queued')));
  const out = await liveRate(tx, after ?? b);
  await audit(tx, req, { agencyId: b.agencyId, userId: session.userId }, 'declare.roster.stop', String(b.id), {
    completeNum: out.completeNum,
    totalNum: b.totalNum,
  });
  afterCommit(() => publishSyncRate(deps, b.userId, out));
  return out;
});

const roster = serve(filingRosterCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const month = monthOf(body.filingMonth);
  const { pageNum, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    {
      from: rosterFrom(month, filter),
      where: rosterWhere(session, filter, month),
      sort: ROSTER_SORT,
      ask: { pageNo: pageNum, pageSize, cursor },
      filter: { ...filter, filingMonth: month },
    },
    async (ids) => (await rowsFor(tx, agencyId, ids, month)).map((r) => ({ ...r, id: r.aeiId })),
  );
  return { filingMonth: month, ...page, list: page.list.map(({ id: _id, ...r }) => r) };
});

/**
 * Clients matching the client filters (an index count of the book), and of them those synced this month
 * and those whose last sync failed (from the month's sync rows, one per client synced): two aggregates.
 */
async function clientTotals(tx: Tx, session: SessionCtx, f: Parameters<typeof clientWhere>[1], month: string) {
  const { total } = await countOf(tx, rosterFrom(month, f), clientWhere(session, f));
  const [r] = await tx
    .select({
      synced: sql<number>`count(*) filter (where ${filingSyncs.syncedAt} is not null)`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${filingSyncs.failMsg} <> '')`.mapWith(Number),
    })
    .from(filingSyncs)
    .innerJoin(enterprises, eq(enterprises.id, filingSyncs.enterpriseId))
    .where(
      and(eq(filingSyncs.agencyId, agencyOf(session)), eq(filingSyncs.filingMonth, month), clientWhere(session, f)),
    );
  return { total, unsynced: total - (r?.synced ?? 0), failed: r?.failed ?? 0 };
}

const counts = serve(filingCountsCall, async ({ body, session, tx }) => {
  const month = monthOf(body.filingMonth);
  const f = { ...body, filingMonth: month };
  const [totals, byState] = [await clientTotals(tx, session, f, month), await stateCounts(tx, session, f, month)];
  return { filingMonth: month, ...totals, byState };
});

const overview = serve(filingOverviewCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const month = monthOf(body.filingMonth);
  const noFilter = { filingMonth: month, keyword: '', failedOnly: false };
  const rows = await tx
    .select({ taxType: filingCells.taxType, state: filingCells.state, n: sql<number>`count(*)`.mapWith(Number) })
    .from(filingCells)
    .innerJoin(enterprises, eq(enterprises.id, filingCells.enterpriseId))
    .where(and(eq(filingCells.agencyId, agencyId), cellsOfMonth(month), rosterClients(session)) as SQL)
    .groupBy(filingCells.taxType, filingCells.state);
  const byType = new Map(FILING_TAX_TYPES.map((t) => [t, emptyByState()]));
  const sum = emptyByState();
  for (const r of rows) {
    const m = byType.get(r.taxType);
    if (!m) continue;
    m[r.state] += r.n;
    sum[r.state] += r.n;
  }
  const totals = await clientTotals(tx, session, noFilter, month);
  return {
    filingMonth: month,
    clientNum: totals.total,
    syncedNum: totals.total - totals.unsynced,
    // Types with returns this month, in column order (an annual item shows in its own month only).
    rows: FILING_TAX_TYPES.flatMap((t) => {
      const m = byType.get(t) ?? emptyByState();
      const total = Object.values(m).reduce((a, b) => a + b, 0);
      return total > 0 ? [{ taxType: t, byState: m, total }] : [];
    }),
    byState: sum,
  };
});

const schedule = serve(filingScheduleCall, async ({ body, session, tx }) => {
  const month = monthOf(body.filingMonth);
  return { filingMonth: month, ...(await scheduleOf(tx, session, month)) };
});

export const filingCalls: Served[] = [start, rate, stop, roster, counts, overview, schedule];

export const filingModule: ServerModule = {
  name: 'filing',
  calls: filingCalls,
  routes: filingFileRoutes,
  jobs: [filingSyncJob],
};
