import { type CloseState, CODE, closeBookCall, closeStateCall, transferCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { createBook } from '../src/modules/books/books.service.js';
import { postVoucher, type VoucherLine } from './book-helpers.js';
import { ADMIN, ENT, ID } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * Issue 28 point 3: the books' 计提附加税 apply the returns' rule (surtaxFor, tax-rules-vat.ts). A small-scale
 * book files VAT by quarter, so 财税〔2016〕12号's line is the quarter's 30万, tested on the quarter to date:
 *   2026-10: sales 200,000.00 at 1 % (VAT 2,000.00). Quarter to date 200,000 ≤ 30万 → 教育费附加 and 地方教育附加
 *            not charged (a monthly test would have charged them: 200,000 > 10万). 城建税 2,000 × 7 % ÷ 2 = 70.00.
 *   2026-11: sales 150,000.00 (VAT 1,500.00). Quarter to date 350,000 > 30万 and VAT 3,500.00: 城建 122.50,
 *            教育 52.50, 地方教育 35.00 for the quarter; October booked 70.00 城建 → November 52.50 + 52.50 + 35.00 = 140.00.
 */
let t: TestApp;
let admin = '';
let book = 0;
const ctx = { agencyId: 1, userId: ID.admin, kjgcId: null };
const run = <T>(fn: (tx: Parameters<Parameters<typeof inScope>[2]>[0]) => Promise<T>) => inScope(t.db.app, ctx, fn);

async function post(vdate: string, lines: VoucherLine[]) {
  return run((tx) => postVoucher(tx, ctx, book, vdate, lines, { summary: '销售' }));
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  book = (
    await run((tx) => createBook(tx, ctx, { enterpriseId: ENT.adminOwn, startPeriod: '2026-10', vatKind: 'small' }))
  ).id;
  await post('2026-10-10', [
    ['1122', 202_000_00, 0],
    ['5001', 0, 200_000_00],
    ['222101', 0, 2_000_00],
  ]);
}, 400_000);
afterAll(() => t?.close());

const stateOf = () => t.call<CloseState>(closeStateCall.path, { bookId: book }, admin);

describe('计提附加税 of a quarterly filer (财税〔2016〕12号: 季度销售额不超过30万元)', () => {
  it('October: the quarter so far is within 30万 — 城建税 only', async () => {
    const s = await stateOf();
    expect(s.code, s.msg).toBe(CODE.OK);
    expect(s.data.surtax).toMatchObject({
      cycle: 'quarter',
      vat: 2_000_00,
      sales: 200_000_00,
      eduExempt: true,
      halved: true,
      cjs: 70_00,
      edu: 0,
      localEdu: 0,
      total: 70_00,
      accruedBefore: 0,
    });
    for (const kind of ['surtax', 'profit'] as const) {
      const r = await t.call<CloseState>(transferCall.path, { bookId: book, kind }, admin);
      expect(r.code, r.msg).toBe(CODE.OK);
    }
    const closed = await t.call<CloseState>(closeBookCall.path, { bookId: book }, admin);
    expect(closed.code, closed.msg).toBe(CODE.OK);
    expect(closed.data.currentPeriod).toBe('2026-11');
  });

  it('November: the quarter passes 30万 — the quarter’s surtax less what October booked', async () => {
    await post('2026-11-10', [
      ['1122', 151_500_00, 0],
      ['5001', 0, 150_000_00],
      ['222101', 0, 1_500_00],
    ]);
    const s = await stateOf();
    expect(s.data.surtax).toMatchObject({
      cycle: 'quarter',
      vat: 3_500_00,
      sales: 350_000_00,
      eduExempt: false,
      accruedBefore: 70_00,
      cjs: 52_50,
      edu: 52_50,
      localEdu: 35_00,
      total: 140_00,
    });
    const r = await t.call<CloseState>(transferCall.path, { bookId: book, kind: 'surtax' }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.steps.find((x) => x.kind === 'surtax')).toMatchObject({ amount: 140_00, voucherTotal: 140_00 });
    // The quarter's accruals now equal the quarter's surtax: 城建 122.50, 教育 52.50, 地方教育 35.00.
    const booked = await t.ownerQuery<{ code: string; credit: string }>(
      `select a.code, sum(l.credit)::text credit from voucher_lines l join vouchers v on v.id = l.voucher_id
         join book_accounts a on a.id = l.account_id
        where l.book_id = $1 and v.source = 'close' and v.source_ref = 'surtax' and l.credit > 0
        group by a.code order by a.code`,
      [book],
    );
    expect(booked).toEqual([
      { code: '222103', credit: '12250' },
      { code: '222104', credit: '5250' },
      { code: '222105', credit: '3500' },
    ]);
  });
});
