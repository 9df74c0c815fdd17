import { chooserListCall, WO_MSG, woServiceCall } from '@dzy/shared';
import type { Page } from 'playwright-core';
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

const ZHANG = '13800000002';
const snap = screenshotsAt('workorder-');
const hidden = (l: ReturnType<Page['locator']>) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => {
  await product?.close();
});

/** A client with a contract line whose service item is linked to a template and has no work order yet. */
async function clientWithStartableLine(page: Page) {
  const clients = await callAs<{ list: { id: number; qymc: string }[] }>(page, chooserListCall.path, {
    pageNum: 1,
    pageSize: 50,
  });
  for (const c of clients.list) {
    const lines = await callAs<
      { lineId: number; templateId: number | null; workOrderId: number | null; serviceName: string }[]
    >(page, woServiceCall.path, { enterpriseId: c.id });
    const line = lines.find((l) => l.templateId && !l.workOrderId);
    if (line) return { client: c, line };
  }
  throw new Error('no demo contract line to start a work order from');
}

const toast = (page: Page, text: string) => visible(page.locator('.ant-message-notice', { hasText: text }));

describe('work orders in the browser', () => {
  it('the administrator starts a work order from a contract line and completes it step by step', async () => {
    const admin = await product.newPage();
    await signIn(admin, product.baseUrl, DEMO_ADMIN);

    // 工单模板 from the menu: the demo templates with their steps.
    await openFromMenu(admin, '客户', '工单模板');
    await visible(admin.locator('tr.ant-table-row:visible', { hasText: '公司注册' }));
    expect(await admin.locator('tr.ant-table-row:visible', { hasText: '工商年报' }).textContent()).toContain(
      '收集年报资料',
    );
    await snap(admin, 'templates');
    // Editing shows the steps in order.
    await admin
      .locator('tr.ant-table-row:visible', { hasText: '公司注册' })
      .getByRole('button', { name: /编\s*辑/ })
      .click();
    const tplDialog = admin.getByRole('dialog', { name: '编辑工单模板' });
    await visible(tplDialog);
    expect(await tplDialog.getByLabel('步骤1名称').inputValue()).toBe('企业核名');
    // Steps move up and down; cancelling keeps the template as it was.
    await tplDialog.getByRole('button', { name: '下移步骤1' }).click();
    expect(await tplDialog.getByLabel('步骤2名称').inputValue()).toBe('企业核名');
    await snap(admin, 'template-edit');
    await tplDialog.getByRole('button', { name: /取\s*消/ }).click();
    await hidden(tplDialog);
    // The status switch, with the spec's toasts.
    await admin.getByRole('switch', { name: '模板状态 公司注销' }).click();
    await toast(admin, WO_MSG.statusOff);
    await admin.getByRole('switch', { name: '模板状态 公司注销' }).click();
    await toast(admin, WO_MSG.statusOn);

    // 工单列表 from the menu; a new work order from the client's contract line.
    const { client, line } = await clientWithStartableLine(admin);
    await openFromMenu(admin, '客户', '工单列表');
    await visible(admin.locator('tr.ant-table-row:visible'));
    await snap(admin, 'list');
    await admin.getByRole('button', { name: /新建工单/ }).click();
    const dialog = admin.getByRole('dialog', { name: '新建工单' });
    await visible(dialog);
    await expect.poll(() => dialog.getByTestId('wo-next-no').innerText()).toMatch(/^GD\d{12}$/);
    const nextNo = await dialog.getByTestId('wo-next-no').innerText();
    // Nothing chosen: clear messages, nothing is created.
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await visible(dialog.getByText(WO_MSG.clientRequired));
    await dialog.getByRole('combobox', { name: '客户' }).fill(client.qymc.slice(0, 6));
    await admin.locator('.ant-select-dropdown:visible').getByText(client.qymc, { exact: true }).click();
    await dialog.getByText('按合同服务项目').click();
    await dialog.getByRole('combobox', { name: '合同服务项目' }).click();
    await admin
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: line.serviceName })
      .first()
      .click();
    await snap(admin, 'create');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(admin, `工单编号 ${nextNo}`);

    // The order's drawer opens: step 1 current, step 2 waiting; step 2 cannot be done first (no button there).
    const drawer = admin.locator('.ant-drawer-content-wrapper:visible').last();
    await visible(drawer.getByText(`工单 ${nextNo}`));
    await visible(drawer.getByTestId('wo-step-1').getByText('进行中'));
    await visible(drawer.getByTestId('wo-step-2').getByText('未开始'));
    expect(await drawer.getByTestId('wo-step-2').getByRole('button', { name: '完成此步骤' }).count()).toBe(0);
    // A comment and an attachment on step 1, then complete it.
    await drawer.getByLabel('处理意见').fill('资料已收齐');
    await drawer
      .getByTestId('wo-step-1')
      .locator('input[type=file]')
      .setInputFiles({ name: '年报资料.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% demo\n') });
    await visible(drawer.getByRole('button', { name: /年报资料\.pdf/ }));
    await snap(admin, 'order-step1');
    await drawer.getByTestId('wo-step-1').getByRole('button', { name: '完成此步骤' }).click();
    await toast(admin, WO_MSG.stepCompleted);
    await visible(drawer.getByTestId('wo-step-1').getByText('已完成'));
    await visible(drawer.getByTestId('wo-step-1').getByText('处理意见：资料已收齐'));
    await visible(drawer.getByTestId('wo-step-2').getByText('进行中'));
    await drawer.getByTestId('wo-step-2').getByRole('button', { name: '完成此步骤' }).click();
    await toast(admin, '工单已完成');
    await visible(drawer.locator('.ant-drawer-extra').getByText('已完成'));
    await snap(admin, 'order-done');
    await admin.keyboard.press('Escape');
    await hidden(admin.locator('.ant-drawer-content-wrapper:visible'));

    // The board by state shows it under 已完成.
    await admin.getByText('看板').click();
    await visible(admin.getByTestId('wo-col-done').getByText(nextNo, { exact: false }));
    await snap(admin, 'board');

    // The client's drawer lists its work orders.
    await admin.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
    await visible(admin.locator('tr.ant-table-row:visible'));
    await admin.getByPlaceholder('企业名称或税号').first().fill(client.qymc);
    await admin
      .getByRole('button', { name: /查\s*询/ })
      .first()
      .click();
    const row = admin.locator('tr.ant-table-row:visible', { hasText: client.qymc }).first();
    await visible(row);
    await row.getByRole('button', { name: client.qymc }).click();
    const clientDrawer = admin.locator('.ant-drawer-section');
    await visible(clientDrawer.getByText(client.qymc));
    await clientDrawer.getByRole('tab', { name: '工单' }).click();
    await visible(clientDrawer.getByText(nextNo));
    await snap(admin, 'client-drawer');
  });

  it('an ordinary staff member sees the work orders of their clients and handles them, without delete', async () => {
    const zhang = await product.newPage();
    await signIn(zhang, product.baseUrl, ZHANG);
    await openFromMenu(zhang, '客户', '工单列表');
    await visible(zhang.locator('tr.ant-table-row:visible'));
    expect(await zhang.getByRole('button', { name: /删\s*除/ }).count()).toBe(0);
    expect(await zhang.getByRole('button', { name: /批量导入/ }).count()).toBe(0);
    await snap(zhang, 'staff-list');
    // The demo's overdue order of his client (许可证办理) is marked.
    const overdue = zhang.locator('tr.ant-table-row:visible', { hasText: '许可证办理' }).first();
    await visible(overdue.getByText('逾期'));
    await overdue.getByRole('button', { name: '办理' }).click();
    const drawer = zhang.locator('.ant-drawer-content-wrapper:visible').last();
    await visible(drawer.getByText('已逾期'));
    await snap(zhang, 'staff-order');
    await drawer.getByRole('button', { name: '完成此步骤' }).click();
    await toast(zhang, WO_MSG.stepCompleted);
    await visible(drawer.getByTestId('wo-step-3').getByText('进行中'));
  });
});
