import { balanceSheetCall, CODE } from '@dzy/shared';
import { inScope } from '../../apps/server/src/db/client.js';
import { findBook, trialBalance } from '../../apps/server/src/modules/book-reports/book-reports.service.js';
import { type BenchEnv, defineScenario, expectThat } from '../scenario.js';
import { BOOK_LINES, BOOK_VOUCHERS, BOOK_YEAR, bookBench, seedBook } from './books-bench.js';
import { adminCtx } from './customer-bench.js';

const FROM = `${BOOK_YEAR}-01`;
const TO = `${BOOK_YEAR}-12`;

/** The 科目余额表's database work: the code the call runs (the book in scope, the aggregate, the roll-up). */
function balancesSql(env: BenchEnv) {
  const session = adminCtx(env);
  return inScope(env.db.app, { agencyId: env.data.agencyId, userId: session.userId, kjgcId: null }, async (tx) => {
    const book = await findBook(tx, session, bookBench.bookId);
    const r = await trialBalance(tx, book, { from: FROM, to: TO, maxLevel: 6, showZero: false });
    if (!r.balanced) throw new Error('科目余额表 does not balance');
    return r;
  });
}

// 科目余额表 for a year of a book with 50,000 vouchers (200,000 lines): read from book_balances, never the lines.
export default defineScenario({
  name: 'books 科目余额表 year',
  title: `POST /api/${balanceSheetCall.path} ${FROM}..${TO} over ${BOOK_VOUCHERS.toLocaleString('en')} vouchers / ${BOOK_LINES.toLocaleString('en')} lines | SQL: the same`,
  seed: seedBook,
  async prepare(env) {
    const cookie = await env.login(env.data.adminPhone);
    const body = { bookId: bookBench.bookId, from: FROM, to: TO };
    const r = await env.call<{
      rows: { code: string; periodDebit: number }[];
      totals: { periodDebit: number };
      balanced: boolean;
    }>(balanceSheetCall.path, body, cookie);
    expectThat(r.code === CODE.OK, `科目余额表 answered ${r.code} ${r.msg}`);
    const direct = await balancesSql(env);
    expectThat(r.data.balanced, 'the year balances');
    expectThat(r.data.totals.periodDebit === direct.totals.periodDebit, 'API and SQL give the same totals');
    expectThat(r.data.totals.periodDebit > 0, 'the year has movements');
    return {
      api: { method: 'POST', path: `/api/${balanceSheetCall.path}`, headers: { cookie }, body },
      sql: () => balancesSql(env),
      notes: [
        `seeded ${BOOK_VOUCHERS.toLocaleString('en')} vouchers / ${BOOK_LINES.toLocaleString('en')} lines and their book_balances in ${(bookBench.seededMs / 1000).toFixed(1)} s; floor: API p50 ≤ 200 ms on PostgreSQL`,
      ],
    };
  },
});
