import { CODE, type CustomerItem, type customerFilterSchema, HYDJ_NAMES } from '@dzy/shared';
import { and, asc, desc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { listPage, type Sort } from '../../db/paging.js';
import {
  enterpriseBureauDiffs,
  enterpriseContacts,
  enterpriseLabels,
  enterprises,
  grades,
  labels,
  users,
} from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { regionText } from '../org/regions.js';

export type EnterpriseRow = typeof enterprises.$inferSelect;
export type CustomerFilterOut = z.output<typeof customerFilterSchema>;

export const ENTERPRISE_NOT_FOUND = '企业不存在或无权访问';

/** The caller's tenant; every call of the book needs one. */
export function agencyOf(session: SessionCtx): number {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, ENTERPRISE_NOT_FOUND);
  return session.agencyId;
}

/**
 * Enterprises the caller may see: the tenant, the book or the recycle bin, and the data scope
 * (administrator all, department head the department tree, employee their own). Every query of
 * enterprises starts here.
 */
export function visible(session: SessionCtx, agencyId: number, bin = false): SQL {
  return and(
    eq(enterprises.agencyId, agencyId),
    bin ? isNotNull(enterprises.deletedAt) : isNull(enterprises.deletedAt),
    dataScope(session, enterprises.allocateUser),
  ) as SQL;
}

/** The enterprises with these ids that the caller may see; any other id is a 404 and nothing changes. */
export async function requireEnterprises(
  tx: Queryable,
  session: SessionCtx,
  ids: readonly number[],
  bin = false,
): Promise<EnterpriseRow[]> {
  const wanted = [...new Set(ids)];
  const rows = await tx
    .select()
    .from(enterprises)
    .where(and(visible(session, agencyOf(session), bin), inArray(enterprises.id, wanted)));
  if (rows.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, ENTERPRISE_NOT_FOUND);
  return rows;
}

export async function requireEnterprise(tx: Queryable, session: SessionCtx, id: number, bin = false) {
  const [row] = await requireEnterprises(tx, session, [id], bin);
  if (!row) throw new AppError(CODE.NOT_FOUND, ENTERPRISE_NOT_FOUND);
  return row;
}

/** The list's filter (business.md §2 search bar), inside what the caller may see. */
export function customerWhere(session: SessionCtx, agencyId: number, f: CustomerFilterOut): SQL {
  const conds: (SQL | undefined)[] = [visible(session, agencyId)];
  conds.push(nameOrTaxNumber(enterprises.qymc, enterprises.qysh, f.keyword));
  if (f.qyxz) conds.push(eq(enterprises.qyxz, f.qyxz));
  if (f.sssf) conds.push(eq(enterprises.sssf, f.sssf));
  if (f.ssds) conds.push(eq(enterprises.ssds, f.ssds));
  if (f.ssqx) conds.push(eq(enterprises.ssqx, f.ssqx));
  if (f.gradeId) conds.push(eq(enterprises.gradeId, f.gradeId));
  if (f.labelId) {
    conds.push(
      sql`exists (select 1 from enterprise_labels el where el.enterprise_id = ${enterprises.id} and el.label_id = ${f.labelId})`,
    );
  }
  if (f.allocateUser !== undefined) {
    conds.push(f.allocateUser === 0 ? isNull(enterprises.allocateUser) : eq(enterprises.allocateUser, f.allocateUser));
  }
  if (f.serviceStatus) conds.push(eq(enterprises.serviceStatus, f.serviceStatus));
  if (f.benefitStatus === 'active') conds.push(eq(enterprises.qyzt, '1'));
  if (f.benefitStatus === 'expiring') conds.push(eq(enterprises.qyzt, '2'));
  if (f.benefitStatus === 'expired') conds.push(inArray(enterprises.qyzt, ['3', '0', '']));
  if (f.needUpdate) {
    conds.push(
      sql`exists (select 1 from enterprise_bureau_diffs d where d.agency_id = ${agencyId} and d.enterprise_id = ${enterprises.id} and d.need_update)`,
    );
  }
  return and(...conds) as SQL;
}

/**
 * The sorts the list offers, each served by an index ending in the id: newest first (agency_id, id)
 * and by name (agency_id, qymc, id), both only over the book (deleted_at is null).
 */
export function customerSort(f: Pick<CustomerFilterOut, 'sortField' | 'sortOrder'>): Sort {
  if (f.sortField === 'qymc') {
    return { name: 'qymc', keys: [enterprises.qymc, enterprises.id], desc: f.sortOrder === 'descend' };
  }
  return { name: 'id', keys: [enterprises.id], desc: f.sortOrder !== 'ascend' };
}

/** One page of the client list (the call and the bench run this same code). */
export async function customerPage(
  tx: Queryable,
  agencyId: number,
  where: SQL,
  body: CustomerFilterOut & { pageNo: number; pageSize: number; cursor?: string | undefined },
) {
  const { pageNo, pageSize, cursor, ...filter } = body;
  return listPage(
    tx,
    { from: sql`${enterprises}`, where, sort: customerSort(body), ask: { pageNo, pageSize, cursor }, filter },
    (ids) => itemsFor(tx, agencyId, ids),
  );
}

/** The list rows for these ids, in the given order, with grade, labels, owner and first contact. */
export async function itemsFor(tx: Queryable, agencyId: number, ids: readonly number[]): Promise<CustomerItem[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ e: enterprises, gradeName: grades.name, ownerName: users.hymc })
    .from(enterprises)
    .leftJoin(grades, eq(grades.id, enterprises.gradeId))
    .leftJoin(users, eq(users.id, enterprises.allocateUser))
    .where(and(eq(enterprises.agencyId, agencyId), inArray(enterprises.id, [...ids])));
  const labelRows = await tx
    .select({ enterpriseId: enterpriseLabels.enterpriseId, id: labels.id, name: labels.name, color: labels.color })
    .from(enterpriseLabels)
    .innerJoin(labels, eq(labels.id, enterpriseLabels.labelId))
    .where(and(eq(enterpriseLabels.agencyId, agencyId), inArray(enterpriseLabels.enterpriseId, [...ids])))
    .orderBy(asc(labels.id));
  const contactRows = await tx
    .selectDistinctOn([enterpriseContacts.enterpriseId], {
      enterpriseId: enterpriseContacts.enterpriseId,
      name: enterpriseContacts.name,
      mobile: enterpriseContacts.mobile,
      landline: enterpriseContacts.landline,
    })
    .from(enterpriseContacts)
    .where(and(eq(enterpriseContacts.agencyId, agencyId), inArray(enterpriseContacts.enterpriseId, [...ids])))
    .orderBy(enterpriseContacts.enterpriseId, desc(enterpriseContacts.isPrimary), asc(enterpriseContacts.id));
  const marked = await tx
    .select({ enterpriseId: enterpriseBureauDiffs.enterpriseId })
    .from(enterpriseBureauDiffs)
    .where(
      and(
        eq(enterpriseBureauDiffs.agencyId, agencyId),
        inArray(enterpriseBureauDiffs.enterpriseId, [...ids]),
        eq(enterpriseBureauDiffs.needUpdate, true),
      ),
    );
  const needUpdate = new Set(marked.map((m) => m.enterpriseId));

  const labelsOf = new Map<number, { id: number; name: string; color: string }[]>();
  for (const l of labelRows) {
    const list = labelsOf.get(l.enterpriseId) ?? [];
    list.push({ id: l.id, name: l.name, color: l.color });
    labelsOf.set(l.enterpriseId, list);
  }
  const contactOf = new Map(contactRows.map((c) => [c.enterpriseId, c]));
  const byId = new Map(rows.map((r) => [r.e.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const c = contactOf.get(id);
    return [toItem(r.e, r.gradeName ?? '', r.ownerName ?? '', labelsOf.get(id) ?? [], c, needUpdate.has(id))];
  });
}

export function toItem(
  e: EnterpriseRow,
  gradeName: string,
  ownerName: string,
  labelList: { id: number; name: string; color: string }[],
  contact?: { name: string; mobile: string; landline: string },
  needUpdate = false,
): CustomerItem {
  return {
    id: e.id,
    qymc: e.qymc,
    qysh: e.qysh,
    qybm: e.qybm,
    qyxz: e.qyxz,
    sssf: e.sssf,
    ssds: e.ssds,
    ssqx: e.ssqx,
    regionName: e.sssf ? regionText(e.sssf, e.ssds, e.ssqx) : '',
    address: e.address,
    fjh: e.fjh,
    gradeId: e.gradeId,
    gradeName,
    labels: labelList,
    allocate_user: e.allocateUser,
    allocateUserName: ownerName,
    serviceStatus: e.serviceStatus,
    qyzt: e.qyzt,
    hydj_real: e.hydjReal,
    hydqsj: e.hydqsj,
    contactName: contact?.name ?? '',
    contactPhone: contact ? contact.mobile || contact.landline : '',
    createdAt: e.createdAt.toISOString(),
    needUpdate,
  };
}

/** Membership grade in words (for exports). */
export const hydjName = (n: number | null) => (n === null ? '' : (HYDJ_NAMES[n] ?? String(n)));
