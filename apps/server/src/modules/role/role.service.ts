import { CODE, GRANTABLE_PERMS, MENUS, type MenuDef, type PermNode } from '@dzy/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { membershipRoles, memberships, roles } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import { isAgencyMember } from './member.repo.js';

const GRANTABLE = new Set<string>(GRANTABLE_PERMS);

/**
 * The function-permission tree of the menu registry: directories, pages and buttons ('F'). Platform
 * operator entries are left out; open pages without buttons too (nothing to grant there).
 */
export function buildPermTree(held: ReadonlySet<string>, parentId = 0): PermNode[] {
  return (MENUS as readonly MenuDef[])
    .filter((m) => m.parentId === parentId && m.operatorOnly !== true)
    .flatMap((m): PermNode[] => {
      const children = buildPermTree(held, m.id);
      if (!m.perm && children.length === 0) return [];
      const checkable = m.perm !== undefined && GRANTABLE.has(m.perm);
      return [
        {
          id: m.id,
          title: m.title,
          menutype: m.type,
          perm: m.perm ?? null,
          checked: checkable && held.has(m.perm ?? ''),
          checkable,
          adminOnly: m.adminOnly === true,
          children,
        },
      ];
    });
}

/** The role with this id in the agency, or a 404. */
export async function requireRole(tx: Queryable, agencyId: number, id: number) {
  const [role] = await tx
    .select()
    .from(roles)
    .where(and(eq(roles.id, id), eq(roles.agencyId, agencyId)));
  if (!role) throw new AppError(CODE.NOT_FOUND, '角色不存在或无权访问');
  return role;
}

/** Members of the agency holding this role (the role list's memberCount); names are spelt out for the subquery. */
export const roleMemberCount = (agencyId: number) => sql<number>`(
  select count(*)::int from membership_roles mr
  join memberships m on m.id = mr.membership_id
  where mr.role_id = "roles"."id" and m.agency_id = ${agencyId} and m.org_id = ${agencyId}
)`;

/**
 * Members of the agency left without any role get the default one, so nobody silently loses every
 * permission (a deleted role's members keep their other roles). Answers the memberships given it.
 */
export async function backfillDefaultRole(tx: Queryable, agencyId: number): Promise<number[]> {
  const [fallback] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.agencyId, agencyId), eq(roles.isDefault, true)));
  if (!fallback) return [];
  const bare = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        isAgencyMember(agencyId),
        eq(memberships.isAdmin, false),
        sql`not exists (select 1 from membership_roles mr where mr.membership_id = "memberships"."id")`,
      ),
    );
  if (bare.length === 0) return [];
  await tx
    .insert(membershipRoles)
    .values(bare.map((m) => ({ agencyId, membershipId: m.id, roleId: fallback.id })))
    .onConflictDoNothing();
  return bare.map((m) => m.id);
}

/** Role names of the given role ids (for audit details). */
export async function roleNames(tx: Queryable, agencyId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ name: roles.name })
    .from(roles)
    .where(and(eq(roles.agencyId, agencyId), inArray(roles.id, [...ids])));
  return rows.map((r) => r.name);
}
