import { usccCheckChar } from '@dzy/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, openFromMenu, type Product, screenshotsAt, signIn, startProduct, visible } from './harness';

/** 销项发票 in Chromium against the simulated bureau: reach it from the menu, issue with a code lookup, 红冲. */

let product: Product;
let page: Page;
const shots = screenshotsAt('invoice-');
const first17 = '91330106MA2H3C0X1';
const buyerTaxNo = first17 + usccCheckChar(first17);

beforeAll(async () => {
  product = await startProduct();
  page = await product.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, product.baseUrl, DEMO_ADMIN);
}, 120_000);
afterAll(async () => {
  await product?.close();
});

describe('销项发票', () => {
  let fphm = '';

  it('is reached from the menu and shows the client’s month with its quota', async () => {
    await openFromMenu(page, '发票', '销项发票');
    await page.waitForURL(/moreModuleCloudInvoice\/xxfp/);
    await visible(page.getByTestId('invoice-summary'));
    await expect.poll(() => page.getByTestId('invoice-summary').textContent(), { timeout: 20_000 }).toMatch(/¥\d/);
    await visible(page.getByTestId('invoice-open-issue'));
    await expect.poll(() => page.getByTestId('invoice-open-issue').isEnabled(), { timeout: 20_000 }).toBe(true);
    await shots(page, 'list');
  }, 60_000);

  it('issues an invoice with a 税收分类编码 lookup and shows its number in the list', async () => {
    await page.getByTestId('invoice-open-issue').click();
    const drawer = page.locator('.ant-drawer-section');
    await visible(drawer.getByText('购买方'));
    await drawer.getByRole('combobox').first().fill('浏览器测试购买方有限公司');
    await drawer.getByTestId('invoice-buyer-taxno').fill(` ${buyerTaxNo.toLowerCase()} `);
    await drawer.getByTestId('invoice-code').click();
    await page.keyboard.type('餐饮');
    const option = page.locator('.ant-select-item-option', { hasText: '餐饮服务' });
    await visible(option);
    await option.first().click();
    await drawer.getByTestId('invoice-line-je').fill('1060');
    await expect.poll(() => drawer.getByTestId('invoice-totals').textContent()).toContain('壹仟零陆拾元整');
    await shots(page, 'issue');
    await drawer.getByTestId('invoice-issue').click();
    const issued = page.getByTestId('invoice-issued-no');
    await visible(issued, 30_000);
    fphm = (/\d{20}/.exec((await issued.textContent()) ?? '') ?? [''])[0];
    expect(fphm).toMatch(/^\d{20}$/);
    await page.getByRole('button', { name: /^完\s*成$/ }).click();
    await visible(page.locator('.ant-table-row', { hasText: fphm }));
  }, 90_000);

  it('红冲 asks first, then shows the blue as 已红冲 and the red invoice in the list', async () => {
    const row = page.locator('.ant-table-row', { hasText: fphm });
    await row.getByRole('button', { name: /^红\s*冲$/ }).click();
    await page.getByRole('button', { name: '下一步' }).click();
    await visible(page.getByText('红冲后不能撤销'));
    await shots(page, 'red-confirm');
    await page.getByTestId('invoice-red-confirm').click();
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('已红冲');
    await visible(page.locator('.ant-table-row', { hasText: '红字发票' }));
    expect(
      await page
        .locator('.ant-table-row', { hasText: '-1,060.00' })
        .or(page.locator('.ant-table-row', { hasText: '-1060.00' }))
        .count(),
    ).toBeGreaterThan(0);
    await shots(page, 'after-red');
  }, 90_000);
});
