import {
  CODE,
  deleteRoleCall,
  GRANTABLE_PERMS,
  memberRoleListCall,
  permTreeCall,
  roleListCall,
  saveMemberRolesCall,
  savePermsCall,
  saveRoleCall,
} from '@dzy/shared';
import { and, asc, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { listPage, type Sort } from '../../db/paging.js';
import { membershipRoles, memberships, roles, stationMembers, stations, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { likeTerm } from '../../lib/search.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { isAgencyMember, isUniqueViolation, requireAll, requireMembers, shownPhone, tenantOf } from './member.repo.js';
import { backfillDefaultRole, buildPermTree, requireRole, roleMemberCount, roleNames } from './role.service.js';

export const ROLE_NAME_TAKEN = '角色名称已存在';
export const DEFAULT_ROLE_UNDELETABLE = '默认角色不可删除';

const GRANTABLE = new Set<string>(GRANTABLE_PERMS);

export const roleModule: ServerModule = {
  name: 'role',
  calls: [
    serve(roleListCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      const where = and(eq(roles.agencyId, agencyId), body.name ? ilike(roles.name, likeTerm(body.name)) : undefined);
      const memberCount = roleMemberCount(agencyId);
      const { pageNo, pageSize, cursor, ...filter } = body;
      const descending = body.sortOrder === 'descend';
      // An agency has tens of roles: the member-count sort is a per-row count, no index needed.
      const sort: Sort =
        body.sortField === 'name'
          ? { name: 'name', keys: [roles.name, roles.id], desc: descending }
          : body.sortField === 'memberCount'
            ? { name: 'memberCount', keys: [memberCount, roles.id], desc: descending }
            : body.sortField === 'createdAt'
              ? { name: 'createdAt', keys: [roles.createdAt, roles.id], desc: descending }
              : {
                  name: 'default',
                  keys: [sql`(case when ${roles.isDefault} then 0 else 1 end)`, roles.id],
                  desc: false,
                };
      const ask = { pageNo, pageSize, cursor };
      const page = await listPage(tx, { from: sql`${roles}`, where: where as SQL, sort, ask, filter }, (ids) =>
        tx
          .select({
            id: roles.id,
            name: roles.name,
            remark: roles.remark,
            isDefault: roles.isDefault,
            perms: roles.perms,
            createdAt: roles.createdAt,
            memberCount,
          })
          .from(roles)
          .where(and(eq(roles.agencyId, agencyId), inArray(roles.id, ids))),
      );
      return {
        ...page,
        list: page.list.map((r) => ({ ...r, perms: [...r.perms].sort(), createdAt: r.createdAt.toISOString() })),
      };
    }),

    serve(saveRoleCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const before = body.id === undefined ? null : await requireRole(tx, agencyId, body.id);
      const [taken] = await tx
        .select({ id: roles.id })
        .from(roles)
        .where(
          and(eq(roles.agencyId, agencyId), eq(roles.name, body.name), before ? ne(roles.id, before.id) : undefined),
        );
      if (taken) throw new AppError(CODE.CONFLICT, ROLE_NAME_TAKEN);
      try {
        if (before) {
          const remark = body.remark ?? before.remark;
          await tx.update(roles).set({ name: body.name, remark }).where(eq(roles.id, before.id));
          await audit(tx, req, session, 'role.update', `role:${before.id}`, {
            before: { name: before.name, remark: before.remark },
            after: { name: body.name, remark },
          });
          return { id: before.id };
        }
        const [row] = await tx
          .insert(roles)
          .values({ agencyId, name: body.name, remark: body.remark ?? '', perms: [] })
          .returning({ id: roles.id });
        if (!row) throw new Error('role insert returned nothing');
        await audit(tx, req, session, 'role.create', `role:${row.id}`, { name: body.name, remark: body.remark ?? '' });
        return { id: row.id };
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, ROLE_NAME_TAKEN);
        throw err;
      }
    }),

    serve(deleteRoleCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const role = await requireRole(tx, agencyId, body.id);
      if (role.isDefault) throw new AppError(CODE.BAD_REQUEST, DEFAULT_ROLE_UNDELETABLE);
      const holders = await tx
        .select({ membershipId: membershipRoles.membershipId })
        .from(membershipRoles)
        .where(eq(membershipRoles.roleId, role.id));
      // membership_roles rows go with the role (on delete cascade); other roles stay.
      await tx.delete(roles).where(eq(roles.id, role.id));
      const givenDefault = await backfillDefaultRole(tx, agencyId);
      await audit(tx, req, session, 'role.delete', `role:${role.id}`, {
        name: role.name,
        perms: role.perms,
        memberships: holders.map((h) => h.membershipId),
        givenDefaultRole: givenDefault,
      });
      return null;
    }),

    serve(permTreeCall, async ({ body, session, tx }) => {
      const role = await requireRole(tx, tenantOf(session), body.roleId);
      return buildPermTree(new Set(role.perms));
    }),

    serve(savePermsCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const role = await requireRole(tx, agencyId, body.roleId);
      const unknown = body.perms.filter((p) => !GRANTABLE.has(p));
      if (unknown.length > 0) {
        throw new AppError(CODE.BAD_REQUEST, `功能权限：不可分配的权限 ${unknown.join('、')}`, {
          errors: unknown.map((p) => ({ field: 'perms', msg: `不可分配的权限 ${p}` })),
        });
      }
      const perms = [...new Set(body.perms)].sort();
      await tx.update(roles).set({ perms }).where(eq(roles.id, role.id));
      const had = new Set(role.perms);
      await audit(tx, req, session, 'role.perms_change', `role:${role.id}`, {
        name: role.name,
        added: perms.filter((p) => !had.has(p)),
        removed: role.perms.filter((p) => !perms.includes(p)),
      });
      return null;
    }),

    serve(saveMemberRolesCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const [member] = await requireMembers(tx, agencyId, [body.userId]);
      if (!member) throw new AppError(CODE.NOT_FOUND, '成员不存在或不属于本机构');
      const roleIds = [...new Set(body.roleIds)];
      const stationIds = [...new Set(body.stationIds)];
      requireAll(
        await tx
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.agencyId, agencyId), inArray(roles.id, roleIds))),
        roleIds,
        '角色',
      );
      if (stationIds.length > 0) {
        requireAll(
          await tx
            .select({ id: stations.id })
            .from(stations)
            .where(and(eq(stations.agencyId, agencyId), inArray(stations.id, stationIds))),
          stationIds,
          '岗位',
        );
      }
      const [beforeRoles, beforeStations] = await Promise.all([
        tx
          .select({ id: membershipRoles.roleId })
          .from(membershipRoles)
          .where(eq(membershipRoles.membershipId, member.membershipId)),
        tx
          .select({ id: stationMembers.stationId })
          .from(stationMembers)
          .where(and(eq(stationMembers.agencyId, agencyId), eq(stationMembers.userId, member.userId))),
      ]);
      await tx.delete(membershipRoles).where(eq(membershipRoles.membershipId, member.membershipId));
      await tx
        .insert(membershipRoles)
        .values(roleIds.map((roleId) => ({ agencyId, membershipId: member.membershipId, roleId })));
      await tx
        .delete(stationMembers)
        .where(and(eq(stationMembers.agencyId, agencyId), eq(stationMembers.userId, member.userId)));
      if (stationIds.length > 0) {
        await tx
          .insert(stationMembers)
          .values(stationIds.map((stationId) => ({ agencyId, stationId, userId: member.userId })));
      }
      await audit(tx, req, session, 'role.member_assign', `user:${member.userId}`, {
        hymc: member.hymc,
        before: {
          roles: await roleNames(
            tx,
            agencyId,
            beforeRoles.map((r) => r.id),
          ),
          stationIds: beforeStations.map((s) => s.id),
        },
        after: { roles: await roleNames(tx, agencyId, roleIds), stationIds },
      });
      return null;
    }),

    serve(memberRoleListCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      const where = and(
        isAgencyMember(agencyId),
        body.keyword
          ? or(ilike(users.hymc, likeTerm(body.keyword)), ilike(users.phone, likeTerm(body.keyword)))
          : undefined,
        body.roleId === undefined
          ? undefined
          : sql`exists (select 1 from membership_roles mr where mr.membership_id = "memberships"."id" and mr.role_id = ${body.roleId})`,
      );
      const { pageNo, pageSize, cursor, ...filter } = body;
      // Administrators first, then by joining; an agency's staff are hundreds.
      const sort: Sort = {
        name: 'admin',
        keys: [sql`(case when ${memberships.isAdmin} then 0 else 1 end)`, memberships.id],
        desc: false,
      };
      const ask = { pageNo, pageSize, cursor };
      const from = sql`${memberships} join ${users} on ${users.id} = ${memberships.userId}`;
      const found = await listPage(tx, { from, where: where as SQL, sort, ask, filter }, (ids) =>
        tx
          .select({
            id: memberships.id,
            membershipId: memberships.id,
            userId: memberships.userId,
            hymc: users.hymc,
            phone: users.phone,
            isAdmin: memberships.isAdmin,
          })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(inArray(memberships.id, ids)),
      );
      const page = found.list;
      const membershipIds = page.map((m) => m.membershipId);
      const userIds = page.map((m) => m.userId);
      const [held, posts] = await Promise.all([
        membershipIds.length === 0
          ? []
          : tx
              .select({ membershipId: membershipRoles.membershipId, id: roles.id, name: roles.name })
              .from(membershipRoles)
              .innerJoin(roles, eq(roles.id, membershipRoles.roleId))
              .where(inArray(membershipRoles.membershipId, membershipIds))
              .orderBy(desc(roles.isDefault), asc(roles.id)),
        userIds.length === 0
          ? []
          : tx
              .select({ userId: stationMembers.userId, id: stations.id, name: stations.name })
              .from(stationMembers)
              .innerJoin(stations, eq(stations.id, stationMembers.stationId))
              .where(and(eq(stationMembers.agencyId, agencyId), inArray(stationMembers.userId, userIds)))
              .orderBy(asc(stations.sort), asc(stations.id)),
      ]);
      return {
        list: page.map((m) => ({
          userId: m.userId,
          hymc: m.hymc,
          phone: shownPhone(session, m),
          isAdmin: m.isAdmin,
          roles: held.filter((h) => h.membershipId === m.membershipId).map(({ id, name }) => ({ id, name })),
          stations: posts.filter((p) => p.userId === m.userId).map(({ id, name }) => ({ id, name })),
        })),
        total: found.total,
        cursor: found.cursor,
      };
    }),
  ],
};
