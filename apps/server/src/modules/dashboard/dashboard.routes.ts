import { CODE, getQyBookCountInfoCall } from '@dzy/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { enterprises, memberships, organisations } from '../../db/schema/index.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import { visible } from '../customer/customer.repo.js';

export const dashboardModule: ServerModule = {
  name: 'dashboard',
  calls: [
    // Counts of the caller's agency; a sent agencyId must be that agency (a kjgc acts for its bound one).
    serve(getQyBookCountInfoCall, async ({ body, session, tx }) => {
      const agencyId = session.agencyId;
      if (agencyId === null || (body.agencyId !== undefined && body.agencyId !== agencyId)) {
        throw new AppError(CODE.NOT_FOUND, '代理机构不存在或无权访问');
      }
      // 本月记账: the caller's clients whose books were closed (结账) this month, China time (docs/decisions-16-close.md).
      const monthStart = `${chinaDate().slice(0, 7)}-01 00:00:00+08`;
      const [row] = await tx
        .select({
          qyxzsl: organisations.licenceCustomers,
          jzxzsl: organisations.licenceLedgers,
          curQyCount: sql<number>`(select count(*)::int from ${enterprises} where ${and(eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt))})`,
          staffCount: sql<number>`(select count(distinct ${memberships.userId})::int from ${memberships} where ${eq(memberships.orgId, agencyId)})`,
          // What 我的客户 lists for the caller: the counts must not reveal more than the book shows.
          scopeQyCount: sql<number>`(select count(*)::int from ${enterprises} where ${visible(session, agencyId)})`,
          curYearMonthJzCount: sql<number>`(select count(distinct c.book_id)::int from book_closes c
            join books b on b.id = c.book_id join enterprises on enterprises.id = b.enterprise_id
            where c.agency_id = ${agencyId} and c.closed_at >= ${monthStart}::timestamptz
              and ${visible(session, agencyId)})`,
        })
        .from(organisations)
        .where(eq(organisations.id, agencyId));
      if (!row) throw new AppError(CODE.NOT_FOUND, '代理机构不存在或无权访问');
      return { ...row, wholeAgency: session.isAdmin || session.role === 1 };
    }),
  ],
};
