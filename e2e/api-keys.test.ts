import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, openFromMenu, type Product, screenshotsAt, signIn, startProduct, visible } from './harness';

const snap = screenshotsAt('apikey-');

let product: Product;
beforeAll(async () => {
  product = await startProduct({ startMs: 300_000 });
}, 360_000);
afterAll(async () => {
  await product?.close();
});

describe('API keys and webhooks in the browser', () => {
  it('the administrator creates a key (shown once), revokes it, and registers a webhook', {
    timeout: 240_000,
  }, async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);

    await openFromMenu(page, '设置', 'API 密钥');
    await visible(page.getByText('还没有 API 密钥'));
    await page.getByRole('button', { name: '新建密钥' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '新建 API 密钥' });
    await visible(dialog);
    await dialog.getByPlaceholder('例如：财务系统对接').fill('财务系统对接');
    await dialog.locator('.ant-tree-treenode', { hasText: '我的客户' }).locator('.ant-tree-checkbox').first().click();
    await snap(page, 'create');
    await dialog.getByRole('button', { name: /创\s*建/ }).click();
    const shown = page.locator('.ant-modal', { hasText: '密钥已创建' });
    await visible(shown);
    expect(await shown.locator('input').inputValue()).toMatch(/^dzy_/);
    await snap(page, 'secret');
    await shown.getByRole('button', { name: '我已保存' }).click();

    const row = page.locator('tr.ant-table-row', { hasText: '财务系统对接' });
    await visible(row);
    expect(await row.textContent()).toContain('有效');
    await snap(page, 'list');
    await row.getByRole('button', { name: /撤\s*销/ }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /撤\s*销/ })
      .click();
    await visible(page.locator('tr.ant-table-row', { hasText: '已撤销' }));

    await openFromMenu(page, '设置', 'Webhook');
    await page.getByRole('button', { name: '新增接收地址' }).click();
    const hookDialog = page.locator('.ant-modal', { hasText: '新增接收地址' });
    await hookDialog.getByPlaceholder('https://example.com/dzy-webhook').fill('http://127.0.0.1:9/hook');
    await hookDialog.getByText('新增客户（client.created）').click();
    await hookDialog.getByRole('button', { name: /保\s*存/ }).click();
    const secret = page.locator('.ant-modal', { hasText: '签名密钥' });
    await visible(secret);
    expect(await secret.locator('input').inputValue()).toMatch(/^whsec_/);
    await secret.getByRole('button', { name: '我已保存' }).click();
    const hook = page.locator('tr.ant-table-row', { hasText: '127.0.0.1:9' });
    await visible(hook);
    await hook.getByRole('button', { name: '发送测试' }).click();
    await hook.getByRole('button', { name: '投递记录' }).click();
    await visible(page.locator('.ant-drawer tr.ant-table-row', { hasText: '测试' }));
    await snap(page, 'deliveries');
  });
});
