import { CODE, type DepartmentNode } from '@dzy/shared';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { departments, memberships, users } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import { isAgencyMember } from '../role/member.repo.js';

export type DepartmentRow = typeof departments.$inferSelect;

export async function requireDepartment(tx: Queryable, agencyId: number, id: number): Promise<DepartmentRow> {
  const [row] = await tx
    .select()
    .from(departments)
    .where(and(eq(departments.id, id), eq(departments.agencyId, agencyId)));
  if (!row) throw new AppError(CODE.NOT_FOUND, '部门不存在或无权访问');
  return row;
}

/** Every department of the agency with its director's name and its direct member count. */
export function allDepartments(tx: Queryable, agencyId: number) {
  return tx
    .select({
      id: departments.id,
      pid: departments.parentId,
      name: departments.name,
      sort: departments.sort,
      directorUserId: departments.directorUserId,
      directorName: users.hymc,
      memberCount: sql<number>`(
        select count(*)::int from memberships m
        where m.department_id = "departments"."id" and m.agency_id = ${agencyId} and m.org_id = ${agencyId}
      )`,
    })
    .from(departments)
    .leftJoin(users, eq(users.id, departments.directorUserId))
    .where(eq(departments.agencyId, agencyId))
    .orderBy(asc(departments.sort), asc(departments.id));
}

type FlatDepartment = Awaited<ReturnType<typeof allDepartments>>[number];

/** Nests the flat rows by parent. A row whose parent is missing is shown at the top. */
export function nest(rows: readonly FlatDepartment[]): DepartmentNode[] {
  const ids = new Set(rows.map((r) => r.id));
  const build = (pid: number | null): DepartmentNode[] =>
    rows
      .filter((r) => (pid === null ? r.pid === null || !ids.has(r.pid) : r.pid === pid))
      .map((r) => ({
        id: r.id,
        name: r.name,
        directorUserId: r.directorUserId,
        directorName: r.directorUserId === null ? null : (r.directorName ?? ''),
        memberCount: r.memberCount,
        children: build(r.id),
      }));
  return build(null);
}

/** The department and all below it. */
export async function subtreeIds(tx: Queryable, agencyId: number, id: number): Promise<Set<number>> {
  const rows = await tx
    .select({ id: departments.id, pid: departments.parentId })
    .from(departments)
    .where(eq(departments.agencyId, agencyId));
  const found = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) {
      if (r.pid !== null && found.has(r.pid) && !found.has(r.id)) {
        found.add(r.id);
        grew = true;
      }
    }
  }
  return found;
}

/** True when a sibling (same parent) other than `exceptId` already has this name. */
export async function siblingNameTaken(
  tx: Queryable,
  agencyId: number,
  pid: number | null,
  name: string,
  exceptId: number | null,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(
        eq(departments.agencyId, agencyId),
        pid === null ? isNull(departments.parentId) : eq(departments.parentId, pid),
        eq(departments.name, name),
        exceptId === null ? undefined : ne(departments.id, exceptId),
      ),
    );
  return row !== undefined;
}

/**
 * Role label 2 (部门负责人) belongs to people who direct a department: whoever of `userIds` directs none
 * any more goes back to 0 (部门员工). Administrators (label 1) keep theirs. Answers who was changed.
 */
export async function demoteFormerDirectors(tx: Queryable, agencyId: number, userIds: readonly number[]) {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  const still = await tx
    .select({ userId: departments.directorUserId })
    .from(departments)
    .where(and(eq(departments.agencyId, agencyId), inArray(departments.directorUserId, ids)));
  const directing = new Set(still.map((r) => r.userId));
  const former = ids.filter((id) => !directing.has(id));
  if (former.length === 0) return [];
  const changed = await tx
    .update(memberships)
    .set({ role: 0 })
    .where(and(isAgencyMember(agencyId), inArray(memberships.userId, former), eq(memberships.role, 2)))
    .returning({ userId: memberships.userId });
  return changed.map((c) => c.userId);
}
