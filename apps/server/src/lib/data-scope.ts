import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SessionCtx } from '../plugins/session.js';

/**
 * Data scope inside a tenant, applied in this one place (RuoYi's @DataScope made explicit):
 * an administrator sees the whole agency, a department head the members of their department and
 * its sub-departments, an employee what is assigned to them. `owner` is the column naming the
 * responsible user (e.g. enterprises.allocate_user).
 */
export function dataScope(session: SessionCtx, owner: AnyPgColumn): SQL {
  if (session.isAdmin || session.role === 1) return sql`true`;
  if (session.role === 2 && session.departmentId !== null) {
    return sql`${owner} in (
      with recursive tree(id) as (
        select ${session.departmentId}::int
        union all select d.id from departments d join tree on d.parent_id = tree.id
      )
      select m.user_id from memberships m where m.department_id in (select id from tree)
    )`;
  }
  return sql`${owner} = ${session.userId}`;
}
