import { DEFAULT_STAFF_PERMS, GRANTABLE_PERMS } from '@dzy/shared';
import type { Queryable } from '../../db/client.js';
import { membershipRoles, memberships, roles, stationMembers, stations } from '../../db/schema/index.js';

/** The posts a new agency starts with; 服务顾问 is chosen by default for a new member. */
export const DEFAULT_STATIONS = ['服务顾问', '主办会计', '记账会计', '外勤专员'] as const;
export const DEFAULT_ROLE = '普通员工';

/**
 * What every agency starts with: the default role 普通员工 and a 部门主管 role, the default posts,
 * and its administrator. Runs inside the caller's transaction, scoped to the new agency.
 */
export async function provisionAgency(tx: Queryable, agencyId: number, adminUserId: number) {
  const [defaultRole] = await tx
    .insert(roles)
    .values([
      { agencyId, name: DEFAULT_ROLE, remark: '新成员默认角色', perms: [...DEFAULT_STAFF_PERMS], isDefault: true },
      { agencyId, name: '部门主管', remark: '可管理员工、部门与岗位', perms: [...GRANTABLE_PERMS] },
    ])
    .returning({ id: roles.id });
  await tx
    .insert(stations)
    .values(DEFAULT_STATIONS.map((name, i) => ({ agencyId, name, sort: i, isDefault: i === 0 })));
  const [admin] = await tx
    .insert(memberships)
    .values({ agencyId, orgId: agencyId, userId: adminUserId, isAdmin: true, role: 1 })
    .returning({ id: memberships.id });
  if (!defaultRole || !admin) throw new Error('agency provisioning wrote nothing');
  return { defaultRoleId: defaultRole.id, adminMembershipId: admin.id };
}

/** Adds a member with the default role and the default post. */
export async function addMember(
  tx: Queryable,
  m: { agencyId: number; orgId: number; userId: number; role: 0 | 1 | 2; departmentId?: number | null },
) {
  const [row] = await tx
    .insert(memberships)
    .values({ ...m, isAdmin: m.role === 1, departmentId: m.departmentId ?? null })
    .returning({ id: memberships.id });
  if (!row) throw new Error('membership insert returned nothing');
  const defaults = await tx.query.roles.findFirst({
    where: (r, { and, eq }) => and(eq(r.agencyId, m.agencyId), eq(r.isDefault, true)),
  });
  if (defaults)
    await tx.insert(membershipRoles).values({ agencyId: m.agencyId, membershipId: row.id, roleId: defaults.id });
  const post = await tx.query.stations.findFirst({
    where: (s, { and, eq }) => and(eq(s.agencyId, m.agencyId), eq(s.isDefault, true)),
  });
  if (post) {
    await tx
      .insert(stationMembers)
      .values({ agencyId: m.agencyId, stationId: post.id, userId: m.userId })
      .onConflictDoNothing();
  }
  return row.id;
}
