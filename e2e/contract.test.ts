import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, signIn, startProduct } from './harness';

const visible = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });

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
  if (shots) await page.screenshot({ path: join(shots, `contract-${name}.png`) });
}

const rowOf = (page: Page, text: string) => page.locator('tr.ant-table-row', { hasText: text });

/** Picks the first option of the antd Select inside the form item labelled `label`. */
async function pickFirst(dialog: Locator, page: Page, label: string) {
  await dialog.locator('.ant-form-item', { hasText: label }).locator('.ant-select').first().click();
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option-active').first();
  await visible(option);
  // The open list sits in a portal above the modal; the keyboard chooses the highlighted (first) option.
  await page.keyboard.press('Enter');
  await hidden(page.locator('.ant-select-dropdown:visible'));
}

async function searchContractNo(page: Page, no: string) {
  await page.getByPlaceholder('合同编号').first().fill(no);
  await page
    .getByRole('button', { name: /查\s*询/ })
    .first()
    .click();
  await visible(rowOf(page, no));
}

describe('contracts in the browser', () => {
  let page: Page;
  let contractNo = '';

  it('creates a contract from a template and submits it', async () => {
    page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.goto(`${product.baseUrl}/#/contract/htgl/htlb`);
    await visible(page.locator('tr.ant-table-row'));
    await snap(page, 'list');

    await page.getByRole('button', { name: /新增合同/ }).click();
    const dialog = page.getByRole('dialog', { name: '新增合同' });
    await visible(dialog);
    const noInput = dialog.getByPlaceholder('HT2026000001');
    await expect.poll(() => noInput.inputValue(), { timeout: 10_000 }).toMatch(/^HT\d{10}$/);
    contractNo = await noInput.inputValue();
    await pickFirst(dialog, page, '签约企业');
    await pickFirst(dialog, page, '合同模板');
    // The template's lines arrive with their prices; the amount is computed on the page.
    await expect.poll(() => dialog.locator('.dzy-contract-amount').textContent()).not.toBe('¥0.00');
    await snap(page, 'form');
    await dialog.getByRole('button', { name: /保存并提交/ }).click();
    await visible(page.getByText('提交成功'));
    await hidden(dialog);

    await searchContractNo(page, contractNo);
    expect(await rowOf(page, contractNo).textContent()).toMatch(/执行中|即将到期/);
  });

  it('renews the contract and terminates it with a reason', async () => {
    await rowOf(page, contractNo).getByRole('button', { name: '续签' }).click();
    const renew = page.getByRole('dialog', { name: '续签合同' });
    // The dialog reads the original contract first (正在读取原合同…); its number shows once it is loaded.
    await visible(renew.getByText(contractNo));
    await renew.getByRole('button', { name: /确认续签/ }).click();
    await visible(page.getByText('续签成功'));
    await hidden(renew);
    await visible(rowOf(page, contractNo).getByText('已续签'));

    await rowOf(page, contractNo).getByRole('button', { name: '终止' }).click();
    const end = page.getByRole('dialog', { name: '终止合同' });
    await visible(end.getByPlaceholder('如：客户公司注销'));
    await end.getByRole('button', { name: /确认终止/ }).click();
    await visible(end.getByText('请输入终止原因'));
    await end.getByPlaceholder('如：客户公司注销').fill('客户公司注销');
    await end.getByRole('button', { name: /确认终止/ }).click();
    await visible(page.getByText('终止成功'));
    await hidden(end);
    await visible(rowOf(page, contractNo).getByText('已终止'));

    await rowOf(page, contractNo).getByRole('button', { name: '查看' }).click();
    const drawer = page.locator('.ant-drawer-section');
    await visible(drawer.getByText('客户公司注销'));
    await visible(drawer.getByText('应收计划'));
    await snap(page, 'detail');
    await page.keyboard.press('Escape');
  });

  it('shows the contract warning in the client book', async () => {
    await page.goto(`${product.baseUrl}/#/contract/htgl/htlb`);
    await visible(page.locator('tr.ant-table-row'));
    // The page keeps the previous test's contract-number query (the tab is cached): start from 重置.
    await page
      .getByRole('button', { name: /重\s*置/ })
      .first()
      .click();
    await expect.poll(() => page.getByPlaceholder('合同编号').first().inputValue()).toBe('');
    const status = page.locator('.ant-form-item', { hasText: '合同状态' }).locator('.ant-select').first();
    await status.click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '已到期' }).click();
    await visible(status.getByText('已到期'));
    await page
      .getByRole('button', { name: /查\s*询/ })
      .first()
      .click();
    // The filtered answer is in: every row is an expired contract.
    await expect
      .poll(async () => (await page.locator('tr.ant-table-row').allTextContents()).every((t) => t.includes('已到期')))
      .toBe(true);
    const first = page.locator('tr.ant-table-row').first();
    await visible(first.getByText(/合同已(欠费\/)?到期，请及时续费/));
    const name = (await first.locator('.dzy-contract-ent').textContent()) ?? '';
    expect(name).not.toBe('');

    await page.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
    await visible(page.locator('tr.ant-table-row'));
    await page.getByPlaceholder('企业名称或税号').first().fill(name);
    await page
      .getByRole('button', { name: /查\s*询/ })
      .first()
      .click();
    const row = rowOf(page, name);
    await visible(row);
    await row.getByRole('button', { name }).click();
    const drawer = page.locator('.ant-drawer-section');
    await visible(drawer.getByTestId('contract-warning'));
    expect(await drawer.getByTestId('contract-warning').textContent()).toMatch(/合同已(欠费\/)?到期，请及时续费/);
    await snap(page, 'client-book-warning');
  });
});
