import { CODE, CONTRACT_MSG, type SpecialArea, type SpecialLevel } from '@dzy/shared';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { contracts, enterprises, memberships, specialPermissions } from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';

export type ContractRow = typeof contracts.$inferSelect;

/** The caller's tenant; every contract call needs one. */
export function tenantOf(session: SessionCtx): number {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, CONTRACT_MSG.notFound);
  return session.agencyId;
}

const rank: Record<SpecialLevel, number> = { '': 0, view: 1, edit: 2 };

/**
 * A member's special permission in an area (business.md §6-§7): the area's own level, or the general one
 * when that is higher; administrators hold 'edit' everywhere.
 */
export async function specialLevelOf(
  tx: Queryable,
  agencyId: number,
  userId: number,
  area: Exclude<SpecialArea, 'general'> | 'general',
  isAdmin = false,
): Promise<SpecialLevel> {
  if (isAdmin) return 'edit';
  const rows = await tx
    .select({ area: specialPermissions.area, level: specialPermissions.level })
    .from(specialPermissions)
    .where(
      and(
        eq(specialPermissions.agencyId, agencyId),
        eq(specialPermissions.userId, userId),
        inArray(specialPermissions.area, [area, 'general']),
      ),
    );
  let best: SpecialLevel = '';
  for (const r of rows) if (rank[r.level] > rank[best]) best = r.level;
  return best;
}

/** What the caller may do with contracts: `see` and `change` are SQL conditions on a contract row. */
export interface ContractAccess {
  agencyId: number;
  level: SpecialLevel;
  /** Within the data scope of lib/data-scope.ts (own, department, all) by contract_user_id. */
  own: SQL;
  see: SQL;
  change: SQL;
}

export async function contractAccess(tx: Queryable, session: SessionCtx): Promise<ContractAccess> {
  const agencyId = tenantOf(session);
  const isAdmin = session.isAdmin || session.role === 1;
  const level = await specialLevelOf(tx, agencyId, session.userId, 'htsz', isAdmin);
  const own = dataScope(session, contracts.contractUserId);
  return {
    agencyId,
    level,
    own,
    see: level === '' ? own : sql`true`,
    change: level === 'edit' ? sql`true` : own,
  };
}

/**
 * The contracts with these ids the caller may see (tenant and visibility); with `change`, also those the
 * caller may change. An unknown or unseen id is a 404; a seen but unchangeable one a 460. Locked FOR UPDATE.
 */
export async function requireContracts(
  tx: Queryable,
  access: ContractAccess,
  ids: readonly number[],
  change = false,
): Promise<ContractRow[]> {
  const wanted = [...new Set(ids)];
  const rows = await tx
    .select({ c: contracts, canChange: sql<boolean>`(${access.change})` })
    .from(contracts)
    .where(and(eq(contracts.agencyId, access.agencyId), inArray(contracts.id, wanted), access.see))
    .orderBy(contracts.id)
    .for('update', { of: contracts });
  if (rows.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, CONTRACT_MSG.notFound);
  if (change && rows.some((r) => !r.canChange)) throw new AppError(CODE.NO_PERMISSION, CONTRACT_MSG.noEdit);
  return rows.map((r) => r.c);
}

/**
 * Enterprises the caller may sign contracts for: the tenant's live enterprises within the caller's data
 * scope, or all of them with the customer special permission (khsz view or edit).
 */
export async function enterpriseScope(tx: Queryable, session: SessionCtx): Promise<SQL> {
  const agencyId = tenantOf(session);
  const isAdmin = session.isAdmin || session.role === 1;
  const level = await specialLevelOf(tx, agencyId, session.userId, 'khsz', isAdmin);
  return and(
    eq(enterprises.agencyId, agencyId),
    isNull(enterprises.deletedAt),
    level === '' ? dataScope(session, enterprises.allocateUser) : undefined,
  ) as SQL;
}

export async function requireEnterpriseFor(tx: Queryable, session: SessionCtx, id: number) {
  const [row] = await tx
    .select({ id: enterprises.id, qymc: enterprises.qymc, allocateUser: enterprises.allocateUser })
    .from(enterprises)
    .where(and(await enterpriseScope(tx, session), eq(enterprises.id, id)));
  if (!row) throw new AppError(CODE.NOT_FOUND, '企业不存在或无权访问');
  return row;
}

/** Whether the user works in the tenant (the agency's staff or a bound factory's). */
export async function isTenantMember(tx: Queryable, agencyId: number, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.agencyId, agencyId), eq(memberships.userId, userId)))
    .limit(1);
  return row !== undefined;
}

/** Whether the caller may give a contract to `userId`: themself, someone in their data scope, or anyone with htsz edit. */
export async function mayOwnFor(tx: Queryable, session: SessionCtx, access: ContractAccess, userId: number) {
  if (!(await isTenantMember(tx, access.agencyId, userId))) {
    throw new AppError(CODE.BAD_REQUEST, CONTRACT_MSG.userNotMember);
  }
  if (userId === session.userId || access.level === 'edit') return;
  const [row] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.agencyId, access.agencyId),
        eq(memberships.userId, userId),
        dataScope(session, memberships.userId),
      ),
    )
    .limit(1);
  if (!row) throw new AppError(CODE.NO_PERMISSION, CONTRACT_MSG.noEdit);
}
