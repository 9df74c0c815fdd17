import { webhookDeliveriesCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import { apiKeyModule } from '../../apps/server/src/modules/apikey/apikey.routes.js';
import { defineScenario, expectThat } from '../scenario.js';
import type { BenchData } from '../setup.js';
import { checkedPage, handlerOf, pageSql, post, ROWS, secs, sessionOf } from './lists-bench.js';

// Webhook 投递记录 of one endpoint with 100,000 deliveries: page 1, the 失败 filter, and page 501 by cursor.
// The endpoint is disabled and every delivery finished (success or failed), so the delivery job sends nothing.

let seededMs = 0;
let endpointId = 0;

async function seedDeliveries(owner: Db, data: BenchData) {
  const t0 = performance.now();
  const [endpoint] = (
    (await owner.execute(sql`
      insert into webhook_endpoints (agency_id, url, events, remark, secret, enabled, created_by)
      values (${data.agencyId}, 'https://hooks.example.com/bench', '{customer.created}', '基准', 'unused', false, ${data.adminId})
      returning id`)) as unknown as { rows: { id: number }[] }
  ).rows;
  endpointId = Number(endpoint?.id ?? 0);
  // One in 20 failed after 6 attempts; the rest delivered at the first.
  await owner.execute(sql`
    insert into webhook_deliveries (agency_id, endpoint_id, event, payload, state, attempts, response_code, duration_ms,
                                    error, created_at, last_attempt_at)
    select ${data.agencyId}, ${endpointId}, 'customer.created',
           jsonb_build_object('eventId', md5(n::text), 'event', 'customer.created', 'data', jsonb_build_object('id', n)),
           case when n % 20 = 0 then 'failed' else 'success' end, case when n % 20 = 0 then 6 else 1 end,
           case when n % 20 = 0 then 502 else 200 end, 40 + n % 300,
           case when n % 20 = 0 then 'HTTP 502' else '' end,
           now() - make_interval(mins => ${ROWS} - n), now() - make_interval(mins => ${ROWS} - n)
    from generate_series(1, ${ROWS}) n`);
  seededMs = performance.now() - t0;
}

export default defineScenario({
  name: 'webhook deliveries 100k',
  title: `POST /api/${webhookDeliveriesCall.path} over ${ROWS.toLocaleString('en')} deliveries of one endpoint: page 1, 失败, page 501 by cursor | SQL: the handler`,
  seed: seedDeliveries,
  async prepare(env) {
    const served = handlerOf(apiKeyModule.calls, webhookDeliveriesCall.path);
    const cookie = await env.login(env.data.adminPhone);
    const session = await sessionOf(env, env.data.adminId);
    const first = { webhookId: endpointId, pageNo: 1, pageSize: 20 };
    const failed = { webhookId: endpointId, pageNo: 1, pageSize: 20, state: 'failed' };
    await checkedPage(env, served, session, cookie, first, 'page 1', ROWS);
    await checkedPage(env, served, session, cookie, failed, '失败', ROWS / 20);
    const p500 = await checkedPage(env, served, session, cookie, { ...first, pageNo: 500 }, 'page 500', ROWS);
    expectThat(p500.cursor.next, 'page 500 gives a next cursor');
    const deep = { ...first, pageNo: 501, cursor: p500.cursor.next };
    await checkedPage(env, served, session, cookie, deep, 'page 501 by cursor', ROWS);
    const bodies = [first, failed, deep];
    return {
      api: bodies.map((b) => post(webhookDeliveriesCall.path, cookie, b)),
      sql: (i) => pageSql(env, served, session, bodies[i % 3] ?? first, 20)(),
      also: [
        { label: 'SQL page 1', op: pageSql(env, served, session, first, 20) },
        { label: 'SQL 失败', op: pageSql(env, served, session, failed, 20) },
        { label: 'SQL page 500 (jump)', op: pageSql(env, served, session, { ...first, pageNo: 500 }, 20) },
        { label: 'SQL page 501 by cursor', op: pageSql(env, served, session, deep, 20) },
      ],
      notes: [`seeded ${ROWS.toLocaleString('en')} deliveries in ${secs(seededMs)}, before VACUUM ANALYZE`],
    };
  },
});
