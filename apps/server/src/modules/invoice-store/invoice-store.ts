import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { invoiceLines, invoices } from '../../db/schema/index.js';
import type {
  DeductState,
  InvoiceDirection,
  InvoiceKind,
  InvoiceSource,
  InvoiceState,
} from '../../db/schema/invoice.js';

/**
 * The one store of a client's invoices: every module that learns of invoices (issuing, red-letter, the pool's
 * collection, the input confirmation) writes them here, and the month rollups the statistics read stay equal
 * to the invoices because only this file writes either.
 */

/** An invoice as the product keeps it (money in fen; the bureau's shapes are mapped to it by the caller). */
export interface InvoiceInput {
  fphm: string;
  kprq: string;
  fplx: InvoiceKind;
  state: InvoiceState;
  lzfphm?: string;
  /** The other party: the buyer of an issued invoice, the seller of a received one. */
  cpName: string;
  cpTaxNo: string;
  amount: number;
  tax: number;
  total: number;
  deductState?: DeductState;
  deductPeriod?: string;
  lines: InvoiceLineInput[];
}

export interface InvoiceLineInput {
  xh: number;
  spmc: string;
  ssflbm?: string;
  ggxh?: string;
  dw?: string;
  sl?: string;
  dj?: string;
  amount: number;
  /** '0.13' … '0.01', '0' or 'mz' (免税). */
  rate: string;
  tax: number;
}

export interface StoreScope {
  agencyId: number;
  enterpriseId: number;
  direction: InvoiceDirection;
  source: InvoiceSource;
  issuedBy?: number | null;
}

export interface SaveResult {
  /** Invoices new to the store (a collection counts these, never one twice). */
  inserted: number;
  /** The stored row id of every invoice given, by number. */
  ids: Map<string, number>;
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const monthOf = (kprq: string) => kprq.slice(0, 7);

/**
 * Saves invoices by number: a new one with its lines, a known one's state and deduction (its amounts and
 * lines are the bureau's and do not change; its source stays how it first came). Then rewrites the rollups
 * of every month touched. One statement per table, whatever the number of invoices.
 */
export async function saveInvoices(
  tx: Queryable,
  scope: StoreScope,
  list: readonly InvoiceInput[],
): Promise<SaveResult> {
  const ids = new Map<string, number>();
  if (list.length === 0) return { inserted: 0, ids };
  // Callers check the client is the caller's; the store refuses anyway (row-level security hides another
  // agency's client, and the foreign key alone would not).
  // The lock serialises two writers of one client (a collection job taken again while the first still runs):
  // each refresh then reads the other's committed rollups, so the agency's net deltas stay exact.
  const own = await tx.execute(
    sql`select 1 from enterprises where id = ${scope.enterpriseId} and agency_id = ${scope.agencyId} for no key update`,
  );
  if (rowsOf(own).length === 0)
    throw new Error(`invoice store: client ${scope.enterpriseId} is not agency ${scope.agencyId}'s`);
  const rows = list.map((i) => ({
    agencyId: scope.agencyId,
    enterpriseId: scope.enterpriseId,
    direction: scope.direction,
    fphm: i.fphm,
    kprq: i.kprq,
    month: monthOf(i.kprq),
    fplx: i.fplx,
    state: i.state,
    lzfphm: i.lzfphm ?? '',
    cpName: i.cpName,
    cpTaxNo: i.cpTaxNo,
    amount: i.amount,
    tax: i.tax,
    total: i.total,
    deductState: i.deductState ?? 'none',
    deductPeriod: i.deductPeriod ?? '',
    source: scope.source,
    issuedBy: scope.issuedBy ?? null,
  }));
  const saved = await tx
    .insert(invoices)
    .values(rows)
    .onConflictDoUpdate({
      target: [invoices.agencyId, invoices.enterpriseId, invoices.direction, invoices.fphm],
      set: {
        state: sql`excluded.state`,
        deductState: sql`excluded.deduct_state`,
        deductPeriod: sql`excluded.deduct_period`,
        fetchedAt: sql`now()`,
      },
    })
    // xmax is 0 on a row this statement inserted, and set on one it updated (PostgreSQL and PGlite alike).
    .returning({ id: invoices.id, fphm: invoices.fphm, inserted: sql<boolean>`(xmax = 0)` });
  const fresh = new Set<string>();
  for (const s of saved) {
    ids.set(s.fphm, s.id);
    if (s.inserted) fresh.add(s.fphm);
  }
  const lines = list
    .filter((i) => fresh.has(i.fphm))
    .flatMap((i) =>
      i.lines.map((l) => ({
        agencyId: scope.agencyId,
        invoiceId: ids.get(i.fphm) as number,
        xh: l.xh,
        spmc: l.spmc,
        ssflbm: l.ssflbm ?? '',
        ggxh: l.ggxh ?? '',
        dw: l.dw ?? '',
        sl: l.sl ?? '',
        dj: l.dj ?? '',
        amount: l.amount,
        rate: l.rate,
        tax: l.tax,
      })),
    );
  for (let i = 0; i < lines.length; i += 1000) await tx.insert(invoiceLines).values(lines.slice(i, i + 1000));
  await refreshMonthRollups(tx, scope.agencyId, scope.enterpriseId, [...new Set(rows.map((r) => r.month))]);
  return { inserted: fresh.size, ids };
}

/**
 * Rewrites a client's rollups for the given months from its invoices — by direction, kind and rate (lines'
 * sums; an invoice counts once per rate it has lines at), invoices counted once by direction and kind, and per
 * other party — and adds the client's net change to the agency's three rollups of the same shape. 作废 invoices
 * are left out; a red invoice counts with its negative amounts (and as one invoice), so a reversed sale nets to
 * nothing.
 *
 * The agency's rows are shared by every client of the agency, so they are never rewritten: each refresh adds
 * (new − old) of its own client in one statement per table, tables and keys always in the same order, so
 * concurrent refreshes of different clients add up and cannot deadlock on each other. Refreshes of one client
 * are serialised by saveInvoices' lock on the client.
 */
export async function refreshMonthRollups(
  tx: Queryable,
  agencyId: number,
  enterpriseId: number,
  months: readonly string[],
) {
  if (months.length === 0) return;
  const monthList = sql.join(
    months.map((m) => sql`${m}`),
    sql`, `,
  );
  const client = sql`agency_id = ${agencyId} and enterprise_id = ${enterpriseId} and month in (${monthList})`;
  const invoicesOf = sql`i.agency_id = ${agencyId} and i.enterprise_id = ${enterpriseId} and i.month in (${monthList})`;
  for (const r of ROLLUPS) {
    const keys = sql.raw(r.keys.join(', '));
    const named = r.name ? sql.raw(`, ${r.name}`) : sql``;
    const vals = sql.raw(r.vals.join(', '));
    const fresh = r.fresh(r.fresh === monthStatsOf ? invoicesOf : client);
    // The deleted rows are the client's old figures, the invoices give the new ones; parties that net to
    // nothing are left out, and agency rows left at no invoice go.
    const changed = rowsOf<Record<string, string> & { count: number }>(
      await tx.execute(sql`
        with old as (delete from ${sql.raw(r.client)} where ${client} returning ${keys}, ${vals}),
        d as (
          select ${keys}${r.name ? sql.raw(`, max(${r.name}) as ${r.name}`) : sql``},
                 ${sql.raw(r.vals.map((v) => `sum(${v}) as ${v}`).join(', '))}
          from (
            select ${keys}${r.name ? sql.raw(`, '' as ${r.name}`) : sql``},
                   ${sql.raw(r.vals.map((v) => `-${v} as ${v}`).join(', '))} from old
            union all
            select ${keys}${named}, ${vals} from (${fresh}) n
          ) x
          group by ${keys}
          having ${sql.raw(r.vals.map((v) => `sum(${v}) <> 0`).join(' or '))}
        )
        insert into ${sql.raw(r.agency)} as a (agency_id, ${keys}${named}, ${vals})
        select ${agencyId}::int, ${keys}${named}, ${vals} from d
        order by ${keys}
        on conflict (agency_id, ${keys}) do update
          set ${sql.raw(
            [
              ...r.vals.map((v) => `${v} = a.${v} + excluded.${v}`),
              ...(r.name
                ? [
                    `${r.name} = case when excluded.${r.name} = '' then a.${r.name} else greatest(a.${r.name}, excluded.${r.name}) end`,
                  ]
                : []),
            ].join(', '),
          )}
        returning ${keys}, count`),
    );
    await tx.execute(sql`
      insert into ${sql.raw(r.client)} (agency_id, enterprise_id, ${keys}${named}, ${vals})
      select agency_id, enterprise_id, ${keys}${named}, ${vals} from (${fresh}) n`);
    const gone = changed.filter((x) => Number(x.count) === 0);
    if (gone.length > 0)
      await tx.execute(sql`
        delete from ${sql.raw(r.agency)}
        where agency_id = ${agencyId} and count = 0 and (${keys}) in (${sql.join(
          gone.map(
            (x) =>
              sql`(${sql.join(
                r.keys.map((k) => sql`${x[k]}`),
                sql`, `,
              )})`,
          ),
          sql`, `,
        )})`);
  }
}

/**
 * The rollups' aggregates over the invoices a condition selects (on `invoices i` / `invoices`), as the store
 * writes them; exported so that a bench seeding many clients at once writes the same figures set-based.
 */
export const monthStatsOf = (where: SQL) => sql`
    select i.agency_id, i.enterprise_id, i.month, i.direction, i.fplx, l.rate,
           count(distinct i.id)::int as count, sum(l.amount) as amount, sum(l.tax) as tax,
           sum(l.amount + l.tax) as total,
           coalesce(sum(l.tax) filter (where i.deduct_state = 'confirmed'), 0) as deduct_tax
    from invoices i join invoice_lines l on l.invoice_id = i.id
    where ${where} and i.state <> 'void'
    group by i.agency_id, i.enterprise_id, i.month, i.direction, i.fplx, l.rate`;

export const monthCountsOf = (where: SQL) => sql`
    select agency_id, enterprise_id, month, direction, fplx, count(*)::int as count
    from invoices
    where ${where} and state <> 'void'
    group by agency_id, enterprise_id, month, direction, fplx`;

export const monthPartiesOf = (where: SQL) => sql`
    select agency_id, enterprise_id, month, direction, cp_tax_no, max(cp_name) as cp_name, count(*)::int as count,
           sum(total) as total
    from invoices
    where ${where} and state <> 'void'
    group by agency_id, enterprise_id, month, direction, cp_tax_no`;

/**
 * Each per-client rollup and the agency's of the same shape (same keys without the client, same sums). Order
 * matters: every refresh takes the agency rows table by table in this order, keys ascending.
 */
const ROLLUPS: readonly {
  client: string;
  agency: string;
  keys: readonly string[];
  vals: readonly string[];
  name?: string;
  fresh: (where: SQL) => SQL;
}[] = [
  {
    client: 'invoice_month_stats',
    agency: 'invoice_agency_stats',
    keys: ['month', 'direction', 'fplx', 'rate'],
    vals: ['count', 'amount', 'tax', 'total', 'deduct_tax'],
    fresh: monthStatsOf,
  },
  {
    client: 'invoice_month_counts',
    agency: 'invoice_agency_counts',
    keys: ['month', 'direction', 'fplx'],
    vals: ['count'],
    fresh: monthCountsOf,
  },
  {
    client: 'invoice_month_parties',
    agency: 'invoice_agency_parties',
    keys: ['month', 'direction', 'cp_tax_no'],
    vals: ['count', 'total'],
    name: 'cp_name',
    fresh: monthPartiesOf,
  },
];

/**
 * The agency's rollups from the per-client ones (the bench's set-based seed; the migration's backfill does the
 * same in SQL): one statement per agency table.
 */
export const agencyRollupsOf = (where: SQL) =>
  ROLLUPS.map((r) => {
    const keys = r.keys.join(', ');
    const named = r.name ? `, ${r.name}` : '';
    return sql`
      insert into ${sql.raw(r.agency)} (agency_id, ${sql.raw(keys + named)}, ${sql.raw(r.vals.join(', '))})
      select agency_id, ${sql.raw(keys)}${sql.raw(r.name ? `, max(${r.name})` : '')},
             ${sql.raw(r.vals.map((v) => `sum(${v})`).join(', '))}
      from ${sql.raw(r.client)}
      where ${where}
      group by agency_id, ${sql.raw(keys)}`;
  });

/** The months (YYYY-MM) whose rollups a change of these stored invoices touches. */
export async function monthsOfInvoices(tx: Queryable, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const res = await tx.execute(sql`
    select distinct month from invoices where id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  return rowsOf<{ month: string }>(res).map((r) => r.month);
}
