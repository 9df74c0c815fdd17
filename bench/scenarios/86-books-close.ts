import { type BookRunRate, batchCloseCall, batchCloseRateCall, CODE } from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import { type Db, inScope } from '../../apps/server/src/db/client.js';
import { bookRuns } from '../../apps/server/src/db/schema/index.js';
import { closeConcurrency, runRate } from '../../apps/server/src/modules/book-close/close.jobs.js';
import { closeOneForRun, rulesOf } from '../../apps/server/src/modules/book-close/close.service.js';
import { createBook } from '../../apps/server/src/modules/books/books.service.js';
import { defineScenario, expectThat } from '../scenario.js';
import type { BenchData } from '../setup.js';

/** Books closed by the batch, and as many again closed directly for the floor. */
const N = 500;
/** Vouchers per book in the month: sales (3 lines), receipts and expenses (2 lines each), a third each. */
const PER_BOOK = 30;
const PERIOD = '2026-10';
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const s1 = (ms: number) => (ms / 1000).toFixed(1);

const seeded = { floor: [] as number[], batch: [] as number[], ms: 0 };

/**
 * 2 × N books (small-scale taxpayers starting in PERIOD) of clients that have none, each with a month of
 * reviewed vouchers seeded set-based as the owner — sales 借 1122 / 贷 5001 + 222101 (3 %), receipts 借 1002 /
 * 贷 1122, expenses 借 560202 / 贷 1002 — numbered 1…30 and their book_balances as the lines' sums (what the
 * voucher store writes). Every book can close: balanced, reviewed, the bank never negative; the close makes
 * the surtax and 结转损益 vouchers through the voucher store.
 */
async function seedBooks(owner: Db, data: BenchData) {
  const t0 = performance.now();
  const { agencyId, adminId } = data;
  await owner.transaction(async (tx) => {
    const ents = rowsOf<{ id: number }>(
      await tx.execute(sql`select e.id from enterprises e where e.agency_id = ${agencyId} and e.deleted_at is null
        and not exists (select 1 from books b where b.enterprise_id = e.id) order by e.id desc limit ${2 * N}`),
    );
    expectThat(ents.length === 2 * N, `${ents.length} bench clients without books`);
    const ids: number[] = [];
    for (const e of ents) {
      const b = await createBook(
        tx,
        { agencyId, userId: adminId },
        { enterpriseId: e.id, startPeriod: PERIOD, vatKind: 'small' },
      );
      ids.push(b.id);
    }
    const list = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    await tx.execute(sql`update books set opening_balanced = true where id in (${list})`);
    // n % 3: 0 sale of a + 3 % VAT, 1 receipt of 60,000.00 fen-scaled, 2 expense of 20,000 + n.
    await tx.execute(sql`
      insert into vouchers (agency_id, book_id, period, number, vdate, total, source, created_by, review, reviewed_by, reviewed_at)
      select ${agencyId}, b.id, ${PERIOD}, n, ${PERIOD} || '-' || lpad((1 + (n - 1) % 28)::text, 2, '0'),
        case n % 3 when 0 then (100000 + n * 100) + round((100000 + n * 100) * 0.03)::int
                   when 1 then 60000 else 20000 + n end,
        'manual', ${adminId}, 'reviewed', ${adminId}, now()
      from books b cross join generate_series(1, ${PER_BOOK}) n
      where b.id in (${list})`);
    await tx.execute(sql`
      insert into voucher_lines (agency_id, voucher_id, book_id, period, seq, summary, account_id, debit, credit)
      select ${agencyId}, v.id, v.book_id, v.period, k,
        case v.number % 3 when 0 then '销售商品' when 1 then '收到货款' else '支付办公费' end,
        (select a.id from book_accounts a where a.book_id = v.book_id and a.code =
          case v.number % 3
            when 0 then (array['1122', '5001', '222101'])[k]
            when 1 then (array['1002', '1122'])[k]
            else (array['560202', '1002'])[k] end),
        case when k = 1 then v.total else 0 end,
        case when v.number % 3 = 0 and k = 2 then 100000 + v.number * 100
             when v.number % 3 = 0 and k = 3 then v.total - (100000 + v.number * 100)
             when k = 2 then v.total else 0 end
      from vouchers v cross join generate_series(1, 3) k
      where v.book_id in (${list}) and (k < 3 or v.number % 3 = 0)`);
    await tx.execute(sql`
      insert into book_balances (agency_id, book_id, account_id, aux_item_id, period, debit, credit)
      select ${agencyId}, book_id, account_id, aux_item_id, period, sum(debit), sum(credit)
      from voucher_lines where book_id in (${list})
      group by book_id, account_id, aux_item_id, period`);
    const [bad] = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from (select voucher_id from voucher_lines where book_id in (${list})
        group by voucher_id having sum(debit) <> sum(credit) or bool_or(account_id is null)) x`),
    );
    expectThat(bad?.n === 0, `${bad?.n} seeded vouchers do not balance`);
    seeded.floor = ids.slice(0, N);
    seeded.batch = ids.slice(N);
  });
  seeded.ms = performance.now() - t0;
}

// 期末结账 in batch (busi/qmJz) of 500 books with a month of vouchers each, against its floor: the same
// per-book work (closeOneForRun: 计提附加税, 结转损益, the checks, the close) on 500 other, identical books,
// called directly in C lanes, each book in its own transaction — no run, jobs, outcome rows or pushes.
export default defineScenario({
  name: 'batch close 500',
  title: `POST /api/${batchCloseCall.path} of ${N} books × ${PER_BOOK} vouchers, once, against the direct close | API and SQL: busi/qmJz/rate`,
  seed: seedBooks,
  async prepare(env) {
    const { agencyId, adminId, adminPhone } = env.data;
    const scope = { agencyId, userId: adminId, kjgcId: null };
    const C = closeConcurrency();
    const cookie = await env.login(adminPhone);

    // The floor: the unit work done directly, C books at a time.
    const opts = await inScope(env.db.app, scope, async (tx) => {
      const r = await rulesOf(tx, agencyId);
      return { cjsRate: r.close.cjsRate, halve: r.close.halve, incomeTax: r.close.incomeTax };
    });
    const queue = [...seeded.floor];
    let floorOk = 0;
    const f0 = performance.now();
    await Promise.all(
      Array.from({ length: C }, async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const bookId = id;
          const r = await inScope(env.db.app, scope, (tx) => closeOneForRun(tx, scope, bookId, PERIOD, opts));
          if (r.ok) floorOk++;
        }
      }),
    );
    const floorMs = performance.now() - f0;
    expectThat(floorOk === N, `direct close: ${floorOk} of ${N} books closed`);

    // The batch: one call, then its run polled until done.
    const b0 = performance.now();
    const started = await env.call<{ runId: string }>(
      batchCloseCall.path,
      { period: PERIOD, bookIds: seeded.batch },
      cookie,
    );
    expectThat(started.code === CODE.OK, `busi/qmJz answered ${started.code} ${started.msg}`);
    const callMs = performance.now() - b0;
    let rate: BookRunRate;
    for (;;) {
      const x = await env.call<BookRunRate>(batchCloseRateCall.path, { runId: started.data.runId }, cookie);
      expectThat(x.code === CODE.OK, `busi/qmJz/rate answered ${x.code} ${x.msg}`);
      rate = x.data;
      if (rate.state !== 'running') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const batchMs = performance.now() - b0;
    expectThat(rate.successNum === N, `batch close: ${rate.successNum} ok, ${rate.failNum} refused`);

    const [check] = await inScope(env.db.app, scope, async (tx) =>
      rowsOf<{ closed: number; transfers: number }>(
        await tx.execute(sql`select
          (select count(*) from book_closes where book_id in (${sql.join(
            seeded.batch.map((id) => sql`${id}`),
            sql`, `,
          )}) and period = ${PERIOD})::int as closed,
          (select count(*) from vouchers where source = 'close' and period = ${PERIOD} and book_id in (${sql.join(
            seeded.batch.map((id) => sql`${id}`),
            sql`, `,
          )}))::int as transfers`),
      ),
    );
    expectThat(check?.closed === N, `${check?.closed} batch books closed once`);
    const runId = Number(started.data.runId);
    // Where the batch's time went: each book's own transaction (the job's jobMs) and how many ran at once.
    const [t] = await inScope(env.db.app, scope, async (tx) =>
      rowsOf<{ job: number; total: string; n: number }>(
        await tx.execute(sql`select avg((result->>'jobMs')::int)::int as job, sum((result->>'jobMs')::int)::bigint as total,
            count(*)::int as n from jobs
          where queue = 'book-close' and key like ${`${runId}:%`} and result ? 'jobMs'`),
      ),
    );
    return {
      api: {
        method: 'POST',
        path: `/api/${batchCloseRateCall.path}`,
        headers: { cookie },
        body: { runId: started.data.runId },
      },
      sql: () =>
        inScope(env.db.app, scope, async (tx) => {
          const [r] = await tx.select().from(bookRuns).where(eq(bookRuns.id, runId));
          if (!r) throw new Error('run gone');
          return runRate(tx, r);
        }),
      notes: [
        `seeded ${2 * N} books × ${PER_BOOK} vouchers (${(2 * N * PER_BOOK * 7) / 3} lines) in ${s1(seeded.ms)} s; C = ${C} (BOOK_CLOSE_CONCURRENCY)`,
        `batch close: wall ${s1(batchMs)} s (busi/qmJz itself ${(callMs).toFixed(0)} ms), ${rate.successNum} closed, ${check?.transfers} transfer vouchers; ${(batchMs / N).toFixed(0)} ms per book`,
        `batch, where the time went: each book's transaction ${t?.job} ms on average (${t?.n} jobs), ${(Number(t?.total ?? 0) / batchMs).toFixed(2)} at once on average (cap ${C}); the rest is claiming, the run's bookkeeping and waiting`,
        `floor (closeOneForRun directly, ${C} at a time): ${s1(floorMs)} s, ${(floorMs / N).toFixed(0)} ms per book → ratio ${(batchMs / floorMs).toFixed(2)} (goal ≤ 1.2)`,
      ],
    };
  },
});
