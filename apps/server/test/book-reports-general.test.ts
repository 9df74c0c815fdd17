import { CODE, type Statement, statementCall } from '@dzy/shared';
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
 * The statements of a 企业会计准则 book (会企01-03表, the 2019 一般企业 format), on a hand-worked January:
 * openings 银行存款 200,000.00 = 实收资本; buy goods 30,000 by bank; sell 60,000 + 3 % VAT 1,800 to the bank;
 * cost of sales 25,000; wages 10,000 accrued and paid; a fixed asset 12,000 by bank, depreciated 500; a sale on
 * credit 5,000 + 150 with a 300 bad-debt allowance (信用减值损失); a long-term loan 50,000; interest 200 paid.
 *
 *   assets  = bank 259,600 + receivable 5,150 − 300 + goods 5,000 + fixed asset 12,000 − 500 = 280,950
 *   right   = VAT 1,950 + loan 50,000 + capital 200,000 + profit 29,000                    = 280,950
 *   profit  = 65,000 − 25,000 − admin 10,500 − interest 200 − impairment 300               =  29,000
 *   cash    = 200,000 + (61,800 − 30,000 − 10,000) − 12,000 + (50,000 − 200)               = 259,600
 */

let t: TestApp;
let admin = '';
let bookId = 0;
let acc = new Map<string, number>();
const ctx = { agencyId: 1, userId: ID.admin };
const run = <T>(fn: (tx: Parameters<Parameters<typeof inScope>[2]>[0]) => Promise<T>) =>
  inScope(t.db.app, { agencyId: 1, userId: ID.admin, kjgcId: null }, fn);
const Y = (yuan: number) => Math.round(yuan * 100);
const l = (code: string, debit: number, credit: number): VoucherLineInput => {
  const id = acc.get(code);
  if (!id) throw new Error(`no account ${code}`);
  return { summary: '测试', accountId: id, debit: Y(debit), credit: Y(credit) };
};
const post = (vdate: string, lines: VoucherLineInput[]) =>
  run((tx) => createVoucher(tx, ctx, bookId, { vdate, lines }));

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('13800000000');
  await run(async (tx) => {
    const b = await createBook(tx, ctx, {
      enterpriseId: ENT.liOwn,
      startPeriod: '2026-01',
      vatKind: 'small',
      standard: 'general',
    });
    bookId = b.id;
    acc = await accountIdsByCode(tx, bookId);
    await tx.insert(bookOpenings).values([
      { agencyId: 1, bookId, accountId: acc.get('1002') ?? 0, balance: Y(200_000) },
      { agencyId: 1, bookId, accountId: acc.get('4001') ?? 0, balance: Y(200_000) },
    ]);
  });
  await post('2026-01-05', [l('1405', 30_000, 0), l('1002', 0, 30_000)]);
  await post('2026-01-10', [l('1002', 61_800, 0), l('6001', 0, 60_000), l('222101', 0, 1_800)]);
  await post('2026-01-15', [l('6401', 25_000, 0), l('1405', 0, 25_000)]);
  await post('2026-01-25', [l('660201', 10_000, 0), l('221101', 0, 10_000)]);
  await post('2026-01-31', [l('221101', 10_000, 0), l('1002', 0, 10_000)]);
  await post('2026-01-12', [l('1601', 12_000, 0), l('1002', 0, 12_000)]);
  await post('2026-01-31', [l('660205', 500, 0), l('1602', 0, 500)]);
  await post('2026-01-20', [l('1122', 5_150, 0), l('6001', 0, 5_000), l('222101', 0, 150)]);
  await post('2026-01-31', [l('6702', 300, 0), l('1231', 0, 300)]);
  await post('2026-01-18', [l('1002', 50_000, 0), l('2501', 0, 50_000)]);
  await post('2026-01-31', [l('660301', 200, 0), l('1002', 0, 200)]);
}, 240_000);
afterAll(() => t?.close());

async function statement(kind: 'balance' | 'income' | 'cashflow') {
  const r = await t.call<Statement>(statementCall.path, { bookId, period: '2026-01', kind }, admin);
  expect([r.code, r.msg]).toEqual([CODE.OK, '操作成功']);
  return r.data;
}
const byName = (s: Statement) => new Map(s.lines.filter((x) => x.no > 0).map((x) => [x.name, x.a]));

describe('企业会计准则 statements (会企01-03表)', () => {
  it('资产负债表 nets the contra accounts into their lines and balances', async () => {
    const s = await statement('balance');
    expect(s.form).toBe('会企01表');
    expect(s.checks.every((c) => c.ok)).toBe(true);
    const v = byName(s);
    expect(v.get('货币资金')).toBe(Y(259_600));
    expect(v.get('应收账款')).toBe(Y(4_850));
    expect(v.get('存货')).toBe(Y(5_000));
    expect(v.get('固定资产')).toBe(Y(11_500));
    expect(v.get('资产总计')).toBe(Y(280_950));
    expect(v.get('应交税费')).toBe(Y(1_950));
    expect(v.get('长期借款')).toBe(Y(50_000));
    expect(v.get('负债合计')).toBe(Y(51_950));
    expect(v.get('未分配利润')).toBe(Y(29_000));
    expect(v.get('所有者权益（或股东权益）合计')).toBe(Y(229_000));
    expect(v.get('负债和所有者权益（或股东权益）总计')).toBe(Y(280_950));
  });

  it('利润表 shows the impairment as a negative loss and ties to the 损益 accounts', async () => {
    const s = await statement('income');
    expect(s.form).toBe('会企02表');
    expect(s.checks.every((c) => c.ok)).toBe(true);
    const v = byName(s);
    expect(v.get('一、营业收入')).toBe(Y(65_000));
    expect(v.get('减：营业成本')).toBe(Y(25_000));
    expect(v.get('管理费用')).toBe(Y(10_500));
    expect(v.get('研发费用')).toBe(0);
    expect(v.get('财务费用')).toBe(Y(200));
    expect(v.get('其中：利息费用')).toBe(Y(200));
    expect(v.get('信用减值损失（损失以“-”号填列）')).toBe(Y(-300));
    expect(v.get('二、营业利润（亏损以“-”号填列）')).toBe(Y(29_000));
    expect(v.get('四、净利润（净亏损以“-”号填列）')).toBe(Y(29_000));
  });

  it('现金流量表 classifies each cash voucher and ends at the cash accounts', async () => {
    const s = await statement('cashflow');
    expect(s.form).toBe('会企03表');
    expect(s.checks.every((c) => c.ok)).toBe(true);
    const v = byName(s);
    expect(v.get('销售商品、提供劳务收到的现金')).toBe(Y(61_800));
    expect(v.get('购买商品、接受劳务支付的现金')).toBe(Y(30_000));
    expect(v.get('支付给职工以及为职工支付的现金')).toBe(Y(10_000));
    expect(v.get('经营活动产生的现金流量净额')).toBe(Y(21_800));
    expect(v.get('购建固定资产、无形资产和其他长期资产支付的现金')).toBe(Y(12_000));
    expect(v.get('取得借款收到的现金')).toBe(Y(50_000));
    expect(v.get('分配股利、利润或偿付利息支付的现金')).toBe(Y(200));
    expect(v.get('筹资活动产生的现金流量净额')).toBe(Y(49_800));
    expect(v.get('加：期初现金及现金等价物余额')).toBe(Y(200_000));
    expect(v.get('六、期末现金及现金等价物余额')).toBe(Y(259_600));
  });

  it('a closed period of a 企业会计准则 book feeds 财务报表 with its own totals', async () => {
    await run((tx) => tx.insert(bookCloses).values({ agencyId: 1, bookId, period: '2026-01', closedBy: ID.admin }));
    const item = { id: 1, taxType: 'cwbb', skssqq: '2026-01-01', skssqz: '2026-01-31' } as unknown as ItemRow;
    const answers = await run((tx) => bookAnswersFor(tx, 1, ENT.liOwn, [item]));
    expect(offlineFigures(item, answers.get(1))).toMatchObject({
      source: 'books',
      sbsj: { zcze: '280950.00', fzze: '51950.00', syzqy: '229000.00', yysr: '65000.00', jlr: '29000.00' },
    });
  });
});
