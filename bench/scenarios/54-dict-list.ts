import { listDictAdminCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import { dictModule } from '../../apps/server/src/modules/system/dict.routes.js';
import { defineScenario } from '../scenario.js';
import type { BenchData } from '../setup.js';
import {
  checkedPage,
  ensureOperator,
  handlerOf,
  OPERATOR_PHONE,
  pageSql,
  post,
  ROWS,
  secs,
  sessionOf,
} from './lists-bench.js';

// 数据字典 (平台运营 › 字典与客服) over 100,000 dict_data values (100 types × 1,000 values, beside the real
// ones) as the operator: page 1 of every type, one type, and a 名称 search, in turn. Each answer also carries
// the list of types with their counts (typesOf), read over the whole table at every call.

const TYPES = 100;
const PER_TYPE = ROWS / TYPES;
let seededMs = 0;
let operatorId = 0;

async function seedDict(owner: Db, data: BenchData) {
  const t0 = performance.now();
  operatorId = await ensureOperator(owner, data.passwordHash);
  await owner.execute(sql`
    insert into dict_data (dict_type, type_name, code, label, sort, enabled)
    select 'bench_t' || lpad(t::text, 3, '0'), '基准字典' || t, lpad(k::text, 4, '0'), '基准值' || t || '-' || k, k,
           k % 10 <> 0
    from generate_series(1, ${TYPES}) t cross join generate_series(1, ${PER_TYPE}) k`);
  seededMs = performance.now() - t0;
}

export default defineScenario({
  name: 'dict list 100k',
  title: `POST /api/${listDictAdminCall.path} as the operator over ${ROWS.toLocaleString('en')} values: page 1, one type, a 名称 | SQL: the handler`,
  seed: seedDict,
  async prepare(env) {
    const served = handlerOf(dictModule.calls, listDictAdminCall.path);
    const cookie = await env.login(OPERATOR_PHONE);
    const session = await sessionOf(env, operatorId);
    const first = { pageNo: 1, pageSize: 20 };
    const oneType = { pageNo: 1, pageSize: 20, dictType: 'bench_t050' };
    const label = { pageNo: 1, pageSize: 20, label: '基准值77-7' };
    const deep = { pageNo: 500, pageSize: 20 };
    await checkedPage(env, served, session, cookie, first, 'page 1', ROWS);
    await checkedPage(env, served, session, cookie, oneType, 'one type', PER_TYPE);
    await checkedPage(env, served, session, cookie, label, '名称', 1);
    await checkedPage(env, served, session, cookie, deep, 'page 500', ROWS);
    const bodies = [first, oneType, label];
    return {
      api: bodies.map((b) => post(listDictAdminCall.path, cookie, b)),
      sql: (i) => pageSql(env, served, session, bodies[i % 3] ?? first, 1)(),
      also: [
        { label: 'SQL page 1', op: pageSql(env, served, session, first, 20) },
        { label: 'SQL one type', op: pageSql(env, served, session, oneType, 20) },
        { label: 'SQL 名称 基准值77-7', op: pageSql(env, served, session, label, 1) },
        { label: 'SQL page 500 (jump)', op: pageSql(env, served, session, deep, 20) },
      ],
      notes: [`seeded ${ROWS.toLocaleString('en')} dictionary values in ${secs(seededMs)}, before VACUUM ANALYZE`],
    };
  },
});
