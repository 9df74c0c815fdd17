import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPERATOR, type Product, screenshotsAt, signIn, startProduct, visible } from './harness';

/** The operator's admin lists (服务商品牌, 机构权益, 字典与客服): one list + edit dialog block behind all three. */
let product: Product;
let page: Page;
const shot = screenshotsAt('platform-admin-');
beforeAll(async () => {
  product = await startProduct({ startMs: 300_000 });
  page = await product.newPage();
  // A loaded machine (the suite shares two cores) can take longer than the defaults to load a page.
  page.setDefaultNavigationTimeout(120_000);
  page.setDefaultTimeout(60_000);
  await signIn(page, product.baseUrl, DEMO_OPERATOR);
}, 400_000);
afterAll(() => product?.close());

/** The machine may be loaded (two shared cores): a generous wait. */
const seen = (l: Parameters<typeof visible>[0]) => visible(l, 60_000);
const dialog = (name: string) => page.getByRole('dialog', { name });
const hidden = (l: ReturnType<Page['locator']>) => l.waitFor({ state: 'hidden', timeout: 60_000 });

describe('operator admin lists', () => {
  it('服务商品牌: add a provider in the dialog, it is listed; edit opens with its values; search filters', async () => {
    await page.goto(`${product.baseUrl}/#/platform/brand`);
    await seen(page.getByRole('columnheader', { name: '登录地址' }));
    await page.getByRole('button', { name: '新增服务商' }).click();
    const add = dialog('新增服务商');
    await seen(add);
    await shot(page, 'brand-new');
    await add.getByRole('button', { name: /保\s*存/ }).click();
    await seen(add.getByText('请输入服务商编码'));
    await add.getByLabel('服务商编码').fill('e2e-star');
    await add.getByLabel('服务商名称').fill('星辰财税服务');
    await add.getByLabel('服务热线').fill('400-800-1234');
    await add.getByRole('button', { name: /保\s*存/ }).click();
    await hidden(add);
    const row = page.getByRole('row', { name: /星辰财税服务/ });
    await seen(row);
    await expect.poll(() => row.first().innerText(), { timeout: 30_000 }).toContain('/#/login/e2e-star');
    await shot(page, 'brand');
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const edit = dialog('编辑服务商');
    await seen(edit);
    await expect.poll(() => edit.getByLabel('服务热线').inputValue(), { timeout: 10_000 }).toBe('400-800-1234');
    await edit.getByRole('button', { name: /取\s*消/ }).click();
    await hidden(edit);
    await page.getByPlaceholder('按服务商名称或编码搜索').fill('没有这个服务商');
    await page.getByPlaceholder('按服务商名称或编码搜索').press('Enter');
    await seen(page.getByText('暂无服务商'));
  }, 120_000);

  it('机构权益: the agencies with their plan; 开通/续期 opens its dialog; 记录 lists the grants', async () => {
    await page.goto(`${product.baseUrl}/#/platform/benefit`);
    await seen(page.getByRole('columnheader', { name: '客户数（已用/授权）' }));
    const first = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await seen(first);
    await shot(page, 'benefit');
    await first.getByRole('button', { name: '开通/续期' }).click();
    const grant = page.getByRole('dialog', { name: /开通\/续期权益/ });
    await seen(grant);
    await seen(grant.getByLabel('授权客户数'));
    await shot(page, 'benefit-grant');
    await grant.getByRole('button', { name: /保\s*存/ }).click();
    await hidden(grant);
    await first.getByRole('button', { name: '记录' }).click();
    const hist = page.getByRole('dialog', { name: /权益记录/ });
    await seen(hist.getByRole('columnheader', { name: '授权客户数' }));
    await expect
      .poll(() => hist.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await hidden(hist);
  }, 120_000);

  it('字典与客服: a new dictionary value is listed and found by name; the AI 咨询 address dialog checks its URL', async () => {
    await page.goto(`${product.baseUrl}/#/platform/dicts`);
    await seen(page.getByRole('columnheader', { name: '字典类型' }));
    await shot(page, 'dicts');
    await page.getByRole('button', { name: '新增字典值' }).click();
    const add = dialog('新增字典值');
    await seen(add);
    await shot(page, 'dicts-new');
    await add.getByLabel('字典类型').fill('e2e_kind');
    await add.getByLabel('类型名称').fill('测试类型');
    await add.getByLabel('编码').fill('k1');
    await add.getByLabel('名称', { exact: true }).fill('第一种测试值');
    await add.getByRole('button', { name: /保\s*存/ }).click();
    await hidden(add);
    await page.getByPlaceholder('按名称搜索').fill('第一种测试值');
    await page.getByPlaceholder('按名称搜索').press('Enter');
    const row = page.getByRole('row', { name: /第一种测试值/ });
    await seen(row);
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 30_000 }).toBe(1);

    await page.getByRole('tab', { name: 'AI 咨询地址' }).click();
    await page.getByRole('button', { name: '设置地址' }).click();
    const aq = dialog('设置 AI 咨询地址');
    await seen(aq);
    await aq.getByLabel('地址').fill('ftp://x');
    await aq.getByRole('button', { name: /保\s*存/ }).click();
    await seen(aq.getByText('请输入以 https:// 或 http:// 开头的地址'));
    await shot(page, 'dicts-aq');
    await aq.getByLabel('地址').fill('https://ai.example.cn/ask');
    await aq.getByRole('button', { name: /保\s*存/ }).click();
    await hidden(aq);
    await seen(page.getByRole('row', { name: /https:\/\/ai\.example\.cn\/ask/ }));
  }, 120_000);
});
