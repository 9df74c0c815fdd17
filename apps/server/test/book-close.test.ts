import {
  type BookRunRate,
  type BookRunRow,
  batchCloseCall,
  batchCloseRateCall,
  batchCloseReportCall,
  type CloseState,
  CODE,
  closeBookCall,
  closeListCall,
  closeStateCall,
  getQyBookCountInfoCall,
  reopenBookCall,
  transferCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { bookOpenings } from '../src/db/schema/index.js';
import { accountIdsByCode, createBook } from '../src/modules/books/books.service.js';
import { reviewVoucher } from '../src/modules/voucher-store/voucher-store.js';
import { postVoucher } from './book-helpers.js';
import { ADMIN, ENT, ID, LI, OTHER_ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * 期末结转 and 结账 (issue 16 point 5) against hand-worked figures:
 *
 * Book A (小规模, 2026-10; opening 银行存款 = 实收资本 = 200,000.00):
 *   1 借 1122 206,000.00 / 贷 5001 200,000.00, 贷 222101 6,000.00 (sales at 3 %)
 *   2 借 560202 3,000.00 / 贷 1002 3,000.00
 *   3 借 5401 120,000.00 / 贷 1002 120,000.00
 *   4 借 560201 30,000.00 / 贷 221101 30,000.00
 *   计提附加税 on VAT 6,000.00, halved (small-scale, 2026): 城建税 6,000 × 7 % / 2 = 210.00; 教育费附加 and
 *   地方教育附加 not charged: a small-scale book files VAT by quarter and the quarter's sales so far, 200,000, are
 *   within 30万 (财税〔2016〕12号; issue 28 point 3 — the month's 10万 line charged 90.00 + 60.00 before) = 210.00.
 *   结转损益: income 200,000.00, expenses 120,000 + 210 + 30,000 + 3,000 = 153,210.00, profit 46,790.00.
 * Book B (一般纳税人, 2026-10): sales 80,000.00 + 销项 10,400.00; purchase 1405 50,000.00 + 进项 6,500.00.
 *   VAT 3,900.00; 城建税 7 % = 273.00; sales ≤ 10万: 教育费附加 and 地方教育附加 exempt; no halving.
 * Book C (小规模): 借 560202 500.00 / 贷 1001 500.00 with no cash: 库存现金 −500.00 refuses the close.
 */

let t: TestApp;
let admin = '';
const books: Record<'a' | 'b' | 'c', number> = { a: 0, b: 0, c: 0 };
const ctx = { agencyId: 1, userId: ID.admin, kjgcId: null };
const run = <T>(fn: (tx: Parameters<Parameters<typeof inScope>[2]>[0]) => Promise<T>) => inScope(t.db.app, ctx, fn);

type Line = [code: string, debit: number, credit: number];

async function post(bookId: number, vdate: string, lines: Line[], review = false) {
  return run((tx) => postVoucher(tx, ctx, bookId, vdate, lines, { review }));
}

async function voucherLines(voucherId: number) {
  return t.ownerQuery<{ code: string; debit: string; credit: string }>(
    `select a.code, l.debit::text, l.credit::text from voucher_lines l join book_accounts a on a.id = l.account_id
      where l.voucher_id = $1 order by l.seq`,
    [voucherId],
  );
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  await run(async (tx) => {
    const a = await createBook(tx, ctx, { enterpriseId: ENT.adminOwn, startPeriod: '2026-10', vatKind: 'small' });
    const b = await createBook(tx, ctx, { enterpriseId: ENT.zhangOwn, startPeriod: '2026-10', vatKind: 'general' });
    const c = await createBook(tx, ctx, { enterpriseId: ENT.liOwn, startPeriod: '2026-10', vatKind: 'small' });
    books.a = a.id;
    books.b = b.id;
    books.c = c.id;
    const ids = await accountIdsByCode(tx, a.id);
    await tx.insert(bookOpenings).values([
      { agencyId: 1, bookId: a.id, accountId: ids.get('1002') ?? 0, balance: 200_000_00 },
      { agencyId: 1, bookId: a.id, accountId: ids.get('3001') ?? 0, balance: 200_000_00 },
    ]);
  });
  await post(books.a, '2026-10-08', [
    ['1122', 206_000_00, 0],
    ['5001', 0, 200_000_00],
    ['222101', 0, 6_000_00],
  ]);
  await post(books.a, '2026-10-12', [
    ['560202', 3_000_00, 0],
    ['1002', 0, 3_000_00],
  ]);
  await post(books.a, '2026-10-20', [
    ['5401', 120_000_00, 0],
    ['1002', 0, 120_000_00],
  ]);
  await post(books.a, '2026-10-31', [
    ['560201', 30_000_00, 0],
    ['221101', 0, 30_000_00],
  ]);
  await post(books.b, '2026-10-09', [
    ['1122', 90_400_00, 0],
    ['5001', 0, 80_000_00],
    ['22210102', 0, 10_400_00],
  ]);
  await post(books.b, '2026-10-15', [
    ['1405', 50_000_00, 0],
    ['22210101', 6_500_00, 0],
    ['2202', 0, 56_500_00],
  ]);
  await post(
    books.c,
    '2026-10-03',
    [
      ['560202', 500_00, 0],
      ['1001', 0, 500_00],
    ],
    true,
  );
}, 400_000);
afterAll(() => t?.close());

const stateOf = async (bookId: number, cookie = admin) => t.call<CloseState>(closeStateCall.path, { bookId }, cookie);

describe('期末结转', () => {
  it('works the surtax and the profit out of the period and lists what stops the close', async () => {
    const s = await stateOf(books.a);
    expect(s.code, s.msg).toBe(CODE.OK);
    expect(s.data.period).toBe('2026-10');
    expect(s.data.surtax).toEqual({
      vat: 6_000_00,
      sales: 200_000_00,
      cjsRate: 7,
      halved: true,
      eduExempt: true,
      cycle: 'quarter',
      accruedBefore: 0,
      cjs: 210_00,
      edu: 0,
      localEdu: 0,
      total: 210_00,
    });
    // Before the surtax is booked, the profit is 200,000 − 153,000.
    expect(s.data.profit).toBe(47_000_00);
    expect(s.data.canClose).toBe(false);
    const failing = Object.fromEntries(s.data.checks.filter((c) => !c.ok).map((c) => [c.key, c.msg]));
    expect(failing).toEqual({
      unreviewed: '有4张凭证未审核',
      surtax: '未计提附加税（应计提210.00元）',
      profit: '损益类科目期末余额不为零，请先结转损益',
    });
  });

  it('books 计提附加税 once, reviewed, with the hand-worked lines', async () => {
    const r = await t.call<CloseState>(transferCall.path, { bookId: books.a, kind: 'surtax' }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    const step = r.data.steps.find((x) => x.kind === 'surtax');
    expect(step).toMatchObject({ voucherNo: '记-5', voucherTotal: 210_00, amount: 210_00 });
    expect(await voucherLines(step?.voucherId ?? 0)).toEqual([
      // 城建税 on its own 税金及附加 sub-account (issue 28 point 8: 会小企02 line 6 reads it).
      { code: '540302', debit: '21000', credit: '0' },
      { code: '222103', debit: '0', credit: '21000' },
    ]);
    // Again: the same voucher, not a second one.
    const again = await t.call<CloseState>(transferCall.path, { bookId: books.a, kind: 'surtax' }, admin);
    expect(again.data.steps.find((x) => x.kind === 'surtax')?.voucherId).toBe(step?.voucherId);
    const n = await t.ownerQuery<{ n: number; reviewed: number }>(
      `select count(*)::int n, count(*) filter (where review = 'reviewed')::int reviewed
         from vouchers where book_id = $1 and source = 'close'`,
      [books.a],
    );
    expect(n[0]).toEqual({ n: 1, reviewed: 1 });
    expect(again.data.checks.find((c) => c.key === 'surtax')?.ok).toBe(true);
  });

  it('carries every 损益 account to 3103 本年利润 and leaves them at zero', async () => {
    const r = await t.call<CloseState>(transferCall.path, { bookId: books.a, kind: 'profit' }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.profit).toBe(46_790_00);
    const step = r.data.steps.find((x) => x.kind === 'profit');
    expect(step).toMatchObject({ voucherNo: '记-6', voucherTotal: 353_210_00 });
    expect(await voucherLines(step?.voucherId ?? 0)).toEqual([
      { code: '5001', debit: '20000000', credit: '0' },
      { code: '3103', debit: '0', credit: '20000000' },
      { code: '3103', debit: '15321000', credit: '0' },
      { code: '5401', debit: '0', credit: '12000000' },
      { code: '540302', debit: '0', credit: '21000' },
      { code: '560201', debit: '0', credit: '3000000' },
      { code: '560202', debit: '0', credit: '300000' },
    ]);
    const left = await t.ownerQuery<{ code: string; net: string }>(
      `select a.code, sum(b.debit - b.credit)::text net from book_balances b join book_accounts a on a.id = b.account_id
        where b.book_id = $1 and (a.category = 'profit' or a.code = '3103') group by a.code having sum(b.debit - b.credit) <> 0`,
      [books.a],
    );
    expect(left).toEqual([{ code: '3103', net: '-4679000' }]);
    expect(r.data.checks.find((c) => c.key === 'profit')?.ok).toBe(true);
  });

  it('works a general taxpayer: VAT = 销项 − 进项, 教育费附加 exempt at sales ≤ 10万, no halving', async () => {
    const s = await stateOf(books.b);
    expect(s.data.surtax).toEqual({
      vat: 3_900_00,
      sales: 80_000_00,
      cjsRate: 7,
      halved: false,
      eduExempt: true,
      cycle: 'month',
      accruedBefore: 0,
      cjs: 273_00,
      edu: 0,
      localEdu: 0,
      total: 273_00,
    });
    // A client in a county town: 5 %.
    const county = await t.call<CloseState>(closeStateCall.path, { bookId: books.b, cjsRate: 5 }, admin);
    expect(county.data.surtax.cjs).toBe(195_00);
  });
});

describe('结账 and 反结账', () => {
  it('refuses with the reasons while checks fail, then closes and opens the next period', async () => {
    const refused = await t.call(closeBookCall.path, { bookId: books.a }, admin);
    expect(refused.code).toBe(CODE.CONFLICT);
    expect(refused.msg).toBe('有4张凭证未审核');
    const ids = await t.ownerQuery<{ id: number }>(
      "select id from vouchers where book_id = $1 and review = 'unreviewed'",
      [books.a],
    );
    await run(async (tx) => {
      for (const v of ids) await reviewVoucher(tx, ctx, v.id, true);
    });
    const closed = await t.call<CloseState>(closeBookCall.path, { bookId: books.a }, admin);
    expect(closed.code, closed.msg).toBe(CODE.OK);
    expect(closed.data.currentPeriod).toBe('2026-11');
    expect(closed.data.closedPeriods).toEqual(['2026-10']);
    // A closed period takes no vouchers.
    const late = await post(books.a, '2026-10-31', [
      ['560202', 1_00, 0],
      ['1002', 0, 1_00],
    ]).catch((e: Error) => e.message);
    expect(late).toBe('2026-10已结账，不能新增、修改或删除凭证，请先反结账');
    const counts = await t.call<{ curYearMonthJzCount: number }>(getQyBookCountInfoCall.path, {}, admin);
    expect(counts.data.curYearMonthJzCount).toBe(1);
  });

  it('refuses negative cash with the amount', async () => {
    const r = await t.call(closeBookCall.path, { bookId: books.c }, admin);
    expect(r.code).toBe(CODE.CONFLICT);
    expect(r.msg).toBe('库存现金期末余额为负数（-500.00元）；损益类科目期末余额不为零，请先结转损益');
  });

  it('反结账 needs its permission and reopens only the latest closed period', async () => {
    const li = await t.login(LI);
    const denied = await t.call(reopenBookCall.path, { bookId: books.c }, li);
    expect(denied.code).toBe(CODE.NO_PERMISSION);
    const nothing = await t.call(reopenBookCall.path, { bookId: books.c }, admin);
    expect(nothing).toMatchObject({ code: CODE.CONFLICT, msg: '账套还没有已结账的期间' });
    const reopened = await t.call<CloseState>(reopenBookCall.path, { bookId: books.a }, admin);
    expect(reopened.code, reopened.msg).toBe(CODE.OK);
    expect(reopened.data).toMatchObject({ currentPeriod: '2026-10', closedPeriods: [] });
    const counts = await t.call<{ curYearMonthJzCount: number }>(getQyBookCountInfoCall.path, {}, admin);
    expect(counts.data.curYearMonthJzCount).toBe(0);
  });
});

describe('批量结账 (busi/qmJz)', () => {
  async function finished(runId: string) {
    const end = Date.now() + 30_000;
    for (;;) {
      const r = await t.call<BookRunRate>(batchCloseRateCall.path, { runId }, admin);
      if (r.data.state !== 'running' || Date.now() > end) return r.data;
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  it('closes what passes and gives a reason for every refusal', async () => {
    const start = await t.call<{ runId: string }>(
      batchCloseCall.path,
      { period: '2026-10', bookIds: [books.a, books.b, books.c] },
      admin,
    );
    expect(start.code, start.msg).toBe(CODE.OK);
    const rate = await finished(start.data.runId);
    expect(rate).toMatchObject({ state: 'done', totalNum: 3, successNum: 1, failNum: 2, rate: 100 });
    const rep = await t.call<{ list: BookRunRow[]; total: number }>(
      batchCloseReportCall.path,
      { runId: start.data.runId },
      admin,
    );
    const byBook = Object.fromEntries(rep.data.list.map((r) => [r.bookId, [r.state, r.msg]]));
    expect(byBook).toEqual({
      [books.a]: ['ok', '2026-10结账成功'],
      [books.b]: ['failed', '有2张凭证未审核'],
      [books.c]: ['failed', '库存现金期末余额为负数（-500.00元）'],
    });
    // B got its transfers (reviewed) though it could not close; C's loss went to 本年利润.
    const b = await stateOf(books.b);
    expect(b.data.steps.map((s) => s.voucherNo)).toEqual(['记-3', '记-4']);
    const list = await t.call<{ list: { bookId: number; state: string }[] }>(
      closeListCall.path,
      { period: '2026-10' },
      admin,
    );
    expect(Object.fromEntries(list.data.list.map((r) => [r.bookId, r.state]))).toEqual({
      [books.a]: 'closed',
      [books.b]: 'open',
      [books.c]: 'open',
    });
    // Run again: A was closed before (counted, not closed twice).
    const again = await t.call<{ runId: string }>(
      batchCloseCall.path,
      { period: '2026-10', bookIds: [books.a] },
      admin,
    );
    await finished(again.data.runId);
    const rep2 = await t.call<{ list: BookRunRow[] }>(batchCloseReportCall.path, { runId: again.data.runId }, admin);
    expect(rep2.data.list.map((r) => [r.state, r.msg])).toEqual([['ok', '2026-10此前已结账']]);
    const closes = await t.ownerQuery<{ n: number }>('select count(*)::int n from book_closes where book_id = $1', [
      books.a,
    ]);
    expect(closes[0]?.n).toBe(1);
  });

  it('another agency sees nothing', async () => {
    const other = await t.login(OTHER_ADMIN);
    expect((await stateOf(books.a, other)).code).toBe(CODE.NOT_FOUND);
    const b = await t.call(batchCloseCall.path, { period: '2026-10', bookIds: [books.a] }, other);
    expect(b.code).toBe(CODE.NOT_FOUND);
    const runs = await t.ownerQuery<{ id: number }>('select id from book_runs order by id limit 1');
    const rate = await t.call(batchCloseRateCall.path, { runId: String(runs[0]?.id) }, other);
    expect(rate.code).toBe(CODE.NOT_FOUND);
    const list = await t.call<{ total: number }>(closeListCall.path, { period: '2026-10' }, other);
    expect(list.data.total).toBe(0);
    const t2 = await t.call(transferCall.path, { bookId: books.b, kind: 'profit' }, other);
    expect(t2.code).toBe(CODE.NOT_FOUND);
  });
});
