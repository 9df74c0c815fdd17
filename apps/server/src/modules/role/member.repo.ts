import { CODE, MSG, maskStaffPhone } from '@dzy/shared';
import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { memberships, users } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';

/** The caller's tenant; calls of the role, station and department pages need one. */
export function tenantOf(session: SessionCtx): number {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
  return session.agencyId;
}

/**
 * Members of the agency itself: memberships of the agency's own organisation. Staff of an accounting
 * factory bound to it share the tenant but are the factory's members, not the agency's.
 * (Row-level security also shows a user their own memberships elsewhere, so the tenant is always named.)
 */
export const isAgencyMember = (agencyId: number): SQL =>
  and(eq(memberships.agencyId, agencyId), eq(memberships.orgId, agencyId)) as SQL;

export interface MemberRow {
  membershipId: number;
  userId: number;
  hymc: string;
  phone: string;
  role: number;
  isAdmin: boolean;
  departmentId: number | null;
}

const memberColumns = {
  membershipId: memberships.id,
  userId: memberships.userId,
  hymc: users.hymc,
  phone: users.phone,
  role: memberships.role,
  isAdmin: memberships.isAdmin,
  departmentId: memberships.departmentId,
};

/** Members of the agency matching `where`, administrators first, then by joining order. */
export function selectMembers(tx: Queryable, agencyId: number, where?: SQL) {
  return tx
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(isAgencyMember(agencyId), where))
    .orderBy(desc(memberships.isAdmin), asc(memberships.id));
}

/** The members with these user ids; any id that is not a member of the agency is a 404 and nothing changes. */
export async function requireMembers(
  tx: Queryable,
  agencyId: number,
  userIds: readonly number[],
): Promise<MemberRow[]> {
  const wanted = [...new Set(userIds)];
  if (wanted.length === 0) return [];
  const rows = await selectMembers(tx, agencyId, inArray(memberships.userId, wanted));
  if (rows.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, '成员不存在或不属于本机构');
  return rows;
}

/** Rows whose every id belongs to the tenant, else a 404 (another tenant's ids are never told apart). */
export function requireAll<T>(rows: T[], ids: readonly number[], what: string): T[] {
  if (rows.length !== new Set(ids).size) throw new AppError(CODE.NOT_FOUND, `${what}不存在或无权访问`);
  return rows;
}

/** True for a unique-index violation (a concurrent insert of the same name). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Escapes LIKE wildcards in a search term. */

/** Colleagues' phones are shown in full only to the administrator and to the member themself (as on the staff page). */
export const shownPhone = (session: SessionCtx, m: { userId: number; phone: string }) =>
  session.isAdmin || m.userId === session.userId ? m.phone : maskStaffPhone(m.phone);
