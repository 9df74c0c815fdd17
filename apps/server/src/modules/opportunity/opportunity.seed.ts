import { DEFAULT_OPP_STAGES } from '@dzy/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  memberships,
  opportunities,
  opportunityFollowups,
  opportunitySettings,
  opportunityStages,
  opportunityTransfers,
  serviceItems,
} from '../../db/schema/index.js';

const DAY = 86_400_000;

/** [company, contact, phone, source, stage index, amount yuan, owner index (null: pool), days since follow-up, next follow-up in days] */
const DEMO: readonly [string, string, string, string, number, number, number | null, number, number | null][] = [
  ['杭州云帆电子商务有限公司', '周海洋', '13912340001', '网络推广', 0, 3600, 0, 1, 1],
  ['杭州青禾餐饮管理有限公司', '陈静', '13912340002', '朋友介绍', 1, 4800, 1, 3, 0],
  ['杭州启明教育咨询有限公司', '吴昊', '13912340003', '电话咨询', 2, 9600, 2, 2, 3],
  ['杭州北辰建材贸易有限公司', '郑磊', '13912340004', '老客户转介绍', 3, 12000, 1, 0, null],
  ['杭州星河文化传媒有限公司', '孙婷', '13912340005', '上门拜访', 1, 6000, 0, 12, -1],
  ['杭州绿源农业科技有限公司', '黄志强', '13912340006', '工商注册转化', 0, 2400, 2, 5, 2],
  ['杭州安居物业服务有限公司', '林晓', '13912340007', '网络推广', 4, 3000, 0, 20, null],
  ['杭州锦程物流有限公司', '何佳', '13912340008', '电话咨询', 0, 4200, null, 40, null],
  ['杭州美佳日化用品有限公司', '冯敏', '13912340009', '其他', 1, 1800, null, 35, null],
];

const FOLLOWS = [
  ['电话', '初次电话沟通，客户刚注册公司，想了解代理记账报价。'],
  ['微信', '发送了代账服务介绍和报价单，客户表示要和合伙人商量。'],
  ['上门拜访', '上门拜访，确认每月票据量约50张，需要记账报税和工商年报。'],
];

/**
 * Demo opportunities: the default stages and a 30-day automatic release for each agency; the demo agency
 * gets a pipeline across its three members (every stage, due and overdue follow-ups) and two in the pool.
 */
export async function seedOpportunityDemo(db: Db, agencies: readonly number[], now = new Date()) {
  for (const [n, agencyId] of agencies.entries()) {
    const stages = await db
      .insert(opportunityStages)
      .values(DEFAULT_OPP_STAGES.map((s, i) => ({ agencyId, name: s.name, kind: s.kind, sort: i + 1 })))
      .returning({ id: opportunityStages.id });
    await db.insert(opportunitySettings).values({ agencyId, autoReleaseDays: 30 });
    if (n > 0) continue;
    const members = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(eq(memberships.agencyId, agencyId))
      .orderBy(asc(memberships.id));
    const services = await db
      .select({ id: serviceItems.id })
      .from(serviceItems)
      .where(and(eq(serviceItems.agencyId, agencyId), eq(serviceItems.serviceStatic, '1')))
      .orderBy(asc(serviceItems.id))
      .limit(3);
    for (const [i, [companyName, contactName, phone, source, stage, yuan, owner, quiet, next]] of DEMO.entries()) {
      const ownerId = owner === null ? null : (members[owner % members.length]?.userId ?? null);
      const followedAt = new Date(now.getTime() - quiet * DAY);
      const creator = members[(owner ?? i) % members.length]?.userId ?? null;
      const [o] = await db
        .insert(opportunities)
        .values({
          agencyId,
          companyName,
          contactName,
          phone,
          source,
          serviceIds: services.slice(0, 1 + (i % 3)).map((s) => s.id),
          amountFen: yuan * 100,
          stageId: stages[stage]?.id ?? 0,
          ownerId,
          followedAt,
          nextFollowAt: next === null ? null : new Date(now.getTime() + next * DAY + 2 * 3_600_000),
          releasedAt: ownerId === null ? followedAt : null,
          createdBy: creator,
          createdAt: new Date(followedAt.getTime() - 5 * DAY),
        })
        .returning({ id: opportunities.id });
      if (!o) continue;
      await db.insert(opportunityTransfers).values([
        { agencyId, opportunityId: o.id, kind: 'create', toUserId: creator, byUserId: creator },
        ...(ownerId === null
          ? [
              {
                agencyId,
                opportunityId: o.id,
                kind: 'auto',
                fromUserId: creator,
                toUserId: null,
                reason: '30天未跟进',
              },
            ]
          : []),
      ]);
      const follows = FOLLOWS.slice(0, 1 + (stage % 3));
      await db.insert(opportunityFollowups).values(
        follows.map(([way, content], k) => ({
          agencyId,
          opportunityId: o.id,
          userId: creator,
          way: way ?? '电话',
          content: content ?? '',
          createdAt: new Date(followedAt.getTime() - (follows.length - 1 - k) * DAY),
        })),
      );
    }
  }
}
