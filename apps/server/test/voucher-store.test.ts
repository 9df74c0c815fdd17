import { CODE } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { bookAccounts, bookOpenings, books } from '../src/db/schema/index.js';
import {
  createVoucher,
  deleteVoucher,
  reviewVoucher,
  updateVoucher,
  type VoucherLineInput,
} from '../src/modules/voucher-store/voucher-store.js';
import { AppError } from '../src/plugins/errors.js';
import { ENT, ID } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let bookId = 0;
const acc: Record<string, number> = {};
const ctx = { agencyId: 1, userId: ID.admin };
const run = <T>(fn: (tx: Parameters<Parameters<typeof inScope>[2]>[0]) => Promise<T>) =>
  inScope(t.db.app, { agencyId: 1, userId: ID.admin, kjgcId: null }, fn);

beforeAll(async () => {
  t = await startTestApp();
  await run(async (tx) => {
    const [b] = await tx
      .insert(books)
      .values({
        agencyId: 1,
        enterpriseId: ENT.adminOwn,
        startPeriod: '2026-01',
        currentPeriod: '2026-01',
        createdBy: ID.admin,
      })
      .returning();
    bookId = b?.id ?? 0;
    const chart: [string, string, 'asset' | 'liability' | 'equity' | 'profit', 'debit' | 'credit', boolean][] = [
      ['1001', '库存现金', 'asset', 'debit', true],
      ['1002', '银行存款', 'asset', 'debit', true],
      ['1122', '应收账款', 'asset', 'debit', true],
      ['2221', '应交税费', 'liability', 'credit', false],
      ['222101', '应交增值税', 'liability', 'credit', true],
      ['3001', '实收资本', 'equity', 'credit', true],
      ['5001', '主营业务收入', 'profit', 'credit', true],
      ['5602', '管理费用', 'profit', 'debit', true],
    ];
    for (const [code, name, category, direction, isLeaf] of chart) {
      const [a] = await tx
        .insert(bookAccounts)
        .values({
          agencyId: 1,
          bookId,
          code,
          name,
          level: code.length === 4 ? 1 : 2,
          category,
          direction,
          isLeaf,
          preset: true,
        })
        .returning();
      acc[code] = a?.id ?? 0;
    }
  });
});
afterAll(() => t?.close());

const line = (code: string, debit: number, credit: number, summary = '测试'): VoucherLineInput => ({
  summary,
  accountId: acc[code] ?? 0,
  debit,
  credit,
});

async function failure(p: Promise<unknown>): Promise<{ code: number; msg: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, msg: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

/** book_balances and the lines agree, per account and period; and every voucher balances. */
async function invariants() {
  const diff = await t.ownerQuery<{ n: number }>(
    `select count(*)::int n from (
       select account_id, period, sum(debit) d, sum(credit) c from voucher_lines where book_id = $1 group by 1, 2
     ) l full join (select account_id, period, debit d, credit c from book_balances where book_id = $1) b
       using (account_id, period)
     where coalesce(l.d, 0) <> coalesce(b.d, 0) or coalesce(l.c, 0) <> coalesce(b.c, 0)`,
    [bookId],
  );
  expect(diff[0]?.n).toBe(0);
  const unbalanced = await t.ownerQuery<{ n: number }>(
    `select count(*)::int n from (select voucher_id from voucher_lines where book_id = $1 group by 1
       having sum(debit) <> sum(credit)) x`,
    [bookId],
  );
  expect(unbalanced[0]?.n).toBe(0);
  const gaps = await t.ownerQuery<{ period: string; n: number; mx: number }>(
    'select period, count(*)::int n, max(number)::int mx from vouchers where book_id = $1 group by period',
    [bookId],
  );
  for (const g of gaps) expect(g.mx, g.period).toBe(g.n);
}

describe('the voucher store', () => {
  it('refuses the first voucher while the opening balances do not balance, then takes it once they do', async () => {
    await run((tx) =>
      tx.insert(bookOpenings).values({ agencyId: 1, bookId, accountId: acc['1002'] ?? 0, balance: 100_000_00 }),
    );
    const refused = await failure(
      run((tx) =>
        createVoucher(tx, ctx, bookId, { vdate: '2026-01-05', lines: [line('1002', 100, 0), line('5001', 0, 100)] }),
      ),
    );
    expect(refused).toEqual({
      code: CODE.CONFLICT,
      msg: '期初余额试算不平衡（借方100,000.00元，贷方0.00元），请先调整期初余额',
    });
    await run((tx) =>
      tx.insert(bookOpenings).values({ agencyId: 1, bookId, accountId: acc['3001'] ?? 0, balance: 100_000_00 }),
    );
    const v = await run((tx) =>
      createVoucher(tx, ctx, bookId, { vdate: '2026-01-05', lines: [line('1002', 100, 0), line('5001', 0, 100)] }),
    );
    expect(v.number).toBe(1);
    await invariants();
  });

  it('refuses what breaks the rules, each with its message', async () => {
    const make = (lines: VoucherLineInput[], vdate = '2026-01-06') =>
      failure(run((tx) => createVoucher(tx, ctx, bookId, { vdate, lines })));
    expect((await make([line('1002', 100, 0), line('5001', 0, 99)])).msg).toBe(
      '借贷不平衡：借方合计1.00元，贷方合计0.99元',
    );
    expect((await make([line('1002', 100, 0), line('2221', 0, 100)])).msg).toBe(
      '第2行：科目“2221 应交税费”有下级科目，请选择末级科目',
    );
    expect((await make([line('1002', 100, 100), line('5001', 0, 0)])).msg).toBe('第1行：借方和贷方只能填一方');
    expect((await make([line('1002', 100, 0)])).msg).toBe('凭证至少需要两行分录');
    expect((await make([line('1002', 100, 0), line('5001', 0, 100)], '2025-12-31')).msg).toBe(
      '会计期间早于账套启用期间2026-01',
    );
  });

  it('keeps numbers without gaps and balances equal to the lines over any sequence of saves, edits, reviews and removals', async () => {
    // A deterministic pseudo-random sequence (the same every run).
    let seed = 20261126;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const codes = ['1001', '1002', '1122', '222101', '5001', '5602'];
    const ids: number[] = [];
    for (let step = 0; step < 60; step++) {
      const op = rnd(10);
      if (op < 5 || ids.length === 0) {
        const a = rnd(90_000) + 1;
        const b = rnd(a) + 1;
        const v = await run((tx) =>
          createVoucher(tx, ctx, bookId, {
            vdate: `2026-0${1 + rnd(3)}-1${rnd(9)}`,
            lines: [
              line(codes[rnd(6)] ?? '1001', a, 0),
              line(codes[rnd(6)] ?? '1001', 0, b),
              line(codes[rnd(6)] ?? '1001', 0, a - b || 0),
            ].filter((l) => l.debit !== 0 || l.credit !== 0),
          }),
        );
        ids.push(v.id);
      } else if (op < 7) {
        const id = ids.splice(rnd(ids.length), 1)[0] ?? 0;
        await run((tx) => deleteVoucher(tx, ctx, id)).catch((e: unknown) => {
          if (!(e instanceof AppError)) throw e;
          ids.push(id); // reviewed: stays
        });
      } else if (op < 8) {
        const id = ids[rnd(ids.length)] ?? 0;
        await run((tx) => reviewVoucher(tx, ctx, id, rnd(2) === 0));
      } else {
        const id = ids[rnd(ids.length)] ?? 0;
        const rows = await t.ownerQuery<{ vdate: string }>('select vdate from vouchers where id = $1', [id]);
        const amount = rnd(50_000) + 1;
        await run((tx) =>
          updateVoucher(tx, ctx, id, {
            vdate: rows[0]?.vdate ?? '2026-01-01',
            lines: [line('5602', amount, 0), line('1001', 0, amount)],
          }),
        ).catch((e: unknown) => {
          if (!(e instanceof AppError)) throw e;
        });
      }
    }
    await invariants();
  });

  it("another agency can neither see nor change the book's vouchers", async () => {
    const [v] = await t.ownerQuery<{ id: number }>('select id from vouchers where book_id = $1 limit 1', [bookId]);
    const other = { agencyId: 2, userId: ID.otherAdmin };
    const res = await failure(
      inScope(t.db.app, { agencyId: 2, userId: ID.otherAdmin, kjgcId: null }, (tx) =>
        deleteVoucher(tx, other, v?.id ?? 0),
      ),
    );
    expect(res.code).toBe(CODE.NOT_FOUND);
    const made = await failure(
      inScope(t.db.app, { agencyId: 2, userId: ID.otherAdmin, kjgcId: null }, (tx) =>
        createVoucher(tx, other, bookId, { vdate: '2026-01-05', lines: [line('1002', 1, 0), line('5001', 0, 1)] }),
      ),
    );
    expect(made.code).toBe(CODE.NOT_FOUND);
  });
});
