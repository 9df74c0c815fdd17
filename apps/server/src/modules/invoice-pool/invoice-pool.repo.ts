import {
  type BureauInvoice,
  CODE,
  INVOICE_POOL_MSG,
  INVOICE_RUN_PUSH_TYPE,
  INVOICE_RUN_QUEUE,
  type InvoiceRunStatus,
  type PoolInvoice,
  taxYuanToFen,
} from '@dzy/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import { enterprises, invoiceRunClients, invoiceRuns, invoices } from '../../db/schema/index.js';
import type {
  DeductState,
  InvoiceDirection,
  InvoiceKind,
  InvoiceRunKind,
  InvoiceState,
} from '../../db/schema/invoice.js';
import { dataScope } from '../../lib/data-scope.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { agencyOf } from '../declare/check.repo.js';
import { type InvoiceInput, saveInvoices } from '../invoice-store/invoice-store.js';

export { agencyOf };

export type RunRow = typeof invoiceRuns.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const fen = (y: string | undefined) => (y === undefined ? 0 : (taxYuanToFen(y) ?? 0));

const STATE_OF: Readonly<Record<string, InvoiceState>> = { '0': 'normal', '1': 'reversed', '2': 'void', '3': 'red' };
const DEDUCT_OF: Readonly<Record<string, DeductState>> = { '0': 'none', '1': 'selected', '2': 'confirmed' };

/** A bureau invoice as the store keeps it: the other party is the buyer of a sale, the seller of a purchase. */
export function fromBureau(b: BureauInvoice, direction: InvoiceDirection): InvoiceInput {
  const out = direction === 'out';
  const deduct = out ? 'none' : (DEDUCT_OF[b.gxzt ?? '0'] ?? 'none');
  return {
    fphm: b.fphm,
    kprq: b.kprq,
    fplx: b.fplx as InvoiceKind,
    state: STATE_OF[b.zt] ?? 'normal',
    lzfphm: b.lzfphm ?? '',
    cpName: out ? b.gfmc : b.xfmc,
    cpTaxNo: out ? b.gfsh : b.xfsh,
    amount: fen(b.hjje),
    tax: fen(b.hjse),
    total: fen(b.jshj),
    deductState: deduct,
    deductPeriod: deduct === 'none' ? '' : (b.gxssq ?? ''),
    lines: b.lines.map((l) => ({
      xh: l.xh,
      spmc: l.spmc,
      ssflbm: l.ssflbm,
      ggxh: l.ggxh,
      dw: l.dw,
      sl: l.sl,
      dj: l.dj,
      amount: fen(l.je),
      rate: l.slv,
      tax: fen(l.se),
    })),
  };
}

/**
 * Stored input invoices given a new deduction state (after the bureau's gx or qrtj accepted it), written
 * through the store so the rollups' confirmed tax follows. Known invoices only: their lines stay.
 */
export async function restate(
  tx: Tx,
  agencyId: number,
  enterpriseId: number,
  rows: readonly InvoiceRow[],
  deductState: DeductState,
  deductPeriod: string,
) {
  if (rows.length === 0) return;
  await saveInvoices(
    tx,
    { agencyId, enterpriseId, direction: 'in', source: 'collected' },
    rows.map((r) => ({
      fphm: r.fphm,
      kprq: r.kprq,
      fplx: r.fplx,
      state: r.state,
      lzfphm: r.lzfphm,
      cpName: r.cpName,
      cpTaxNo: r.cpTaxNo,
      amount: r.amount,
      tax: r.tax,
      total: r.total,
      deductState,
      deductPeriod: deductState === 'none' ? '' : deductPeriod,
      lines: [],
    })),
  );
}

export const toPoolInvoice = (r: InvoiceRow & { qymc: string }): PoolInvoice => ({
  id: r.id,
  aeiId: r.enterpriseId,
  qymc: r.qymc,
  fphm: r.fphm,
  kprq: r.kprq,
  month: r.month,
  fplx: r.fplx,
  state: r.state,
  lzfphm: r.lzfphm,
  cpName: r.cpName,
  cpTaxNo: r.cpTaxNo,
  amount: r.amount,
  tax: r.tax,
  total: r.total,
  deductState: r.deductState,
  deductPeriod: r.deductPeriod,
  source: r.source,
});

export async function invoicesById(tx: Queryable, agencyId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ i: invoices, qymc: enterprises.qymc })
    .from(invoices)
    .innerJoin(enterprises, eq(enterprises.id, invoices.enterpriseId))
    .where(and(eq(invoices.agencyId, agencyId), inArray(invoices.id, ids)));
  return rows.map((r) => ({ ...toPoolInvoice({ ...r.i, qymc: r.qymc }) }));
}

/** Clients the caller may work on: the tenant, in the book, in service, in the caller's data scope. */
export const poolClients = (session: SessionCtx) =>
  and(
    eq(enterprises.agencyId, agencyOf(session)),
    sql`${enterprises.deletedAt} is null`,
    eq(enterprises.serviceStatus, '1'),
    dataScope(session, enterprises.allocateUser),
  );

/** Clients in the caller's data scope (any service state: statistics show a client's history). */
export const scopedClients = (session: SessionCtx) =>
  and(
    eq(enterprises.agencyId, agencyOf(session)),
    sql`${enterprises.deletedAt} is null`,
    dataScope(session, enterprises.allocateUser),
  );

/** One client of the tenant in the caller's scope, or 404. */
export async function findClient(tx: Queryable, session: SessionCtx, aeiId: number) {
  const [e] = await tx
    .select()
    .from(enterprises)
    .where(and(scopedClients(session), eq(enterprises.id, aeiId)));
  if (!e) throw new AppError(CODE.NOT_FOUND, INVOICE_POOL_MSG.enterpriseNotFound);
  return e;
}

/** A run by its taskId (tenant, caller's data scope by its starter), or 404. */
export async function findRun(tx: Queryable, session: SessionCtx, taskId: string): Promise<RunRow> {
  const id = Number(taskId);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647)
    throw new AppError(CODE.NOT_FOUND, INVOICE_POOL_MSG.runNotFound);
  const [r] = await tx
    .select()
    .from(invoiceRuns)
    .where(
      and(
        eq(invoiceRuns.agencyId, agencyOf(session)),
        eq(invoiceRuns.id, id),
        inArray(invoiceRuns.kind, ['collect', 'confirm']),
        dataScope(session, invoiceRuns.userId),
      ),
    );
  if (!r) throw new AppError(CODE.NOT_FOUND, INVOICE_POOL_MSG.runNotFound);
  return r;
}

/** Queues one job per client of the run (pending outcome rows); `tag` makes a retry's keys new. */
export async function enqueueClients(tx: Tx, run: RunRow, enterpriseIds: readonly number[], tag = '') {
  for (let i = 0; i < enterpriseIds.length; i += 2000) {
    const part = enterpriseIds.slice(i, i + 2000);
    const list = sql.join(
      part.map((x) => sql`(${x}::int)`),
      sql`, `,
    );
    await tx.execute(sql`
      with c as (
        insert into invoice_run_clients (agency_id, run_id, enterprise_id)
        select ${run.agencyId}::int, ${run.id}::int, v.id from (values ${list}) as v(id)
        on conflict (run_id, enterprise_id) do update set state = null, msg = '', invoice_num = 0, updated_at = now()
        returning enterprise_id
      )
      insert into jobs (agency_id, queue, key, payload)
      select ${run.agencyId}::int, ${INVOICE_RUN_QUEUE}, ${run.id}::text || ':' || c.enterprise_id::text || ${tag}::text,
        jsonb_build_object('runId', ${run.id}::int, 'enterpriseId', c.enterprise_id)
      from c
      on conflict (queue, key) do nothing`);
  }
}

export async function createRun(
  tx: Tx,
  p: { agencyId: number; userId: number; kind: InvoiceRunKind; month: string },
  enterpriseIds: readonly number[],
): Promise<RunRow> {
  const [run] = await tx
    .insert(invoiceRuns)
    .values({ agencyId: p.agencyId, userId: p.userId, kind: p.kind, month: p.month, totalNum: enterpriseIds.length })
    .returning();
  if (!run) throw new Error('invoice run not created');
  await enqueueClients(tx, run, enterpriseIds);
  return run;
}

/** Runs' progress and failures (the failures only when asked: the push carries none). */
export async function runStatus(
  tx: Queryable,
  runs: readonly RunRow[],
  withFailures = true,
): Promise<InvoiceRunStatus[]> {
  if (runs.length === 0) return [];
  const counts = rowsOf<{ run_id: number; ok: number; bad: number; n: number }>(
    await tx.execute(sql`
      select run_id, count(*) filter (where state = 'ok')::int as ok, count(*) filter (where state = 'failed')::int as bad,
        coalesce(sum(invoice_num) filter (where state = 'ok'), 0)::int as n
      from invoice_run_clients where run_id in (${sql.join(
        runs.map((r) => sql`${r.id}`),
        sql`, `,
      )})
      group by run_id`),
  );
  const fails = withFailures
    ? await tx
        .select({
          runId: invoiceRunClients.runId,
          aeiId: invoiceRunClients.enterpriseId,
          msg: invoiceRunClients.msg,
          qymc: enterprises.qymc,
          qysh: enterprises.qysh,
        })
        .from(invoiceRunClients)
        .innerJoin(enterprises, eq(enterprises.id, invoiceRunClients.enterpriseId))
        .where(
          and(
            inArray(
              invoiceRunClients.runId,
              runs.map((r) => r.id),
            ),
            eq(invoiceRunClients.state, 'failed'),
          ),
        )
        .orderBy(invoiceRunClients.runId, enterprises.qymc, invoiceRunClients.enterpriseId)
    : [];
  return runs.map((r) => {
    const c = counts.find((x) => Number(x.run_id) === r.id);
    const ok = Number(c?.ok ?? 0);
    const bad = Number(c?.bad ?? 0);
    const done = ok + bad;
    return {
      taskId: String(r.id),
      kind: r.kind === 'confirm' ? 'confirm' : 'collect',
      month: r.month,
      state: r.state,
      totalNum: r.totalNum,
      successNum: ok,
      failNum: bad,
      completeNum: done,
      rate: r.totalNum === 0 ? 100 : Math.min(100, Math.floor((done * 100) / r.totalNum)),
      invoiceNum: Number(c?.n ?? 0),
      fail: fails
        .filter((f) => f.runId === r.id)
        .map((f) => ({ aeiId: f.aeiId, qymc: f.qymc, qysh: f.qysh, msg: f.msg })),
    };
  });
}

/** Ends a run once no client is pending; null while some remain or when it had ended. */
export async function finishIfDone(tx: Queryable, runId: number): Promise<RunRow | null> {
  const [r] = await tx
    .update(invoiceRuns)
    .set({ state: 'done', finishedAt: new Date() })
    .where(
      and(
        eq(invoiceRuns.id, runId),
        eq(invoiceRuns.state, 'running'),
        sql`not exists (select 1 from ${invoiceRunClients} c where c.run_id = ${runId} and c.state is null)`,
      ),
    )
    .returning();
  return r ?? null;
}

export async function publishStatus(deps: Deps, userId: number, status: InvoiceRunStatus) {
  try {
    await deps.push.publish([userId], { type: INVOICE_RUN_PUSH_TYPE, data: { ...status, fail: [] } });
  } catch {
    // The page polls as well.
  }
}

// --- statistics: the rollups only ---------------------------------------------------------------------------

/**
 * Which clients a statistic covers: `null` = every client of the agency (an administrator without a client
 * chosen: the agency's rollups serve it, a few rows a month whatever the number of clients), else a condition on
 * an unqualified `enterprise_id` (one client, or a staff member's clients: their own per-client rows, which are
 * few).
 */
export type StatsClients = SQL | null;

/** The rollup a statistic reads: the agency's for the whole agency, else the per-client one filtered. */
const rollup = (only: StatsClients, perClient: string, agency: string) =>
  only === null ? sql`${sql.raw(agency)} where true` : sql`${sql.raw(perClient)} where ${only}`;

/** The months' sums by direction (stats rollup) and invoice counts (each invoice once, counts rollup). */
export async function trendRows(tx: Queryable, agencyId: number, from: string, to: string, only: StatsClients) {
  const sums = rowsOf<{ month: string; direction: string; amount: string; tax: string; deduct: string }>(
    await tx.execute(sql`
      select month, direction, sum(amount)::text as amount, sum(tax)::text as tax, sum(deduct_tax)::text as deduct
      from ${rollup(only, 'invoice_month_stats', 'invoice_agency_stats')}
        and agency_id = ${agencyId} and month between ${from} and ${to}
      group by month, direction`),
  );
  const counts = rowsOf<{ month: string; direction: string; count: string }>(
    await tx.execute(sql`
      select month, direction, sum(count)::text as count
      from ${rollup(only, 'invoice_month_counts', 'invoice_agency_counts')}
        and agency_id = ${agencyId} and month between ${from} and ${to}
      group by month, direction`),
  );
  return { sums, counts };
}

/**
 * A month's make-up: sums by direction, kind and rate (an invoice counts once per rate it has lines at: what a
 * by-rate table means), and invoice counts by direction and kind (each invoice once).
 */
export async function breakdownRows(tx: Queryable, agencyId: number, month: string, only: StatsClients) {
  const rates = rowsOf<{ direction: string; fplx: string; rate: string; count: string; amount: string; tax: string }>(
    await tx.execute(sql`
      select direction, fplx, rate, sum(count)::text as count, sum(amount)::text as amount, sum(tax)::text as tax
      from ${rollup(only, 'invoice_month_stats', 'invoice_agency_stats')}
        and agency_id = ${agencyId} and month = ${month}
      group by direction, fplx, rate`),
  );
  const kinds = rowsOf<{ direction: string; fplx: string; count: string }>(
    await tx.execute(sql`
      select direction, fplx, sum(count)::text as count
      from ${rollup(only, 'invoice_month_counts', 'invoice_agency_counts')}
        and agency_id = ${agencyId} and month = ${month}
      group by direction, fplx`),
  );
  return { rates, kinds };
}

/** The month's top other parties by 价税合计 (the agency's rollup for the whole agency, else the clients' rows). */
export async function topParties(
  tx: Queryable,
  agencyId: number,
  month: string,
  direction: InvoiceDirection,
  only: StatsClients,
  limit: number,
) {
  const res =
    only === null
      ? await tx.execute(sql`
          select a.cp_tax_no as tax_no, a.cp_name as name, a.count::text as count, a.total::text as total
          from invoice_agency_parties a
          where a.agency_id = ${agencyId} and a.month = ${month} and a.direction = ${direction}
          order by a.total desc, a.cp_tax_no
          limit ${limit}`)
      : await tx.execute(sql`
          select cp_tax_no as tax_no, max(cp_name) as name, sum(count)::text as count, sum(total)::text as total
          from invoice_month_parties
          where agency_id = ${agencyId} and month = ${month} and direction = ${direction} and ${only}
          group by cp_tax_no
          order by sum(total) desc, cp_tax_no
          limit ${limit}`);
  return rowsOf<{ tax_no: string; name: string; count: string; total: string }>(res).map((r) => ({
    taxNo: r.tax_no,
    name: r.name,
    count: Number(r.count),
    total: Number(r.total),
  }));
}

/** Some clients' month by direction and kind: sums (stats rollup) and invoice counts (each invoice once). */
export async function clientKindRows(tx: Queryable, agencyId: number, month: string, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const list = sql.join(
    ids.map((x) => sql`${x}`),
    sql`, `,
  );
  return rowsOf<{
    enterprise_id: number;
    direction: string;
    fplx: string;
    count: string;
    amount: string;
    tax: string;
    deduct: string;
  }>(
    await tx.execute(sql`
      select s.enterprise_id, s.direction, s.fplx, coalesce(c.count, 0)::text as count, s.amount::text as amount,
        s.tax::text as tax, s.deduct::text as deduct
      from (select enterprise_id, direction, fplx, sum(amount) as amount, sum(tax) as tax, sum(deduct_tax) as deduct
            from invoice_month_stats
            where agency_id = ${agencyId} and month = ${month} and enterprise_id in (${list})
            group by enterprise_id, direction, fplx) s
      left join invoice_month_counts c on c.agency_id = ${agencyId} and c.month = ${month}
        and c.direction = s.direction and c.enterprise_id = s.enterprise_id and c.fplx = s.fplx`),
  );
}
