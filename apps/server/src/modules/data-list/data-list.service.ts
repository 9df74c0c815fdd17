import {
  currentFilingMonth,
  type DataListFilter,
  type DataListItem,
  type dataListFilterSchema,
  fenToYuan,
} from '@dzy/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { enterprises, users } from '../../db/schema/index.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { contractStatusOf } from '../contract/contract-status.js';
import { customerSort, customerWhere } from '../customer/customer.repo.js';

type Filter = z.output<typeof dataListFilterSchema>;

/**
 * 数据列表: the client list's rows (its filter, data scope and index: agency, id, newest first) with the facts
 * of the other modules read for the page's clients only. Each filter on a fact is a correlated EXISTS per
 * client walked along that index, never an aggregate of the agency.
 */
export const dataListSort = () => customerSort({ sortOrder: 'ascend' });

/** "Open" work orders: not yet done and not cancelled (work_orders.state, shared/workorder.ts). */
export const OPEN_WORK_ORDER_STATES = ['pending', 'doing'] as const;

const inForceCovers = (today: string) =>
  sql`exists (select 1 from contracts c where c.enterprise_id = ${enterprises.id} and c.htzt = '2'
    and c.start_date <= ${today}::date and c.end_date >= ${today}::date)`;
const inForceLater = (today: string) =>
  sql`exists (select 1 from contracts c where c.enterprise_id = ${enterprises.id} and c.htzt = '2'
    and c.end_date >= ${today}::date)`;
const inForceAny = sql`exists (select 1 from contracts c where c.enterprise_id = ${enterprises.id} and c.htzt = '2')`;
const owes = (today: string) =>
  sql`exists (select 1 from receivables r join contracts c on c.id = r.contract_id
    where r.enterprise_id = ${enterprises.id} and c.htzt <> '0' and r.due_date < ${today}::date and r.paid_fen < r.amount_fen)`;
const hasCells = (month: string) =>
  sql`exists (select 1 from filing_cells f where f.agency_id = ${enterprises.agencyId} and f.enterprise_id = ${enterprises.id} and f.filing_month = ${month})`;
const hasUnfiled = (month: string) =>
  sql`exists (select 1 from filing_cells f where f.agency_id = ${enterprises.agencyId} and f.enterprise_id = ${enterprises.id} and f.filing_month = ${month} and f.state in ('wsb', 'yqwsb'))`;

export function dataListWhere(session: SessionCtx, agencyId: number, f: Filter, today: string, month: string): SQL {
  const conds: SQL[] = [customerWhere(session, agencyId, { keyword: f.keyword, allocateUser: f.allocateUser })];
  if (f.contractState === 'valid') conds.push(inForceCovers(today));
  if (f.contractState === 'expired') conds.push(sql`(${inForceAny} and not ${inForceLater(today)})`);
  if (f.contractState === 'none') {
    conds.push(sql`(not ${inForceCovers(today)} and (not ${inForceAny} or ${inForceLater(today)}))`);
  }
  if (f.arrears === 'yes') conds.push(owes(today));
  if (f.arrears === 'no') conds.push(sql`not ${owes(today)}`);
  if (f.filingState === 'unsynced') conds.push(sql`not ${hasCells(month)}`);
  if (f.filingState === 'pending') conds.push(hasUnfiled(month));
  if (f.filingState === 'done') conds.push(sql`(${hasCells(month)} and not ${hasUnfiled(month)})`);
  return and(...conds) as SQL;
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** The rows of these clients (in the given order), with each module's facts for them only. */
export async function dataItemsFor(
  tx: Queryable,
  agencyId: number,
  ids: readonly number[],
  today: string,
  month: string,
): Promise<DataListItem[]> {
  if (ids.length === 0) return [];
  const list = [...ids];
  const base = await tx
    .select({ id: enterprises.id, qymc: enterprises.qymc, qysh: enterprises.qysh, owner: users.hymc })
    .from(enterprises)
    .leftJoin(users, eq(users.id, enterprises.allocateUser))
    .where(and(eq(enterprises.agencyId, agencyId), inArray(enterprises.id, list)));
  const status = await contractStatusOf(tx, list, today);
  const idArray = sql.raw(`array[${list.map((n) => Math.trunc(n)).join(',')}]::int[]`);
  const owed = rowsOf<{ enterprise_id: number; owed: string }>(
    await tx.execute(sql`select r.enterprise_id, sum(r.amount_fen - r.paid_fen)::text as owed
      from receivables r join contracts c on c.id = r.contract_id
      where r.agency_id = ${agencyId} and r.enterprise_id = any(${idArray}) and c.htzt <> '0'
        and r.due_date < ${today}::date and r.paid_fen < r.amount_fen
      group by r.enterprise_id`),
  );
  const owedOf = new Map(owed.map((r) => [Number(r.enterprise_id), Number(r.owed)]));
  const cells = rowsOf<{ enterprise_id: number; total: number; pending: number }>(
    await tx.execute(sql`select f.enterprise_id, count(*)::int as total,
        count(*) filter (where f.state in ('wsb', 'yqwsb'))::int as pending
      from filing_cells f
      where f.agency_id = ${agencyId} and f.filing_month = ${month} and f.enterprise_id = any(${idArray})
      group by f.enterprise_id`),
  );
  const cellsOf = new Map(cells.map((r) => [Number(r.enterprise_id), r]));
  const orders = await openWorkOrders(tx, agencyId, idArray);
  const byId = new Map(base.map((b) => [b.id, b]));
  return list.flatMap((id) => {
    const b = byId.get(id);
    if (!b) return [];
    const s = status.get(id);
    const c = cellsOf.get(id);
    const contractState = s?.htstatus === '2' ? 'valid' : s?.sfdq === '1' ? 'expired' : 'none';
    const filingState = !c ? 'unsynced' : c.pending > 0 ? 'pending' : 'done';
    return [
      {
        id,
        qymc: b.qymc,
        qysh: b.qysh,
        allocateUserName: b.owner ?? '',
        contractState,
        contractEnd: s?.endDate ?? null,
        arrearsAmount: fenToYuan(owedOf.get(id) ?? 0),
        arrearsMonths: s?.qfys ?? 0,
        filingMonth: month,
        filingState,
        filingPending: c?.pending ?? 0,
        filingTotal: c?.total ?? 0,
        openWorkOrders: orders.get(id) ?? 0,
      } satisfies DataListItem,
    ];
  });
}

/** Open work orders per client of the page (index work_orders by agency and enterprise). */
async function openWorkOrders(tx: Queryable, agencyId: number, idArray: SQL): Promise<Map<number, number>> {
  const rows = rowsOf<{ enterprise_id: number; n: number }>(
    await tx.execute(sql`select w.enterprise_id, count(*)::int as n from work_orders w
      where w.agency_id = ${agencyId} and w.enterprise_id = any(${idArray})
        and w.state in (${sql.join(
          OPEN_WORK_ORDER_STATES.map((s) => sql`${s}`),
          sql`, `,
        )})
      group by w.enterprise_id`),
  );
  return new Map(rows.map((r) => [Number(r.enterprise_id), r.n]));
}

/** Today (China) and this month's filing month, fixed once per request. */
export const dataListDay = () => {
  const today = chinaDate();
  return { today, month: currentFilingMonth(today) };
};

export type { DataListFilter };
