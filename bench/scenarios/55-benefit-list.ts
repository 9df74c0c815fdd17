import { accountListCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import { accountStatusCalls } from '../../apps/server/src/modules/account-status/account-status.routes.js';
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

// 机构权益 (平台运营: 机构账户与权益) over 100,000 agencies with an account each, as the operator: page 1,
// page 500 and a name search, in turn. Every row also reads the agency's account and its clients used.

let seededMs = 0;
let operatorId = 0;

/** The agencies and their accounts; qyzt as the daily sweep leaves it, so the list writes nothing back. */
async function seedAgencies(owner: Db, data: BenchData) {
  const t0 = performance.now();
  operatorId = await ensureOperator(owner, data.passwordHash);
  await owner.transaction(async (tx) => {
    await tx.execute(sql`
      insert into organisations (org_type, name, tax_no, sssf, ssds, ssqx, licence_customers)
      select 'dls', '基准权益机构' || lpad(n::text, 6, '0') || '号财税有限公司', '91330106Q' || lpad(n::text, 9, '0'),
             '330000', '330100', '330106', 100 + n % 900
      from generate_series(1, ${ROWS}) n`);
    await tx.execute(sql`
      insert into agency_accounts (agency_id, plan, starts_on, expires_on, client_count, remind_days)
      select o.id, (array['trial','standard','pro','flagship'])[o.id % 4 + 1],
             current_date - 365 + (o.id % 700), current_date + (o.id % 700) - 100, o.licence_customers, 30
      from organisations o where o.name like '基准权益机构%'`);
    await tx.execute(sql`
      update organisations o set qyzt = case when a.expires_on < (now() at time zone 'Asia/Shanghai')::date then '3'
                                             when a.expires_on - (now() at time zone 'Asia/Shanghai')::date <= a.remind_days then '2'
                                             else '1' end
      from agency_accounts a where a.agency_id = o.id and o.name like '基准权益机构%'`);
  });
  seededMs = performance.now() - t0;
}

export default defineScenario({
  name: 'benefit list 100k',
  title: `POST /api/${accountListCall.path} as the operator over ${ROWS.toLocaleString('en')} agencies: page 1, page 500, a name | SQL: the handler`,
  seed: seedAgencies,
  async prepare(env) {
    const served = handlerOf(accountStatusCalls, accountListCall.path);
    const cookie = await env.login(OPERATOR_PHONE);
    const session = await sessionOf(env, operatorId);
    const first = { pageNo: 1, pageSize: 20 };
    const deep = { pageNo: 500, pageSize: 20 };
    const named = { pageNo: 1, pageSize: 20, keyword: '机构01234' };
    await checkedPage(env, served, session, cookie, first, 'page 1', ROWS);
    await checkedPage(env, served, session, cookie, deep, 'page 500', ROWS);
    await checkedPage(env, served, session, cookie, named, 'name', 10);
    const bodies = [first, deep, named];
    return {
      api: bodies.map((b) => post(accountListCall.path, cookie, b)),
      sql: (i) => pageSql(env, served, session, bodies[i % 3] ?? first, 10)(),
      also: [
        { label: 'SQL page 1', op: pageSql(env, served, session, first, 20) },
        { label: 'SQL page 500 (jump)', op: pageSql(env, served, session, deep, 20) },
        { label: 'SQL name 机构01234', op: pageSql(env, served, session, named, 10) },
      ],
      notes: [`seeded ${ROWS.toLocaleString('en')} agencies with accounts in ${secs(seededMs)}, before VACUUM ANALYZE`],
    };
  },
});
