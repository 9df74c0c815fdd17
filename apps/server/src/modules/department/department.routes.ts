import {
  CODE,
  changeDepartmentCall,
  deleteDepartmentCall,
  departmentAllStaffCall,
  departmentInfoCall,
  departmentStaffCall,
  departmentTreeCall,
  saveDepartmentCall,
  unassignedStaffCall,
} from '@dzy/shared';
import { and, asc, desc, eq, inArray, isNull, max, ne, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { departments, memberships, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { isAgencyMember, requireMembers, shownPhone, tenantOf } from '../role/member.repo.js';
import {
  allDepartments,
  demoteFormerDirectors,
  nest,
  requireDepartment,
  siblingNameTaken,
  subtreeIds,
} from './department.service.js';

export const DEPARTMENT_NAME_TAKEN = '部门名称已存在';
export const DELETE_CHILDREN_FIRST = '请先删除下级部门';
export const PARENT_CYCLE = '上级部门不能是本部门或其下级部门';

/** Members of the agency as the department page lists them. */
async function staffWhere(tx: Queryable, session: SessionCtx, where?: SQL) {
  const rows = await tx
    .select({
      userId: memberships.userId,
      hymc: users.hymc,
      phone: users.phone,
      role: memberships.role,
      isAdmin: memberships.isAdmin,
      departmentId: memberships.departmentId,
      departmentName: departments.name,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(departments, eq(departments.id, memberships.departmentId))
    .where(and(isAgencyMember(tenantOf(session)), where))
    .orderBy(desc(memberships.isAdmin), desc(memberships.role), asc(memberships.id));
  return rows.map((r) => ({ ...r, phone: shownPhone(session, r) }));
}

export const departmentModule: ServerModule = {
  name: 'department',
  calls: [
    serve(departmentTreeCall, async ({ session, tx }) => nest(await allDepartments(tx, tenantOf(session)))),

    serve(saveDepartmentCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const before = body.id === undefined ? null : await requireDepartment(tx, agencyId, body.id);
      const pid = body.pid === undefined ? (before?.parentId ?? null) : body.pid;
      if (pid !== null) {
        await requireDepartment(tx, agencyId, pid);
        if (before && (await subtreeIds(tx, agencyId, before.id)).has(pid)) {
          throw new AppError(CODE.BAD_REQUEST, PARENT_CYCLE);
        }
      }
      if (await siblingNameTaken(tx, agencyId, pid, body.name, before?.id ?? null)) {
        throw new AppError(CODE.CONFLICT, DEPARTMENT_NAME_TAKEN);
      }

      let id: number;
      if (before) {
        id = before.id;
        await tx.update(departments).set({ name: body.name, parentId: pid }).where(eq(departments.id, id));
        if (before.name !== body.name || before.parentId !== pid) {
          await audit(tx, req, session, 'department.update', `department:${id}`, {
            before: { name: before.name, pid: before.parentId },
            after: { name: body.name, pid },
          });
        }
      } else {
        const [last] = await tx
          .select({ sort: max(departments.sort) })
          .from(departments)
          .where(
            and(
              eq(departments.agencyId, agencyId),
              pid === null ? isNull(departments.parentId) : eq(departments.parentId, pid),
            ),
          );
        const [row] = await tx
          .insert(departments)
          .values({ agencyId, parentId: pid, name: body.name, sort: (last?.sort ?? 0) + 1 })
          .returning({ id: departments.id });
        if (!row) throw new Error('department insert returned nothing');
        id = row.id;
        await audit(tx, req, session, 'department.create', `department:${id}`, { name: body.name, pid });
      }

      if (body.directorUserId !== undefined) {
        const from = before?.directorUserId ?? null;
        const to = body.directorUserId;
        let leftDepartments: number[] = [];
        if (to !== null) {
          const [member] = await requireMembers(tx, agencyId, [to]);
          if (!member) throw new AppError(CODE.NOT_FOUND, '成员不存在或不属于本机构');
          // A head directs one department, the one they are in: data scope follows their department.
          const left = await tx
            .update(departments)
            .set({ directorUserId: null })
            .where(and(eq(departments.agencyId, agencyId), eq(departments.directorUserId, to), ne(departments.id, id)))
            .returning({ id: departments.id });
          leftDepartments = left.map((d) => d.id);
          await tx
            .update(memberships)
            .set({ role: member.role === 1 ? 1 : 2, departmentId: id })
            .where(eq(memberships.id, member.membershipId));
        }
        await tx.update(departments).set({ directorUserId: to }).where(eq(departments.id, id));
        const demoted = from !== null && from !== to ? await demoteFormerDirectors(tx, agencyId, [from]) : [];
        if (from !== to || leftDepartments.length > 0) {
          await audit(tx, req, session, 'department.director_change', `department:${id}`, {
            name: body.name,
            from,
            to,
            leftDepartments,
            demoted,
          });
        }
      }
      return { id };
    }),

    serve(departmentInfoCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      await requireDepartment(tx, agencyId, body.id);
      const rows = await allDepartments(tx, agencyId);
      const row = rows.find((r) => r.id === body.id);
      if (!row) throw new AppError(CODE.NOT_FOUND, '部门不存在或无权访问');
      return {
        id: row.id,
        pid: row.pid,
        name: row.name,
        directorUserId: row.directorUserId,
        directorName: row.directorUserId === null ? null : (row.directorName ?? ''),
        memberCount: row.memberCount,
        childCount: rows.filter((r) => r.pid === row.id).length,
      };
    }),

    serve(deleteDepartmentCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const dept = await requireDepartment(tx, agencyId, body.id);
      const [child] = await tx
        .select({ id: departments.id })
        .from(departments)
        .where(and(eq(departments.agencyId, agencyId), eq(departments.parentId, dept.id)))
        .limit(1);
      if (child) throw new AppError(CODE.BAD_REQUEST, DELETE_CHILDREN_FIRST);
      const unassigned = await tx
        .update(memberships)
        .set({ departmentId: null })
        .where(and(eq(memberships.agencyId, agencyId), eq(memberships.departmentId, dept.id)))
        .returning({ userId: memberships.userId });
      await tx.delete(departments).where(eq(departments.id, dept.id));
      const demoted =
        dept.directorUserId === null ? [] : await demoteFormerDirectors(tx, agencyId, [dept.directorUserId]);
      await audit(tx, req, session, 'department.delete', `department:${dept.id}`, {
        name: dept.name,
        pid: dept.parentId,
        directorUserId: dept.directorUserId,
        unassigned: unassigned.map((m) => m.userId),
        demoted,
      });
      return null;
    }),

    serve(departmentStaffCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      await requireDepartment(tx, agencyId, body.pid);
      return staffWhere(tx, session, eq(memberships.departmentId, body.pid));
    }),

    serve(unassignedStaffCall, async ({ session, tx }) => staffWhere(tx, session, isNull(memberships.departmentId))),

    serve(departmentAllStaffCall, async ({ session, tx }) => staffWhere(tx, session)),

    serve(changeDepartmentCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const target = body.orgId === null ? null : await requireDepartment(tx, agencyId, body.orgId);
      const members = await requireMembers(tx, agencyId, body.userIds);
      const userIds = members.map((m) => m.userId);
      await tx
        .update(memberships)
        .set({ departmentId: target?.id ?? null })
        .where(
          inArray(
            memberships.id,
            members.map((m) => m.membershipId),
          ),
        );
      // A head moved out of the department they direct stops directing it.
      const directed = await tx
        .select({ id: departments.id, userId: departments.directorUserId })
        .from(departments)
        .where(
          and(
            eq(departments.agencyId, agencyId),
            inArray(departments.directorUserId, userIds),
            target ? ne(departments.id, target.id) : undefined,
          ),
        );
      if (directed.length > 0) {
        await tx
          .update(departments)
          .set({ directorUserId: null })
          .where(
            inArray(
              departments.id,
              directed.map((d) => d.id),
            ),
          );
      }
      const demoted = await demoteFormerDirectors(
        tx,
        agencyId,
        directed.flatMap((d) => (d.userId === null ? [] : [d.userId])),
      );
      await audit(tx, req, session, 'department.members_move', target ? `department:${target.id}` : 'department:none', {
        to: target ? { id: target.id, name: target.name } : null,
        moved: members.map((m) => ({ userId: m.userId, from: m.departmentId })),
        directorshipsEnded: directed.map((d) => d.id),
        demoted,
      });
      return null;
    }),
  ],
};
