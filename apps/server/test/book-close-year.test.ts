import { type CloseState, CODE, closeBookCall, closeStateCall, transferCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { bookOpenings } from '../src/db/schema/index.js';
import { closeOneForRun } from '../src/modules/book-close/close.service.js';
import { accountIdsByCode, createBook } from '../src/modules/books/books.service.js';
import { postVoucher } from './book-helpers.js';
import { ADMIN, ENT, ID } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * 计提所得税 and 结转本年利润 (December of a book that starts mid-year) against hand-worked figures.
 *
 * Books D and E (小规模, start 2026-12), the same openings: 银行存款 290,000.00 借; 实收资本 100,000.00 贷;
 * 本年利润 190,000.00 贷 (January–November's profit after tax); 本年累计 before the start: 主营业务收入 贷
 * 300,000.00, 管理费用 借 100,000.00, 所得税费用 借 10,000.00 (the earlier quarters' accruals).
 * December: 1 借 1002 100,000.00 / 贷 5001 100,000.00 (no VAT: nothing for 计提附加税);
 *           2 借 560202 20,000.00 / 贷 1002 20,000.00.
 * 计提所得税: 利润总额 to date 300,000 + 100,000 − 100,000 − 20,000 = 280,000.00 ≤ 300万 and assets ≤ 5000万:
 *   小型微利, 280,000 × 5 % = 14,000.00 for the year, 10,000.00 accrued → 借 5801 4,000.00 / 贷 222106 4,000.00.
 * 结转损益: 100,000 − 20,000 − 4,000 = 76,000.00 to 本年利润, which then holds 190,000 + 76,000 = 266,000.00 贷
 *   (= 280,000 − 14,000: the year's 净利润).
 * 结转本年利润: 借 3103 266,000.00 / 贷 310404 未分配利润 266,000.00; 本年利润 at zero, the period closes.
 */

let t: TestApp;
let admin = '';
const books = { d: 0, e: 0 };
const ctx = { agencyId: 1, userId: ID.admin, kjgcId: null };
const run = <T>(fn: (tx: Parameters<Parameters<typeof inScope>[2]>[0]) => Promise<T>) => inScope(t.db.app, ctx, fn);

type Line = [code: string, debit: number, credit: number];

async function post(bookId: number, vdate: string, lines: Line[]) {
  return run((tx) => postVoucher(tx, ctx, bookId, vdate, lines));
}

async function voucherLines(voucherId: number) {
  return t.ownerQuery<{ code: string; debit: string; credit: string }>(
    `select a.code, l.debit::text, l.credit::text from voucher_lines l join book_accounts a on a.id = l.account_id
      where l.voucher_id = $1 order by l.seq`,
    [voucherId],
  );
}

async function seedBook(enterpriseId: number) {
  const id = await run(async (tx) => {
    const b = await createBook(tx, ctx, { enterpriseId, startPeriod: '2026-12', vatKind: 'small' });
    const ids = await accountIdsByCode(tx, b.id);
    const acc = (code: string) => ids.get(code) ?? 0;
    await tx.insert(bookOpenings).values([
      { agencyId: 1, bookId: b.id, accountId: acc('1002'), balance: 290_000_00 },
      { agencyId: 1, bookId: b.id, accountId: acc('3001'), balance: 100_000_00 },
      { agencyId: 1, bookId: b.id, accountId: acc('3103'), balance: 190_000_00 },
      { agencyId: 1, bookId: b.id, accountId: acc('5001'), balance: 0, ytdCredit: 300_000_00 },
      { agencyId: 1, bookId: b.id, accountId: acc('560202'), balance: 0, ytdDebit: 100_000_00 },
      { agencyId: 1, bookId: b.id, accountId: acc('5801'), balance: 0, ytdDebit: 10_000_00 },
    ]);
    return b.id;
  });
  await post(id, '2026-12-10', [
    ['1002', 100_000_00, 0],
    ['5001', 0, 100_000_00],
  ]);
  await post(id, '2026-12-20', [
    ['560202', 20_000_00, 0],
    ['1002', 0, 20_000_00],
  ]);
  return id;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  books.d = await seedBook(ENT.adminOwn);
  books.e = await seedBook(ENT.zhangOwn);
}, 400_000);
afterAll(() => t?.close());

const transfer = async (bookId: number, kind: 'incomeTax' | 'profit' | 'yearEnd') => {
  const r = await t.call<CloseState>(transferCall.path, { bookId, kind }, admin);
  expect(r.code, r.msg).toBe(CODE.OK);
  const step = r.data.steps.find((s) => s.kind === kind);
  expect(step?.voucherId).toBeTruthy();
  return { state: r.data, lines: await voucherLines(step?.voucherId ?? 0) };
};

describe('December of a small-enterprise book', () => {
  it('offers 计提所得税 and 结转本年利润 and works the tax from the year’s cumulative profit', async () => {
    const s = await t.call<CloseState>(closeStateCall.path, { bookId: books.d }, admin);
    expect(s.code, s.msg).toBe(CODE.OK);
    expect(s.data.steps.map((x) => x.kind)).toEqual(['surtax', 'incomeTax', 'profit', 'yearEnd']);
    expect(s.data.incomeTax).toEqual({
      profit: 280_000_00,
      // 资产总额 for the 小型微利 test is the quarters' average (季初 + 季末) ÷ 2 (财政部 税务总局公告2022年第13号,
      // 国家税务总局公告2022年第5号): the book starts in December at 290,000.00 and ends it at 370,000.00.
      assets: 330_000_00,
      smallMicro: true,
      cumTax: 14_000_00,
      accrued: 10_000_00,
      tax: 4_000_00,
    });
    expect(s.data.steps.find((x) => x.kind === 'incomeTax')?.amount).toBe(4_000_00);
    // The 所得税 step is optional by default (rule off): no check for it; 本年利润 must be carried over.
    expect(s.data.checks.map((c) => c.key)).not.toContain('incomeTax');
    expect(s.data.checks.find((c) => c.key === 'yearEnd')?.msg).toBe('本年利润余额未结转至利润分配—未分配利润');
  });

  it('posts 所得税, 结转损益 and 本年利润 → 未分配利润, then closes December', async () => {
    const tax = await transfer(books.d, 'incomeTax');
    expect(tax.lines).toEqual([
      { code: '5801', debit: '400000', credit: '0' },
      { code: '222106', debit: '0', credit: '400000' },
    ]);
    // Made again with nothing changed: the same voucher, the tax not charged twice.
    const again = await transfer(books.d, 'incomeTax');
    expect(again.state.incomeTax.tax).toBe(4_000_00);
    expect(again.state.steps.find((x) => x.kind === 'incomeTax')?.voucherId).toBe(
      tax.state.steps.find((x) => x.kind === 'incomeTax')?.voucherId,
    );
    const profit = await transfer(books.d, 'profit');
    expect(profit.state.profit).toBe(76_000_00);
    expect(profit.state.yearProfit).toBe(266_000_00);
    const year = await transfer(books.d, 'yearEnd');
    expect(year.lines).toEqual([
      { code: '3103', debit: '26600000', credit: '0' },
      { code: '310404', debit: '0', credit: '26600000' },
    ]);
    expect(year.state.checks.filter((c) => !c.ok)).toEqual([]);
    const closed = await t.call<CloseState>(closeBookCall.path, { bookId: books.d }, admin);
    expect(closed.code, closed.msg).toBe(CODE.OK);
    expect(closed.data.currentPeriod).toBe('2027-01');
    const bal = await t.ownerQuery<{ code: string; d: string; c: string }>(
      `select a.code, sum(b.debit)::text d, sum(b.credit)::text c from book_balances b join book_accounts a on a.id = b.account_id
        where b.book_id = $1 and a.code in ('3103', '310404', '5801') group by a.code order by a.code`,
      [books.d],
    );
    // 3103: opening 190,000 贷 + 100,000 贷 − 24,000 借 (结转损益, both sides) − 266,000 借 (carried over) = 0.
    expect(bal).toEqual([
      { code: '3103', d: '29000000', c: '10000000' },
      { code: '310404', d: '0', c: '26600000' },
      { code: '5801', d: '400000', c: '400000' },
    ]);
  });

  it('the batch close with the 所得税 rule on makes all four transfers in order and closes', async () => {
    const r = await run((tx) =>
      closeOneForRun(tx, ctx, books.e, '2026-12', { cjsRate: 7, halve: true, incomeTax: true }),
    );
    expect(r).toEqual({ ok: true, msg: '2026-12结账成功' });
    const made = await t.ownerQuery<{ ref: string; number: number; total: string }>(
      `select source_ref ref, number, total::text from vouchers where book_id = $1 and source = 'close' order by number`,
      [books.e],
    );
    expect(made).toEqual([
      { ref: 'incomeTax', number: 3, total: '400000' },
      { ref: 'profit', number: 4, total: '12400000' },
      { ref: 'yearEnd', number: 5, total: '26600000' },
    ]);
  });
});
