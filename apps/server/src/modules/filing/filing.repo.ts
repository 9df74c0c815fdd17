import {
  CODE,
  currentFilingMonth,
  daysOverdue,
  FILING_MSG,
  FILING_STATES,
  type FilingCell,
  type FilingFilter,
  type FilingRoster,
  type FilingRow,
  type FilingState,
  type FilingSyncRate,
  type FilingTaxType,
  filingMonthOf,
  isFilingTaxType,
  taxFenToYuan,
  taxYuanToFen,
} from '@dzy/shared';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import type { Sort } from '../../db/paging.js';
import {
  enterpriseFilingSettings,
  enterprises,
  filingCells,
  filingSyncBatches,
  filingSyncResults,
  filingSyncs,
  users,
} from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { saveBureauSession } from '../declare/bureau-login.js';
import { agencyOf } from '../declare/check.repo.js';

export { agencyOf };

export type SyncBatchRow = typeof filingSyncBatches.$inferSelect;

/** The filing month asked for, or the current one. */
export const monthOf = (m: string | undefined) => m || currentFilingMonth(chinaDate());

/** The roster's order: by name, the index enterprises_agency_name_id_idx (agency, qymc, id). */
export const ROSTER_SORT: Sort = { name: 'qymc', keys: [enterprises.qymc, enterprises.id], desc: false };

/** Clients on the roster: the tenant, in the book, in service, in the caller's data scope. */
export const rosterClients = (session: SessionCtx) =>
  and(
    eq(enterprises.agencyId, agencyOf(session)),
    isNull(enterprises.deletedAt),
    eq(enterprises.serviceStatus, '1'),
    dataScope(session, enterprises.allocateUser),
  ) as SQL;

/** A return of a type the agency ignores for its client (申报设置) is left out everywhere. */
const notIgnored = sql`not exists (select 1 from ${enterpriseFilingSettings} s
  where s.agency_id = ${filingCells.agencyId} and s.enterprise_id = ${filingCells.enterpriseId}
    and ${filingCells.taxType} = any(s.ignored_types))`;

/**
 * The returns a month's view counts: the month's own and the earlier ones the bureau still lists as not
 * filed (carried, always 逾期未申报), so 逾期未申报 counts every client with an overdue return; types the
 * agency ignores for the client left out.
 */
export const cellsOfMonth = (month: string) => and(eq(filingCells.filingMonth, month), notIgnored) as SQL;

/** The per-client sync row of the month, joined beside the enterprise. */
export const syncJoin = (month: string) =>
  sql`${filingSyncs}.agency_id = ${enterprises.agencyId} and ${filingSyncs}.enterprise_id = ${enterprises.id} and ${filingSyncs}.filing_month = ${month}`;

/** Whether the filters read the client's sync row (纳税人类型 as synced, or failed only). */
export const needsSync = (f: Pick<FilingFilter, 'nsrlx' | 'failedOnly'>) => Boolean(f.nsrlx || f.failedOnly);

/**
 * FROM of the roster's clients: the enterprise, and its sync row of the month only when a filter reads it
 * (so page 1 and the total are walks of the enterprises' own indexes).
 */
export const rosterFrom = (month: string, f: Pick<FilingFilter, 'nsrlx' | 'failedOnly'>) =>
  needsSync(f) ? sql`${enterprises} left join ${filingSyncs} on ${syncJoin(month)}` : sql`${enterprises}`;

/** 纳税人类型 as the bureau said at the last sync, else the book's qyxz. */
export const nsrlxExpr = sql<string>`coalesce(nullif(${filingSyncs.nsrlx}, ''), ${enterprises.qyxz})`;

/** The filters about the client (not about its returns). */
export function clientWhere(session: SessionCtx, f: Omit<FilingFilter, 'state'>): SQL {
  return and(
    rosterClients(session),
    f.allocateUser === undefined
      ? undefined
      : f.allocateUser === 0
        ? isNull(enterprises.allocateUser)
        : eq(enterprises.allocateUser, f.allocateUser),
    f.nsrlx ? sql`${nsrlxExpr} = ${f.nsrlx}` : undefined,
    nameOrTaxNumber(enterprises.qymc, enterprises.qysh, f.keyword),
    f.failedOnly ? sql`${filingSyncs.failMsg} <> ''` : undefined,
  ) as SQL;
}

/** The conditions on a cell from the filters (type, cycle, state). */
export const cellFilter = (f: Pick<FilingFilter, 'taxType' | 'cycle'> & { state?: FilingState | undefined }) =>
  and(
    f.taxType ? eq(filingCells.taxType, f.taxType) : undefined,
    f.cycle ? eq(filingCells.cycle, f.cycle) : undefined,
    f.state ? eq(filingCells.state, f.state) : undefined,
  );

/** The roster's WHERE over rosterFrom: the client filters, and a return matching the return filters. */
export function rosterWhere(session: SessionCtx, f: FilingFilter, month: string): SQL {
  const byCell = f.state || f.taxType || f.cycle;
  return and(
    clientWhere(session, f),
    byCell
      ? sql`exists (select 1 from ${filingCells} where ${filingCells.agencyId} = ${enterprises.agencyId}
          and ${filingCells.enterpriseId} = ${enterprises.id} and ${and(cellsOfMonth(month), cellFilter(f))})`
      : undefined,
  ) as SQL;
}

export const emptyByState = (): Record<FilingState, number> =>
  Object.fromEntries(FILING_STATES.map((s) => [s, 0])) as Record<FilingState, number>;

/** Per state, the clients with at least one return in it (the roster's total when filtered by it). */
export async function stateCounts(
  tx: Queryable,
  session: SessionCtx,
  f: Omit<FilingFilter, 'state'>,
  month: string,
): Promise<Record<FilingState, number>> {
  let q = tx
    .select({ state: filingCells.state, n: sql<number>`count(distinct ${filingCells.enterpriseId})`.mapWith(Number) })
    .from(filingCells)
    .innerJoin(enterprises, eq(enterprises.id, filingCells.enterpriseId))
    .$dynamic();
  if (needsSync(f)) q = q.leftJoin(filingSyncs, sql`${syncJoin(month)}`);
  const rows = await q
    .where(
      and(eq(filingCells.agencyId, agencyOf(session)), cellsOfMonth(month), cellFilter(f), clientWhere(session, f)),
    )
    .groupBy(filingCells.state);
  const out = emptyByState();
  for (const r of rows) out[r.state] = r.n;
  return out;
}

/** The rows of a page of clients: each with its cells, earlier overdue count and sync state. */
export async function rowsFor(tx: Queryable, agencyId: number, ids: number[], month: string): Promise<FilingRow[]> {
  if (ids.length === 0) return [];
  const today = chinaDate();
  const clients = await tx
    .select({
      id: enterprises.id,
      qymc: enterprises.qymc,
      qysh: enterprises.qysh,
      nsrlx: nsrlxExpr,
      allocateUser: enterprises.allocateUser,
      allocateUserName: sql<string>`coalesce(nullif(${users.hymc}, ''), ${users.phone}, '')`,
      syncedAt: filingSyncs.syncedAt,
      failMsg: filingSyncs.failMsg,
      failAt: filingSyncs.failAt,
    })
    .from(enterprises)
    .leftJoin(filingSyncs, sql`${syncJoin(month)}`)
    .leftJoin(users, eq(users.id, enterprises.allocateUser))
    .where(and(eq(enterprises.agencyId, agencyId), inArray(enterprises.id, ids)));
  const cells = await tx
    .select()
    .from(filingCells)
    .where(
      and(
        eq(filingCells.agencyId, agencyId),
        inArray(filingCells.enterpriseId, ids),
        eq(filingCells.filingMonth, month),
        notIgnored,
      ),
    );
  const byClient = new Map<number, { cells: Partial<Record<FilingTaxType, FilingCell>>; yq: number }>();
  for (const c of cells) {
    const entry = byClient.get(c.enterpriseId) ?? { cells: {}, yq: 0 };
    byClient.set(c.enterpriseId, entry);
    if (c.carried) {
      if (c.state === 'yqwsb') entry.yq += 1;
      continue;
    }
    entry.cells[c.taxType] = toCell(c, today);
  }
  return clients.map((e) => ({
    aeiId: e.id,
    qymc: e.qymc,
    qysh: e.qysh,
    nsrlx: e.nsrlx === '0' ? '0' : '1',
    allocateUser: e.allocateUser,
    allocateUserName: e.allocateUserName ?? '',
    cells: byClient.get(e.id)?.cells ?? {},
    yqCount: byClient.get(e.id)?.yq ?? 0,
    syncedAt: e.syncedAt ? e.syncedAt.toISOString() : null,
    failMsg: e.failMsg ?? '',
    failAt: e.failAt ? e.failAt.toISOString() : null,
  }));
}

export const toCell = (c: typeof filingCells.$inferSelect, today: string): FilingCell => ({
  state: c.state,
  cycle: c.cycle,
  skssqq: c.skssqq,
  skssqz: c.skssqz,
  sbqx: c.sbqx,
  srze: taxFenToYuan(c.srze),
  ybtse: taxFenToYuan(c.ybtse),
  sbrq: c.sbrq,
  pzxh: c.pzxh,
  jkrq: c.jkrq,
  yqts: c.state === 'yqwsb' && c.sbqx ? daysOverdue(c.sbqx, today) : 0,
});

// --- sync batches -----------------------------------------------------------------------------------

export function rateOf(b: SyncBatchRow): FilingSyncRate {
  const completeNum = b.successNum + b.failNum;
  return {
    batchId: b.id,
    filingMonth: b.filingMonth,
    state: b.state,
    completeNum,
    successNum: b.successNum,
    failNum: b.failNum,
    totalNum: b.totalNum,
    rate: b.totalNum === 0 ? 100 : Math.floor((completeNum * 100) / b.totalNum),
  };
}

/** The batch asked for (it must be the tenant's and in the caller's data scope), or the caller's latest. */
export async function findBatch(tx: Queryable, session: SessionCtx, batchId?: number): Promise<SyncBatchRow | null> {
  const agencyId = agencyOf(session);
  if (batchId !== undefined) {
    const [b] = await tx
      .select()
      .from(filingSyncBatches)
      .where(
        and(
          eq(filingSyncBatches.agencyId, agencyId),
          dataScope(session, filingSyncBatches.userId),
          eq(filingSyncBatches.id, batchId),
        ),
      );
    if (!b) throw new AppError(CODE.NOT_FOUND, FILING_MSG.notFound);
    return b;
  }
  const [b] = await tx
    .select()
    .from(filingSyncBatches)
    .where(and(eq(filingSyncBatches.agencyId, agencyId), eq(filingSyncBatches.userId, session.userId)))
    .orderBy(desc(filingSyncBatches.id))
    .limit(1);
  return b ?? null;
}

/** One client's sync outcome: the roster read, or a failure with the check message (msg_type of §4). */
export type SyncOutcome =
  | { ok: true; roster: FilingRoster; session?: string }
  | { ok: false; msgType: number; msg: string; session?: string };

/** The bureau's roster as cells of the month: returns of earlier filing months are marked carried. */
export function cellsOf(agencyId: number, enterpriseId: number, month: string, roster: FilingRoster, at: Date) {
  const seen = new Set<string>();
  const out: (typeof filingCells.$inferInsert)[] = [];
  for (const it of roster.items) {
    if (!isFilingTaxType(it.type)) continue;
    const key = `${it.type}|${it.skssqq}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const carried = it.skssqz !== '' && filingMonthOf({ type: it.type, cycle: it.cycle }, it.skssqz) < month;
    out.push({
      agencyId,
      enterpriseId,
      filingMonth: month,
      taxType: it.type,
      cycle: it.cycle,
      skssqq: it.skssqq,
      skssqz: it.skssqz,
      state: it.state,
      carried,
      srze: taxYuanToFen(it.srze) ?? 0,
      ybtse: taxYuanToFen(it.ybtse) ?? 0,
      sbqx: it.sbqx,
      sbrq: it.sbrq ?? '',
      pzxh: it.pzxh ?? '',
      jkrq: it.jkrq ?? '',
      syncedAt: at,
    });
  }
  return out;
}

/**
 * A run's progress: its counts are those of its result rows (one per client, written once), so that the
 * clients' jobs never wait on one another for the run's row; a finished run also keeps them on its row.
 */
export async function liveRate(tx: Queryable, b: SyncBatchRow): Promise<FilingSyncRate> {
  if (b.state === 'done') return rateOf(b);
  const [c] = await tx
    .select({
      ok: sql<number>`count(*) filter (where ${filingSyncResults.msgType} = 1)`.mapWith(Number),
      bad: sql<number>`count(*) filter (where ${filingSyncResults.msgType} <> 1)`.mapWith(Number),
    })
    .from(filingSyncResults)
    .where(eq(filingSyncResults.batchId, b.id));
  return rateOf({ ...b, successNum: c?.ok ?? 0, failNum: c?.bad ?? 0 });
}

/**
 * Records one client's outcome once: the result row is written only while it has none, and only then are
 * the roster and the client's sync state changed (one transaction), so a job run twice after a crash never
 * counts a client twice. Answers whether it was recorded now.
 */
export async function recordSync(
  tx: Tx,
  p: { agencyId: number; batchId: number; enterpriseId: number; month: string },
  o: SyncOutcome,
  deps: Pick<Deps, 'config'>,
): Promise<boolean> {
  if (o.session) await saveBureauSession(deps, tx, { agencyId: p.agencyId, id: p.enterpriseId }, o.session);
  const updated = await tx
    .update(filingSyncResults)
    .set({ msgType: o.ok ? 1 : o.msgType, msg: o.ok ? FILING_MSG.syncOk : o.msg, updatedAt: new Date() })
    .where(
      and(
        eq(filingSyncResults.batchId, p.batchId),
        eq(filingSyncResults.enterpriseId, p.enterpriseId),
        isNull(filingSyncResults.msgType),
      ),
    )
    .returning({ id: filingSyncResults.id });
  if (updated.length === 0) return false;
  await saveRoster(tx, p, o);
  return true;
}

/**
 * Finishes a run once no client is left (called after each client's outcome has committed: the last one to
 * look sees every other committed), writing its final counts; null while clients remain or when finished.
 */
export async function finishIfDone(tx: Queryable, batchId: number): Promise<SyncBatchRow | null> {
  const [b] = await tx
    .update(filingSyncBatches)
    .set({
      state: 'done',
      finishedAt: new Date(),
      successNum: sql`(select count(*) from ${filingSyncResults} r where r.batch_id = ${batchId} and r.msg_type = 1)`,
      failNum: sql`(select count(*) from ${filingSyncResults} r where r.batch_id = ${batchId} and r.msg_type <> 1)`,
    })
    .where(
      and(
        eq(filingSyncBatches.id, batchId),
        eq(filingSyncBatches.state, 'running'),
        sql`not exists (select 1 from ${filingSyncResults} r where r.batch_id = ${batchId} and r.msg_type is null)`,
      ),
    )
    .returning();
  return b ?? null;
}

/** The client's roster of the month replaced by what the bureau said, or its failure noted beside the last one. */
export async function saveRoster(
  tx: Tx,
  p: { agencyId: number; enterpriseId: number; month: string },
  o: SyncOutcome,
): Promise<void> {
  const now = new Date();
  if (!o.ok) {
    await tx
      .insert(filingSyncs)
      .values({
        agencyId: p.agencyId,
        enterpriseId: p.enterpriseId,
        filingMonth: p.month,
        failMsg: o.msg,
        failMsgType: o.msgType,
        failAt: now,
      })
      .onConflictDoUpdate({
        target: [filingSyncs.agencyId, filingSyncs.filingMonth, filingSyncs.enterpriseId],
        set: { failMsg: o.msg, failMsgType: o.msgType, failAt: now },
      });
    return;
  }
  await tx
    .delete(filingCells)
    .where(
      and(
        eq(filingCells.agencyId, p.agencyId),
        eq(filingCells.enterpriseId, p.enterpriseId),
        eq(filingCells.filingMonth, p.month),
      ),
    );
  const cells = cellsOf(p.agencyId, p.enterpriseId, p.month, o.roster, now);
  if (cells.length > 0) await tx.insert(filingCells).values(cells);
  await tx
    .insert(filingSyncs)
    .values({
      agencyId: p.agencyId,
      enterpriseId: p.enterpriseId,
      filingMonth: p.month,
      nsrlx: o.roster.nsrlx,
      syncedAt: now,
    })
    .onConflictDoUpdate({
      target: [filingSyncs.agencyId, filingSyncs.filingMonth, filingSyncs.enterpriseId],
      set: { nsrlx: o.roster.nsrlx, syncedAt: now, failMsg: '', failMsgType: null, failAt: null },
    });
}
