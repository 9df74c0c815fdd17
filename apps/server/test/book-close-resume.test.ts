import { type BookRunRate, batchCloseCall, batchCloseRateCall, CODE } from '@dzy/shared';
import { describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { reopenBook } from '../src/modules/book-close/close.service.js';
import { accountIdsByCode, createBook } from '../src/modules/books/books.service.js';
import { createVoucher, reviewVoucher } from '../src/modules/voucher-store/voucher-store.js';
import { useResumeRig, waitForFinish } from './resume-helpers.js';

process.env.BOOK_CLOSE_CONCURRENCY = '2';
process.env.BOOK_CLOSE_LEASE_SECONDS = '2';

const PERIOD = '2026-10';
const BOOKS = 10;
const rig = useResumeRig({ dirPrefix: 'dzy-book-close-resume-' });

/**
 * 批量结账 killed mid-way: some books' work was under way when the server went away (their transaction
 * never committed: the book still open, no outcome, the job running with a lapsed lease), others had
 * committed but their job still said running. A new server on the same database finishes the run: every
 * book closed once, its transfers made once, every book counted once.
 */
describe('a batch close survives its server', () => {
  it('finishes on a new server with every book closed once', async () => {
    const first = await rig.open(true);
    const ctx = { agencyId: 1, userId: 1, kjgcId: null };
    const bookIds: number[] = [];
    await inScope(first.db.app, ctx, async (tx) => {
      for (let ent = 1; ent <= BOOKS; ent++) {
        const b = await createBook(tx, ctx, { enterpriseId: ent, startPeriod: PERIOD, vatKind: 'small' });
        bookIds.push(b.id);
        const ids = await accountIdsByCode(tx, b.id);
        const at = (code: string) => ids.get(code) ?? 0;
        const v = await createVoucher(tx, ctx, b.id, {
          vdate: `${PERIOD}-10`,
          lines: [
            { summary: '销售', accountId: at('1122'), debit: 103_000_00 + ent, credit: 0 },
            { summary: '销售', accountId: at('5001'), debit: 0, credit: 100_000_00 + ent },
            { summary: '销售', accountId: at('222101'), debit: 0, credit: 3_000_00 },
          ],
        });
        await reviewVoucher(tx, ctx, v.id, true);
      }
    });
    const admin = await first.login('13800000000');
    const start = await first.call<{ runId: string }>(batchCloseCall.path, { period: PERIOD, bookIds }, admin);
    expect(start.code, start.msg).toBe(CODE.OK);
    const runId = Number(start.data.runId);
    await waitForFinish(
      async () => (await first.call<BookRunRate>(batchCloseRateCall.path, { runId: String(runId) }, admin)).data,
      (r) => r.state !== 'running',
    );
    await first.close();

    // The crash's leftovers, written on the database alone.
    const { openDatabase } = await import('../src/db/client.js');
    const db = await openDatabase(rig.config);
    const lost = bookIds.slice(0, 3);
    const unrecorded = bookIds.slice(3, 5);
    // Work never committed: the book open again, no outcome.
    for (const id of lost) await inScope(db.app, ctx, (tx) => reopenBook(tx, ctx, id));
    await rig.owner(
      db,
      `update book_run_clients set state = null, msg = '' where run_id = $1 and book_id = any(string_to_array($2, ',')::int[])`,
      [runId, lost.join(',')],
    );
    await rig.owner(db, `update book_runs set state = 'running', finished_at = null where id = $1`, [runId]);
    await rig.owner(
      db,
      `update jobs set state = 'running', locked_until = now() - interval '1 second', finished_at = null
        where queue = 'book-close' and key = any(string_to_array($1, ','))`,
      [[...lost, ...unrecorded].map((id) => `${runId}:${id}`).join(',')],
    );
    await db.close();

    const second = await rig.open(false);
    try {
      const admin2 = await second.login('13800000000');
      const rate = await waitForFinish(
        async () => (await second.call<BookRunRate>(batchCloseRateCall.path, { runId: String(runId) }, admin2)).data,
        (r) => r.state !== 'running',
      );
      expect(rate).toMatchObject({ state: 'done', totalNum: BOOKS, successNum: BOOKS, failNum: 0 });
      const closes = await rig.owner<{ book_id: number; n: number; current: string }>(
        second.db,
        `select b.id as book_id, (select count(*)::int from book_closes c where c.book_id = b.id) as n,
                b.current_period as current
           from books b where b.id = any(string_to_array($1, ',')::int[]) order by b.id`,
        [bookIds.join(',')],
      );
      expect(closes.map((c) => [c.n, c.current])).toEqual(bookIds.map(() => [1, '2026-11']));
      const transfers = await rig.owner<{ n: number }>(
        second.db,
        `select count(*)::int as n from vouchers where book_id = any(string_to_array($1, ',')::int[]) and source = 'close'`,
        [bookIds.join(',')],
      );
      expect(transfers[0]?.n).toBe(BOOKS * 2);
      const counted = await rig.owner<{ n: number; ok: number }>(
        second.db,
        `select count(*)::int as n, count(*) filter (where state = 'ok')::int as ok from book_run_clients where run_id = $1`,
        [runId],
      );
      expect(counted[0]).toEqual({ n: BOOKS, ok: BOOKS });
      const jobs = await rig.owner<{ state: string; n: number }>(
        second.db,
        `select state, count(*)::int as n from jobs where queue = 'book-close' and key like $1 group by state`,
        [`${runId}:%`],
      );
      expect(jobs).toEqual([{ state: 'done', n: BOOKS }]);
    } finally {
      await second.close();
    }
  }, 240_000);
});
