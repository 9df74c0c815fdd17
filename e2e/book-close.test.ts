import {
  accountsCall,
  reviewVouchersCall,
  saveOpeningsCall,
  saveVoucherCall,
  setUpCall,
  vouchersCall,
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
 * A demo client's month in Chromium: a book, the month's vouchers (made and reviewed through the calls the
 * 凭证 page uses), then 期末结账 — 计提附加税 and 结转损益 made from the page with the hand-worked figures,
 * the checks turning green, 结账 moving the book to the next month — and the 利润表 of the closed month.
 *
 * Small-scale book, 2026-10: sales 50,000.00 + VAT 1,500.00; cost 20,000.00; wages 8,000.00.
 * 计提附加税 on VAT 1,500.00, halved: 城建税 52.50 (教育费附加/地方教育附加 exempt: sales ≤ 10万) = 52.50.
 * 本期利润 = 50,000 − 20,000 − 8,000 − 52.50 = 21,947.50.
 */
let product: Product;
const snap = screenshotsAt('book-close-');

beforeAll(async () => {
  product = await startProduct({ sim: { latencyMs: 5 }, startMs: 180_000 });
}, 240_000);

afterAll(async () => {
  await product?.close();
});

describe('期末结账 in Chromium', () => {
  it('closes a demo client’s month from the page and shows its profit', async () => {
    const page = await product.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    const book = await callAs<{ bookId: number }>(page, setUpCall.path, {
      aeiId: 1,
      startPeriod: '2026-10',
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
    await post('2026-10-10', [
      ['1002', 5_150_000, 0, '销售商品'],
      ['5001', 0, 5_000_000, '销售商品'],
      ['222101', 0, 150_000, '销售商品'],
    ]);
    await post('2026-10-15', [
      ['5401', 2_000_000, 0, '结转销售成本'],
      ['1405', 0, 2_000_000, '结转销售成本'],
    ]);
    await post('2026-10-31', [
      ['560201', 800_000, 0, '计提工资'],
      ['221101', 0, 800_000, '计提工资'],
    ]);

    await page.evaluate((b) => window.localStorage.setItem('dzy.books.lastBookId', String(b)), book.bookId);
    await openFromMenu(page, '账务', '期末结账');
    await visible(page.getByTestId('close-period').getByText('2026-10'));
    await visible(page.getByTestId('check-unreviewed').getByText('有3张凭证未审核'));
    await visible(page.getByTestId('step-surtax').getByText(/城建税 52\.50 元/));
    expect(await page.getByTestId('close-book').isDisabled()).toBe(true);
    await snap(page, 'before');

    const vouchers = await callAs<{ list: { id: number }[] }>(page, vouchersCall.path, {
      bookId: book.bookId,
      periodFrom: '2026-10',
      periodTo: '2026-10',
    });
    await callAs(page, reviewVouchersCall.path, { voucherIds: vouchers.list.map((v) => v.id), reviewed: true });

    await page.getByTestId('step-surtax').getByRole('button', { name: '生成凭证' }).click();
    await visible(page.getByTestId('step-surtax').getByText('已生成 记-4'));
    await page.getByTestId('step-profit').getByRole('button', { name: '生成凭证' }).click();
    await visible(page.getByTestId('step-profit').getByText('已生成 记-5'));
    await visible(page.getByTestId('step-profit').getByText(/本期利润 21,947\.50 元/));
    await expect.poll(() => page.locator('[data-testid^="check-"] .anticon-close-circle').count()).toBe(0);
    await snap(page, 'ready');
    await page.getByTestId('close-book').click();
    await visible(page.getByTestId('close-period').getByText('2026-11'));
    await snap(page, 'closed');

    // November has no business and closes as it is; December, a quarter's and the year's end, offers
    // 计提所得税 (小型微利: 21,947.50 × 5 % = 1,097.38) and 结转本年利润 (21,947.50 − 1,097.38 = 20,850.12).
    await page.getByTestId('close-book').click();
    await visible(page.getByTestId('close-period').getByText('2026-12'));
    await visible(page.getByTestId('step-incomeTax').getByText(/本期应计提 1,097\.38 元/));
    await page.getByTestId('step-incomeTax').getByRole('button', { name: '生成凭证' }).click();
    await visible(page.getByTestId('step-incomeTax').getByText('已生成 记-1'));
    await page.getByTestId('step-profit').getByRole('button', { name: '生成凭证' }).click();
    await visible(page.getByTestId('step-profit').getByText('已生成 记-2'));
    await visible(page.getByTestId('check-yearEnd').getByText('本年利润余额未结转至利润分配—未分配利润'));
    await visible(page.getByTestId('step-yearEnd').getByText(/本年利润余额 20,850\.12 元/));
    await page.getByTestId('step-yearEnd').getByRole('button', { name: '生成凭证' }).click();
    await visible(page.getByTestId('step-yearEnd').getByText('已生成 记-3'));
    await expect.poll(() => page.locator('[data-testid^="check-"] .anticon-close-circle').count()).toBe(0);
    await snap(page, 'december');
    await page.getByTestId('close-book').click();
    await visible(page.getByTestId('close-period').getByText('2027-01'));

    await page.getByRole('tab', { name: '单据生成凭证' }).click();
    await visible(page.getByText('没有采集到该企业的发票'));
    await page.getByRole('tab', { name: '批量结账' }).click();
    await visible(page.locator('.ant-table-row').filter({ hasText: '已结账' }));
    await snap(page, 'batch');

    // The closed month's 利润表: net profit = the transfer's.
    await openFromMenu(page, '账务', '财务报表');
    await page.locator('.ant-segmented-item').filter({ hasText: '利润表' }).click();
    await visible(page.getByTestId('statement-table').getByText('一、营业收入'));
    await snap(page, 'income');

    // 批量打印 renders on the server now (e2e/book-print.test.ts); the closed book is offered there.
    await openFromMenu(page, '账务', '批量打印');
    await visible(page.getByText('打印设置'));
    await snap(page, 'print');

    await openFromMenu(page, '账务', '记账设置');
    await page.getByRole('tab', { name: '记账规则' }).click();
    await visible(page.getByText('销项发票 → 凭证', { exact: false }));
    await snap(page, 'rules');
    expect(errors).toEqual([]);
  }, 240_000);
});
