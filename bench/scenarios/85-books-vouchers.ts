import { CODE, vouchersCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { inScope } from '../../apps/server/src/db/client.js';
import { countOf, pageIds } from '../../apps/server/src/db/paging.js';
import { vouchers } from '../../apps/server/src/db/schema/index.js';
import { findBook, vouchersById } from '../../apps/server/src/modules/books/books.repo.js';
import { type BenchEnv, defineScenario, expectThat } from '../scenario.js';
import { BOOK_LINES, BOOK_VOUCHERS, BOOK_YEAR, bookBench, seedBook } from './books-bench.js';
import { adminCtx } from './customer-bench.js';

const FROM = `${BOOK_YEAR}-01`;
const TO = `${BOOK_YEAR}-12`;
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/**
 * The raw SQL a voucher list page needs at least: the count and 合计 of the year, the page's 20 vouchers in
 * (period, number) order, and their lines — three statements, no paging helper, no JSON.
 */
function rawPage(env: BenchEnv) {
  const { agencyId, adminId } = env.data;
  const bookId = bookBench.bookId;
  return inScope(env.db.app, { agencyId, userId: adminId, kjgcId: null }, async (tx) => {
    const [c] = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n, coalesce(sum(total), 0)::text as s from vouchers
        where agency_id = ${agencyId} and book_id = ${bookId} and period between ${FROM} and ${TO}`),
    );
    const page = rowsOf<{ id: number }>(
      await tx.execute(sql`select id, period, number, vdate, total, review from vouchers
        where agency_id = ${agencyId} and book_id = ${bookId} and period between ${FROM} and ${TO}
        order by period, number, id limit 20`),
    );
    const ids = page.map((p) => p.id);
    const lines = rowsOf<{ id: number }>(
      await tx.execute(sql`select voucher_id, seq, summary, account_id, debit, credit from voucher_lines
        where voucher_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) order by voucher_id, seq`),
    );
    if (c?.n !== BOOK_VOUCHERS || page.length !== 20 || lines.length !== 80) throw new Error('raw voucher page');
    return lines;
  });
}

/**
 * Where the call's database time goes: the steps of books/vouchers done directly (the book in scope, the count
 * and 合计, the page's ids, the vouchers with their lines), each timed over `n` sequential runs; p50 ms.
 */
async function steps(env: BenchEnv, n = 30) {
  const session = adminCtx(env);
  const t: Record<string, number[]> = { book: [], count: [], ids: [], rows: [] };
  for (let i = 0; i < n; i++) {
    await inScope(env.db.app, { agencyId: env.data.agencyId, userId: session.userId, kjgcId: null }, async (tx) => {
      let t0 = performance.now();
      const { book } = await findBook(tx, session, bookBench.bookId);
      t.book?.push(performance.now() - t0);
      const where = sql`${vouchers.agencyId} = ${book.agencyId} and ${vouchers.bookId} = ${book.id} and ${vouchers.period} between ${FROM} and ${TO}`;
      t0 = performance.now();
      const { total } = await countOf(tx, sql`${vouchers}`, where, {
        amount: sql`coalesce(sum(${vouchers.total}), 0)`,
      });
      t.count?.push(performance.now() - t0);
      t0 = performance.now();
      const page = await pageIds(tx, {
        from: sql`${vouchers}`,
        where,
        sort: { name: 'voucher', keys: [vouchers.period, vouchers.number, vouchers.id], desc: false },
        ask: { pageNo: 1, pageSize: 20 },
        filter: {},
        total: async () => total,
      });
      t.ids?.push(performance.now() - t0);
      t0 = performance.now();
      await vouchersById(tx, book.agencyId, page.ids);
      t.rows?.push(performance.now() - t0);
    });
  }
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]?.toFixed(1);
  return Object.entries(t)
    .map(([k, xs]) => `${k} ${p50(xs)}`)
    .join(', ');
}

// 凭证 list page 1 of the year over 50,000 vouchers (200,000 lines): the call against the raw SQL (floor ≤ 3×).
export default defineScenario({
  name: 'books voucher list',
  title: `POST /api/${vouchersCall.path} ${FROM}..${TO} page 1 over ${BOOK_VOUCHERS.toLocaleString('en')} vouchers / ${BOOK_LINES.toLocaleString('en')} lines | SQL: raw count, page and lines`,
  seed: seedBook,
  async prepare(env) {
    const cookie = await env.login(env.data.adminPhone);
    const body = { bookId: bookBench.bookId, periodFrom: FROM, periodTo: TO, pageNum: 1, pageSize: 20 };
    const r = await env.call<{ list: unknown[]; total: number }>(vouchersCall.path, body, cookie);
    expectThat(r.code === CODE.OK, `voucher list answered ${r.code} ${r.msg}`);
    expectThat(r.data.total === BOOK_VOUCHERS && r.data.list.length === 20, `voucher list ${r.data.total}`);
    await rawPage(env);
    return {
      api: { method: 'POST', path: `/api/${vouchersCall.path}`, headers: { cookie }, body },
      sql: () => rawPage(env),
      notes: [
        'floor: API p50 ≤ 3 × raw SQL p50',
        `the call's steps done directly, one at a time, p50 ms: ${await steps(env)}`,
      ],
    };
  },
});
