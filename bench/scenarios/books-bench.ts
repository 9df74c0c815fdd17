import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import { accountIdsByCode, createBook } from '../../apps/server/src/modules/books/books.service.js';
import { expectThat } from '../scenario.js';
import type { BenchData } from '../setup.js';

/** A book of 50,000 vouchers × 4 lines = 200,000 lines over one year (12 periods). */
export const BOOK_VOUCHERS = 50_000;
export const BOOK_LINES = BOOK_VOUCHERS * 4;
export const BOOK_YEAR = '2025';

export const bookBench = { bookId: 0, seededMs: 0 };

/**
 * Seeds the bench book set-based, as the owner (INSERT … SELECT generate_series): the book with its preset
 * chart through createBook, the vouchers numbered 1…n per period without gaps, four balanced lines each
 * (借 X a, 借 管理费用—办公费 c / 贷 Y a, 贷 银行存款 c), and book_balances as the lines' sums — what the
 * voucher store would have written one voucher at a time. Seeded once when several scenarios use it.
 */
export async function seedBook(owner: Db, data: BenchData) {
  if (bookBench.bookId) return;
  const t0 = performance.now();
  const { agencyId, adminId } = data;
  await owner.transaction(async (tx) => {
    const [ent] = (
      (await tx.execute(sql`select id from enterprises where agency_id = ${agencyId} and deleted_at is null
        order by id limit 1`)) as unknown as { rows: { id: number }[] }
    ).rows;
    expectThat(ent, 'a bench enterprise');
    const book = await createBook(
      tx,
      { agencyId, userId: adminId },
      {
        enterpriseId: ent.id,
        startPeriod: `${BOOK_YEAR}-01`,
        vatKind: 'small',
      },
    );
    bookBench.bookId = book.id;
    await tx.execute(sql`update books set opening_balanced = true where id = ${book.id}`);
    const acc = await accountIdsByCode(tx, book.id);
    const id = (code: string) => {
      const v = acc.get(code);
      expectThat(v, `account ${code}`);
      return v;
    };
    const debit = `{${['1122', '1405', '1002', '5401'].map(id).join(',')}}`;
    const credit = `{${['5001', '1122', '2202', '1405'].map(id).join(',')}}`;
    const office = id('560202');
    const bank = id('1002');
    await tx.execute(sql`
      insert into vouchers (agency_id, book_id, period, number, vdate, total, source, created_by, review)
      select ${agencyId}, ${book.id}, p, row_number() over (partition by p order by n),
             p || '-' || lpad((1 + n % 28)::text, 2, '0'), (10000 + (n % 9973) * 7) + (100 + n % 500), 'manual', ${adminId},
             case when n % 3 = 0 then 'reviewed' else 'unreviewed' end
      from (select n, ${BOOK_YEAR} || '-' || lpad((1 + n % 12)::text, 2, '0') as p
            from generate_series(1, ${BOOK_VOUCHERS}) n) s
      order by p, n`);
    await tx.execute(sql`
      insert into voucher_lines (agency_id, voucher_id, book_id, period, seq, summary, account_id, debit, credit)
      select ${agencyId}, v.id, v.book_id, v.period, k,
             case k when 1 then '销售商品' when 2 then '办公用品' when 3 then '销售商品' else '支付办公费' end,
             case k when 1 then (${debit}::int[])[1 + v.number % 4] when 2 then ${office}
                    when 3 then (${credit}::int[])[1 + v.number % 4] else ${bank} end,
             case k when 1 then v.total - (100 + v.number % 500) when 2 then 100 + v.number % 500 else 0 end,
             case k when 3 then v.total - (100 + v.number % 500) when 4 then 100 + v.number % 500 else 0 end
      from vouchers v cross join generate_series(1, 4) k
      where v.book_id = ${book.id}`);
    await tx.execute(sql`
      insert into book_balances (agency_id, book_id, account_id, aux_item_id, period, debit, credit)
      select ${agencyId}, book_id, account_id, aux_item_id, period, sum(debit), sum(credit)
      from voucher_lines where book_id = ${book.id}
      group by book_id, account_id, aux_item_id, period`);
    const [n] = (
      (await tx.execute(sql`select count(*)::int as n from voucher_lines where book_id = ${book.id}`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    expectThat(n?.n === BOOK_LINES, `seeded ${n?.n} lines, expected ${BOOK_LINES}`);
  });
  bookBench.seededMs = performance.now() - t0;
}
