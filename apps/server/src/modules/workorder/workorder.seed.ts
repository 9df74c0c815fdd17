import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { enterprises, serviceItems, stations, workOrderSteps, workOrders } from '../../db/schema/index.js';
import { chinaDate } from '../../plugins/jobs.js';
import { addDays } from '../contract/contract-dates.js';
import { createWorkOrder, writeTemplate } from './workorder.service.js';

/** name, remark, steps [name, station, days], linked service items. */
const DEMO: [string, string, [string, string, number][], string[]][] = [
  [
    '公司注册',
    '新设有限公司：核名到税务报到',
    [
      ['企业核名', '外勤专员', 2],
      ['提交设立登记', '外勤专员', 5],
      ['领取执照与刻章', '外勤专员', 3],
      ['银行开户', '外勤专员', 5],
      ['税务报到', '主办会计', 3],
    ],
    [],
  ],
  [
    '工商变更',
    '名称、地址、股东或经营范围变更',
    [
      ['收集变更资料', '服务顾问', 2],
      ['提交变更申请', '外勤专员', 5],
      ['换发执照', '外勤专员', 3],
      ['税务信息同步', '主办会计', 2],
    ],
    ['工商变更'],
  ],
  [
    '公司注销',
    '简易注销或一般注销',
    [
      ['清税申报', '主办会计', 10],
      ['税务注销', '主办会计', 15],
      ['工商注销公告', '外勤专员', 20],
      ['工商注销登记', '外勤专员', 5],
    ],
    [],
  ],
  [
    '许可证办理',
    '食品经营、道路运输等许可',
    [
      ['资料准备', '服务顾问', 3],
      ['提交申请', '外勤专员', 5],
      ['现场核查', '外勤专员', 10],
      ['领取许可证', '外勤专员', 2],
    ],
    [],
  ],
  [
    '工商年报',
    '每年 1 月 1 日至 6 月 30 日报送上一年度年报',
    [
      ['收集年报资料', '记账会计', 5],
      ['填报并公示', '主办会计', 3],
    ],
    ['工商年报'],
  ],
];

/** Demo work-order templates for every agency, and a few work orders of the demo agency in each state. */
export async function seedWorkOrderDemo(db: Db, agencies: readonly number[]) {
  for (const [n, agencyId] of agencies.entries()) {
    const st = await db
      .select({ id: stations.id, name: stations.name })
      .from(stations)
      .where(eq(stations.agencyId, agencyId));
    const sv = await db
      .select({ id: serviceItems.id, name: serviceItems.serviceName })
      .from(serviceItems)
      .where(eq(serviceItems.agencyId, agencyId));
    const stationId = new Map(st.map((s) => [s.name, s.id]));
    const serviceId = new Map(sv.map((s) => [s.name, s.id]));
    const ids: number[] = [];
    for (const [name, remark, steps, services] of n === 0 ? DEMO : DEMO.slice(0, 1)) {
      ids.push(
        await writeTemplate(db, agencyId, null, {
          name,
          remark,
          steps: steps.map(([s, station, days]) => ({ name: s, stationId: stationId.get(station) ?? null, days })),
          serviceIds: services.flatMap((s) => (serviceId.has(s) ? [serviceId.get(s) as number] : [])),
        }).catch((err: unknown) => {
          throw new Error(`work-order template ${name}: ${String(err)}`);
        }),
      );
    }
    if (n !== 0) continue;
    const ents = await db
      .select({ id: enterprises.id, owner: enterprises.allocateUser })
      .from(enterprises)
      .where(and(eq(enterprises.agencyId, agencyId), inArray(enterprises.id, [7, 8, 9, 10, 11])));
    const today = chinaDate();
    // [client, template index, steps done, made days ago]
    const plan: [number, number, number, number][] = [
      [7, 0, 0, 1],
      [8, 1, 2, 6],
      [9, 3, 1, 20],
      [10, 4, 2, 12],
      [11, 2, 0, 30],
    ];
    for (const [entId, ti, done, ago] of plan) {
      const ent = ents.find((e) => e.id === entId);
      const tid = ids[ti];
      if (!ent || !tid) continue;
      const made = await createWorkOrder(
        db,
        agencyId,
        ent.owner ?? 1,
        { enterpriseId: ent.id, templateId: tid, remark: '', assignees: [] },
        addDays(today, -ago),
      );
      const steps = await db
        .select()
        .from(workOrderSteps)
        .where(eq(workOrderSteps.workOrderId, made.id))
        .orderBy(workOrderSteps.sort);
      let day = addDays(today, -ago);
      for (const [i, s] of steps.entries()) {
        if (i < done) {
          day = addDays(day, s.days);
          await db
            .update(workOrderSteps)
            .set({ state: 'done', doneBy: s.assigneeId, doneAt: new Date(`${day}T10:00:00+08:00`), comment: '已办结' })
            .where(eq(workOrderSteps.id, s.id));
        } else if (i === done) {
          await db
            .update(workOrderSteps)
            .set({ state: 'doing', dueDate: addDays(day, s.days) })
            .where(eq(workOrderSteps.id, s.id));
        } else {
          await db.update(workOrderSteps).set({ state: 'todo', dueDate: null }).where(eq(workOrderSteps.id, s.id));
        }
      }
      const state = done === 0 ? 'pending' : done >= steps.length ? 'done' : 'doing';
      await db
        .update(workOrders)
        .set({
          state,
          createdAt: new Date(`${addDays(today, -ago)}T09:30:00+08:00`),
          finishedAt: state === 'done' ? new Date() : null,
        })
        .where(eq(workOrders.id, made.id));
    }
  }
}
