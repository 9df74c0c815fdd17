import { CODE, queryFpXxfpCall, searchJXxDataCall, searchJxppDataCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { type Db, inScope } from '../../apps/server/src/db/client.js';
import { breakdownOf, poolList, trendOf } from '../../apps/server/src/modules/invoice-pool/invoice-pool.routes.js';
import {
  agencyRollupsOf,
  monthCountsOf,
  monthPartiesOf,
  monthStatsOf,
} from '../../apps/server/src/modules/invoice-store/invoice-store.js';
import { type BenchEnv, defineScenario, expectThat } from '../scenario.js';
import type { BenchData } from '../setup.js';
import { adminCtx } from './customer-bench.js';

/** 2,000 clients × 50 invoices of one month (30 issued, 20 received) = 100,000 invoices, one line each. */
const CLIENTS = 2_000;
const OUT_PER = 30;
const IN_PER = 20;
const INVOICES = CLIENTS * (OUT_PER + IN_PER);
const MONTH = '2026-10';

let seededMs = 0;

/**
 * Seeds the month's invoices, their lines and the rollups set-based as the owner (the rollups with the
 * invoice store's own aggregates, refreshMonthRollups', over the 2,000 clients at once), before the set-up's
 * VACUUM ANALYZE. Rates 13 %, 9 %, 6 %, 3 % and 1 % in turn; 专票 for two invoices in three; 40 other parties.
 */
async function seedInvoices(owner: Db, data: BenchData) {
  const t0 = performance.now();
  const { agencyId } = data;
  await owner.transaction(async (tx) => {
    await tx.execute(sql`
      insert into invoices (agency_id, enterprise_id, direction, fphm, kprq, month, fplx, state, cp_name, cp_tax_no,
                            amount, tax, total, deduct_state, deduct_period, source)
      select ${agencyId}, e.id, d.direction,
             '2611' || case d.direction when 'out' then '2' else '3' end || lpad((e.n * 100 + k)::text, 15, '0'),
             ${MONTH} || '-' || lpad((1 + k % 28)::text, 2, '0'), ${MONTH},
             case when k % 3 = 0 then 'pp' else 'zp' end, 'normal',
             '基准往来单位' || (k % 40), '91110000BENCH' || lpad((k % 40)::text, 5, '0'),
             10000 + k * 100, round((10000 + k * 100) * (array[0.13, 0.09, 0.06, 0.03, 0.01])[k % 5 + 1]),
             10000 + k * 100 + round((10000 + k * 100) * (array[0.13, 0.09, 0.06, 0.03, 0.01])[k % 5 + 1]),
             case when d.direction = 'in' and k % 3 <> 0 and k % 2 = 0 then 'confirmed' else 'none' end,
             case when d.direction = 'in' and k % 3 <> 0 and k % 2 = 0 then ${MONTH} else '' end,
             'collected'
      from (select id, row_number() over (order by id) as n from enterprises
            where agency_id = ${agencyId} and deleted_at is null and qysh <> '' order by id limit ${CLIENTS}) e
      cross join (values ('out', ${OUT_PER}::int), ('in', ${IN_PER}::int)) as d(direction, per)
      cross join lateral generate_series(1, d.per) k`);
    await tx.execute(sql`
      insert into invoice_lines (agency_id, invoice_id, xh, spmc, ssflbm, amount, rate, tax)
      select i.agency_id, i.id, 1, '*信息技术服务*软件开发服务', '3040201010000000000', i.amount,
             case round(i.tax * 100.0 / i.amount) when 13 then '0.13' when 9 then '0.09' when 6 then '0.06'
                  when 3 then '0.03' else '0.01' end, i.tax
      from invoices i where i.agency_id = ${agencyId} and i.month = ${MONTH}`);
    // The rollups with the store's own aggregates (refreshMonthRollups' statements), for every client at once.
    const month = sql`agency_id = ${agencyId} and month = ${MONTH}`;
    await tx.execute(sql`
      insert into invoice_month_stats
        (agency_id, enterprise_id, month, direction, fplx, rate, count, amount, tax, total, deduct_tax)
      ${monthStatsOf(sql`i.agency_id = ${agencyId} and i.month = ${MONTH}`)}`);
    await tx.execute(sql`
      insert into invoice_month_counts (agency_id, enterprise_id, month, direction, fplx, count)
      ${monthCountsOf(month)}`);
    await tx.execute(sql`
      insert into invoice_month_parties (agency_id, enterprise_id, month, direction, cp_tax_no, cp_name, count, total)
      ${monthPartiesOf(month)}`);
    for (const q of agencyRollupsOf(month)) await tx.execute(q);
  });
  const res = (await owner.execute(
    sql`select count(*)::int as n from invoices where agency_id = ${agencyId} and month = ${MONTH}`,
  )) as unknown as { rows: { n: number }[] };
  expectThat(res.rows[0]?.n === INVOICES, `seeded ${res.rows[0]?.n} invoices, expected ${INVOICES}`);
  seededMs = performance.now() - t0;
}

const inAgency = <T>(env: BenchEnv, fn: (tx: Parameters<Parameters<typeof inScope>[2]>[0]) => Promise<T>) =>
  inScope(env.db.app, { agencyId: env.data.agencyId, userId: env.data.adminId, kjgcId: null }, fn);

/** The list call's database work, as the call does it (total and 合计, page ids, rows). */
function listSql(env: BenchEnv) {
  return inAgency(env, async (tx) => {
    const page = await poolList('out')({
      body: { month: MONTH, keyword: '', pageNo: 1, pageSize: 20 },
      session: adminCtx(env),
      tx,
    });
    if (page.list.length !== 20 || page.total !== CLIENTS * OUT_PER) throw new Error(`list: ${page.total}`);
    return page;
  });
}

/** The agency's month: make-up by rate and kind and the top parties, then the 12-month trend. */
function statsSql(env: BenchEnv, which: 'parts' | 'trend') {
  return inAgency(env, async (tx) => {
    const body = { month: MONTH };
    if (which === 'trend') return trendOf({ body, session: adminCtx(env), tx });
    const r = await breakdownOf({ body, session: adminCtx(env), tx });
    if (r.xxByRate.length !== 5 || r.topBuyers.length === 0) throw new Error('stats');
    return r;
  });
}

// The invoice pool over 100,000 invoices of one month: the 销项 list page 1 (ratio against the same work in
// SQL), and the agency's statistics of the month over HTTP (goal p50 ≤ 100 ms on PostgreSQL).
export default defineScenario({
  name: 'invoice pool 100k',
  title: `POST /api/${queryFpXxfpCall.path} page 1 over ${INVOICES.toLocaleString('en')} invoices (${CLIENTS} clients × ${OUT_PER + IN_PER}) | SQL: the same; statistics ${searchJxppDataCall.path} + ${searchJXxDataCall.path}`,
  seed: seedInvoices,
  async prepare(env) {
    const cookie = await env.login(env.data.adminPhone);
    const body = { month: MONTH, pageNo: 1, pageSize: 20 };
    const r = await env.call<{ list: { id: number }[]; total: number; sums: { total: number } }>(
      queryFpXxfpCall.path,
      body,
      cookie,
    );
    expectThat(r.code === CODE.OK, `list answered ${r.code} ${r.msg}`);
    const direct = await listSql(env);
    expectThat(r.data.total === direct.total, `total ${r.data.total}`);
    expectThat(r.data.list.map((x) => x.id).join() === direct.list.map((x) => x.id).join(), 'same page');
    const parts = await env.call<{
      xxByRate: { amount: number }[];
      xxByKind: { count: number }[];
      topBuyers: { taxNo: string; total: number }[];
    }>(searchJxppDataCall.path, { month: MONTH }, cookie);
    expectThat(parts.code === CODE.OK, `statistics answered ${parts.code} ${parts.msg}`);
    const sums = await inAgency(
      env,
      async (tx) =>
        (
          (await tx.execute(
            sql`select sum(amount)::bigint as amount from invoices where agency_id = ${env.data.agencyId} and month = ${MONTH} and direction = 'out'`,
          )) as unknown as { rows: { amount: string }[] }
        ).rows[0],
    );
    expectThat(
      parts.data.xxByRate.reduce((a, x) => a + x.amount, 0) === Number(sums?.amount),
      'the statistics equal the sum of the invoices',
    );
    expectThat(
      parts.data.xxByKind.reduce((a, x) => a + x.count, 0) === CLIENTS * OUT_PER,
      'the kinds count each invoice once',
    );
    const topBuyer = await inAgency(
      env,
      async (tx) =>
        (
          (await tx.execute(
            sql`select cp_tax_no, sum(total)::bigint as total from invoices where agency_id = ${env.data.agencyId}
                and month = ${MONTH} and direction = 'out' group by cp_tax_no order by sum(total) desc, cp_tax_no limit 1`,
          )) as unknown as { rows: { cp_tax_no: string; total: string }[] }
        ).rows[0],
    );
    expectThat(
      parts.data.topBuyers[0]?.taxNo === topBuyer?.cp_tax_no &&
        parts.data.topBuyers[0]?.total === Number(topBuyer?.total),
      'the top buyer is the invoices’ top buyer',
    );
    const post = (path: string, b: unknown) => async () => {
      const res = await fetch(`${env.baseUrl}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', cookie },
        body: JSON.stringify(b),
      });
      const j = (await res.json()) as { code: number };
      if (j.code !== CODE.OK) throw new Error(`${path}: ${j.code}`);
    };
    return {
      api: { method: 'POST' as const, path: `/api/${queryFpXxfpCall.path}`, headers: { cookie }, body },
      sql: () => listSql(env),
      also: [
        {
          label: 'API statistics of the month (by rate, kind, top)',
          op: post(searchJxppDataCall.path, { month: MONTH }),
        },
        { label: 'API 12-month trend', op: post(searchJXxDataCall.path, { month: MONTH }) },
        { label: 'SQL statistics of the month', op: () => statsSql(env, 'parts') },
        { label: 'SQL 12-month trend', op: () => statsSql(env, 'trend') },
      ],
      notes: [
        `seeded ${INVOICES.toLocaleString('en')} invoices with their lines and rollups in ${(seededMs / 1000).toFixed(1)} s, before VACUUM ANALYZE`,
        'goals: list p50 ≤ 3× SQL; statistics of the month p50 ≤ 100 ms on PostgreSQL',
      ],
    };
  },
});
