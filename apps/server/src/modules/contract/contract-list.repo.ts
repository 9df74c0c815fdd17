import { type ContractFilter, type ContractItem, fenToYuan } from '@dzy/shared';
import { and, asc, eq, ilike, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { Sort } from '../../db/paging.js';
import { contractLines, contracts, enterprises, receivables, users } from '../../db/schema/index.js';
import { likeTerm, nameOrTaxNumber } from '../../lib/search.js';
import type { ContractAccess } from './contract.repo.js';
import { addDays, daysBetween } from './contract-dates.js';
import { contractWarningsOf } from './contract-status.js';

/** In force and ending within this many days: shown as 即将到期. */
export const EXPIRING_DAYS = 30;

/** The list's filter inside what the caller may see. Without a status filter deleted contracts are left out. */
export function contractWhere(access: ContractAccess, f: ContractFilter, today: string): SQL {
  const conds: (SQL | undefined)[] = [eq(contracts.agencyId, access.agencyId), access.see];
  if (f.contractNo) conds.push(ilike(contracts.contractNo, likeTerm(f.contractNo)));
  conds.push(nameOrTaxNumber(enterprises.qymc, enterprises.qysh, f.keyword));
  if (f.aeiId) conds.push(eq(contracts.enterpriseId, f.aeiId));
  if (f.contractUserId) conds.push(eq(contracts.contractUserId, f.contractUserId));
  if (f.periodFrom) conds.push(sql`${contracts.endDate} >= ${f.periodFrom}::date`);
  if (f.periodTo) conds.push(sql`${contracts.startDate} <= ${f.periodTo}::date`);
  if (f.expireDays !== undefined) {
    conds.push(
      eq(contracts.htzt, '2'),
      sql`${contracts.endDate} between ${today}::date and ${addDays(today, f.expireDays)}::date`,
    );
  }
  switch (f.status) {
    case undefined:
      conds.push(ne(contracts.htzt, '0'));
      break;
    case 'expiring':
      conds.push(
        eq(contracts.htzt, '2'),
        sql`${contracts.endDate} between ${today}::date and ${addDays(today, EXPIRING_DAYS)}::date`,
      );
      break;
    case 'expired':
      conds.push(eq(contracts.htzt, '2'), sql`${contracts.endDate} < ${today}::date`);
      break;
    default:
      conds.push(eq(contracts.htzt, f.status));
  }
  return and(...conds) as SQL;
}

/** The list's one sort: newest first, by the index (agency_id, id). */
export const CONTRACT_SORT: Sort = { name: 'id', keys: [contracts.id], desc: true };

/** The tables the filter needs: the client only for a keyword (its name or tax number). */
export const contractFrom = (f: Pick<ContractFilter, 'keyword'>): SQL =>
  f.keyword
    ? sql`${contracts} join ${enterprises} on ${enterprises.id} = ${contracts.enterpriseId}`
    : sql`${contracts}`;

export function statusText(htzt: string, endDate: string, today: string): string {
  if (htzt === '1') return '待提交';
  if (htzt === '3') return '已终止';
  if (htzt === '0') return '已删除';
  const days = daysBetween(today, endDate);
  if (days < 0) return '已到期';
  if (days <= EXPIRING_DAYS) return '即将到期';
  return '执行中';
}

/** The list rows for these ids in the given order, with paid amounts, services and the kh warning. */
export async function contractItems(
  tx: Queryable,
  access: ContractAccess,
  ids: readonly number[],
  today: string,
): Promise<ContractItem[]> {
  if (ids.length === 0) return [];
  const list = [...ids];
  const rows = await tx
    .select({
      c: contracts,
      qymc: enterprises.qymc,
      qysh: enterprises.qysh,
      owner: users.hymc,
      canEdit: sql<boolean>`(${access.change})`,
      renewedById: sql<
        number | null
      >`(select r.id from contracts r where r.renewed_from_id = ${contracts.id} and r.htzt <> '0' order by r.id limit 1)`,
    })
    .from(contracts)
    .innerJoin(enterprises, eq(enterprises.id, contracts.enterpriseId))
    .leftJoin(users, eq(users.id, contracts.contractUserId))
    .where(and(eq(contracts.agencyId, access.agencyId), inArray(contracts.id, list)));
  const paid = await tx
    .select({
      contractId: receivables.contractId,
      fen: sql<number>`coalesce(sum(${receivables.paidFen}), 0)`.mapWith(Number),
    })
    .from(receivables)
    .where(inArray(receivables.contractId, list))
    .groupBy(receivables.contractId);
  const names = await tx
    .select({ contractId: contractLines.contractId, name: contractLines.serviceName })
    .from(contractLines)
    .where(inArray(contractLines.contractId, list))
    .orderBy(asc(contractLines.contractId), asc(contractLines.sort));
  const paidOf = new Map(paid.map((p) => [p.contractId, p.fen]));
  const namesOf = new Map<number, string[]>();
  for (const n of names) namesOf.set(n.contractId, [...(namesOf.get(n.contractId) ?? []), n.name]);
  const warnings = await contractWarningsOf(
    tx,
    access.agencyId,
    rows.map((r) => r.c.enterpriseId),
    'kh',
    today,
  );
  const byId = new Map(rows.map((r) => [r.c.id, r]));
  return list.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const c = r.c;
    return [
      {
        id: c.id,
        contractNo: c.contractNo,
        aeiId: c.enterpriseId,
        qymc: r.qymc,
        qysh: r.qysh,
        templateId: c.templateId,
        contractUserId: c.contractUserId,
        contractUserName: r.owner ?? '',
        htzt: c.htzt,
        statusText: statusText(c.htzt, c.endDate, today),
        signDate: c.signDate,
        startDate: c.startDate,
        endDate: c.endDate,
        payCycle: c.payCycle,
        totalPrice: fenToYuan(c.totalPriceFen),
        discount: fenToYuan(c.discountFen),
        amount: fenToYuan(c.amountFen),
        paid: fenToYuan(paidOf.get(c.id) ?? 0),
        dqts: c.htzt === '2' ? daysBetween(today, c.endDate) : null,
        renewedFromId: c.renewedFromId,
        renewedById: r.renewedById === null ? null : Number(r.renewedById),
        endReason: c.endReason,
        remark: c.remark,
        serviceNames: (namesOf.get(c.id) ?? []).join('、'),
        warning: warnings.get(c.enterpriseId)?.warning ?? null,
        canEdit: Boolean(r.canEdit),
        createdAt: c.createdAt.toISOString(),
      },
    ];
  });
}
