import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, signIn, startProduct } from './harness';

const OPERATOR = '13600000000';
const APPLY_OK = '您的申请已提交，系统审核后会以短信的形式通知您！';

const visible = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const hidden = (l: Locator) => l.waitFor({ state: 'hidden', timeout: 15_000 });

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.close());

async function smsSignUp(page: Page, phone: string) {
  await page.goto(`${product.baseUrl}/#/login`);
  await page.getByRole('tab', { name: '验证码登录' }).click();
  await page.getByPlaceholder('手机号', { exact: true }).fill(phone);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect.poll(() => product.lastSms(phone).catch(() => ''), { timeout: 10_000 }).toMatch(/验证码为\d{6}/);
  const code = (await product.lastSms(phone)).match(/验证码为(\d{6})/)?.[1] ?? '';
  await page.getByPlaceholder('6位验证码').fill(code);
  await page.getByRole('checkbox').check();
  await page
    .getByRole('tabpanel')
    .getByRole('button', { name: /^登\s*录$/ })
    .click();
  await page.waitForURL(/#\/dashboard/);
}

/** Picks an option of an antd Select. */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  await list.getByTitle(option).click();
  await hidden(list);
}

/** Fills and sends the 创建代理机构 dialog, already open on the page. */
async function applyForAgency(page: Page, name: string, tax: string) {
  const dialog = page.getByRole('dialog', { name: '创建代理机构' });
  await dialog.getByLabel('代理所名称').fill(name);
  await dialog.getByLabel('代理所税号').fill(tax);
  await dialog.getByLabel('所在地区').click();
  await page.getByRole('menuitemcheckbox', { name: '浙江省' }).click();
  await page.getByRole('menuitemcheckbox', { name: '杭州市' }).click();
  await page.getByRole('menuitemcheckbox', { name: '西湖区' }).click();
  await dialog.getByLabel('详细地址').fill('杭州市西湖区学院路 77 号');
  await choose(page, dialog.getByLabel('机构规模'), '20-99人');
  await choose(page, dialog.getByLabel('会计人数'), '20人以下');
  await dialog.getByRole('button', { name: '提交申请' }).click();
  await visible(page.getByText(APPLY_OK));
  await hidden(dialog);
}

/** The operator approves the application for `name` on the 入驻审核 page. */
async function approveAsOperator(name: string) {
  const page = await product.newPage();
  await signIn(page, product.baseUrl, OPERATOR);
  await page.goto(`${product.baseUrl}/#/platform/applications`);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await row.getByRole('button', { name: /通\s*过/ }).click();
  await page.getByRole('button', { name: '确认通过' }).click();
  // The success toast lasts 3 s; the lasting outcome is the row leaving the pending list.
  await hidden(row);
  await page.getByRole('tab', { name: '已通过' }).click();
  await visible(page.getByRole('row', { name: new RegExp(name) }));
  await page.context().close();
}

const headerOrg = (page: Page) => page.locator('.dzy-header-org-name');

describe('organisations', () => {
  it('a new user applies to create an agency, the operator approves, the applicant works in it', async () => {
    const phone = '13500000088';
    const name = '杭州新启点财税服务有限公司';
    const page = await product.newPage();
    await smsSignUp(page, phone);
    await visible(page.getByText('尚未加入代理机构').first());

    // The portal's own button (the header offers the same once its organisation list has loaded).
    await page.getByRole('main').getByRole('button', { name: '创建代理机构' }).click();
    await applyForAgency(page, name, '913301060000180');

    await approveAsOperator(name);
    expect(await product.lastSms(phone)).toContain(`“${name}”已审核通过`);

    await page.reload();
    await expect.poll(() => headerOrg(page).textContent()).toBe(name);
    await page.context().close();
  });

  it('a member of two organisations switches between them in the dialog', async () => {
    const name = '西湖二号财税咨询有限公司';
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await expect.poll(() => headerOrg(page).textContent()).toBe('演示财税代理有限公司');

    // The administrator opens a second agency of their own.
    await page.getByRole('button', { name: '切换组织' }).click();
    const switcher = page.getByRole('dialog', { name: '切换组织' });
    await visible(switcher.getByText('13800000000'));
    await switcher.getByRole('button', { name: '创建代理机构' }).click();
    await applyForAgency(page, name, '913301060000260');
    await approveAsOperator(name);

    await page.getByRole('button', { name: '切换组织' }).click();
    await expect.poll(() => switcher.getByRole('option').count()).toBe(2);
    await switcher.getByPlaceholder('请输入组织名称或税号').fill('不存在的机构');
    await visible(switcher.locator('.ant-empty-description', { hasText: '暂无数据' }));
    await switcher.getByPlaceholder('请输入组织名称或税号').fill('西湖二号');
    await expect.poll(() => switcher.getByRole('option').count()).toBe(1);
    await switcher.getByRole('option', { name: new RegExp(name) }).click();
    await hidden(switcher);
    await expect.poll(() => headerOrg(page).textContent()).toBe(name);
    expect(page.url()).toMatch(/#\/dashboard/);

    // And back, by tax number.
    await page.getByRole('button', { name: '切换组织' }).click();
    await switcher.getByPlaceholder('请输入组织名称或税号').fill('91330106MA2H3C0X1');
    await switcher.getByRole('option', { name: /演示财税代理有限公司/ }).click();
    await expect.poll(() => headerOrg(page).textContent()).toBe('演示财税代理有限公司');
    await page.context().close();
  });
});
