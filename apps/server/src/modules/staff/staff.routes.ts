import {
  CODE,
  deleteAgUserConnectionIsConnCall,
  getAgencyInviteUserListV3Call,
  getHandoverStaffCall,
  getStaffOptionsCall,
  handoverInfoCheckCall,
  MSG,
  personalQuitAgencyCall,
  quitCheckCall,
  STAFF_MSG,
  saveUserQuitSettingCall,
  updateAgUserConnectionIsAdminV3Call,
  workHandoverCall,
} from '@dzy/shared';
import { and, asc, desc, eq, inArray, notInArray, type SQL, sql } from 'drizzle-orm';
import { listPage, type Sort } from '../../db/paging.js';
import {
  departments,
  enterprises,
  membershipRoles,
  memberships,
  organisations,
  roles,
  stationMembers,
  stations,
  users,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { demoteFormerDirectors } from '../department/department.service.js';
import { handOverOpportunities, releaseOpportunitiesOf } from '../opportunity/opportunity.service.js';
import { inviteCalls } from './invite.routes.js';
import { personalCalls } from './personal.js';
import { phoneSettingCalls, phoneViewer } from './phone-setting.js';
import { batchInviteCalls } from './staff.batch-invite.js';
import { inviteFileRoutes } from './staff.invite-file.js';
import {
  clientCountSql,
  ensureDefaultRole,
  likeEscape,
  ownedBy,
  placeOf,
  quitState,
  removeMembership,
  requireMember,
} from './staff.service.js';

export const staffModule: ServerModule = {
  name: 'staff',
  routes: (app, deps) => inviteFileRoutes(app, deps),
  calls: [
    ...inviteCalls,
    ...batchInviteCalls,
    ...phoneSettingCalls,
    ...personalCalls,

    serve(getAgencyInviteUserListV3Call, async ({ body, session, tx }) => {
      const place = placeOf(session);
      if (body.departmentId !== undefined) {
        const [dept] = await tx
          .select({ id: departments.id })
          .from(departments)
          .where(and(eq(departments.id, body.departmentId), eq(departments.agencyId, place.agencyId)));
        if (!dept) throw new AppError(CODE.NOT_FOUND, '部门不存在');
      }
      // Phones are masked to non-administrators, so they may find a colleague by the whole number only.
      const phoneFilter = body.sjh
        ? session.isAdmin
          ? sql`${users.phone} like ${`%${body.sjh}%`}`
          : eq(users.phone, body.sjh)
        : undefined;
      const where = and(
        eq(memberships.agencyId, place.agencyId),
        eq(memberships.orgId, place.orgId),
        phoneFilter,
        body.hymc ? sql`${users.hymc} ilike ${`%${likeEscape(body.hymc)}%`}` : undefined,
        body.departmentId !== undefined ? eq(memberships.departmentId, body.departmentId) : undefined,
        body.role !== undefined ? eq(memberships.role, body.role) : undefined,
      );
      const clientCount = clientCountSql(place.agencyId, memberships.userId);
      const descending = body.sortOrder !== 'ascend';
      // Staff lists are an agency's staff (hundreds): the 客户数 sort is a per-row count no index serves.
      const sort: Sort =
        body.sortField === 'clientCount'
          ? { name: 'clientCount', keys: [clientCount, memberships.id], desc: descending }
          : body.sortField === 'joinedAt'
            ? { name: 'joinedAt', keys: [memberships.createdAt, memberships.id], desc: descending }
            : {
                name: 'adminFirst',
                keys: [
                  sql`(case when ${memberships.isAdmin} then 0 else 1 end)`,
                  memberships.createdAt,
                  memberships.id,
                ],
                desc: false,
              };
      const { pageNo, pageSize, cursor, ...filter } = body;
      const page = await listPage(
        tx,
        {
          from: sql`${memberships} join ${users} on ${users.id} = ${memberships.userId}`,
          where: where as SQL,
          sort,
          ask: { pageNo, pageSize, cursor },
          filter,
        },
        (ids) =>
          tx
            .select({
              id: memberships.id,
              membershipId: memberships.id,
              userId: memberships.userId,
              hymc: users.hymc,
              phone: users.phone,
              zw: users.zw,
              headimg: users.headimg,
              role: memberships.role,
              isAdmin: memberships.isAdmin,
              departmentId: memberships.departmentId,
              departmentName: departments.name,
              joinedAt: memberships.createdAt,
              clientCount,
            })
            .from(memberships)
            .innerJoin(users, eq(users.id, memberships.userId))
            .leftJoin(departments, eq(departments.id, memberships.departmentId))
            .where(and(eq(memberships.agencyId, place.agencyId), inArray(memberships.id, ids))),
      );
      const rows = page.list;
      const total = page.total;

      const userIds = rows.map((r) => r.userId);
      const posts = userIds.length
        ? await tx
            .select({ userId: stationMembers.userId, name: stations.name })
            .from(stationMembers)
            .innerJoin(stations, eq(stations.id, stationMembers.stationId))
            .where(and(eq(stationMembers.agencyId, place.agencyId), inArray(stationMembers.userId, userIds)))
            .orderBy(asc(stations.sort), asc(stations.id))
        : [];
      const held = rows.length
        ? await tx
            .select({ membershipId: membershipRoles.membershipId, name: roles.name })
            .from(membershipRoles)
            .innerJoin(roles, eq(roles.id, membershipRoles.roleId))
            .where(
              inArray(
                membershipRoles.membershipId,
                rows.map((r) => r.membershipId),
              ),
            )
            .orderBy(asc(roles.id))
        : [];
      const see = await phoneViewer(tx, session);
      return {
        total,
        cursor: page.cursor,
        list: rows.map((r) => ({
          userId: r.userId,
          hymc: r.hymc,
          phone: see.staff(r.userId, r.phone),
          zw: r.zw,
          headimg: r.headimg,
          role: r.role,
          isAdmin: r.isAdmin ? ('1' as const) : ('0' as const),
          departmentId: r.departmentId,
          departmentName: r.departmentName ?? '',
          stations: posts.filter((p) => p.userId === r.userId).map((p) => p.name),
          roles: r.isAdmin ? ['管理员'] : held.filter((h) => h.membershipId === r.membershipId).map((h) => h.name),
          clientCount: r.clientCount,
          joinedAt: r.joinedAt.toISOString(),
        })),
      };
    }),

    serve(getStaffOptionsCall, async ({ session, tx }) => {
      const place = placeOf(session);
      const rows = await tx
        .select({ id: departments.id, name: departments.name, parentId: departments.parentId })
        .from(departments)
        .where(eq(departments.agencyId, place.agencyId))
        .orderBy(asc(departments.sort), asc(departments.id));
      const byId = new Map(rows.map((r) => [r.id, r]));
      const label = (id: number): string => {
        const parts: string[] = [];
        const seen = new Set<number>();
        for (let d = byId.get(id); d && !seen.has(d.id); d = d.parentId ? byId.get(d.parentId) : undefined) {
          seen.add(d.id);
          parts.unshift(d.name);
        }
        return parts.join(' / ');
      };
      const [org] = await tx
        .select({ quitSet: organisations.quitSet })
        .from(organisations)
        .where(eq(organisations.id, place.orgId));
      return { departments: rows.map((r) => ({ id: r.id, label: label(r.id) })), quitSet: org?.quitSet ?? '1' };
    }),

    serve(updateAgUserConnectionIsAdminV3Call, async ({ body, session, tx, req }) => {
      const place = placeOf(session);
      if (!session.isAdmin || body.notadmin_user_id !== session.userId) {
        throw new AppError(CODE.NO_PERMISSION, '只有管理员本人可以转让管理员');
      }
      if (body.admin_user_id === session.userId) throw new AppError(CODE.BAD_REQUEST, '新管理员：不能转让给自己');
      const target = await requireMember(tx, place, body.admin_user_id);
      const self = await requireMember(tx, place, session.userId);
      await tx.update(memberships).set({ isAdmin: true, role: 1 }).where(eq(memberships.id, target.m.id));
      await tx.update(memberships).set({ isAdmin: false, role: 0 }).where(eq(memberships.id, self.m.id));
      // A former administrator held no roles (they had every permission): give them the default one.
      await ensureDefaultRole(tx, place.agencyId, self.m.id);
      await audit(tx, req, session, 'staff.admin_transfer', `user:${target.m.userId}`, {
        from: session.userId,
        to: target.m.userId,
      });
      return null;
    }),

    serve(saveUserQuitSettingCall, async ({ body, session, tx, req }) => {
      const place = placeOf(session);
      if (!session.isAdmin) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
      await tx.update(organisations).set({ quitSet: body.quitSet }).where(eq(organisations.id, place.orgId));
      await audit(tx, req, session, 'staff.quit_setting', `org:${place.orgId}`, { quitSet: body.quitSet });
      return { quitSet: body.quitSet };
    }),

    serve(quitCheckCall, async ({ session, tx }) => quitState(tx, session, placeOf(session))),

    serve(personalQuitAgencyCall, async ({ session, tx, req }) => {
      const place = placeOf(session);
      const state = await quitState(tx, session, place);
      if (!state.canQuit) throw new AppError(CODE.CONFLICT, state.reason);
      const self = await requireMember(tx, place, session.userId);
      await audit(tx, req, session, 'staff.quit', `user:${session.userId}`, { orgId: place.orgId });
      await releaseOpportunitiesOf(tx, place.agencyId, session.userId, session.userId);
      await removeMembership(tx, place, self.m.id, session.userId);
      return null;
    }),

    serve(handoverInfoCheckCall, async ({ body, session, tx }) => {
      const place = placeOf(session);
      await requireMember(tx, place, body.id);
      const owned = await ownedBy(tx, place.agencyId, body.id);
      return {
        clientCount: owned.clientCount,
        stationCount: owned.stationCount,
        departmentDirector: owned.directorPosts > 0,
      };
    }),

    serve(getHandoverStaffCall, async ({ session, tx }) => {
      const place = placeOf(session);
      const rows = await tx
        .select({
          userId: memberships.userId,
          hymc: users.hymc,
          phone: users.phone,
          departmentName: departments.name,
          clientCount: clientCountSql(place.agencyId, memberships.userId),
        })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .leftJoin(departments, eq(departments.id, memberships.departmentId))
        .where(and(eq(memberships.agencyId, place.agencyId), eq(memberships.orgId, place.orgId)))
        .orderBy(desc(memberships.isAdmin), asc(memberships.id));
      const see = await phoneViewer(tx, session);
      return rows.map((r) => ({
        ...r,
        phone: see.staff(r.userId, r.phone),
        departmentName: r.departmentName ?? '',
      }));
    }),

    // Everything the leaver owns moves in this one transaction; any failure leaves all of it where it was.
    serve(workHandoverCall, async ({ body, session, tx, req }) => {
      const place = placeOf(session);
      const from = await requireMember(tx, place, body.fromId);
      const to = await requireMember(tx, place, body.toId);
      const moved = await tx
        .update(enterprises)
        .set({ allocateUser: to.m.userId })
        .where(and(eq(enterprises.agencyId, place.agencyId), eq(enterprises.allocateUser, from.m.userId)))
        .returning({ id: enterprises.id, deletedAt: enterprises.deletedAt });
      const directs = await tx
        .update(departments)
        .set({ directorUserId: to.m.userId })
        .where(and(eq(departments.agencyId, place.agencyId), eq(departments.directorUserId, from.m.userId)))
        .returning({ id: departments.id });
      const [headed] = directs;
      if (headed) {
        // A head runs one department, the one they are in, with label 2 (the department module's rule).
        const [other] = await tx
          .select({ id: departments.id })
          .from(departments)
          .where(
            and(
              eq(departments.agencyId, place.agencyId),
              eq(departments.directorUserId, to.m.userId),
              notInArray(
                departments.id,
                directs.map((d) => d.id),
              ),
            ),
          )
          .limit(1);
        if (other || directs.length > 1) throw new AppError(CODE.CONFLICT, STAFF_MSG.receiverHeadsAnother);
        await tx
          .update(memberships)
          .set({ role: to.m.role === 1 ? 1 : 2, departmentId: headed.id })
          .where(eq(memberships.id, to.m.id));
        await demoteFormerDirectors(tx, place.agencyId, [from.m.userId]);
      }
      const posts = await tx
        .delete(stationMembers)
        .where(and(eq(stationMembers.agencyId, place.agencyId), eq(stationMembers.userId, from.m.userId)))
        .returning({ stationId: stationMembers.stationId });
      if (posts.length) {
        await tx
          .insert(stationMembers)
          .values(posts.map((p) => ({ agencyId: place.agencyId, stationId: p.stationId, userId: to.m.userId })))
          .onConflictDoNothing();
      }
      const opportunities = await handOverOpportunities(tx, place.agencyId, from.m.userId, to.m.userId, session.userId);
      const result = {
        clients: moved.filter((e) => e.deletedAt === null).length,
        directorPosts: directs.length,
        stations: posts.length,
      };
      await audit(tx, req, session, 'staff.handover', `user:${from.m.userId}`, {
        fromId: from.m.userId,
        toId: to.m.userId,
        ...result,
        deletedClients: moved.length - result.clients,
        opportunities,
      });
      return result;
    }),

    serve(deleteAgUserConnectionIsConnCall, async ({ body, session, tx, req }) => {
      const place = placeOf(session);
      const target = await requireMember(tx, place, body.userId);
      if (target.m.isAdmin) throw new AppError(CODE.CONFLICT, '不能移除管理员，请先转让管理员');
      if (target.m.userId === session.userId)
        throw new AppError(CODE.CONFLICT, '不能移除自己，如需离开请使用退出代理机构');
      const owned = await ownedBy(tx, place.agencyId, target.m.userId);
      if (owned.clientCount > 0 || owned.directorPosts > 0) throw new AppError(CODE.CONFLICT, STAFF_MSG.needHandover);
      await releaseOpportunitiesOf(tx, place.agencyId, target.m.userId, session.userId);
      await removeMembership(tx, place, target.m.id, target.m.userId);
      await audit(tx, req, session, 'staff.remove', `user:${target.m.userId}`, {
        hymc: target.hymc,
        role: target.m.role,
        departmentId: target.m.departmentId,
      });
      return null;
    }),
  ],
};
