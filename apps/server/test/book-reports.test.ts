import {
  type BalanceRow,
  BOOK_REPORT_FILES,
  balanceSheetCall,
  CODE,
  columnLedgerCall,
  type DetailRow,
  detailLedgerCall,
  type GeneralAccount,
  generalLedgerCall,
  reportBooksCall,
  type Statement,
  statementCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { bookCloses, bookOpenings } from '../src/db/schema/index.js';
import { bookAnswersFor } from '../src/modules/book-reports/books-source.js';
import { accountIdsByCode, createBook } from '../src/modules/books/books.service.js';
import type { ItemRow } from '../src/modules/filing-batch/filing-batch.repo.js';
import { offlineFigures } from '../src/modules/filing-batch/filing-batch.sources.js';
import { createVoucher, type VoucherLineInput } from '../src/modules/voucher-store/voucher-store.js';
import { ENT, ID } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * A hand-worked month (docs/decisions-16-report.md "The test book"): openings 银行存款 100,000.00 = 实收资本;
 * January: buy goods 20,000 by bank; sell 50,000 + 3 % VAT 1,500 to the bank; cost of sales 12,000; wages
 * 8,000 accrued and paid; office 1,200 by bank; 2,000 drawn as cash; a 30,000 loan. February: a sale on
 * credit 10,000 + 300, collected. March: 22 withdrawals of 1.00 (for paging).
 */

let t: TestApp;
let admin = '';
let other = '';
let bookId = 0;
let acc = new Map<string, number>();
const ctx = { agencyId: 1, userId: ID.admin };
const run = <T>(fn: (tx: Parameters<Parameters<typeof inScope>[2]>[0]) => Promise<T>) =>
  inScope(t.db.app, { agencyId: 1, userId: ID.admin, kjgcId: null }, fn);
const Y = (yuan: number) => Math.round(yuan * 100);
const l = (code: string, debit: number, credit: number, summary = '测试'): VoucherLineInput => {
  const id = acc.get(code);
  if (!id) throw new Error(`no account ${code}`);
  return { summary, accountId: id, debit: Y(debit), credit: Y(credit) };
};
const post = (vdate: string, lines: VoucherLineInput[], source?: 'close', sourceRef?: string) =>
  run((tx) => createVoucher(tx, ctx, bookId, { vdate, lines, ...(source ? { source, sourceRef } : {}) }));

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('13800000000');
  other = await t.login('13900000000');
  await run(async (tx) => {
    const b = await createBook(tx, ctx, { enterpriseId: ENT.adminOwn, startPeriod: '2026-01', vatKind: 'small' });
    bookId = b.id;
    acc = await accountIdsByCode(tx, bookId);
    await tx.insert(bookOpenings).values([
      { agencyId: 1, bookId, accountId: acc.get('1002') ?? 0, balance: Y(100_000) },
      { agencyId: 1, bookId, accountId: acc.get('3001') ?? 0, balance: Y(100_000) },
    ]);
  });
  await post('2026-01-05', [l('1405', 20_000, 0, '购入商品'), l('1002', 0, 20_000, '购入商品')]);
  await post('2026-01-10', [l('1002', 51_500, 0, '销售'), l('5001', 0, 50_000, '销售'), l('222101', 0, 1_500, '销售')]);
  await post('2026-01-15', [l('5401', 12_000, 0, '结转成本'), l('1405', 0, 12_000, '结转成本')]);
  await post('2026-01-25', [l('560201', 8_000, 0, '计提工资'), l('221101', 0, 8_000, '计提工资')]);
  await post('2026-01-31', [l('221101', 8_000, 0, '发放工资'), l('1002', 0, 8_000, '发放工资')]);
  await post('2026-01-31', [l('560202', 1_200, 0, '办公用品'), l('1002', 0, 1_200, '办公用品')]);
  await post('2026-01-31', [l('1001', 2_000, 0, '提现'), l('1002', 0, 2_000, '提现')]);
  await post('2026-01-31', [l('1002', 30_000, 0, '借款'), l('2001', 0, 30_000, '借款')]);
  await post('2026-02-10', [l('1122', 10_300, 0, '赊销'), l('5001', 0, 10_000, '赊销'), l('222101', 0, 300, '赊销')]);
  await post('2026-02-20', [l('1002', 10_300, 0, '收款'), l('1122', 0, 10_300, '收款')]);
  for (let i = 0; i < 22; i++)
    await post('2026-03-02', [l('1001', 1, 0, `提现${i + 1}`), l('1002', 0, 1, `提现${i + 1}`)]);
}, 240_000);
afterAll(() => t?.close());

async function ok<T>(path: string, body: unknown, cookie = admin): Promise<T> {
  const r = await t.call<T>(path, body, cookie);
  expect([r.code, r.msg]).toEqual([CODE.OK, '操作成功']);
  return r.data;
}

const balances = (from: string, to: string, extra: Record<string, unknown> = {}) =>
  ok<{ rows: BalanceRow[]; totals: Record<string, number>; balanced: boolean }>(balanceSheetCall.path, {
    bookId,
    from,
    to,
    ...extra,
  });
const statement = (period: string, kind: 'balance' | 'income' | 'cashflow') =>
  ok<Statement>(statementCall.path, { bookId, period, kind });
const line = (s: Statement, no: number) => {
  const found = s.lines.find((x) => x.no === no);
  if (!found) throw new Error(`no line ${no}`);
  return found;
};
const row = (rows: BalanceRow[], code: string) => {
  const r = rows.find((x) => x.code === code);
  if (!r) throw new Error(`no row ${code}`);
  return r;
};

describe('科目余额表', () => {
  it('gives January exactly: openings, movements, closing on each side, parents summing leaves, and totals that balance', async () => {
    const r = await balances('2026-01', '2026-01');
    expect(r.balanced).toBe(true);
    expect(r.totals).toEqual({
      openingDebit: Y(100_000),
      openingCredit: Y(100_000),
      periodDebit: Y(132_700),
      periodCredit: Y(132_700),
      ytdDebit: Y(132_700),
      ytdCredit: Y(132_700),
      closingDebit: Y(181_500),
      closingCredit: Y(181_500),
    });
    const bank = row(r.rows, '1002');
    expect([bank.openingDebit, bank.periodDebit, bank.periodCredit, bank.closingDebit]).toEqual([
      Y(100_000),
      Y(81_500),
      Y(31_200),
      Y(150_300),
    ]);
    expect(row(r.rows, '5602').periodDebit).toBe(Y(9_200));
    expect(row(r.rows, '560201').periodDebit).toBe(Y(8_000));
    expect(row(r.rows, '560202').periodDebit).toBe(Y(1_200));
    const payroll = row(r.rows, '2211');
    expect([payroll.periodDebit, payroll.periodCredit, payroll.closingCredit, payroll.closingDebit]).toEqual([
      Y(8_000),
      Y(8_000),
      0,
      0,
    ]);
    expect(row(r.rows, '2221').closingCredit).toBe(Y(1_500));
    // Accounts with nothing are left out unless asked for; first level only when asked.
    expect(r.rows.some((x) => x.code === '1601')).toBe(false);
    const level1 = await balances('2026-01', '2026-01', { maxLevel: 1 });
    expect(level1.rows.every((x) => x.level === 1)).toBe(true);
    const all = await balances('2026-01', '2026-01', { showZero: true });
    expect(all.rows.some((x) => x.code === '1601')).toBe(true);
  });

  it('takes any period range: February alone opens at January’s close; 本年累计 counts from January', async () => {
    const feb = await balances('2026-02', '2026-02');
    const bank = row(feb.rows, '1002');
    expect([bank.openingDebit, bank.periodDebit, bank.periodCredit, bank.ytdDebit, bank.closingDebit]).toEqual([
      Y(150_300),
      Y(10_300),
      0,
      Y(91_800),
      Y(160_600),
    ]);
    const both = await balances('2026-01', '2026-02');
    expect(row(both.rows, '1002').periodDebit).toBe(Y(91_800));
    expect(row(both.rows, '5001').periodCredit).toBe(Y(60_000));
    expect(both.balanced).toBe(true);
  });

  it('refuses a range before the books start, reversed, or another agency’s book', async () => {
    const before = await t.call(balanceSheetCall.path, { bookId, from: '2025-12', to: '2026-01' }, admin);
    expect([before.code, before.msg]).toEqual([CODE.BAD_REQUEST, '查询期间早于账套启用期间2026-01']);
    const reversed = await t.call(balanceSheetCall.path, { bookId, from: '2026-02', to: '2026-01' }, admin);
    expect(reversed.msg).toBe('起始期间不能晚于结束期间');
    const theirs = await t.call(balanceSheetCall.path, { bookId, from: '2026-01', to: '2026-01' }, other);
    expect([theirs.code, theirs.msg]).toEqual([CODE.NOT_FOUND, '账套不存在或无权访问']);
    // An accountant of the same agency sees only the clients given to them (this one is the administrator's).
    const li = await t.login('13800000001');
    const notHers = await t.call(statementCall.path, { bookId, period: '2026-01', kind: 'balance' }, li);
    expect([notHers.code, notHers.msg]).toEqual([CODE.NOT_FOUND, '账套不存在或无权访问']);
    const books = await t.call<{ total: number }>(reportBooksCall.path, {}, other);
    expect(books.data.total).toBe(0);
    const mine = await ok<{ list: { bookId: number }[] }>(reportBooksCall.path, {});
    expect(mine.list.map((b) => b.bookId)).toContain(bookId);
  });
});

describe('总账, 明细账 and 多栏账', () => {
  it('总账 of 银行存款: opening, then each month’s totals and the running year', async () => {
    const r = await ok<{ accounts: GeneralAccount[] }>(generalLedgerCall.path, {
      bookId,
      from: '2026-01',
      to: '2026-02',
      accountId: acc.get('1002'),
    });
    expect(r.accounts[0]?.rows).toEqual([
      { period: '2026-01', kind: 'opening', debit: 0, credit: 0, dir: '借', balance: Y(100_000) },
      { period: '2026-01', kind: 'period', debit: Y(81_500), credit: Y(31_200), dir: '借', balance: Y(150_300) },
      { period: '2026-01', kind: 'ytd', debit: Y(81_500), credit: Y(31_200), dir: '借', balance: Y(150_300) },
      { period: '2026-02', kind: 'period', debit: Y(10_300), credit: 0, dir: '借', balance: Y(160_600) },
      { period: '2026-02', kind: 'ytd', debit: Y(91_800), credit: Y(31_200), dir: '借', balance: Y(160_600) },
    ]);
  });

  it('明细账 lists the lines in voucher order with the running balance, also on a later page', async () => {
    type Detail = {
      list: DetailRow[];
      total: number;
      opening: number;
      closing: number;
      cursor: { next: string | null };
    };
    const jan = await ok<Detail>(detailLedgerCall.path, {
      bookId,
      from: '2026-01',
      to: '2026-02',
      codes: ['1002'],
      pageSize: 20,
    });
    expect(jan.total).toBe(7);
    expect(jan.opening).toBe(Y(100_000));
    expect(jan.list.map((x) => [x.voucherNo, x.debit, x.credit, x.balance])).toEqual([
      ['记-1', 0, Y(20_000), Y(80_000)],
      ['记-2', Y(51_500), 0, Y(131_500)],
      ['记-5', 0, Y(8_000), Y(123_500)],
      ['记-6', 0, Y(1_200), Y(122_300)],
      ['记-7', 0, Y(2_000), Y(120_300)],
      ['记-8', Y(30_000), 0, Y(150_300)],
      ['记-2', Y(10_300), 0, Y(160_600)],
    ]);
    const first = await ok<Detail>(detailLedgerCall.path, {
      bookId,
      from: '2026-03',
      to: '2026-03',
      codes: ['1002'],
      pageSize: 20,
    });
    expect(first.total).toBe(22);
    expect(first.list[19]?.balance).toBe(Y(160_600) - Y(20));
    const second = await ok<Detail>(detailLedgerCall.path, {
      bookId,
      from: '2026-03',
      to: '2026-03',
      codes: ['1002'],
      pageSize: 20,
      pageNo: 2,
      cursor: first.cursor.next,
    });
    expect(second.list.map((x) => [x.voucherNo, x.balance])).toEqual([
      ['记-21', Y(160_600) - Y(21)],
      ['记-22', Y(160_600) - Y(22)],
    ]);
    const jump = await ok<Detail>(detailLedgerCall.path, {
      bookId,
      from: '2026-03',
      to: '2026-03',
      codes: ['1002'],
      pageSize: 20,
      pageNo: 2,
    });
    expect(jump.list.map((x) => x.balance)).toEqual(second.list.map((x) => x.balance));
    expect(second.closing).toBe(Y(160_578));
  });

  it('多栏账 of 管理费用 spreads each month over its sub-accounts', async () => {
    const r = await ok<{
      columns: { code: string }[];
      rows: { kind: string; period: string; debit: number; amounts: number[] }[];
    }>(columnLedgerCall.path, { bookId, from: '2026-01', to: '2026-02', accountId: acc.get('5602') });
    const i1 = r.columns.findIndex((c) => c.code === '560201');
    const i2 = r.columns.findIndex((c) => c.code === '560202');
    const jan = r.rows.find((x) => x.kind === 'period' && x.period === '2026-01');
    expect(jan?.debit).toBe(Y(9_200));
    expect([jan?.amounts[i1], jan?.amounts[i2]]).toEqual([Y(8_000), Y(1_200)]);
    const leaf = await t.call(
      columnLedgerCall.path,
      { bookId, from: '2026-01', to: '2026-01', accountId: acc.get('1001') },
      admin,
    );
    expect(leaf.msg).toBe('科目“库存现金”没有下级科目，多栏账须选择有下级科目的科目');
  });
});

describe('财务报表', () => {
  it('资产负债表 balances before 结转损益 (the year’s profit counted in 未分配利润) with exact lines', async () => {
    const s = await statement('2026-01', 'balance');
    expect(s.form).toBe('会小企01表');
    expect(line(s, 1).a).toBe(Y(152_300));
    expect(line(s, 9).a).toBe(Y(8_000));
    expect(line(s, 12).a).toBe(Y(8_000));
    expect(line(s, 30).a).toBe(Y(160_300));
    expect(line(s, 31).a).toBe(Y(30_000));
    expect(line(s, 36).a).toBe(Y(1_500));
    expect(line(s, 47).a).toBe(Y(31_500));
    expect(line(s, 48).a).toBe(Y(100_000));
    expect(line(s, 51).a).toBe(Y(28_800));
    expect(line(s, 53).a).toBe(Y(160_300));
    expect([line(s, 30).b, line(s, 53).b]).toEqual([Y(100_000), Y(100_000)]);
    expect(s.checks.every((c) => c.ok)).toBe(true);
    expect(line(s, 1).codes).toEqual(['1001', '1002', '1012']);
  });

  it('利润表 and 现金流量表 of January, exact; cash ties to 货币资金', async () => {
    const inc = await statement('2026-01', 'income');
    expect([
      line(inc, 1).b,
      line(inc, 2).b,
      line(inc, 14).b,
      line(inc, 16).b,
      line(inc, 21).b,
      line(inc, 32).b,
    ]).toEqual([Y(50_000), Y(12_000), Y(9_200), 0, Y(28_800), Y(28_800)]);
    expect(inc.checks.every((c) => c.ok)).toBe(true);
    const cf = await statement('2026-01', 'cashflow');
    const month = (no: number) => line(cf, no).b;
    expect([
      month(1),
      month(3),
      month(4),
      month(6),
      month(7),
      month(14),
      month(19),
      month(20),
      month(21),
      month(22),
    ]).toEqual([
      Y(51_500),
      Y(20_000),
      Y(8_000),
      Y(1_200),
      Y(22_300),
      Y(30_000),
      Y(30_000),
      Y(52_300),
      Y(100_000),
      Y(152_300),
    ]);
    expect(cf.checks.every((c) => c.ok)).toBe(true);
    const bs = await statement('2026-01', 'balance');
    expect(month(22)).toBe(line(bs, 1).a);
  });

  it('after 结转损益 the balance sheet still balances, 利润表 is unchanged, and February counts the year', async () => {
    await post(
      '2026-01-31',
      [
        l('5001', 50_000, 0, '结转损益'),
        l('5401', 0, 12_000, '结转损益'),
        l('560201', 0, 8_000, '结转损益'),
        l('560202', 0, 1_200, '结转损益'),
        l('3103', 0, 28_800, '结转损益'),
      ],
      'close',
      'profit',
    );
    const bs = await statement('2026-01', 'balance');
    expect([line(bs, 30).a, line(bs, 51).a, line(bs, 53).a]).toEqual([Y(160_300), Y(28_800), Y(160_300)]);
    const inc = await statement('2026-01', 'income');
    expect(line(inc, 32).b).toBe(Y(28_800));
    const feb = await statement('2026-02', 'income');
    expect([line(feb, 1).b, line(feb, 1).a, line(feb, 32).b, line(feb, 32).a]).toEqual([
      Y(10_000),
      Y(60_000),
      Y(10_000),
      Y(38_800),
    ]);
    const febBs = await statement('2026-02', 'balance');
    expect([line(febBs, 30).a, line(febBs, 51).a, line(febBs, 53).a]).toEqual([Y(170_600), Y(38_800), Y(170_600)]);
    const febCf = await statement('2026-02', 'cashflow');
    expect([line(febCf, 1).b, line(febCf, 21).b, line(febCf, 22).b, line(febCf, 1).a, line(febCf, 21).a]).toEqual([
      Y(10_300),
      Y(152_300),
      Y(162_600),
      Y(61_800),
      Y(100_000),
    ]);
    expect(febCf.checks.every((c) => c.ok)).toBe(true);
    // The trial balance still holds with the transfer in.
    expect((await balances('2026-01', '2026-03')).balanced).toBe(true);
  });

  it('drills from a figure to its lines: 货币资金’s lines sum to its movement', async () => {
    const bs = await statement('2026-02', 'balance');
    const d = await ok<{ list: DetailRow[]; total: number; closing: number }>(detailLedgerCall.path, {
      bookId,
      from: '2026-01',
      to: '2026-02',
      codes: line(bs, 1).codes,
      pageSize: 100,
    });
    expect(d.total).toBe(8);
    expect(d.closing).toBe(line(bs, 1).a);
  });

  it('exports a statement and a ledger as .xlsx and PDF', async () => {
    const send = (path: string, body: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/${path}`, payload: body as object, headers: { cookie: admin } });
    const pdf = await send(BOOK_REPORT_FILES.statement, { bookId, period: '2026-01', kind: 'balance', format: 'pdf' });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const xlsx = await send(BOOK_REPORT_FILES.ledger, {
      bookId,
      from: '2026-01',
      to: '2026-03',
      kind: 'balances',
      format: 'xlsx',
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.readUInt32BE(0)).toBe(0x504b0304);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const values: unknown[][] = [];
    ws?.eachRow((r) => {
      values.push((r.values as unknown[]).slice(1));
    });
    const bank = values.find((v) => v[0] === '1002');
    expect(bank?.[8]).toBe(160_578);
    const detail = await send(BOOK_REPORT_FILES.ledger, {
      bookId,
      from: '2026-01',
      to: '2026-03',
      kind: 'detail',
      codes: ['1002'],
      format: 'pdf',
    });
    expect(detail.statusCode).toBe(200);
    const theirs = await t.app.inject({
      method: 'POST',
      url: `/api/${BOOK_REPORT_FILES.statement}`,
      payload: { bookId, period: '2026-01', kind: 'balance', format: 'pdf' },
      headers: { cookie: other },
    });
    expect(JSON.parse(theirs.payload).code).toBe(CODE.NOT_FOUND);
  });
});

describe('the books feed the declarations', () => {
  it('a closed period gives 财务报表 and 企业所得税 figures (source books); an open one asks for typing with the reason', async () => {
    const item = (id: number, taxType: 'cwbb' | 'qysds', skssqq: string, skssqz: string) =>
      ({ id, taxType, skssqq, skssqz }) as unknown as ItemRow;
    const items = [
      item(1, 'cwbb', '2026-01-01', '2026-01-31'),
      item(2, 'qysds', '2026-01-01', '2026-01-31'),
      item(3, 'cwbb', '2026-02-01', '2026-02-28'),
    ];
    await run((tx) => tx.insert(bookCloses).values({ agencyId: 1, bookId, period: '2026-01', closedBy: ID.admin }));
    const answers = await run((tx) => bookAnswersFor(tx, 1, ENT.adminOwn, items));
    const cwbb = offlineFigures(items[0] as ItemRow, answers.get(1));
    expect(cwbb).toMatchObject({
      source: 'books',
      state: 'planned',
      srze: Y(50_000),
      sbsj: { zcze: '160300.00', fzze: '31500.00', syzqy: '128800.00', yysr: '50000.00', jlr: '28800.00' },
    });
    const cit = offlineFigures(items[1] as ItemRow, answers.get(2));
    // A200000 as filed (issue 28 point 5): 营业收入, 营业成本 and 利润总额 each as on the income statement (the
    // other 21,200 − 12,000 of expenses are not cost), and 资产总额 as the quarter's average so far,
    // (季初 100,000.00 + 期末 160,300.00) ÷ 2 (国家税务总局公告2022年第5号 / 财政部 税务总局公告2022年第13号).
    expect(cit).toMatchObject({
      source: 'books',
      sbsj: { yysr: '50000.00', yycb: '12000.00', lrze: '28800.00', zcze: '130150.00' },
    });
    const open = offlineFigures(items[2] as ItemRow, answers.get(3));
    expect(open).toMatchObject({ source: 'typed', state: 'needsInput' });
    expect(open.msg).toContain('账簿2026-02尚未结账');
    // A client without books: typed, as before.
    const none = await run((tx) => bookAnswersFor(tx, 1, ENT.liOwn, items));
    expect(offlineFigures(items[0] as ItemRow, none.get(1)).source).toBe('typed');
  });
});
