// Small things a new user meets (issue 29 point 7) in Chromium at 1440 px: a 商机 for a company already in
// the pipeline warns first and the form says 商机来源 (a, b); the contract page starts a work order for one
// of its lines (e); the work-order list remembers its query across visits, as the other lists do (d).
import { contractListCall, woServiceCall } from '@dzy/shared';
import type { Locator, Page } from 'playwright-core';
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

const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });
const snap = screenshotsAt('small-things-');
const rowOf = (page: Page, text: string) => page.locator('tr.ant-table-row:visible', { hasText: text });
const toast = (page: Page, text: string) => visible(page.locator('.ant-message-notice', { hasText: text }));
const queryButton = (page: Page) => page.getByRole('button', { name: /查\s*询/ }).first();

let product: Product;
let page: Page;
beforeAll(async () => {
  product = await startProduct();
  page = await product.newPage();
  await signIn(page, product.baseUrl, DEMO_ADMIN);
});
afterAll(async () => {
  await product?.close();
});

async function pick(scope: Locator, label: string, text: string) {
  await scope.locator('.ant-form-item', { hasText: label }).locator('.ant-select').first().click();
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first();
  await visible(option);
  await option.click();
  await hidden(page.locator('.ant-select-dropdown:visible'));
}

describe('small things a new user meets', () => {
  it('a 商机 for a company already in the pipeline warns first; the form says 商机来源', async () => {
    const company = '杭州云帆电子商务有限公司'; // the demo pipeline's first opportunity
    await openFromMenu(page, '客户', '商机列表');
    await visible(rowOf(page, company));

    const fill = async () => {
      await page.getByRole('button', { name: /新增商机/ }).click();
      const dialog = page.getByRole('dialog', { name: '新增商机' });
      await visible(dialog);
      // The source is labelled 商机来源 (and refused so when left out).
      await dialog.getByRole('button', { name: /保\s*存/ }).click();
      await visible(dialog.getByText('请选择商机来源'));
      expect(await dialog.locator('.ant-form-item-label', { hasText: '商机来源' }).count()).toBe(1);
      await dialog.getByLabel('公司名称').fill(`  ${company.replace('（', '(')}`);
      await pick(dialog, '商机来源', '朋友介绍');
      await dialog.getByLabel('联系人').fill('周重复');
      await dialog.getByLabel('联系电话').fill('13966668888');
      await dialog.getByRole('button', { name: /保\s*存/ }).click();
      return dialog;
    };

    // Cancel: the form stays, nothing is saved.
    let dialog = await fill();
    let warning = page.getByRole('dialog', { name: '该企业已有商机' });
    await visible(warning);
    await visible(warning.getByText(`该企业已有商机「${company}」，确定还要新增吗？`));
    await visible(warning.getByText(/初步接触 · 负责人 \S+ · \d{4}-\d{2}-\d{2} 创建/));
    await snap(page, 'opp-duplicate');
    await warning.getByRole('button', { name: /取\s*消/ }).click();
    await hidden(warning);
    await visible(dialog.getByLabel('公司名称'));
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await hidden(dialog);

    // The existing one's name opens it.
    dialog = await fill();
    warning = page.getByRole('dialog', { name: '该企业已有商机' });
    await warning.getByRole('button', { name: company }).click();
    await hidden(dialog);
    const drawer = page.locator('.ant-drawer-content-wrapper:visible').last();
    await visible(drawer.getByText('商机来源'));
    await visible(drawer.getByText('周海洋'));
    await page.keyboard.press('Escape');
    await hidden(page.locator('.ant-drawer-content-wrapper:visible'));

    // Continue: saved after all.
    dialog = await fill();
    warning = page.getByRole('dialog', { name: '该企业已有商机' });
    await warning.getByRole('button', { name: /仍然新增/ }).click();
    await toast(page, '新增成功');
    await hidden(dialog);
    await page.getByPlaceholder('公司名称、联系人或电话').first().fill('云帆电子商务');
    await queryButton(page).click();
    await visible(rowOf(page, '周重复'));
    await snap(page, 'opp-both');
    await expect.poll(() => rowOf(page, '云帆电子商务').count()).toBe(2);
  });

  let orderNo = '';

  it('the contract page starts a work order for one of its lines, with the client and service filled in', async () => {
    // An in-force demo contract with a line not started yet, whose service item has no linked template.
    const contracts = await callAs<{ list: { id: number; contractNo: string; qymc: string }[] }>(
      page,
      contractListCall.path,
      { status: '2', pageNo: 1, pageSize: 100 },
    );
    let found: { contractNo: string; qymc: string; serviceName: string } | null = null;
    for (const c of contracts.list) {
      const lines = await callAs<{ serviceName: string; templateId: number | null; workOrderId: number | null }[]>(
        page,
        woServiceCall.path,
        { contractId: c.id },
      );
      const line = lines.find((l) => l.templateId === null && l.workOrderId === null);
      if (line) {
        found = { contractNo: c.contractNo, qymc: c.qymc, serviceName: line.serviceName };
        break;
      }
    }
    expect(found).not.toBeNull();
    if (!found) return;

    await openFromMenu(page, '合同', '合同列表');
    await page.getByPlaceholder('合同编号').first().fill(found.contractNo);
    await queryButton(page).click();
    await visible(rowOf(page, found.contractNo));
    await rowOf(page, found.contractNo).getByRole('button', { name: '查看' }).click();
    const drawer = page.locator('.ant-drawer-content-wrapper:visible').last();
    await visible(drawer.getByRole('button', { name: '为本合同发起工单' }));
    await drawer.getByRole('button', { name: `发起工单：${found.serviceName}` }).click();

    const dialog = page.getByRole('dialog', { name: '新建工单' });
    await visible(dialog);
    // Prefilled: the client, 按合同服务项目 and the line; its service has no template, so one is chosen.
    expect(await dialog.locator('input[disabled]').first().inputValue()).toBe(found.qymc);
    await visible(
      dialog
        .locator('.ant-form-item', { hasText: '合同服务项目' })
        .getByText(`${found.contractNo} · ${found.serviceName} → 未关联工单模板`),
    );
    await visible(dialog.getByText('该服务项目未关联工单模板'));
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await visible(dialog.getByText('请选择工单模板'));
    await dialog.getByRole('combobox', { name: '工单模板' }).click();
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
    await visible(option);
    const template = (await option.innerText()).replace(/（.*$/, '');
    await option.click();
    await hidden(page.locator('.ant-select-dropdown:visible'));
    await snap(page, 'contract-start-order');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '工单编号 GD');
    const made = await page.locator('.ant-message-notice', { hasText: '工单编号' }).first().innerText();
    orderNo = /GD\d{12}/.exec(made)?.[0] ?? '';
    expect(orderNo).toMatch(/^GD\d{12}$/);
    // The order's drawer opens over the contract; closed, the contract lists it on the line.
    const order = page.locator('.ant-drawer-content-wrapper:visible').last();
    await visible(order.getByText(`工单 ${orderNo}`));
    await visible(order.getByText(template));
    // Closed by its × (Escape reaches a drawer only while focus is inside it, and focus is on the page
    // once the order drawer has gone), and the next test starts with no drawer mask over the menu.
    await order.locator('.ant-drawer-close').click();
    await visible(drawer.getByRole('button', { name: orderNo }));
    await snap(page, 'contract-drawer');
    await drawer.locator('.ant-drawer-close').click();
    await hidden(page.locator('.ant-drawer-mask:visible'));
  });

  it('the work-order list remembers its query across visits and clears it in one click', async () => {
    await openFromMenu(page, '客户', '工单列表');
    await visible(page.locator('tr.ant-table-row:visible'));
    await page.getByPlaceholder('企业名称或工单编号').fill(orderNo);
    const remembered = page.waitForResponse((r) => r.url().includes('userLastQuery/updateMemory'));
    await queryButton(page).click();
    await remembered;
    await expect.poll(() => page.locator('tr.ant-table-row:visible').count(), { timeout: 10_000 }).toBe(1);
    await visible(rowOf(page, orderNo));

    // A new visit (a reload): the same query, marked 已筛选.
    await page.reload();
    await visible(rowOf(page, orderNo));
    expect(await page.getByPlaceholder('企业名称或工单编号').inputValue()).toBe(orderNo);
    await expect.poll(() => page.locator('tr.ant-table-row:visible').count(), { timeout: 10_000 }).toBe(1);
    await visible(page.getByTestId('filtered-marker').getByText('已筛选 1 项'));
    await snap(page, 'workorder-remembered');

    // Cleared: everything again, and the next visit starts unfiltered.
    const saved = page.waitForResponse((r) => r.url().includes('userLastQuery/updateMemory'));
    await page.getByTestId('filtered-marker').getByLabel('清除筛选').click();
    await saved;
    await hidden(page.getByTestId('filtered-marker'));
    await expect.poll(() => page.locator('tr.ant-table-row:visible').count()).toBeGreaterThan(1);
    await page.reload();
    await visible(page.locator('tr.ant-table-row:visible'));
    await expect.poll(() => page.locator('tr.ant-table-row:visible').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    expect(await page.getByTestId('filtered-marker').count()).toBe(0);
    expect(await page.getByPlaceholder('企业名称或工单编号').inputValue()).toBe('');
  });
});
