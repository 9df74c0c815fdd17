import { auditLogListCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import { auditLogModule } from '../../apps/server/src/modules/audit-log/audit-log.routes.js';
import { defineScenario, expectThat } from '../scenario.js';
import type { BenchData } from '../setup.js';
import { checkedPage, handlerOf, pageSql, post, ROWS, secs, sessionOf } from './lists-bench.js';

// 操作日志 over 100,000 rows of the bench agency: page 1, a filtered page (客户 actions of the last 30 days),
// and a deep page reached by cursor (page 501 from page 500's next cursor), sent in turn.

const ACTIONS = [
  'customer.update',
  'customer.create',
  'contract.create',
  'fee.charge_add',
  'auth.login',
  'staff.invite',
  'invoice.issue',
  'customer.export',
  'role.update',
  'org.switch',
];
let seededMs = 0;
let clientId = 0;

/** 100,000 rows over the last ~174 days (one every 150 s, ids in time order), by the 20 staff, set-based. */
async function seedAudit(owner: Db, data: BenchData) {
  const t0 = performance.now();
  const staff = `{${data.staffIds.join(',')}}`;
  const actions = `{${ACTIONS.join(',')}}`;
  await owner.execute(sql`
    insert into audit_log (agency_id, user_id, action, target, detail, ip, at)
    select ${data.agencyId}, (${staff}::int[])[n % ${data.staffIds.length} + 1], a.action,
           case when a.action like 'customer.%' then 'enterprise:' || e.ids[n % array_length(e.ids, 1) + 1] else '' end,
           case when a.action like 'customer.%'
                then jsonb_build_object('before', jsonb_build_object('qymc', '旧名称' || n), 'after', jsonb_build_object('qymc', '新名称' || n))
                else jsonb_build_object('enterpriseId', e.ids[n % array_length(e.ids, 1) + 1]) end,
           '10.0.' || (n % 250) || '.' || (n % 200), now() - make_interval(secs => (${ROWS} - n) * 150)
    from generate_series(1, ${ROWS}) n
    cross join (select array_agg(id order by id) as ids from enterprises where agency_id = ${data.agencyId}) e
    cross join lateral (select (${actions}::text[])[n % ${ACTIONS.length} + 1] as action) a
    order by n`);
  const [row] = (
    (await owner.execute(
      sql`select count(*)::int as n, min(id) as first from enterprises where agency_id = ${data.agencyId}`,
    )) as unknown as { rows: { n: number; first: number }[] }
  ).rows;
  clientId = Number(row?.first ?? 0);
  seededMs = performance.now() - t0;
}

export default defineScenario({
  name: 'audit log 100k',
  title: `POST /api/${auditLogListCall.path} over ${ROWS.toLocaleString('en')} rows: page 1, a filtered page, page 501 by cursor | SQL: the handler`,
  seed: seedAudit,
  async prepare(env) {
    const served = handlerOf(auditLogModule.calls, auditLogListCall.path);
    const cookie = await env.login(env.data.adminPhone);
    const session = await sessionOf(env, env.data.adminId);
    const day = (d: number) => new Date(Date.now() + 8 * 3600_000 - d * 86_400_000).toISOString().slice(0, 10);
    const first = { pageNo: 1, pageSize: 20 };
    const filtered = { pageNo: 1, pageSize: 20, kind: 'customer', dateFrom: day(30), dateTo: day(0) };
    await checkedPage(env, served, session, cookie, first, 'page 1', ROWS);
    await checkedPage(env, served, session, cookie, filtered, 'customer, 30 days', 1);
    const p500 = await checkedPage(env, served, session, cookie, { pageNo: 500, pageSize: 20 }, 'page 500', ROWS);
    expectThat(p500.cursor.next, 'page 500 gives a next cursor');
    const deep = { pageNo: 501, pageSize: 20, cursor: p500.cursor.next };
    const p501 = await checkedPage(env, served, session, cookie, deep, 'page 501 by cursor', ROWS);
    expectThat(p501.list[0] && p501.list[0].id < (p500.list.at(-1)?.id ?? 0), 'page 501 follows page 500');
    const byClient = { pageNo: 1, pageSize: 20, enterpriseId: clientId };
    const byStaff = { pageNo: 1, pageSize: 20, userId: env.data.staffIds[3] };
    await checkedPage(env, served, session, cookie, byClient, 'one client', 1);
    const bodies = [first, filtered, deep];
    return {
      api: bodies.map((b) => post(auditLogListCall.path, cookie, b)),
      sql: (i) => pageSql(env, served, session, bodies[i % 3] ?? first, 20)(),
      also: [
        { label: 'SQL page 1', op: pageSql(env, served, session, first, 20) },
        { label: 'SQL 客户 actions, 30 days', op: pageSql(env, served, session, filtered, 20) },
        { label: 'SQL page 500 (jump)', op: pageSql(env, served, session, { pageNo: 500, pageSize: 20 }, 20) },
        { label: 'SQL page 501 by cursor', op: pageSql(env, served, session, deep, 20) },
        { label: 'SQL one staff member', op: pageSql(env, served, session, byStaff, 20) },
        { label: 'SQL one client (客户 filter)', op: pageSql(env, served, session, byClient, 1) },
      ],
      notes: [`seeded ${ROWS.toLocaleString('en')} audit rows in ${secs(seededMs)}, before VACUUM ANALYZE`],
    };
  },
});
