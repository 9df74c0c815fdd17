import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, signIn, startProduct } from './harness';

const visible = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => {
  await product?.close();
});

/** Saves a picture of the page when E2E_SHOTS_DIR is set (for looking at, not for asserting). */
async function snap(page: Page, name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots) await page.screenshot({ path: join(shots, `contract-fee-${name}.png`) });
}

/** "¥1,234.50" → 123450 fen (string arithmetic, as the product does). */
function fenOf(text: string): number {
  const m = /(-?)([\d,]+)\.(\d{2})/.exec(text);
  if (!m) throw new Error(`not money: ${text}`);
  return (Number((m[2] ?? '0').replaceAll(',', '')) * 100 + Number(m[3])) * (m[1] ? -1 : 1);
}

/** The 合计 row's cells as text. */
async function summary(page: Page): Promise<string[]> {
  return page.locator('.ant-table-summary tr').first().locator('td').allTextContents();
}

describe('收费列表 in the browser', () => {
  it('records a partial payment: the row reads 部分收款 and the 合计 changes by the amount', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.goto(`${product.baseUrl}/#/contractFee/sfgl/sflb`);
    await visible(page.locator('tr.ant-table-row'));
    const sums = await summary(page);
    expect(sums[0]).toBe('合计');
    // Money totals (应收, 已收, 未收 at 3-5); from index 4 every other column shows a dash.
    expect(sums.slice(3, 6).every((x) => x.startsWith('¥'))).toBe(true);
    expect(sums.slice(6)).toEqual(['-', '-', '-']);
    await snap(page, 'receivables');

    // A period that still owes something: narrow the list to its contract.
    const owing = page.locator('tr.ant-table-row', { has: page.getByRole('button', { name: '登记收款' }) }).first();
    await visible(owing);
    const contractNo = /合同 (\S+)/.exec((await owing.locator('td').nth(1).textContent()) ?? '')?.[1] ?? '';
    const period = ((await owing.locator('td').nth(2).textContent()) ?? '').trim();
    const periodNo = /第\d+期/.exec(period)?.[0] ?? '';
    expect(contractNo).toMatch(/\S/);
    await page.getByPlaceholder('合同编号').first().fill(contractNo);
    await page
      .getByRole('button', { name: /查\s*询/ })
      .first()
      .click();
    const row = page.locator('tr.ant-table-row', { hasText: periodNo }).filter({ hasText: contractNo }).first();
    await visible(row);
    // The filtered answer is in (rows and 合计 come together): every row is that contract's.
    await expect
      .poll(async () => (await page.locator('tr.ant-table-row').allTextContents()).every((t) => t.includes(contractNo)))
      .toBe(true);
    const before = await summary(page);
    const unpaidBefore = fenOf((await row.locator('td').nth(5).textContent()) ?? '');
    expect(unpaidBefore).toBeGreaterThan(100);

    await row.getByRole('button', { name: '登记收款' }).click();
    const dialog = page.getByRole('dialog', { name: '登记收款' });
    await visible(dialog);
    const amount = dialog.getByPlaceholder('如 1200.00');
    // Over the unpaid rest is refused on the spot, with the product's words.
    await amount.fill('99999999.99');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await visible(dialog.getByText(/收款金额不能超过本期未收金额/));
    await amount.fill('1.5');
    await dialog.getByPlaceholder('付款单位或个人').fill('浏览器测试付款人');
    await dialog.getByPlaceholder('选填，同一机构内不可重复').fill('E2E-0001');
    await snap(page, 'charge-dialog');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await visible(page.getByText('收款登记成功'));
    await dialog.waitFor({ state: 'hidden' });

    await visible(row.getByText('部分收款'));
    await expect.poll(async () => fenOf((await row.locator('td').nth(5).textContent()) ?? '')).toBe(unpaidBefore - 150);
    const after = await summary(page);
    expect(fenOf(after[4] ?? '')).toBe(fenOf(before[4] ?? '') + 150);
    expect(fenOf(after[5] ?? '')).toBe(fenOf(before[5] ?? '') - 150);
    expect(after[3]).toBe(before[3]);
    await snap(page, 'after-payment');

    // The contract's schedule shows the payment; the 收款记录 tab lists it and can revoke it.
    await row.getByRole('button', { name: '明细' }).click();
    const drawer = page.getByRole('dialog', { name: /收款计划/ });
    await visible(drawer.getByText('E2E-0001'));
    await snap(page, 'schedule');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    await page.getByRole('tab', { name: '收款记录' }).click();
    const charge = page.locator('tr.ant-table-row', { hasText: 'E2E-0001' });
    await visible(charge);
    expect(await charge.textContent()).toContain('¥1.50');
    await snap(page, 'charges');
    await charge.getByRole('button', { name: '撤销' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /撤\s*销/ })
      .click();
    await visible(page.getByText('已撤销该笔收款'));
    await visible(charge.getByText('已撤销'));

    // Page 2 is a step from page 1: the request carries the cursor page 1's reply gave (keyset paging),
    // and the numbering goes on from 21.
    const asked: { pageNo?: number; cursor?: string }[] = [];
    page.on('request', (r) => {
      if (r.url().includes('selectChargeList')) asked.push(JSON.parse(r.postData() ?? '{}'));
    });
    await page.locator('.ant-pagination-item-2').click();
    await expect.poll(() => page.locator('tr.ant-table-row').first().locator('td').first().textContent()).toBe('21');
    expect(asked.at(-1)).toMatchObject({ pageNo: 2, cursor: expect.any(String) });
    await visible(page.getByText(/共 \d+ 条/));
  });
});
