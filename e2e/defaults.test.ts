import { join } from 'node:path';
import { CONTRACT_WARNING, REVEAL_MSG } from '@dzy/shared';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, searchClients, signIn, startProduct } from './harness';

/**
 * Issue 12 point 3, as a new agency user meets it: a client created today is covered by the agency's
 * quota (no 已到期, stopping service works); a contract created today is not 欠费; 普通员工 sees no
 * destructive, bulk or credential action; revealing a credential asks for a reason and the password
 * or an SMS code, and the reason shows in the reveal log.
 */
const ZHANG = '13800000002';
const NAME = '杭州今日签约科技有限公司';
const QYSH = '91330106MA2KDEF01X';
const ADMIN_ONLY = ['导入客户', '导入账号密码', '批量分配', '批量删除', '批量停止服务', '等级管理'];

const visible = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });
const squash = (s: string) => s.replace(/\s+/g, '');

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.close());

async function snap(page: Page, name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots) await page.screenshot({ path: join(shots, `defaults-${name}.png`) });
}

async function openBook(page: Page) {
  await page.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
  await visible(page.locator('tr.ant-table-row'));
}

const rowOf = (page: Page, name: string) => page.locator('tr.ant-table-row', { hasText: name });

/** Every action the page offers above the table: its buttons and, opened, the toolbar's 更多 menu. */
async function toolbarActions(page: Page): Promise<string[]> {
  const outside = page.locator('button:not(tr button)');
  // The toolbar's 更多 (the header has one too, before it).
  const more = outside.filter({ hasText: '更多' });
  if ((await more.count()) > 0) {
    await more.last().click();
    await visible(page.locator('.ant-dropdown:visible .ant-dropdown-menu-item'));
  }
  const texts = [
    ...(await outside.allInnerTexts()),
    ...(await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item').allInnerTexts()),
  ];
  await page.keyboard.press('Escape');
  return texts.map(squash);
}

/** The items of a row's 更多 menu. */
async function rowActions(page: Page, row: Locator): Promise<string[]> {
  await row.getByRole('button', { name: /更多/ }).click();
  const menu = page.locator('.ant-dropdown:visible .ant-dropdown-menu-item');
  await visible(menu);
  const texts = (await menu.allInnerTexts()).map(squash);
  await page.keyboard.press('Escape');
  return texts;
}

describe('defaults that let a new agency work', () => {
  let admin: Page;

  it('a client created today is covered by the quota: no 已到期, and its service can be stopped', async () => {
    admin = await product.newPage();
    await signIn(admin, product.baseUrl, DEMO_ADMIN);
    await openBook(admin);
    await admin.getByRole('button', { name: /新增客户/ }).click();
    const dialog = admin.getByRole('dialog', { name: '新增客户' });
    await visible(dialog);
    await dialog.getByPlaceholder('与营业执照一致').fill(NAME);
    await dialog.getByPlaceholder('统一社会信用代码或纳税人识别号，6-20位').fill(QYSH);
    await dialog.getByRole('tab', { name: '登录信息' }).click();
    await dialog.getByPlaceholder('身份证号/手机号/用户名').fill('330106199202021234');
    await dialog.getByPlaceholder('电子税务局密码').fill('Today#Etax2026');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await visible(admin.getByText('保存成功'));
    await hidden(dialog);

    await searchClients(admin, '今日签约');
    const row = rowOf(admin, NAME);
    await visible(row);
    expect(await row.textContent()).not.toContain('已到期');
    await row.getByRole('button', { name: /更多/ }).click();
    await admin.getByRole('menuitem', { name: '停止服务' }).click();
    const confirm = admin.locator('.ant-modal-confirm');
    await visible(confirm.getByText(`确定停止为“${NAME}”提供服务吗？`));
    await confirm.getByRole('button', { name: /停止服务/ }).click();
    await visible(admin.getByText('已停止服务'));
    expect(await admin.getByText('您的付费权益已到期').count()).toBe(0);
  });

  it('a contract created today is not flagged 合同已欠费', async () => {
    await admin.goto(`${product.baseUrl}/#/contract/htgl/htlb`);
    await visible(admin.locator('tr.ant-table-row'));
    await admin.getByRole('button', { name: /新增合同/ }).click();
    const dialog = admin.getByRole('dialog', { name: '新增合同' });
    await visible(dialog);
    // The client just created; today is the default signing and start date, paid monthly from today.
    await dialog.locator('.ant-form-item', { hasText: '签约企业' }).locator('.ant-select').first().click();
    await admin.keyboard.type('今日签约');
    await visible(admin.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: NAME }));
    await admin.keyboard.press('Enter');
    await hidden(admin.locator('.ant-select-dropdown:visible'));
    await dialog.locator('.ant-form-item', { hasText: '合同模板' }).locator('.ant-select').first().click();
    await visible(admin.locator('.ant-select-dropdown:visible .ant-select-item-option-active'));
    await admin.keyboard.press('Enter');
    await hidden(admin.locator('.ant-select-dropdown:visible'));
    await expect.poll(() => dialog.locator('.dzy-contract-amount').textContent()).not.toBe('¥0.00');
    await dialog.getByRole('button', { name: /保存并提交/ }).click();
    await visible(admin.getByText('提交成功'));
    await hidden(dialog);
    await admin.getByPlaceholder('企业名称或税号').first().fill('今日签约');
    await admin
      .getByRole('button', { name: /查\s*询/ })
      .first()
      .click();
    const row = rowOf(admin, NAME);
    await visible(row);
    await snap(admin, 'contract-list');
    expect(await row.textContent()).toMatch(/执行中|即将到期/);
    expect(await row.textContent()).not.toContain(CONTRACT_WARNING.arrears);
  });

  it('普通员工 sees no import, bulk, delete, grade or credential action', async () => {
    const zhang = await product.newPage();
    await signIn(zhang, product.baseUrl, ZHANG);
    await openBook(zhang);
    const actions = await toolbarActions(zhang);
    expect(actions.some((a) => a.includes('新增客户'))).toBe(true);
    for (const label of ADMIN_ONLY)
      expect(
        actions.some((a) => a.includes(label)),
        label,
      ).toBe(false);
    await snap(zhang, 'staff-book');

    const firstRow = zhang.locator('tr.ant-table-row').first();
    const items = await rowActions(zhang, firstRow);
    for (const label of ['分配', '停止服务', '删除']) expect(items, label).not.toContain(label);

    // The client's name (the row's first button) opens its drawer.
    await firstRow.getByRole('button').first().click();
    const drawer = zhang.locator('.ant-drawer-section');
    await drawer.getByRole('tab', { name: '登录信息' }).click();
    await visible(drawer.getByText('账号与密码已脱敏显示。'));
    expect(await drawer.getByRole('button', { name: /查看明文/ }).count()).toBe(0);
    await zhang.context().close();

    // The administrator's own toolbar still has them all.
    await openBook(admin);
    const mine = await toolbarActions(admin);
    for (const label of ADMIN_ONLY)
      expect(
        mine.some((a) => a.includes(label)),
        label,
      ).toBe(true);
  });

  it('revealing asks for a reason and the password or an SMS code, and logs the reason', async () => {
    await searchClients(admin, '今日签约');
    await rowOf(admin, NAME).getByRole('button', { name: NAME }).click();
    const drawer = admin.locator('.ant-drawer-section');
    await visible(drawer.getByText(NAME));
    await drawer.getByRole('tab', { name: '登录信息' }).click();
    await visible(drawer.getByText('暂无查看记录'));
    await drawer.getByRole('button', { name: /查看明文/ }).click();
    const dialog = admin.getByRole('dialog', { name: '查看账号密码' });
    await visible(dialog);
    const ok = dialog.getByRole('button', { name: /验证并查看/ });
    await ok.click();
    await visible(dialog.getByText(REVEAL_MSG.reason));
    await visible(dialog.getByText('请输入您的登录密码'));

    await dialog.getByLabel('查看原因').fill('客户委托本月增值税申报');
    await dialog.getByLabel('登录密码').fill('Wrong@2026');
    await ok.click();
    // The password is checked with scrypt on the server: give a loaded machine time.
    await dialog.getByText(REVEAL_MSG.wrongPassword).waitFor({ state: 'visible', timeout: 45_000 });
    await admin.setViewportSize({ width: 1024, height: 768 });
    await snap(admin, 'reveal-dialog-1024');
    await admin.setViewportSize({ width: 1440, height: 900 });
    await dialog.getByLabel('登录密码').fill('Demo@2026');
    await ok.click();
    await hidden(dialog);
    await visible(drawer.getByText('Today#Etax2026'));
    await visible(drawer.getByRole('cell', { name: '客户委托本月增值税申报' }));
    await snap(admin, 'revealed-1440');

    // Hidden again; this time with a code sent to the administrator's own phone.
    await drawer.getByRole('button', { name: /隐藏/ }).click();
    await hidden(drawer.getByText('Today#Etax2026'));
    await drawer.getByRole('button', { name: /查看明文/ }).click();
    await visible(dialog);
    await dialog.getByLabel('查看原因').fill('核对个税申报密码');
    await dialog.getByRole('radio', { name: '短信验证' }).check();
    await visible(dialog.getByText('138****0000'));
    await dialog.getByRole('button', { name: /获取验证码/ }).click();
    await visible(dialog.getByRole('button', { name: /s后重新获取/ }));
    const code = (await product.lastSms(DEMO_ADMIN)).match(/验证码为(\d{6})/)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    await dialog.getByPlaceholder('6位验证码').fill(code);
    await snap(admin, 'reveal-sms');
    await ok.click();
    await hidden(dialog);
    await visible(drawer.getByText('Today#Etax2026'));
    await visible(drawer.getByRole('cell', { name: '核对个税申报密码' }));
    expect(await drawer.locator('.ant-table-row').count()).toBe(2);
  });
});
