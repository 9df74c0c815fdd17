import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, screenshotsAt, signIn, startProduct, visible } from './harness';

/** Applying to become an accounting factory (issue 18 point 1): the form, pasted input, the pending state. */

const OPERATOR = '13600000000';
const APPLY_OK = '您的会计工厂申请已提交，系统审核后会以短信的形式通知您！';
const shot = screenshotsAt('kjgc-apply-');
// Generous waits: the machine running the suite is shared and slow at times.
const seen = (l: Locator) => visible(l, 30_000);
const hidden = (l: Locator) => l.waitFor({ state: 'hidden', timeout: 30_000 });

let product: Product;
beforeAll(async () => {
  product = await startProduct({ startMs: 180_000 });
});
afterAll(() => product?.close());

async function smsSignUp(page: Page, phone: string) {
  await page.goto(`${product.baseUrl}/#/login`);
  await page.getByRole('tab', { name: '验证码登录' }).click();
  await page.getByPlaceholder('手机号', { exact: true }).fill(phone);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect.poll(() => product.lastSms(phone).catch(() => ''), { timeout: 30_000 }).toMatch(/验证码为\d{6}/);
  const code = (await product.lastSms(phone)).match(/验证码为(\d{6})/)?.[1] ?? '';
  await page.getByPlaceholder('6位验证码').fill(code);
  await page.getByRole('checkbox').check();
  await page
    .getByRole('tabpanel')
    .getByRole('button', { name: /^登\s*录$/ })
    .click();
  await page.waitForURL(/#\/dashboard/);
}

async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  await list.getByTitle(option).click();
  await hidden(list);
}

describe('accounting factory application', () => {
  it('a user without an agency applies with pasted input; the form waits; the operator sees it on 入驻审核', async () => {
    const phone = '13500000093';
    const name = '杭州算盘会计工厂有限公司';
    const page = await product.newPage();
    await smsSignUp(page, phone);

    await page.getByRole('main').getByRole('button', { name: '申请成为会计工厂' }).click();
    const dialog = page.getByRole('dialog', { name: '申请成为会计工厂' });
    await seen(dialog);

    // Nothing filled: the call's rules, in Chinese, before anything is sent.
    await dialog.getByRole('button', { name: '提交申请' }).click();
    await seen(dialog.getByText('请输入会计工厂名称'));
    await seen(dialog.getByText('请输入税号'));
    await seen(dialog.getByText('请选择地区'));

    // Pasted as people paste: full-width digits, spaces; kept as the server keeps them.
    await dialog.getByLabel('会计工厂名称').fill(`  ${name} `);
    await dialog.getByLabel('会计工厂名称').blur();
    await expect.poll(() => dialog.getByLabel('会计工厂名称').inputValue()).toBe(name);
    await dialog.getByLabel('税号').fill(' ９１３３０１０６ ００００００９３ ');
    await expect.poll(() => dialog.getByLabel('税号').inputValue()).toBe('9133010600000093');
    await dialog.getByLabel('联系电话').fill('１３５ ０００ ０００９３');
    await expect.poll(() => dialog.getByLabel('联系电话').inputValue()).toBe('13500000093');
    await dialog.getByLabel('所在地区').click();
    await page.getByRole('menuitemcheckbox', { name: '浙江省' }).click();
    await page.getByRole('menuitemcheckbox', { name: '杭州市' }).click();
    await page.getByRole('menuitemcheckbox', { name: '西湖区' }).click();
    await dialog.getByLabel('详细地址').fill('杭州市西湖区文三路 90 号');
    await choose(page, dialog.getByLabel('机构规模'), '20-99人');
    await choose(page, dialog.getByLabel('会计人数'), '20人以下');
    await dialog.getByLabel('联系人').fill('周会计');
    await shot(page, 'form');

    await dialog.getByRole('button', { name: '提交申请' }).click();
    await seen(page.getByText(APPLY_OK));
    // The pending state: the form is read-only with the notice, the entry says it waits.
    await seen(dialog.getByText('正在等待平台审核'));
    await expect.poll(() => dialog.getByRole('button', { name: '提交申请' }).isDisabled()).toBe(true);
    await shot(page, 'pending');
    await dialog.getByRole('button', { name: '关闭' }).click();
    await hidden(dialog);
    await seen(page.getByRole('main').getByRole('button', { name: '会计工厂申请审核中' }));

    // The operator finds it on 入驻审核, tagged as a factory, with the tax number as kept.
    const op = await product.newPage();
    await signIn(op, product.baseUrl, OPERATOR);
    await op.goto(`${product.baseUrl}/#/platform/applications`);
    const row = op.getByRole('row', { name: new RegExp(name) });
    await seen(row);
    await seen(row.getByText('会计工厂'));
    await seen(row.getByText('9133010600000093'));
    await op.context().close();
    await page.context().close();
  });
});
