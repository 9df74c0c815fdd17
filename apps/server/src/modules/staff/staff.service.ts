import { CODE, maskStaffPhone } from '@dzy/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import {
  departments,
  enterprises,
  membershipRoles,
  memberships,
  organisations,
  roles,
  sessions,
  stationMembers,
  users,
} from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';

/** Where staff administration acts: the session's organisation and its tenant. */
export interface Place {
  agencyId: number;
  orgId: number;
}

export const NOT_MEMBER_MSG = '员工不存在或不属于本机构';

/**
 * The caller's organisation. Staff calls manage the members of the organisation the session acts in
 * (an agency, or an accounting factory's own staff), never those of another organisation of the tenant.
 */
export function placeOf(session: SessionCtx): Place {
  if (session.agencyId === null || session.orgId === null) {
    throw new AppError(CODE.NOT_FOUND, '您当前未加入代理机构');
  }
  return { agencyId: session.agencyId, orgId: session.orgId };
}

/** Shows a colleague's phone in full only to the administrator and to the member themself. */
export const phoneFor = (session: SessionCtx, userId: number, phone: string) =>
  session.isAdmin || session.userId === userId ? phone : maskStaffPhone(phone);

/** The membership of `userId` in the place; a user outside it (another tenant's id) is a 404. */
export async function requireMember(tx: Queryable, place: Place, userId: number) {
  const [row] = await tx
    .select({ m: memberships, hymc: users.hymc, phone: users.phone })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(eq(memberships.agencyId, place.agencyId), eq(memberships.orgId, place.orgId), eq(memberships.userId, userId)),
    )
    .limit(1);
  if (!row) throw new AppError(CODE.NOT_FOUND, NOT_MEMBER_MSG);
  return row;
}

/** Client enterprises allocated to a member (soft-deleted ones not counted). */
export const clientCountSql = (agencyId: number, userId: unknown) =>
  sql<number>`(select count(*)::int from ${enterprises} where ${enterprises.agencyId} = ${agencyId} and ${enterprises.allocateUser} = ${userId} and ${enterprises.deletedAt} is null)`;

/** What a member owns that must be handed over before they leave. */
export async function ownedBy(tx: Queryable, agencyId: number, userId: number) {
  const n = sql<number>`count(*)::int`;
  const [clients] = await tx
    .select({ n })
    .from(enterprises)
    .where(
      and(eq(enterprises.agencyId, agencyId), eq(enterprises.allocateUser, userId), isNull(enterprises.deletedAt)),
    );
  const [posts] = await tx
    .select({ n })
    .from(stationMembers)
    .where(and(eq(stationMembers.agencyId, agencyId), eq(stationMembers.userId, userId)));
  const [directs] = await tx
    .select({ n })
    .from(departments)
    .where(and(eq(departments.agencyId, agencyId), eq(departments.directorUserId, userId)));
  return { clientCount: clients?.n ?? 0, stationCount: posts?.n ?? 0, directorPosts: directs?.n ?? 0 };
}

/**
 * Whether the caller may leave the organisation now. Order of refusal: the administrator (transfer
 * first); an organisation whose quitSet is '0' (only the administrator removes members); clients or
 * department director posts still held (a handover by someone with 工作交接 comes first, whatever quitSet).
 */
export async function quitState(tx: Queryable, session: SessionCtx, place: Place) {
  const owned = await ownedBy(tx, place.agencyId, session.userId);
  const no = (reason: string) => ({ canQuit: false, reason, clientCount: owned.clientCount });
  if (session.isAdmin) return no('管理员不能退出代理机构，请先转让管理员');
  const [org] = await tx
    .select({ quitSet: organisations.quitSet })
    .from(organisations)
    .where(eq(organisations.id, place.orgId));
  if (org?.quitSet === '0') return no('本机构不允许员工自行退出，请联系管理员办理');
  if (owned.clientCount > 0) return no(`您名下还有${owned.clientCount}家客户，请先联系管理员进行工作交接`);
  if (owned.directorPosts > 0) return no('您是部门负责人，请先联系管理员进行工作交接');
  return { canQuit: true, reason: '', clientCount: 0 };
}

/**
 * Takes a member out of the place: their roles, posts and membership. Their sessions in this
 * organisation fall back to another organisation of theirs (or none) on their next request.
 */
export async function removeMembership(tx: Queryable, place: Place, membershipId: number, userId: number) {
  await tx.delete(membershipRoles).where(eq(membershipRoles.membershipId, membershipId));
  await tx
    .delete(stationMembers)
    .where(and(eq(stationMembers.agencyId, place.agencyId), eq(stationMembers.userId, userId)));
  await tx.delete(memberships).where(and(eq(memberships.id, membershipId), eq(memberships.agencyId, place.agencyId)));
  await tx
    .update(sessions)
    .set({ orgId: null })
    .where(and(eq(sessions.userId, userId), eq(sessions.orgId, place.orgId), isNull(sessions.revokedAt)));
}

/** A member who holds no role gets the default one (普通员工), e.g. a former administrator. */
export async function ensureDefaultRole(tx: Queryable, agencyId: number, membershipId: number) {
  const held = await tx
    .select({ roleId: membershipRoles.roleId })
    .from(membershipRoles)
    .where(eq(membershipRoles.membershipId, membershipId))
    .limit(1);
  if (held.length) return;
  const [role] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.agencyId, agencyId), eq(roles.isDefault, true)))
    .limit(1);
  if (role) await tx.insert(membershipRoles).values({ agencyId, membershipId, roleId: role.id });
}

/** Escapes LIKE wildcards in user input. */
export const likeEscape = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);
