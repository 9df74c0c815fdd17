import { join } from 'node:path';
import { BUREAU_MSG } from '@dzy/shared';
import { SCENARIO_TAXPAYERS } from '@dzy/tax-sim';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, signIn, startProduct } from './harness';

/** 税务数据 /declare/sjcx in Chromium against the simulated bureau the server starts. */

const visible = (l: Locator, timeout = 20_000) => l.first().waitFor({ state: 'visible', timeout });
const qyshOf = (s: string) => SCENARIO_TAXPAYERS.find((x) => x.scenario === s)?.qysh ?? '';
/** Money as shown: comma thousands, two decimals. */
const MONEY = /^-?\d{1,3}(,\d{3})*\.\d{2}$/;

let product: Product;
let page: Page;
beforeAll(async () => {
  product = await startProduct();
  page = await product.newPage();
  await signIn(page, product.baseUrl, DEMO_ADMIN);
}, 120_000);
afterAll(async () => {
  await product?.close();
});

async function snap(name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots) await page.screenshot({ path: join(shots, `declare-data-${name}.png`), fullPage: true });
}

async function chooseEnterprise(qysh: string) {
  const chooser = page.getByTestId('taxdata-enterprise');
  await chooser.click();
  await page.keyboard.type(qysh);
  const option = page.locator('.ant-select-item-option', { hasText: qysh });
  await visible(option);
  await option.first().click();
  await page.waitForURL(/aeiId=\d+/);
}

async function openTab(label: string) {
  await page.getByRole('tab', { name: label }).click();
  // The old panel stays visible while the switch animates: wait until the chosen one is the only one.
  await expect.poll(() => page.getByRole('tab', { name: label }).getAttribute('aria-selected')).toBe('true');
  await expect.poll(() => page.getByRole('tabpanel').count()).toBe(1);
  await visible(page.getByRole('tabpanel').getByRole('button', { name: /实时查询/ }));
}

/** Clicks 实时查询 and waits for the answer (the source tag turns to 实时查询, or a failure shows). */
async function queryLive() {
  const panel = page.getByRole('tabpanel');
  await panel.getByRole('button', { name: /实时查询/ }).click();
  await visible(panel.locator('.dzy-taxdata-source', { hasText: '查询于' }).or(panel.locator('.dzy-taxdata-failure')));
}

async function pickRange(from: string, to: string) {
  const inputs = page.locator('.dzy-taxdata-field .ant-picker input');
  await inputs.nth(0).click();
  await inputs.nth(0).fill(from);
  await inputs.nth(0).press('Enter');
  await inputs.nth(1).fill(to);
  await inputs.nth(1).press('Enter');
  await page
    .locator('.ant-picker-dropdown')
    .first()
    .waitFor({ state: 'hidden' })
    .catch(() => undefined);
}

describe('税务数据', () => {
  it('opens on the first enterprise in scope, then shows one chosen by tax number with a live query', async () => {
    await page.goto(`${product.baseUrl}/#/declare/sjcx`);
    // Not an empty page: the first enterprise with a tax number is shown.
    await page.waitForURL(/aeiId=\d+/);
    await visible(page.getByRole('tab', { name: '纳税人信息' }));
    expect(await page.getByText('请选择企业后查看其税务数据').count()).toBe(0);
    await snap('0-first');
    const qysh = qyshOf('arrears');
    await chooseEnterprise(qysh);
    await visible(page.getByRole('tab', { name: '纳税人信息' }));
    await queryLive();
    const info = page.getByTestId('taxpayer-info');
    await visible(info);
    expect(await info.textContent()).toContain(qysh);
    expect(await page.getByTestId('taxdata-source').textContent()).toContain('实时查询');
    await visible(page.getByText('税费种认定'));
    await snap('1-nsrxx');
  });

  it('payments in a chosen date range, every amount with commas and two decimals, and their total', async () => {
    await openTab('缴款记录');
    const today = new Date();
    const to = today.toISOString().slice(0, 10);
    const from = `${today.getFullYear() - 1}-01-01`;
    await pickRange(from, to);
    await queryLive();
    const rows = page.getByRole('tabpanel').locator('tr.ant-table-row');
    await visible(rows);
    const n = await rows.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const cells = rows.nth(i).locator('td');
      const date = (await cells.nth(2).textContent()) ?? '';
      expect(date >= from && date <= to, date).toBe(true);
      expect((await cells.nth(3).textContent()) ?? '').toMatch(/^.{3}\*{4}.{4}$/);
      expect(((await cells.nth(4).textContent()) ?? '').trim()).toMatch(MONEY);
    }
    expect(((await page.getByTestId('payments-total').textContent()) ?? '').trim()).toMatch(MONEY);
    await snap('5-jk');
  });

  it('arrears with totals and a detail view', async () => {
    await openTab('欠税');
    await queryLive();
    const stats = page.getByTestId('arrears-stats');
    await visible(stats);
    for (const b of await stats.locator('b').all()) expect(((await b.textContent()) ?? '').trim()).toMatch(MONEY);
    await snap('6-qs');
    await page.getByRole('tabpanel').getByRole('button', { name: '明细', exact: true }).first().click();
    const dialog = page.locator('.ant-modal', { hasText: '欠税明细：' });
    await visible(dialog);
    const rows = dialog.locator('tr.ant-table-row');
    await visible(rows);
    expect(((await rows.first().locator('td').nth(2).textContent()) ?? '').trim()).toMatch(MONEY);
    await visible(dialog.getByText(/合计（\d+ 笔）/));
    await snap('6-qs-detail');
    await dialog
      .locator('.ant-modal-footer')
      .getByRole('button', { name: /关\s*闭/ })
      .click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('the other tabs answer from the bureau', async () => {
    for (const [label, name] of [
      ['负责人', '2-fzr'],
      ['已申报', '3-ysb'],
      ['未申报', '4-wsb'],
      ['单位社保', '7-sb'],
      ['纳税信用', '8-xy'],
    ] as const) {
      await openTab(label);
      await queryLive();
      expect(await page.getByRole('tabpanel').locator('.dzy-taxdata-failure').count(), label).toBe(0);
      await snap(name);
    }
    // ID numbers of responsible persons come masked.
    await openTab('负责人');
    await expect
      .poll(async () => (await page.getByRole('tabpanel').locator('tr.ant-table-row td').nth(2).textContent()) ?? '')
      .toMatch(/^.{3}\*{4}.{4}$/);
  });

  it('a refused login shows the spec message and what to do', async () => {
    await chooseEnterprise(qyshOf('mismatch'));
    await openTab('纳税人信息');
    await queryLive();
    const alert = page.locator('.dzy-taxdata-failure');
    await visible(alert);
    expect(await alert.textContent()).toContain(`实时查询失败：${BUREAU_MSG.mismatch}`);
    expect(await alert.textContent()).toContain('修改该企业的电子税务局密码');
    await snap('9-failure');
  });

  it('the client book opens an enterprise tax data from its row', async () => {
    await page.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
    await visible(page.locator('tr.ant-table-row'));
    await page.locator('tr.ant-table-row').first().getByRole('button', { name: /更多/ }).click();
    await page.getByRole('menuitem', { name: /税务数据/ }).click();
    await page.waitForURL(/#\/declare\/sjcx\?aeiId=\d+/);
    await visible(page.getByRole('tab', { name: '纳税人信息' }));
    const viewed = new URL(page.url().replace('#', '')).searchParams.get('aeiId');
    // Back through the menu: the one viewed last, not an empty page.
    await page.goto(`${product.baseUrl}/#/dashboard`);
    await page.locator('.dzy-navbar-item').filter({ hasText: '申报' }).click();
    await page.locator('.dzy-sider .ant-menu-item').filter({ hasText: '税务数据' }).click();
    await page.waitForURL(new RegExp(`aeiId=${viewed}`), { waitUntil: 'commit' });
    await visible(page.getByRole('tab', { name: '纳税人信息' }));
  });
});
