import { apiKeyListCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import { apiKeyModule } from '../../apps/server/src/modules/apikey/apikey.routes.js';
import { defineScenario } from '../scenario.js';
import type { BenchData } from '../setup.js';
import { checkedPage, handlerOf, pageSql, post, ROWS, secs, sessionOf } from './lists-bench.js';

// API 密钥 list over 100,000 keys of the bench agency (far past API_KEYS_MAX live keys: most are revoked or
// expired, as years of rotation would leave them): page 1, the 有效 filter and a name search, in turn.

let seededMs = 0;

/** Every 10th key live, every 10th (+1) expired, the rest revoked; set-based. Token hashes are never sent. */
async function seedKeys(owner: Db, data: BenchData) {
  const t0 = performance.now();
  const staff = `{${data.staffIds.join(',')}}`;
  await owner.execute(sql`
    insert into api_keys (agency_id, name, prefix, token_hash, perms, created_by, created_at, expires_at, last_used_at,
                          revoked_at, revoked_by)
    select ${data.agencyId}, '基准密钥' || lpad(n::text, 6, '0'), 'dzy_' || substr(md5(n::text), 1, 6),
           'bench-' || md5('key' || n), '{customer:list}', (${staff}::int[])[n % ${data.staffIds.length} + 1],
           now() - make_interval(mins => ${ROWS} - n),
           case when n % 10 = 1 then now() - interval '1 day' end,
           case when n % 3 = 0 then now() - make_interval(mins => (${ROWS} - n) / 2) end,
           case when n % 10 > 1 then now() - make_interval(mins => (${ROWS} - n) / 2) end,
           case when n % 10 > 1 then ${data.adminId}::int end
    from generate_series(1, ${ROWS}) n`);
  seededMs = performance.now() - t0;
}

export default defineScenario({
  name: 'api keys 100k',
  title: `POST /api/${apiKeyListCall.path} over ${ROWS.toLocaleString('en')} keys: page 1, 有效, a name | SQL: the handler`,
  seed: seedKeys,
  async prepare(env) {
    const served = handlerOf(apiKeyModule.calls, apiKeyListCall.path);
    const cookie = await env.login(env.data.adminPhone);
    const session = await sessionOf(env, env.data.adminId);
    const first = { pageNo: 1, pageSize: 20 };
    const active = { pageNo: 1, pageSize: 20, state: 'active' };
    const named = { pageNo: 1, pageSize: 20, name: '基准密钥0123' };
    const deep = { pageNo: 500, pageSize: 20 };
    await checkedPage(env, served, session, cookie, first, 'page 1', ROWS);
    await checkedPage(env, served, session, cookie, active, '有效', ROWS / 10);
    await checkedPage(env, served, session, cookie, named, 'name', 10);
    await checkedPage(env, served, session, cookie, deep, 'page 500', ROWS);
    const bodies = [first, active, named];
    return {
      api: bodies.map((b) => post(apiKeyListCall.path, cookie, b)),
      sql: (i) => pageSql(env, served, session, bodies[i % 3] ?? first, 10)(),
      also: [
        { label: 'SQL page 1', op: pageSql(env, served, session, first, 20) },
        { label: 'SQL 有效', op: pageSql(env, served, session, active, 20) },
        { label: 'SQL name 基准密钥0123', op: pageSql(env, served, session, named, 10) },
        { label: 'SQL page 500 (jump)', op: pageSql(env, served, session, deep, 20) },
      ],
      notes: [`seeded ${ROWS.toLocaleString('en')} API keys in ${secs(seededMs)}, before VACUUM ANALYZE`],
    };
  },
});
