import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CloseState, CODE, type Statement, statementCall, transferCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { createBook } from '../src/modules/books/books.service.js';
import { postVoucher, type VoucherLine } from './book-helpers.js';
import { ADMIN, ENT, ID } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * Issue 28 point 8: the 利润表's 其中 lines (会小企02, 小企业会计准则 财会〔2011〕17号 附录; lines 4–10 under 税金及附加,
 * 23 政府补助, 25–29 under 营业外支出) come from the preset chart's sub-accounts, and the product's 计提附加税 posts
 * to them. A hand-worked January 2026 (小企业会计准则, general VAT taxpayer, 城建税 7 %):
 *   sale 200,000.00 + 13 % VAT 26,000.00 → 城建税 26,000 × 7 % = 1,820.00; 月销售额 200,000 > 10万 (财税〔2016〕12号)
 *   so 教育费附加 26,000 × 3 % = 780.00 and 地方教育附加 26,000 × 2 % = 520.00; no 六税两费 halving (一般纳税人, not
 *   set as 小型微利 here). 印花税 (买卖合同 200,000 × 0.3‰ = 60.00) booked by hand to 税金及附加—印花税; a 税收滞纳金 of
 *   100.00; a 政府补助 of 5,000.00.
 *   Line 3 = 1,820 + 780 + 520 + 60 = 3,180.00; line 6 = 1,820.00; line 9 = 60.00; line 10 = 780 + 520 = 1,300.00;
 *   line 21 = 200,000 − 3,180 = 196,820.00; line 30 = 196,820 + 5,000 − 100 = 201,720.00 = line 32.
 * And a book made before the sub-accounts existed (税金及附加 a leaf with a 计提附加税 on it) gets them from
 * migration 0046, its old figure kept on 税金及附加—其他, and its next 计提附加税 goes to 城市维护建设税.
 */
let t: TestApp;
let admin = '';
let book = 0;
let oldBook = 0;
const ctx = { agencyId: 1, userId: ID.admin, kjgcId: null };
const run = <T>(fn: (tx: Parameters<Parameters<typeof inScope>[2]>[0]) => Promise<T>) => inScope(t.db.app, ctx, fn);
const Y = (yuan: number) => Math.round(yuan * 100);

async function post(bookId: number, vdate: string, summary: string, lines: [string, number, number][]) {
  const fen = lines.map(([code, debit, credit]): VoucherLine => [code, Y(debit), Y(credit)]);
  return run((tx) => postVoucher(tx, ctx, bookId, vdate, fen, { summary }));
}

async function ok<T>(path: string, body: unknown): Promise<T> {
  const r = await t.call<T>(path, body, admin);
  expect(r.code, r.msg).toBe(CODE.OK);
  return r.data;
}
const statement = (bookId: number, kind: 'income' | 'balance') =>
  ok<Statement>(statementCall.path, { bookId, period: '2026-01', kind });
/** [本年累计, 本月] of the lines, by 行次. */
const figures = (s: Statement, nos: number[]) =>
  nos.map((no) => {
    const l = s.lines.find((x) => x.no === no);
    if (!l) throw new Error(`no line ${no}`);
    return [no, l.a, l.b];
  });
const linesOf = (voucherId: number) =>
  t.ownerQuery<{ code: string; name: string; debit: string; credit: string }>(
    `select a.code, a.name, l.debit::text, l.credit::text from voucher_lines l join book_accounts a on a.id = l.account_id
      where l.voucher_id = $1 order by l.seq`,
    [voucherId],
  );

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  book = (
    await run((tx) => createBook(tx, ctx, { enterpriseId: ENT.adminOwn, startPeriod: '2026-01', vatKind: 'general' }))
  ).id;
  await post(book, '2026-01-10', '销售', [
    ['1122', 226_000, 0],
    ['5001', 0, 200_000],
    ['22210102', 0, 26_000],
  ]);
  await post(book, '2026-01-15', '计提印花税', [
    ['540308', 60, 0],
    ['222108', 0, 60],
  ]);
  await post(book, '2026-01-20', '税收滞纳金', [
    ['571105', 100, 0],
    ['2241', 0, 100],
  ]);
  await post(book, '2026-01-25', '政府补助', [
    ['1002', 5_000, 0],
    ['530101', 0, 5_000],
  ]);
}, 400_000);
afterAll(() => t?.close());

describe('the preset chart has the 利润表’s sub-accounts', () => {
  it('税金及附加, 营业外支出, 营业外收入, 销售费用 and 管理费用 carry the 其中 lines’ names', async () => {
    const rows = await t.ownerQuery<{ code: string; name: string; is_leaf: boolean }>(
      `select code, name, is_leaf from book_accounts where book_id = $1 and code ~ '^(5403|5711|5301)' order by code`,
      [book],
    );
    expect(rows.map((r) => `${r.code} ${r.name}`)).toEqual([
      '5301 营业外收入',
      '530101 政府补助',
      '530199 其他',
      '5403 税金及附加',
      '540301 消费税',
      '540302 城市维护建设税',
      '540303 资源税',
      '540304 土地增值税',
      '540305 城镇土地使用税',
      '540306 房产税',
      '540307 车船税',
      '540308 印花税',
      '540309 教育费附加',
      '540310 地方教育附加',
      '540399 其他',
      '5711 营业外支出',
      '571101 坏账损失',
      '571102 无法收回的长期债券投资损失',
      '571103 无法收回的长期股权投资损失',
      '571104 自然灾害等不可抗力因素造成的损失',
      '571105 税收滞纳金',
      '571199 其他',
    ]);
    expect(rows.filter((r) => !r.is_leaf).map((r) => r.code)).toEqual(['5301', '5403', '5711']);
    const more = await t.ownerQuery<{ code: string; name: string }>(
      `select code, name from book_accounts where book_id = $1 and code in ('560106', '560215', '560216') order by code`,
      [book],
    );
    expect(more).toEqual([
      { code: '560106', name: '商品维修费' },
      { code: '560215', name: '开办费' },
      { code: '560216', name: '研究费用' },
    ]);
  });
});

describe('计提附加税 posts each surtax to its own 税金及附加 sub-account', () => {
  it('城建税, 教育费附加 and 地方教育附加 each on its line of the voucher', async () => {
    const r = await ok<CloseState>(transferCall.path, { bookId: book, kind: 'surtax' });
    expect(r.surtax).toMatchObject({
      vat: Y(26_000),
      sales: Y(200_000),
      halved: false,
      eduExempt: false,
      cjs: Y(1_820),
      edu: Y(780),
      localEdu: Y(520),
      total: Y(3_120),
    });
    const step = r.steps.find((s) => s.kind === 'surtax');
    expect(step?.voucherTotal).toBe(Y(3_120));
    expect(await linesOf(step?.voucherId ?? 0)).toEqual([
      { code: '540302', name: '城市维护建设税', debit: '182000', credit: '0' },
      { code: '540309', name: '教育费附加', debit: '78000', credit: '0' },
      { code: '540310', name: '地方教育附加', debit: '52000', credit: '0' },
      { code: '222103', name: '应交城市维护建设税', debit: '0', credit: '182000' },
      { code: '222104', name: '应交教育费附加', debit: '0', credit: '78000' },
      { code: '222105', name: '应交地方教育附加', debit: '0', credit: '52000' },
    ]);
    expect(r.checks.find((c) => c.key === 'surtax')?.ok).toBe(true);
  });
});

describe('会小企02 其中 lines from the sub-accounts', () => {
  const expected = [
    [1, Y(200_000), Y(200_000)],
    [3, Y(3_180), Y(3_180)],
    [4, 0, 0],
    [5, 0, 0],
    [6, Y(1_820), Y(1_820)],
    [7, 0, 0],
    [8, 0, 0],
    [9, Y(60), Y(60)],
    [10, Y(1_300), Y(1_300)],
    [21, Y(196_820), Y(196_820)],
    [22, Y(5_000), Y(5_000)],
    [23, Y(5_000), Y(5_000)],
    [24, Y(100), Y(100)],
    [25, 0, 0],
    [26, 0, 0],
    [27, 0, 0],
    [28, 0, 0],
    [29, Y(100), Y(100)],
    [30, Y(201_720), Y(201_720)],
    [32, Y(201_720), Y(201_720)],
  ];
  const nos = expected.map((e) => e[0] as number);

  it('shows the accrued taxes on lines 6, 9 and 10 and the statement ties to the ledger', async () => {
    const inc = await statement(book, 'income');
    expect(figures(inc, nos)).toEqual(expected);
    const names = Object.fromEntries(inc.lines.filter((l) => l.no > 0).map((l) => [l.no, l.name]));
    expect([names[6], names[9], names[10], names[29]]).toEqual([
      '城市维护建设税',
      '城镇土地使用税、房产税、车船税、印花税',
      '教育费附加、矿产资源补偿费、排污费',
      '税收滞纳金',
    ]);
    expect(inc.checks.length).toBeGreaterThan(0);
    expect(inc.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('after 结转损益 the lines are unchanged and the balance sheet balances', async () => {
    await ok<CloseState>(transferCall.path, { bookId: book, kind: 'profit' });
    const inc = await statement(book, 'income');
    expect(figures(inc, nos)).toEqual(expected);
    expect(inc.checks.filter((c) => !c.ok)).toEqual([]);
    const bs = await statement(book, 'balance');
    expect(bs.checks.filter((c) => !c.ok)).toEqual([]);
    // 未分配利润 (line 51) holds the month's 净利润.
    expect(bs.lines.find((l) => l.no === 51)?.a).toBe(Y(201_720));
  });
});

describe('migration 0046 on a book made before the sub-accounts', () => {
  const migration = readFileSync(
    resolve(import.meta.dirname, '../src/db/migrations/0046_income_statement_subaccounts.sql'),
    'utf8',
  )
    .split('\n')
    .filter((l) => !l.startsWith('--'))
    .join('\n');

  it('adds the sub-accounts, keeps the old figure on 其他, and the next 计提附加税 uses 城市维护建设税', async () => {
    oldBook = (
      await run((tx) => createBook(tx, ctx, { enterpriseId: ENT.liOwn, startPeriod: '2026-01', vatKind: 'small' }))
    ).id;
    // The chart as it was before issue 28 point 8: 税金及附加, 营业外收入, 营业外支出 without sub-accounts.
    await t.ownerQuery(
      `delete from book_accounts where book_id = $1 and code ~ '^(5403|5711|5301|560106|56021[56])'
      and level > 1`,
      [oldBook],
    );
    await t.ownerQuery(
      `update book_accounts set is_leaf = true where book_id = $1 and code in ('5403', '5711', '5301')`,
      [oldBook],
    );
    // An old 计提附加税: the whole surtax on 税金及附加 itself.
    await post(oldBook, '2026-01-31', '计提附加税', [
      ['5403', 35, 0],
      ['222103', 0, 35],
    ]);
    const before = await statement(oldBook, 'income');
    expect(figures(before, [3, 6])).toEqual([
      [3, Y(35), Y(35)],
      [6, 0, 0],
    ]);

    await t.ownerQuery(migration);
    const accounts = await t.ownerQuery<{ code: string; is_leaf: boolean }>(
      `select code, is_leaf from book_accounts where book_id = $1 and code ~ '^(5403|5711|5301|5601|5602)'
        order by code`,
      [oldBook],
    );
    const codes = accounts.map((a) => a.code);
    for (const c of [
      '540302',
      '540308',
      '540309',
      '540310',
      '540399',
      '571105',
      '571199',
      '530101',
      '560106',
      '560216',
    ])
      expect(codes).toContain(c);
    expect(accounts.filter((a) => ['5403', '5711', '5301'].includes(a.code)).every((a) => !a.is_leaf)).toBe(true);
    const moved = await t.ownerQuery<{ code: string; debit: string }>(
      `select a.code, sum(b.debit)::text debit from book_balances b join book_accounts a on a.id = b.account_id
        where b.book_id = $1 and a.code like '5403%' group by a.code`,
      [oldBook],
    );
    expect(moved).toEqual([{ code: '540399', debit: '3500' }]);
    const after = await statement(oldBook, 'income');
    expect(figures(after, [3, 6])).toEqual([
      [3, Y(35), Y(35)],
      [6, 0, 0],
    ]);
    expect(after.checks.filter((c) => !c.ok)).toEqual([]);

    // Run again: nothing more is added or moved.
    const n = async () =>
      (await t.ownerQuery<{ n: number }>(`select count(*)::int n from book_accounts where book_id = $1`, [oldBook]))[0]
        ?.n;
    const count = await n();
    await t.ownerQuery(migration);
    expect(await n()).toBe(count);

    // A sale of the quarter: 1 % VAT 1,000.00 on 100,000.00 → 城建税 1,000 × 7 % ÷ 2 (六税两费) = 35.00, within 30万
    // so no 教育费附加 — the old 35.00 on 540399 is not on 222103's 计提附加税 (source 'close'), so all 35.00 is due.
    await post(oldBook, '2026-01-20', '销售', [
      ['1122', 101_000, 0],
      ['5001', 0, 100_000],
      ['222101', 0, 1_000],
    ]);
    const r = await ok<CloseState>(transferCall.path, { bookId: oldBook, kind: 'surtax' });
    expect(r.surtax).toMatchObject({ cjs: Y(35), edu: 0, localEdu: 0, total: Y(35) });
    const step = r.steps.find((s) => s.kind === 'surtax');
    expect(await linesOf(step?.voucherId ?? 0)).toEqual([
      { code: '540302', name: '城市维护建设税', debit: '3500', credit: '0' },
      { code: '222103', name: '应交城市维护建设税', debit: '0', credit: '3500' },
    ]);
    const last = await statement(oldBook, 'income');
    expect(figures(last, [3, 6, 10])).toEqual([
      [3, Y(70), Y(70)],
      [6, Y(35), Y(35)],
      [10, 0, 0],
    ]);
  });
});
