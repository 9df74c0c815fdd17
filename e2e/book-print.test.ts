import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountsCall, saveVoucherCall, setUpCall } from '@dzy/shared';
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
 * 批量打印 in Chromium, from the menu: two clients' books (one with October's vouchers, one without), printed
 * as vouchers + 科目余额表 + 资产负债表 in the background; the runs list shows the run done, 下载 gives a zip of
 * the two PDFs, 明细 says why the second has no vouchers; 打印全部客户 (asked first) gives 该客户未建账 for the
 * clients without books.
 */
let product: Product;
const snap = screenshotsAt('book-print-');

beforeAll(async () => {
  product = await startProduct({ sim: { latencyMs: 5 }, startMs: 180_000 });
}, 240_000);

afterAll(async () => {
  await product?.close();
});

describe('批量打印 in Chromium', () => {
  it('prints two clients’ vouchers and statements in the background and downloads the zip', async () => {
    const page = await product.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    const a = await callAs<{ bookId: number; qymc: string }>(page, setUpCall.path, {
      aeiId: 1,
      startPeriod: '2026-10',
      vatKind: 'small',
    });
    const b = await callAs<{ bookId: number; qymc: string }>(page, setUpCall.path, {
      aeiId: 2,
      startPeriod: '2026-10',
      vatKind: 'small',
    });
    const { list } = await callAs<{ list: { id: number; code: string }[] }>(page, accountsCall.path, {
      bookId: a.bookId,
    });
    const id = (code: string) => list.find((x) => x.code === code)?.id ?? 0;
    await callAs(page, saveVoucherCall.path, {
      bookId: a.bookId,
      vdate: '2026-10-10',
      attachments: 3,
      lines: [
        { accountId: id('1122'), debit: 5_150_000, credit: 0, summary: '销售商品' },
        { accountId: id('5001'), debit: 0, credit: 5_000_000, summary: '销售商品' },
        { accountId: id('222101'), debit: 0, credit: 150_000, summary: '销售商品' },
      ],
    });

    await openFromMenu(page, '账务', '批量打印');
    await visible(page.getByText('打印设置'));
    await visible(page.locator('.ant-table-row').filter({ hasText: a.qymc }));
    // The range defaults to last month (2026-10 on the product's clock).
    await expect.poll(() => page.locator('.dzy-bprint-form .ant-picker input').first().inputValue()).toBe('2026-10');
    const items = page.getByTestId('print-items');
    await items.getByText('科目余额表').click();
    await items.getByText('资产负债表').click();
    for (const name of [a.qymc, b.qymc])
      await page.locator('.ant-table-row').filter({ hasText: name }).locator('.ant-checkbox-input').check();
    await visible(page.getByTestId('print-start').getByText('打印所选（2）'));
    await snap(page, 'form');

    await page.getByTestId('print-start').click();
    await visible(page.getByText(/已开始打印 2 户/));
    const row = page.getByTestId('print-runs').locator('.ant-table-row').first();
    await visible(row.getByText('已完成'), 60_000);
    await visible(row.getByText('共 2 户：已生成 2'));
    await snap(page, 'runs');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: /下载/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('账务打印_2026-10_2户.zip');
    const saved = join(tmpdir(), `book-print-${Date.now()}.zip`);
    await download.saveAs(saved);
    const zip = readFileSync(saved);
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    expect(zip.toString('utf8')).toContain(`${a.qymc}_2026-10.pdf`);

    await row.getByRole('button', { name: '明细' }).click();
    const dialog = page.locator('.ant-modal');
    await visible(dialog.getByText('所选期间没有凭证，已打印账簿和报表'));
    await visible(dialog.getByText(/共\d+页/));
    await snap(page, 'detail');
    await dialog.getByRole('button', { name: '关闭' }).click();

    // Every client in service: those without books say so.
    await page.getByRole('tab', { name: '新建打印' }).click();
    await page.getByRole('button', { name: '打印全部客户' }).click();
    await visible(page.locator('.ant-modal-confirm-title').getByText('打印全部客户？'));
    await page.locator('.ant-modal-confirm').getByRole('button', { name: '开始打印' }).click();
    await visible(page.getByText(/已开始打印 \d+ 户/));
    const all = page.getByTestId('print-runs').locator('.ant-table-row').first();
    await visible(all.getByText('已完成'), 90_000);
    await all.getByRole('button', { name: '明细' }).click();
    await visible(page.getByRole('dialog').getByText('该客户未建账'));
    await snap(page, 'all-detail');
    expect(errors).toEqual([]);
  }, 300_000);
});
