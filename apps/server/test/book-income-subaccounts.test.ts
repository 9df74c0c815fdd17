import { type CloseState, CODE, type Statement, statementCall, transferCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { createBook } from '../src/modules/books/books.service.js';
import { postVoucher, type VoucherLine } from './book-helpers.js';
import { ADMIN, ENT, ID } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * Issue 28 point 8: 会小企02 (小企业会计准则 财会〔2011〕17号 附录 (三) 利润表) lines 4–10 and 23–29 are read from the
 * preset chart's sub-accounts, and 计提附加税 posts to them. A hand-worked small-scale book, 2026-10 (quarterly filer):
 *   sales 400,000.00 at 1 % (VAT 4,000.00); cost 300,000.00. The quarter's sales pass 30万 (财税〔2016〕12号), so all
 *   three surtaxes are due, halved (六税两费, 公告2023年第12号): 城建 4,000 × 7 % ÷ 2 = 140.00, 教育费附加 × 3 % ÷ 2 =
 *   60.00, 地方教育附加 × 2 % ÷ 2 = 40.00 (计提附加税 240.00).
 *   印花税 accrued by hand on 540308: 120.00. 政府补助 received 1,000.00 (530101); 税收滞纳金 paid 50.00 (571105).
 * 利润表: line 3 税金及附加 360.00 = line 6 140.00 + line 9 120.00 + line 10 100.00; line 21 营业利润
 * 400,000 − 300,000 − 360 = 99,640.00; line 22/23 1,000.00; line 24/29 50.00; line 30 利润总额 100,590.00.
 */
let t: TestApp;
let admin = '';
let book = 0;
const ctx = { agencyId: 1, userId: ID.admin, kjgcId: null };
const run = <T>(fn: (tx: Parameters<Parameters<typeof inScope>[2]>[0]) => Promise<T>) => inScope(t.db.app, ctx, fn);

async function post(bookId: number, vdate: string, lines: VoucherLine[], summary = '测试') {
  return run((tx) => postVoucher(tx, ctx, bookId, vdate, lines, { summary }));
}

const income = async (bookId: number, period: string) => {
  const r = await t.call<Statement>(statementCall.path, { bookId, period, kind: 'income' }, admin);
  expect(r.code, r.msg).toBe(CODE.OK);
  return r.data;
};
/** 本月金额 of each line asked for, by 行次. */
const monthOf = (s: Statement, nos: number[]) =>
  Object.fromEntries(nos.map((no) => [no, s.lines.find((x) => x.no === no)?.b]));

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  book = (
    await run((tx) => createBook(tx, ctx, { enterpriseId: ENT.adminOwn, startPeriod: '2026-10', vatKind: 'small' }))
  ).id;
  await post(book, '2026-10-10', [
    ['1122', 404_000_00, 0],
    ['5001', 0, 400_000_00],
    ['222101', 0, 4_000_00],
  ]);
  await post(book, '2026-10-11', [
    ['5401', 300_000_00, 0],
    ['1405', 0, 300_000_00],
  ]);
  await post(book, '2026-10-20', [
    ['540308', 120_00, 0],
    ['222108', 0, 120_00],
  ]);
  await post(book, '2026-10-21', [
    ['1002', 1_000_00, 0],
    ['530101', 0, 1_000_00],
  ]);
  await post(book, '2026-10-22', [
    ['571105', 50_00, 0],
    ['1002', 0, 50_00],
  ]);
}, 400_000);
afterAll(() => t?.close());

// The preset chart's sub-accounts and migration 0046 on an older book: book-reports-sublines.test.ts (a general
// taxpayer's month); this file is the small-scale quarterly filer with the halved surtaxes.
describe('会小企02 其中 lines from the preset sub-accounts (issue 28 point 8)', () => {
  it('计提附加税 debits 城市维护建设税, 教育费附加 and 地方教育附加 each on its own sub-account', async () => {
    const r = await t.call<CloseState>(transferCall.path, { bookId: book, kind: 'surtax' }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.surtax).toMatchObject({ eduExempt: false, halved: true, cjs: 140_00, edu: 60_00, localEdu: 40_00 });
    const lines = await t.ownerQuery<{ code: string; debit: string; credit: string }>(
      `select a.code, l.debit::text debit, l.credit::text credit from voucher_lines l
         join vouchers v on v.id = l.voucher_id join book_accounts a on a.id = l.account_id
        where l.book_id = $1 and v.source = 'close' and v.source_ref = 'surtax' order by l.id`,
      [book],
    );
    expect(lines).toEqual([
      { code: '540302', debit: '14000', credit: '0' },
      { code: '540309', debit: '6000', credit: '0' },
      { code: '540310', debit: '4000', credit: '0' },
      { code: '222103', debit: '0', credit: '14000' },
      { code: '222104', debit: '0', credit: '6000' },
      { code: '222105', debit: '0', credit: '4000' },
    ]);
  });

  it('利润表 lines 4–10 show the accrued taxes, 23–29 the sub-accounts, and the statement ties', async () => {
    const before = await income(book, '2026-10');
    const profit = await t.call<CloseState>(transferCall.path, { bookId: book, kind: 'profit' }, admin);
    expect(profit.code, profit.msg).toBe(CODE.OK);
    // 结转损益 (debit income, credit expenses) does not change a line.
    const s = await income(book, '2026-10');
    expect(s.lines).toEqual(before.lines);
    expect(s.form).toBe('会小企02表');
    expect(monthOf(s, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30])).toEqual({
      1: 400_000_00,
      2: 300_000_00,
      3: 360_00,
      4: 0,
      5: 0,
      6: 140_00,
      7: 0,
      8: 0,
      9: 120_00,
      10: 100_00,
      21: 99_640_00,
      22: 1_000_00,
      23: 1_000_00,
      24: 50_00,
      25: 0,
      26: 0,
      27: 0,
      28: 0,
      29: 50_00,
      30: 100_590_00,
    });
    // The year column is the month (the book starts in October).
    expect(s.lines.find((x) => x.no === 10)?.a).toBe(100_00);
    expect(s.checks.filter((c) => !c.ok)).toEqual([]);
  });
});
