import { type FilingScheduleRow, schedulePercent } from '@dzy/shared';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { enterprises, filingCells, users } from '../../db/schema/index.js';
import type { SessionCtx } from '../../plugins/session.js';
import { cellsOfMonth, rosterClients } from './filing.repo.js';

const n = (expr: SQL) => sql<number>`${expr}`.mapWith(Number);

/**
 * 申报进度 (DeclareScheduleV3): per responsible person, the clients, the returns due this month (all but
 * 无需申报), filed (已申报 + 已缴款), paid (已缴款), not filed and overdue, and filed / due in percent.
 * Counted over returns of the month in the caller's scope, ignored types left out.
 */
export async function scheduleOf(
  tx: Queryable,
  session: SessionCtx,
  month: string,
): Promise<{ list: FilingScheduleRow[]; sum: FilingScheduleRow }> {
  const rows = await tx
    .select({
      userId: sql<number>`coalesce(${enterprises.allocateUser}, 0)`.mapWith(Number),
      userName: sql<string>`coalesce(nullif(max(${users.hymc}), ''), max(${users.phone}), '')`,
      clientNum: n(sql`count(distinct ${enterprises.id})`),
      dueNum: n(sql`count(${filingCells.id}) filter (where ${filingCells.state} <> 'wxsb')`),
      filedNum: n(sql`count(${filingCells.id}) filter (where ${filingCells.state} in ('ysb', 'yjk'))`),
      paidNum: n(sql`count(${filingCells.id}) filter (where ${filingCells.state} = 'yjk')`),
      unfiledNum: n(sql`count(${filingCells.id}) filter (where ${filingCells.state} in ('wsb', 'yqwsb'))`),
      overdueNum: n(sql`count(${filingCells.id}) filter (where ${filingCells.state} = 'yqwsb')`),
    })
    .from(enterprises)
    .leftJoin(
      filingCells,
      and(
        eq(filingCells.agencyId, enterprises.agencyId),
        eq(filingCells.enterpriseId, enterprises.id),
        cellsOfMonth(month),
      ),
    )
    .leftJoin(users, eq(users.id, enterprises.allocateUser))
    .where(rosterClients(session))
    .groupBy(sql`coalesce(${enterprises.allocateUser}, 0)`);
  const list = rows
    .map((r) => ({
      ...r,
      userName: r.userId === 0 ? '未分配' : r.userName,
      percent: schedulePercent(r.filedNum, r.dueNum),
    }))
    .sort((a, b) => a.percent - b.percent || b.dueNum - a.dueNum || a.userId - b.userId);
  const sum: FilingScheduleRow = {
    userId: 0,
    userName: '合计',
    clientNum: 0,
    dueNum: 0,
    filedNum: 0,
    paidNum: 0,
    unfiledNum: 0,
    overdueNum: 0,
    percent: 100,
  };
  for (const r of list) {
    sum.clientNum += r.clientNum;
    sum.dueNum += r.dueNum;
    sum.filedNum += r.filedNum;
    sum.paidNum += r.paidNum;
    sum.unfiledNum += r.unfiledNum;
    sum.overdueNum += r.overdueNum;
  }
  sum.percent = schedulePercent(sum.filedNum, sum.dueNum);
  return { list, sum };
}
