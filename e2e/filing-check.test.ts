import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, openFromMenu, type Product, screenshotsAt, signIn, startProduct, visible } from './harness';

/**
 * 征期日历, 漏报检查 and 申报设置 in Chromium against the real server process and a simulator fixed to
 * 2026-11-20 (after the November deadline): from the menu, the calendar's deadline day shows its count and
 * lists its clients; the unpaid and unfiled checks run and show results; an ignored type is set for a client
 * and the settings log names it. The accountant 13800000001 opens the same pages.
 */
const TODAY = '2026-11-20';

let product: Product;
const snap = screenshotsAt('filing-check-');

beforeAll(async () => {
  product = await startProduct({ sim: { latencyMs: 5, today: TODAY }, startMs: 180_000 });
}, 240_000);

afterAll(async () => {
  await product?.close();
});

describe('征期日历, 漏报检查 and 申报设置 in Chromium', () => {
  it('the calendar shows a deadline day with its count and lists its clients', async () => {
    const page = await product.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await openFromMenu(page, '申报', '征期日历');
    // The published deadline of the month shown carries its count of returns due.
    const day = page.locator('[data-testid^="zqrl-"]').filter({ hasText: '申报截止' });
    await visible(day);
    const text = (await day.first().textContent()) ?? '';
    expect(Number(/应申报\s*(\d+)/.exec(text)?.[1] ?? 0)).toBeGreaterThan(0);
    await snap(page, 'calendar');
    await day.first().click();
    await visible(page.locator('.ant-drawer .ant-table-row'));
    await snap(page, 'calendar-day');
    expect(errors).toEqual([]);
  }, 90_000);

  it('runs the unpaid and unfiled checks and shows what they found', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await openFromMenu(page, '申报', '漏报检查');
    for (const [tab, kind, label] of [
      ['未缴款', 'wjk', '检查未缴款'],
      ['未申报', 'wsb', '检查未申报'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      const panel = page.getByRole('tabpanel', { name: tab });
      await panel.getByRole('button', { name: label }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: '开始检查' }).click();
      await visible(page.getByTestId(`lbsjc-progress-${kind}`).getByText('检查完成'), 120_000);
      await visible(panel.locator('.ant-table-row'));
      await snap(page, `lbsjc-${kind}`);
    }
    // An overdue return shows its days overdue.
    await visible(page.getByRole('tabpanel', { name: '未申报' }).getByText('逾期未申报'));
  }, 240_000);

  it('sets an ignored type for a client in 申报设置 and the log names it', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await openFromMenu(page, '申报', '申报设置');
    const first = page.locator('.ant-table-row').first();
    await visible(first);
    const name = ((await first.locator('td').nth(1).textContent()) ?? '').trim();
    await first.locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: /设置忽略税种/ }).click();
    await page.locator('.ant-modal').getByText('印花税', { exact: false }).click();
    await snap(page, 'settings-ignore');
    await page
      .locator('.ant-modal')
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await visible(first.getByText('财产和行为税（印花税）'));
    await page.getByRole('tab', { name: '信息补全' }).click();
    await visible(page.getByRole('tabpanel', { name: '信息补全' }).locator('.ant-table-row'));
    await snap(page, 'settings-xxbq');
    await page.getByRole('tab', { name: '操作日志' }).click();
    const log = page.getByRole('tabpanel', { name: '操作日志' }).locator('.ant-table-row').first();
    await visible(log);
    await expect.poll(async () => log.textContent()).toContain(name);
    await snap(page, 'settings-logs');
  }, 90_000);

  it('the accountant opens the calendar and the settings of their clients', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, '13800000001');
    await openFromMenu(page, '申报', '征期日历');
    await visible(page.locator('[data-testid^="zqrl-"]'));
    await snap(page, 'calendar-staff');
    await openFromMenu(page, '申报', '申报设置');
    await visible(page.locator('.ant-table-row'));
    await snap(page, 'settings-staff');
  }, 90_000);
});
