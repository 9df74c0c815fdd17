import {
  type ChargeItem,
  CODE,
  type chargeFilterSchema,
  FEE_MSG,
  feeStatusOf,
  feeYuan,
  type ReceivableItem,
  type receivableFilterSchema,
} from '@dzy/shared';
import { and, eq, gte, ilike, inArray, isNotNull, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { countOf, type Sort } from '../../db/paging.js';
import { charges, contracts, enterprises, receivables, specialPermissions, users } from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import { likeTerm, nameOrTaxNumber } from '../../lib/search.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';

export type ReceivableFilterOut = z.output<typeof receivableFilterSchema>;
export type ChargeFilterOut = z.output<typeof chargeFilterSchema>;

/** The caller's tenant; every fee call needs one. */
export function agencyOf(session: SessionCtx): number {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, FEE_MSG.notFound);
  return session.agencyId;
}

/**
 * What the caller may do with fees of others' contracts: the data scope (lib/data-scope.ts) on the
 * contract's owner, widened by the special permission 收费 (htsf): 'view' sees every contract's fees,
 * 'edit' also records and revokes payments on them.
 */
export interface FeeAccess {
  session: SessionCtx;
  agencyId: number;
  htsf: 'view' | 'edit' | null;
}

export async function feeAccessOf(tx: Queryable, session: SessionCtx): Promise<FeeAccess> {
  const agencyId = agencyOf(session);
  const [row] = await tx
    .select({ level: specialPermissions.level })
    .from(specialPermissions)
    .where(
      and(
        eq(specialPermissions.agencyId, agencyId),
        eq(specialPermissions.userId, session.userId),
        eq(specialPermissions.area, 'htsf'),
      ),
    );
  return { session, agencyId, htsf: row?.level ?? null };
}

/** Contracts whose fees the caller sees (deleted contracts, htzt '0', have no fees to show). */
export function feeVisible(a: FeeAccess): SQL {
  return and(
    eq(contracts.agencyId, a.agencyId),
    ne(contracts.htzt, '0'),
    a.htsf ? sql`true` : dataScope(a.session, contracts.contractUserId),
  ) as SQL;
}

/** Contracts on which the caller may record and revoke payments. */
export function feeEditable(a: FeeAccess): SQL {
  return a.htsf === 'edit' ? sql`true` : dataScope(a.session, contracts.contractUserId);
}

const owner = alias(users, 'fee_owner');
const operator = alias(users, 'fee_operator');
const revoker = alias(users, 'fee_revoker');

const unpaidFen = sql`greatest(${receivables.amountFen} - ${receivables.paidFen}, 0)`;
/** 0 for a period still owed, 1 once paid: the default order's first key (the same expression as its index). */
const owedFirst = sql`(case when ${receivables.paidFen} < ${receivables.amountFen} then 0 else 1 end)`;

/** The status filter as SQL, the same partition as feeStatusOf. */
function statusWhere(status: ReceivableFilterOut['feeStatus'], today: string): SQL | undefined {
  switch (status) {
    case 'paid':
      return sql`${receivables.paidFen} >= ${receivables.amountFen}`;
    case 'partial':
      return sql`${receivables.paidFen} > 0 and ${receivables.paidFen} < ${receivables.amountFen}`;
    case 'unpaid':
      return sql`${receivables.paidFen} = 0 and ${receivables.amountFen} > 0 and ${receivables.dueDate} <= ${today}`;
    case 'notDue':
      return sql`${receivables.paidFen} = 0 and ${receivables.amountFen} > 0 and ${receivables.dueDate} > ${today}`;
    default:
      return undefined;
  }
}

function commonWhere(f: ReceivableFilterOut | ChargeFilterOut): (SQL | undefined)[] {
  const conds: (SQL | undefined)[] = [];
  conds.push(nameOrTaxNumber(enterprises.qymc, enterprises.qysh, f.keyword));
  if (f.contractNo) conds.push(ilike(contracts.contractNo, likeTerm(f.contractNo)));
  if (f.contractUserId) conds.push(eq(contracts.contractUserId, f.contractUserId));
  if (f.contractId) conds.push(eq(contracts.id, f.contractId));
  return conds;
}

/** Whether the caller sees the fees of every contract of the agency (not only those in their data scope). */
const seesAll = (a: FeeAccess) => a.htsf !== null || a.session.isAdmin || a.session.role === 1;

/** Whether a fee list's filter needs the contract row: a contract-level filter, or a data scope to apply. */
function needsContract(a: FeeAccess, f: ReceivableFilterOut | ChargeFilterOut): boolean {
  return !seesAll(a) || Boolean(f.contractNo || f.contractUserId || f.contractId);
}

/**
 * feeVisible for the lists: without the contract joined (a caller who sees all, no contract filter), the only
 * condition left is "not of a deleted contract", a hashed look-up of the agency's few deleted contracts.
 */
function listVisible(a: FeeAccess, f: ReceivableFilterOut | ChargeFilterOut, contractId: AnyPgColumn): SQL {
  if (needsContract(a, f)) return feeVisible(a);
  return sql`${contractId} not in (select ${contracts.id} from ${contracts} where ${contracts.agencyId} = ${a.agencyId} and ${contracts.htzt} = '0')`;
}

export function receivableWhere(a: FeeAccess, f: ReceivableFilterOut, today: string): SQL {
  return and(
    eq(receivables.agencyId, a.agencyId),
    listVisible(a, f, receivables.contractId),
    ...commonWhere(f),
    statusWhere(f.feeStatus, today),
    f.dueFrom ? gte(receivables.dueDate, f.dueFrom) : undefined,
    f.dueTo ? lte(receivables.dueDate, f.dueTo) : undefined,
  ) as SQL;
}

/** The receivables' sorts; each key list ends in the id and runs one way, as keyset paging needs. */
export function receivableSort(f: Pick<ReceivableFilterOut, 'sortField' | 'sortOrder'>): Sort {
  const desc = f.sortOrder === 'descend';
  switch (f.sortField) {
    case 'amount':
      return { name: 'amount', keys: [receivables.amountFen, receivables.id], desc };
    case 'paid':
      return { name: 'paid', keys: [receivables.paidFen, receivables.id], desc };
    case 'unpaid':
      return { name: 'unpaid', keys: [unpaidFen, receivables.id], desc };
    case 'dueDate':
      return { name: 'dueDate', keys: [receivables.dueDate, receivables.id], desc };
    default:
      // What is still owed first, oldest due first (so the overdue lead), then the paid periods by due date:
      // index receivables_agency_collect_idx holds this order (a key of today's date could have none).
      return { name: 'collect', keys: [owedFirst, receivables.dueDate, receivables.id], desc: false };
  }
}

/**
 * The tables a fee list's filter needs: the contract for a contract filter or a data scope (listVisible),
 * the client for a keyword. The total, the 合计 and a jump's index walk then read no more than that.
 */
export function feeFrom(base: 'receivables' | 'charges', a: FeeAccess, f: ReceivableFilterOut | ChargeFilterOut): SQL {
  const table = base === 'receivables' ? receivables : charges;
  const contractId = base === 'receivables' ? receivables.contractId : charges.contractId;
  const enterpriseId = base === 'receivables' ? receivables.enterpriseId : charges.enterpriseId;
  const from = needsContract(a, f) ? sql`${table} join ${contracts} on ${contracts.id} = ${contractId}` : sql`${table}`;
  return f.keyword ? sql`${from} join ${enterprises} on ${enterprises.id} = ${enterpriseId}` : from;
}

export function chargeWhere(a: FeeAccess, f: ChargeFilterOut): SQL {
  return and(
    eq(charges.agencyId, a.agencyId),
    listVisible(a, f, charges.contractId),
    ...commonWhere(f),
    f.payFrom ? gte(charges.payDate, f.payFrom) : undefined,
    f.payTo ? lte(charges.payDate, f.payTo) : undefined,
    f.payMethod ? eq(charges.payMethod, f.payMethod) : undefined,
    f.revoked === '0' ? isNull(charges.revokedAt) : f.revoked === '1' ? isNotNull(charges.revokedAt) : undefined,
  ) as SQL;
}

export function chargeSort(f: Pick<ChargeFilterOut, 'sortField' | 'sortOrder'>): Sort {
  const desc = f.sortOrder !== 'ascend';
  switch (f.sortField) {
    case 'amount':
      return { name: 'amount', keys: [charges.amountFen, charges.id], desc };
    case 'createdAt':
      return { name: 'id', keys: [charges.id], desc };
    default:
      // Newest payment first.
      return { name: 'payDate', keys: [charges.payDate, charges.id], desc };
  }
}

const receivableColumns = (a: FeeAccess) => ({
  id: receivables.id,
  contractId: receivables.contractId,
  contractNo: contracts.contractNo,
  htzt: contracts.htzt,
  enterpriseId: receivables.enterpriseId,
  qymc: enterprises.qymc,
  qysh: enterprises.qysh,
  periodNo: receivables.periodNo,
  periodStart: receivables.periodStart,
  periodEnd: receivables.periodEnd,
  dueDate: receivables.dueDate,
  amountFen: receivables.amountFen,
  paidFen: receivables.paidFen,
  contractUserId: contracts.contractUserId,
  contractUserName: owner.hymc,
  editable: sql<boolean>`(${feeEditable(a)})`.mapWith(Boolean),
});

type ReceivableRow = {
  id: number;
  contractId: number;
  contractNo: string;
  htzt: string;
  enterpriseId: number;
  qymc: string;
  qysh: string;
  periodNo: number;
  periodStart: string;
  periodEnd: string;
  dueDate: string;
  amountFen: number;
  paidFen: number;
  contractUserId: number;
  contractUserName: string | null;
  editable: boolean;
};

export function toReceivableItem(r: ReceivableRow, today: string, qfys: number): ReceivableItem {
  return {
    id: r.id,
    contractId: r.contractId,
    contractNo: r.contractNo,
    htzt: r.htzt,
    enterpriseId: r.enterpriseId,
    qymc: r.qymc,
    qysh: r.qysh,
    periodNo: r.periodNo,
    periodStart: r.periodStart,
    periodEnd: r.periodEnd,
    dueDate: r.dueDate,
    amount: feeYuan(r.amountFen),
    paid: feeYuan(r.paidFen),
    unpaid: feeYuan(Math.max(0, r.amountFen - r.paidFen)),
    feeStatus: feeStatusOf(r.amountFen, r.paidFen, r.dueDate, today),
    qfys,
    contractUserId: r.contractUserId,
    contractUserName: r.contractUserName ?? '',
    editable: r.editable,
  };
}

/** The list rows of these receivables, in the order of `ids`. */
export async function receivableRows(tx: Queryable, a: FeeAccess, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await receivableQuery(
    tx,
    a,
    and(eq(receivables.agencyId, a.agencyId), inArray(receivables.id, [...ids])) as SQL,
  );
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((x, y) => (at.get(x.id) ?? 0) - (at.get(y.id) ?? 0));
}

/** The receivables matching `where` with what the list shows. */
export function receivableQuery(tx: Queryable, a: FeeAccess, where: SQL) {
  return tx
    .select(receivableColumns(a))
    .from(receivables)
    .innerJoin(contracts, eq(contracts.id, receivables.contractId))
    .innerJoin(enterprises, eq(enterprises.id, receivables.enterpriseId))
    .leftJoin(owner, eq(owner.id, contracts.contractUserId))
    .where(where)
    .$dynamic();
}

/** The number of receivables matching the filter and their 合计 in fen, in one aggregate. */
export async function receivableTotals(tx: Queryable, from: SQL, where: SQL) {
  const { total, sums } = await countOf(tx, from, where, {
    amount: sql`coalesce(sum(${receivables.amountFen}), 0)`,
    paid: sql`coalesce(sum(${receivables.paidFen}), 0)`,
    unpaid: sql`coalesce(sum(${unpaidFen}), 0)`,
  });
  // Sums come back as text (bigint); fen totals stay far below 2^53 for any agency.
  return {
    total,
    totals: {
      amount: feeYuan(Number(sums.amount)),
      paid: feeYuan(Number(sums.paid)),
      unpaid: feeYuan(Number(sums.unpaid)),
    },
  };
}

const chargeColumns = (a: FeeAccess) => ({
  id: charges.id,
  receivableId: charges.receivableId,
  contractId: charges.contractId,
  contractNo: contracts.contractNo,
  enterpriseId: charges.enterpriseId,
  qymc: enterprises.qymc,
  qysh: enterprises.qysh,
  periodNo: receivables.periodNo,
  dueDate: receivables.dueDate,
  amountFen: charges.amountFen,
  payDate: charges.payDate,
  payMethod: charges.payMethod,
  payer: charges.payer,
  receiptNo: charges.receiptNo,
  remark: charges.remark,
  operatorName: operator.hymc,
  createdAt: charges.createdAt,
  revokedAt: charges.revokedAt,
  revokedByName: revoker.hymc,
  contractUserName: owner.hymc,
  editable: sql<boolean>`(${feeEditable(a)})`.mapWith(Boolean),
});

/** The charges matching `where` with what the list shows. */
export function chargeQuery(tx: Queryable, a: FeeAccess, where: SQL) {
  return tx
    .select(chargeColumns(a))
    .from(charges)
    .innerJoin(receivables, eq(receivables.id, charges.receivableId))
    .innerJoin(contracts, eq(contracts.id, charges.contractId))
    .innerJoin(enterprises, eq(enterprises.id, charges.enterpriseId))
    .leftJoin(owner, eq(owner.id, contracts.contractUserId))
    .leftJoin(operator, eq(operator.id, charges.createdBy))
    .leftJoin(revoker, eq(revoker.id, charges.revokedBy))
    .where(where)
    .$dynamic();
}

type ChargeRow = Awaited<ReturnType<ReturnType<typeof chargeQuery>['execute']>>[number];

export function toChargeItem(r: ChargeRow): ChargeItem {
  return {
    id: r.id,
    receivableId: r.receivableId,
    contractId: r.contractId,
    contractNo: r.contractNo,
    enterpriseId: r.enterpriseId,
    qymc: r.qymc,
    qysh: r.qysh,
    periodNo: r.periodNo,
    dueDate: r.dueDate,
    amount: feeYuan(r.amountFen),
    payDate: r.payDate,
    payMethod: r.payMethod,
    payer: r.payer,
    receiptNo: r.receiptNo,
    remark: r.remark,
    operatorName: r.operatorName ?? '',
    createdAt: r.createdAt.toISOString(),
    revoked: r.revokedAt !== null,
    revokedAt: r.revokedAt ? r.revokedAt.toISOString() : null,
    revokedByName: r.revokedByName ?? '',
    contractUserName: r.contractUserName ?? '',
    editable: r.editable && r.revokedAt === null,
  };
}

/** The list rows of these charges, in the order of `ids`. */
export async function chargeRows(tx: Queryable, a: FeeAccess, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await chargeQuery(tx, a, and(eq(charges.agencyId, a.agencyId), inArray(charges.id, [...ids])) as SQL);
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((x, y) => (at.get(x.id) ?? 0) - (at.get(y.id) ?? 0));
}

/** The number of charges matching the filter and the 合计 of the live (not revoked) ones, in one aggregate. */
export async function chargeTotals(tx: Queryable, from: SQL, where: SQL) {
  const { total, sums } = await countOf(tx, from, where, {
    amount: sql`coalesce(sum(${charges.amountFen}) filter (where ${charges.revokedAt} is null), 0)`,
  });
  return { total, totals: { amount: feeYuan(Number(sums.amount)) } };
}
