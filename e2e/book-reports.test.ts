import {
  accountsCall,
  balanceSheetCall,
  saveOpeningsCall,
  saveVoucherCall,
  setUpCall,
  statementCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callAs,
  DEMO_ADMIN,
  openFromMenu,
  type Product,
  screenshotsAt,
  signIn,
  startProduct,
  visible,
} from './harness';

/**
 * 账簿 and 财务报表 in Chromium: a demo client's book with a month of vouchers (made through the calls the
 * 凭证 page uses), then the pages — 科目余额表 totals, 明细账, the balance sheet balancing, drill-down from a
 * figure to its voucher lines, and both exports offered.
 */
let product: Product;
const snap = screenshotsAt('book-reports-');

beforeAll(async () => {
  product = await startProduct({ sim: { latencyMs: 5 }, startMs: 180_000 });
}, 240_000);

afterAll(async () => {
  await product?.close();
});

describe('账簿 and 财务报表 in Chromium', () => {
  it('shows the month’s ledgers and statements, balanced, with drill-down', async () => {
    const page = await product.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    const book = await callAs<{ bookId: number }>(page, setUpCall.path, {
      aeiId: 1,
      startPeriod: '2026-01',
      vatKind: 'small',
    });
    const { list } = await callAs<{ list: { id: number; code: string }[] }>(page, accountsCall.path, {
      bookId: book.bookId,
    });
    const id = (code: string) => list.find((a) => a.code === code)?.id ?? 0;
    await callAs(page, saveOpeningsCall.path, {
      bookId: book.bookId,
      rows: [
        { accountId: id('1002'), balance: 10_000_000 },
        { accountId: id('3001'), balance: 10_000_000 },
      ],
    });
    const post = (vdate: string, lines: [string, number, number, string][]) =>
      callAs(page, saveVoucherCall.path, {
        bookId: book.bookId,
        vdate,
        lines: lines.map(([code, debit, credit, summary]) => ({ accountId: id(code), debit, credit, summary })),
      });
    await post('2026-01-05', [
      ['1405', 2_000_000, 0, '购入商品'],
      ['1002', 0, 2_000_000, '购入商品'],
    ]);
    await post('2026-01-10', [
      ['1002', 5_150_000, 0, '销售商品'],
      ['5001', 0, 5_000_000, '销售商品'],
      ['222101', 0, 150_000, '销售商品'],
    ]);
    await post('2026-01-15', [
      ['5401', 1_200_000, 0, '结转销售成本'],
      ['1405', 0, 1_200_000, '结转销售成本'],
    ]);
    await post('2026-01-25', [
      ['560201', 800_000, 0, '计提工资'],
      ['221101', 0, 800_000, '计提工资'],
    ]);
    await post('2026-01-31', [
      ['221101', 800_000, 0, '发放工资'],
      ['1002', 0, 800_000, '发放工资'],
    ]);
    await post('2026-01-31', [
      ['560202', 120_000, 0, '购办公用品'],
      ['1002', 0, 120_000, '购办公用品'],
    ]);
    const direct = await callAs<{ totals: { closingDebit: number } }>(page, balanceSheetCall.path, {
      bookId: book.bookId,
      from: '2026-01',
      to: '2026-01',
    });
    expect(direct.totals.closingDebit).toBe(15_150_000);
    await callAs(page, statementCall.path, { bookId: book.bookId, period: '2026-01', kind: 'balance' });

    // 账簿: the book chooser opens the remembered (or first) book, its year to the current period.
    await page.evaluate((b) => window.localStorage.setItem('dzy.books.lastBookId', String(b)), book.bookId);
    await openFromMenu(page, '账务', '账簿');
    const table = page.getByTestId('balances-table');
    await visible(table.getByText('银行存款'));
    await visible(page.getByTestId('trial-state').getByText('试算平衡'));
    await expect.poll(() => table.locator('.dzy-report-total').textContent()).toContain('151,500.00');
    await snap(page, 'balances');

    // Drill-down: 银行存款's 本期借方 opens its lines.
    const bankRow = table.locator('tr').filter({ hasText: '1002' }).first();
    await bankRow.locator('button.dzy-report-link').first().click();
    const drawer = page.locator('.ant-drawer');
    await visible(drawer.getByText('销售商品'));
    await expect.poll(() => drawer.getByTestId('detail-summary').textContent()).toContain('期末余额：借 122,300.00');
    await snap(page, 'drill');
    await drawer.locator('.ant-drawer-close').click();

    await page.getByRole('tab', { name: '总账' }).click();
    await visible(page.getByTestId('general-table').getByText('本年累计'));
    await snap(page, 'general');
    await page.getByRole('tab', { name: '多栏账' }).click();
    await page.getByTestId('columns-account').click();
    await page.keyboard.type('5602');
    await page.keyboard.press('Enter');
    await visible(page.getByTestId('columns-table').getByText('办公费'));
    await snap(page, 'columns');
    await page.getByRole('tab', { name: '明细账' }).click();
    await page.getByTestId('detail-account').click();
    await page.keyboard.type('1002');
    await page.keyboard.press('Enter');
    await visible(page.getByTestId('detail-table').getByText('发放工资'));
    await snap(page, 'detail');

    // 财务报表: the balance sheet balances before 结转损益; 利润表 and 现金流量表.
    await openFromMenu(page, '账务', '财务报表');
    await visible(page.getByTestId('statement-table').getByText('货币资金'));
    await expect.poll(() => page.getByTestId('statement-check').count()).toBe(2);
    await expect.poll(() => page.locator('.ant-alert-success').count()).toBe(2);
    await visible(page.getByTestId('statement-table').getByText('130,300.00'));
    await snap(page, 'balance-sheet');
    await page.locator('.ant-segmented-item').filter({ hasText: '利润表' }).click();
    await visible(page.getByTestId('statement-table').getByText('一、营业收入'));
    await visible(page.getByTestId('statement-table').getByText('28,800.00'));
    await snap(page, 'income');
    await page.locator('.ant-segmented-item').filter({ hasText: '现金流量表' }).click();
    await visible(page.getByTestId('statement-table').getByText('销售产成品、商品、提供劳务收到的现金'));
    await expect.poll(() => page.locator('.ant-alert-success').count()).toBe(2);
    await snap(page, 'cashflow');
    expect(await page.getByTestId('statement-export-pdf').isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  }, 180_000);
});
