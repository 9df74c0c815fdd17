import { getEntListCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import { organisations, users } from '../../apps/server/src/db/schema/index.js';
import { kjgcCalls } from '../../apps/server/src/modules/org/kjgc.routes.js';
import { addMember, provisionAgency } from '../../apps/server/src/modules/org/provision.js';
import { defineScenario, expectThat } from '../scenario.js';
import type { BenchData } from '../setup.js';
import { checkedPage, handlerOf, pageSql, post, ROWS, secs, sessionOf } from './lists-bench.js';

// 会计工厂 交办客户 (getEntList) as the factory, over 100,000 clients its bound agency handed over. A client is
// handed over once (kjgc_handovers' key is the enterprise), so they belong to an agency of their own beside
// the bench agency, which keeps its 20,000 clients for the other scenarios.

const FACTORY_PHONE = '15670000000';
const AGENCY_ADMIN_PHONE = '15670000001';
let seededMs = 0;
let factoryUserId = 0;

async function seedHandovers(owner: Db, data: BenchData) {
  const t0 = performance.now();
  await owner.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [agency] = await t
      .insert(organisations)
      .values({ orgType: 'dls', name: '基准交办代理有限公司', taxNo: '91330106BENCHKJGC1', licenceCustomers: 200_000 })
      .returning({ id: organisations.id });
    const [admin, worker] = await t
      .insert(users)
      .values([
        { phone: AGENCY_ADMIN_PHONE, hymc: '交办管理员', zw: '负责人', passwordHash: data.passwordHash },
        { phone: FACTORY_PHONE, hymc: '工厂主管', zw: '记账主管', passwordHash: data.passwordHash },
      ])
      .returning({ id: users.id });
    if (!agency || !admin || !worker) throw new Error('could not create the handover agency');
    await provisionAgency(t, agency.id, admin.id);
    const [factory] = await t
      .insert(organisations)
      .values({ orgType: 'kjgc', name: '基准会计工厂', taxNo: '91330106BENCHKJGC2', kjgcDlsId: agency.id })
      .returning({ id: organisations.id });
    if (!factory) throw new Error('could not create the factory');
    await addMember(t, { agencyId: agency.id, orgId: factory.id, userId: worker.id, role: 1 });
    factoryUserId = worker.id;
    await t.execute(sql`
      insert into enterprises (agency_id, qymc, qysh, sssf, ssds, ssqx, allocate_user)
      select ${agency.id}, '基准交办客户' || lpad(n::text, 6, '0') || '号商贸有限公司',
             '91330106K' || lpad(n::text, 9, '0'), '330000', '330100', '330106', ${admin.id}
      from generate_series(1, ${ROWS}) n`);
    const [binding] = (
      (await t.execute(sql`
        insert into kjgc_bindings (kjgc_id, agency_id, status, requested_by, decided_by, decided_at)
        values (${factory.id}, ${agency.id}, 1, ${worker.id}, ${admin.id}, now()) returning id`)) as unknown as {
        rows: { id: number }[];
      }
    ).rows;
    // Handed over one a minute over ~70 days, in id order (so the newest handed over is the newest client).
    await t.execute(sql`
      insert into kjgc_handovers (enterprise_id, agency_id, kjgc_id, binding_id, created_by, created_at)
      select e.id, ${agency.id}, ${factory.id}, ${binding?.id ?? 0}, ${admin.id},
             now() - make_interval(mins => (${ROWS} - row_number() over (order by e.id))::int)
      from enterprises e where e.agency_id = ${agency.id}`);
  });
  seededMs = performance.now() - t0;
}

export default defineScenario({
  name: 'kjgc clients 100k',
  title: `POST /api/${getEntListCall.path} as the factory over ${ROWS.toLocaleString('en')} handed-over clients: page 1, page 500 | SQL: the handler`,
  seed: seedHandovers,
  async prepare(env) {
    const served = handlerOf(kjgcCalls, getEntListCall.path);
    const cookie = await env.login(FACTORY_PHONE);
    const session = await sessionOf(env, factoryUserId);
    expectThat(session.orgType === 'kjgc' && session.kjgcDlsId !== null, 'the factory acts for its agency');
    const first = { pageNo: 1, pageSize: 20 };
    const deep = { pageNo: 500, pageSize: 20 };
    const keyword = { pageNo: 1, pageSize: 20, keyword: '012345' };
    await checkedPage(env, served, session, cookie, first, 'page 1', ROWS);
    const p500 = await checkedPage(env, served, session, cookie, deep, 'page 500', ROWS);
    expectThat(p500.cursor.next, 'page 500 gives a next cursor');
    const step = { pageNo: 501, pageSize: 20, cursor: p500.cursor.next };
    await checkedPage(env, served, session, cookie, step, 'page 501 by cursor', ROWS);
    await checkedPage(env, served, session, cookie, keyword, 'keyword', 1);
    return {
      api: [post(getEntListCall.path, cookie, first), post(getEntListCall.path, cookie, deep)],
      sql: (i) => pageSql(env, served, session, i % 2 === 0 ? first : deep, 20)(),
      also: [
        { label: 'SQL page 1', op: pageSql(env, served, session, first, 20) },
        { label: 'SQL page 500 (jump)', op: pageSql(env, served, session, deep, 20) },
        { label: 'SQL page 501 by cursor', op: pageSql(env, served, session, step, 20) },
        { label: 'SQL keyword (name or tax no.)', op: pageSql(env, served, session, keyword, 1) },
      ],
      notes: [
        `seeded ${ROWS.toLocaleString('en')} clients and their handovers in an agency of their own in ${secs(seededMs)}`,
      ],
    };
  },
});
