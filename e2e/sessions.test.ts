import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, signIn, snoozeMissingTaxDialog, startProduct } from './harness.js';

/** Issue 12 points 5 and 6: sessions across pages and tabs, remembered filters, flows that stopped half-way. */
let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.close());

const visible = (l: ReturnType<Page['locator']>, timeout = 20_000) => l.first().waitFor({ state: 'visible', timeout });

async function signOutVia(page: Page) {
  await page.getByRole('button', { name: '用户菜单' }).hover();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await page.waitForURL(/#\/login/);
}

describe('sessions across pages and tabs', () => {
  it('the sign-in page checks the session silently: no refused call in the console, no 登录超时', async () => {
    const page = await product.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${product.baseUrl}/#/login`);
    await visible(page.getByPlaceholder('手机号 / 账号'));
    // Every call the page made has been answered: a refusal would be in the console by now.
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
    // Signed in, then out on purpose, then Back: the sign-in page again, quietly.
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.locator('.dzy-navbar-item').filter({ hasText: '客户' }).click();
    await visible(page.locator('tr.ant-table-row'));
    await signOutVia(page);
    // Back at once, before the sign-in page has drawn (a hurried user): the guard must send this new
    // location to the sign-in page too, not leave a blank page at #/dashboard.
    await page.goBack({ waitUntil: 'commit' });
    await expect.poll(() => page.url()).toMatch(/#\/login/);
    await visible(page.getByPlaceholder('手机号 / 账号'));
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('登录超时').count()).toBe(0);
    expect(errors.filter((e) => e.includes('403'))).toEqual([]);
    await page.context().close();
  });

  it('signing out in one tab signs out the other at once, and it stops showing client data', async () => {
    const ctx = await product.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await ctx.addInitScript(snoozeMissingTaxDialog);
    const first = await ctx.newPage();
    await signIn(first, product.baseUrl, DEMO_ADMIN);
    const second = await ctx.newPage();
    await second.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
    await visible(second.locator('tr.ant-table-row'));
    await signOutVia(first);
    await second.waitForURL(/#\/login/, { timeout: 5000 });
    expect(await second.locator('tr.ant-table-row').count()).toBe(0);
    await visible(second.getByText('您已在其他页面退出登录'));
    await ctx.close();
  });

  it('a remembered filter shows 已筛选 and clears with one click', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
    const rows = page.locator('tr.ant-table-row');
    await visible(rows);
    const all = await page
      .getByText(/^共 \d+ 条$/)
      .first()
      .textContent();
    expect(await page.getByTestId('filtered-marker').count()).toBe(0);
    await page.getByPlaceholder('企业名称或税号').fill('有限公司');
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await visible(page.getByTestId('filtered-marker'));
    // The next visit restores the filter (user/userLastQuery), and says so.
    await page.reload();
    await visible(page.getByTestId('filtered-marker'));
    expect(await page.getByPlaceholder('企业名称或税号').inputValue()).toBe('有限公司');
    await page.getByTestId('filtered-marker').getByLabel('清除筛选').click();
    await expect.poll(() => page.getByTestId('filtered-marker').count()).toBe(0);
    expect(await page.getByPlaceholder('企业名称或税号').inputValue()).toBe('');
    await expect
      .poll(() =>
        page
          .getByText(/^共 \d+ 条$/)
          .first()
          .textContent(),
      )
      .toBe(all);
    await page.context().close();
  });
});

describe('flows that stopped half-way', () => {
  it('报税检查: confirming the chooser starts the check on the chosen enterprises', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.goto(`${product.baseUrl}/#/declare/bssz`);
    await page.getByText('选择企业', { exact: true }).first().click();
    await page.getByRole('button', { name: '开始检查' }).click();
    const picker = page.getByRole('dialog', { name: '选择企业' });
    await visible(picker);
    const boxes = picker.getByRole('checkbox');
    await visible(boxes);
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await picker.getByRole('button', { name: /开始检查（已选 2 家）/ }).click();
    await visible(page.getByTestId('check-progress'));
    expect(await page.getByTestId('check-progress').textContent()).toMatch(/\/\s*2/);
    await page.context().close();
  });
});
