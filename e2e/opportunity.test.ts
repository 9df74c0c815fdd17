import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, openFromMenu, type Product, screenshotsAt, signIn, startProduct, visible } from './harness';

const ZHANG = '13800000002';
const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });
const snap = screenshotsAt('opportunity-');
const rowOf = (page: Page, text: string) => page.locator('tr.ant-table-row', { hasText: text });

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => {
  await product?.close();
});

/** Opens the antd Select of the form item labelled `label` and picks the option with `text`. */
async function pick(dialog: Locator, page: Page, label: string, text: string) {
  await dialog.locator('.ant-form-item', { hasText: label }).locator('.ant-select').first().click();
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first();
  await visible(option);
  await option.click();
  await hidden(page.locator('.ant-select-dropdown:visible'));
}

async function search(page: Page, text: string) {
  await page.getByPlaceholder('公司名称、联系人或电话').first().fill(text);
  await page
    .getByRole('button', { name: /查\s*询/ })
    .first()
    .click();
}

describe('the sales pipeline (商机) in the browser', () => {
  const company = `浏览器商机${Date.now().toString().slice(-6)}科技有限公司`;
  let page: Page;

  it('creates an opportunity from the menu, follows it up and wins it', async () => {
    page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await openFromMenu(page, '客户', '商机列表');
    // The demo pipeline is there.
    await visible(rowOf(page, '杭州云帆电子商务有限公司'));
    await snap(page, 'list');
    await page.getByRole('button', { name: /商机设置/ }).click();
    const settings = page.getByRole('dialog', { name: '商机设置' });
    await visible(settings.getByRole('textbox', { name: '阶段1名称' }));
    expect(await settings.getByRole('textbox', { name: '阶段4名称' }).inputValue()).toBe('签约');
    await snap(page, 'setting');
    await settings.getByRole('button', { name: /取\s*消/ }).click();
    await hidden(settings);

    await page.getByRole('button', { name: /新增商机/ }).click();
    const dialog = page.getByRole('dialog', { name: '新增商机' });
    await visible(dialog);
    // The form says what is missing, in Chinese.
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await visible(dialog.getByText('请输入公司名称'));
    await dialog.getByLabel('公司名称').fill(company);
    await pick(dialog, page, '商机来源', '朋友介绍');
    await dialog.getByLabel('联系人').fill('周浏览');
    await dialog.getByLabel('联系电话').fill('13966667777');
    await dialog.getByLabel('预计金额（元）').fill('4800');
    await snap(page, 'form');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await visible(page.getByText('新增成功'));
    await hidden(dialog);
    await search(page, company);
    await visible(rowOf(page, company));
    expect(await rowOf(page, company).textContent()).toContain('初步接触');

    await rowOf(page, company).getByRole('button', { name: '写跟进' }).click();
    const follow = page.getByRole('dialog', { name: new RegExp(`写跟进 · ${company}`) });
    await visible(follow);
    await follow.getByLabel('跟进内容').fill('客户确认需要代理记账和工商年报，已报价，同意签约');
    await pick(follow, page, '商机阶段', '签约');
    await follow.getByRole('button', { name: /保\s*存/ }).click();
    await visible(page.getByText('跟进记录已保存'));
    await hidden(follow);
    await expect.poll(() => rowOf(page, company).textContent()).toContain('签约');
  });

  it('converts the won opportunity into a client and a draft contract', async () => {
    await rowOf(page, company).getByRole('button', { name: '转为客户' }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`转为客户 · ${company}`) });
    await visible(dialog);
    await dialog.getByLabel('企业税号').fill(`91330106MA${Date.now().toString().slice(-8)}`);
    await dialog.locator('.ant-form-item', { hasText: '合同模板' }).locator('.ant-select').click();
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
    await visible(option);
    await option.click();
    await snap(page, 'convert');
    await dialog.getByRole('button', { name: /转为客户并生成合同/ }).click();
    await visible(page.getByText('转化成功'));
    await visible(page.getByRole('button', { name: '知道了' }));
    expect(await page.locator('.ant-modal-confirm').textContent()).toMatch(/已转为客户.*待提交合同 HT\d{10}/);
    await page.getByRole('button', { name: '知道了' }).click();
    await expect.poll(() => rowOf(page, company).textContent()).toContain('已转客户');

    await rowOf(page, company).getByRole('button', { name: company }).click();
    const drawer = page.locator('.ant-drawer');
    await visible(drawer.getByText('客户确认需要代理记账和工商年报'));
    await visible(drawer.getByText('已转为客户'));
    await snap(page, 'drawer');
    await drawer.getByRole('tab', { name: '转移记录' }).click();
    await visible(drawer.getByText('新建'));
    await page.keyboard.press('Escape');

    // The client is in the client book.
    await page.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
    await page
      .getByPlaceholder(/企业名称/)
      .first()
      .fill(company);
    await page
      .getByRole('button', { name: /查\s*询/ })
      .first()
      .click();
    await visible(rowOf(page, company));
  });

  it('a staff member sees only their own, releases one to the pool and claims it back', async () => {
    const zhang = await product.newPage();
    await signIn(zhang, product.baseUrl, ZHANG);
    await openFromMenu(zhang, '客户', '商机列表');
    await visible(zhang.locator('tr.ant-table-row'));
    // Not the administrator's.
    await search(zhang, company);
    await visible(zhang.getByText('暂无商机'));
    await search(zhang, '');
    const own = '杭州启明教育咨询有限公司';
    await visible(rowOf(zhang, own));
    await snap(zhang, 'staff-list');
    // No administrator-granted buttons for staff.
    expect(await zhang.getByRole('button', { name: '商机设置' }).count()).toBe(0);

    await rowOf(zhang, own).getByRole('button', { name: own }).click();
    const drawer = zhang.locator('.ant-drawer');
    await drawer.getByRole('button', { name: /释\s*放/ }).click();
    const confirm = zhang.getByRole('dialog', { name: '释放到公海' });
    await visible(confirm);
    await confirm.getByRole('button', { name: /释\s*放/ }).click();
    await visible(zhang.getByText('释放成功'));
    await zhang.keyboard.press('Escape');
    await hidden(rowOf(zhang, own));

    await openFromMenu(zhang, '客户', '公海');
    await visible(rowOf(zhang, own));
    await snap(zhang, 'pool');
    expect(await zhang.getByRole('button', { name: '删除' }).count()).toBe(0);
    await rowOf(zhang, own).getByRole('button', { name: '领取' }).click();
    const claim = zhang.getByRole('dialog', { name: '领取商机' });
    await claim.getByRole('button', { name: /领\s*取/ }).click();
    await visible(zhang.getByText('领取成功'));
    await hidden(rowOf(zhang, own));
    await openFromMenu(zhang, '客户', '商机列表');
    await visible(rowOf(zhang, own));
  });
});
