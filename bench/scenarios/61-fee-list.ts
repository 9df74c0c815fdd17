import { CODE, chargeListCall } from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import { type Db, inScope } from '../../apps/server/src/db/client.js';
import { charges } from '../../apps/server/src/db/schema/index.js';
import {
  chargeTotals,
  chargeWhere,
  feeAccessOf,
  feeFrom,
} from '../../apps/server/src/modules/contract-fee/contract-fee.repo.js';
import {
  chargeListPage,
  feeToday,
  receivableListPage,
} from '../../apps/server/src/modules/contract-fee/contract-fee.service.js';
import { type BenchEnv, defineScenario, expectThat } from '../scenario.js';
import type { BenchData } from '../setup.js';
import { adminCtx } from './customer-bench.js';

/** 2,500 contracts × 10 monthly periods × 4 charges = 100,000 charge records. */
const CONTRACTS = 2_500;
const PERIODS = 10;
const PER_PERIOD = 4;
const CHARGES = CONTRACTS * PERIODS * PER_PERIOD;
// The deepest page a jump reaches from the start (offset 9,980; the bound is 10,000 rows from either
// end: pages in the middle are reached by next/previous from a nearer one, or by filtering).
const DEEP_PAGE = 500;
const METHODS = ['1', '2', '3', '4', '9'] as const;
const START = '2025-01-01';

/** What the seed took, for the scenario's note. */
let seededMs = 0;

/**
 * Seeds the contracts, their monthly schedules and the charges in the bench agency, as the owner before the
 * set-up's VACUUM ANALYZE, set-based (INSERT … SELECT generate_series): three statements, not 125 batches.
 */
async function seedCharges(owner: Db, data: BenchData) {
  const t0 = performance.now();
  const { agencyId, adminId, staffIds } = data;
  const staff = `{${staffIds.join(',')}}`;
  const methods = `{${METHODS.join(',')}}`;
  // addMonths('2025-01-01', n) of contract-dates.ts: the first of a month, so date + n months is the same.
  await owner.transaction(async (tx) => {
    await tx.execute(sql`
      insert into contracts (agency_id, contract_no, enterprise_id, contract_user_id, htzt, sign_date, start_date,
                             end_date, pay_cycle, total_price_fen, amount_fen)
      select ${agencyId}, 'BF' || lpad(e.n::text, 7, '0'), e.id, (${staff}::int[])[(e.n - 1) % ${staffIds.length} + 1],
             '2', ${START}::date, ${START}::date, (${START}::date + make_interval(months => ${PERIODS}))::date, 1,
             ${PERIODS * 40_000}, ${PERIODS * 40_000}
      from (select id, row_number() over (order by id) as n from enterprises
            where agency_id = ${agencyId} and deleted_at is null order by id limit ${CONTRACTS}) e`);
    await tx.execute(sql`
      insert into receivables (agency_id, contract_id, enterprise_id, period_no, period_start, period_end, due_date,
                               amount_fen, paid_fen)
      select ${agencyId}, c.id, c.enterprise_id, p, (${START}::date + make_interval(months => p - 1))::date,
             (${START}::date + make_interval(months => p))::date, (${START}::date + make_interval(months => p - 1))::date,
             40000, 40000
      from contracts c cross join generate_series(1, ${PERIODS}) p
      where c.agency_id = ${agencyId} and c.contract_no like 'BF%'
      order by c.id, p`);
    // Charge n (1-based, in period order) is paid with METHODS[n % 5] and has receipt BR000000n.
    await tx.execute(sql`
      insert into charges (agency_id, receivable_id, contract_id, enterprise_id, amount_fen, pay_date, pay_method,
                           payer, receipt_no, created_by)
      select ${agencyId}, r.id, r.contract_id, r.enterprise_id, 10000, r.due_date,
             (${methods}::text[])[(r.n % ${METHODS.length}) + 1], '基准付款人', 'BR' || lpad(r.n::text, 7, '0'), ${adminId}
      from (select r.*, row_number() over (order by r.id, k) as n
            from receivables r join contracts c on c.id = r.contract_id cross join generate_series(1, ${PER_PERIOD}) k
            where r.agency_id = ${agencyId} and c.contract_no like 'BF%') r`);
  });
  const [row] = await owner
    .select({ n: sql<number>`count(*)::int` })
    .from(charges)
    .where(eq(charges.agencyId, agencyId));
  expectThat(row?.n === CHARGES, `seeded ${row?.n} charges, expected ${CHARGES}`);
  seededMs = performance.now() - t0;
}

/** The charge list's database work: the code the call runs (total and 合计, page ids, rows). */
function listSql(env: BenchEnv, pageNo: number, body: { payMethod?: '2' } = {}) {
  const session = adminCtx(env);
  const { agencyId } = env.data;
  return inScope(env.db.app, { agencyId, userId: session.userId, kjgcId: null }, async (tx) => {
    const a = await feeAccessOf(tx, session);
    const page = await chargeListPage(tx, a, { ...body, pageNo, pageSize: 20 });
    if (page.list.length !== 20 || page.total < (body.payMethod ? CHARGES / 5 : CHARGES)) {
      throw new Error(`page ${pageNo}: ${page.list.length} of ${page.total}`);
    }
    return page;
  });
}

/** 应收 over the 25,000 periods: its default order (what needs collecting first) depends on today. */
function receivablesSql(env: BenchEnv, sortField?: 'dueDate') {
  const session = adminCtx(env);
  const { agencyId } = env.data;
  return inScope(env.db.app, { agencyId, userId: session.userId, kjgcId: null }, async (tx) => {
    const a = await feeAccessOf(tx, session);
    const page = await receivableListPage(tx, a, { pageNo: 1, pageSize: 20, sortField }, feeToday());
    if (page.list.length !== 20 || page.total < CONTRACTS * PERIODS) throw new Error(`应收: ${page.total}`);
    return page;
  });
}

function totalsSql(env: BenchEnv) {
  const session = adminCtx(env);
  const { agencyId } = env.data;
  return inScope(env.db.app, { agencyId, userId: session.userId, kjgcId: null }, async (tx) => {
    const a = await feeAccessOf(tx, session);
    return chargeTotals(tx, feeFrom('charges', a, {}), chargeWhere(a, {}));
  });
}

// The fee list's 收款记录 over 100,000 charges: page 1 and page 500 (offset 9,980) alternately, each with
// the total and the 合计 of the whole filter; extra rows: each page alone and the totals alone, in SQL.
export default defineScenario({
  name: 'fee list 100k',
  title: `POST /api/${chargeListCall.path} over ${CHARGES.toLocaleString('en')} charges, page 1 and page ${DEEP_PAGE} | SQL: the same`,
  seed: seedCharges,
  async prepare(env) {
    const cookie = await env.login(env.data.adminPhone);
    const first = { pageNo: 1, pageSize: 20 };
    const deep = { pageNo: DEEP_PAGE, pageSize: 20 };
    for (const body of [first, deep]) {
      const r = await env.call<{ list: { id: number }[]; total: number; totals: { amount: string } }>(
        chargeListCall.path,
        body,
        cookie,
      );
      expectThat(r.code === CODE.OK, `charge list answered ${r.code} ${r.msg}`);
      const direct = await listSql(env, body.pageNo);
      expectThat(r.data.total === direct.total && r.data.total >= CHARGES, `total ${r.data.total}`);
      expectThat(r.data.totals.amount === direct.totals.amount, 'API and SQL give the same 合计');
      expectThat(
        r.data.list.map((c) => c.id).join() === direct.list.map((c) => c.id).join(),
        'SQL and API give the same page',
      );
    }
    const spec = (body: unknown) => ({
      method: 'POST' as const,
      path: `/api/${chargeListCall.path}`,
      headers: { cookie },
      body,
    });
    return {
      api: [spec(first), spec(deep)],
      sql: (i) => listSql(env, i % 2 === 0 ? 1 : DEEP_PAGE),
      also: [
        { label: 'SQL page 1', op: () => listSql(env, 1) },
        { label: `SQL page ${DEEP_PAGE}`, op: () => listSql(env, DEEP_PAGE) },
        { label: 'SQL 合计 only', op: () => totalsSql(env) },
        { label: 'SQL filtered 银行转账', op: () => listSql(env, 1, { payMethod: '2' }) },
        { label: 'SQL 应收 page 1 (default order)', op: () => receivablesSql(env) },
        { label: 'SQL 应收 page 1 by due date', op: () => receivablesSql(env, 'dueDate') },
      ],
      notes: [
        `seeded ${CHARGES.toLocaleString('en')} charges (with ${CONTRACTS.toLocaleString('en')} contracts and ${(CONTRACTS * PERIODS).toLocaleString('en')} periods) in ${(seededMs / 1000).toFixed(1)} s, before VACUUM ANALYZE`,
      ],
    };
  },
});
