import { FILING_STATE_NAMES, FILING_STATES } from '@dzy/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, openFromMenu, type Product, screenshotsAt, signIn, startProduct, visible } from './harness';

/**
 * 申报清册 and 申报概览 in Chromium against the real server process and a simulator fixed to 2026-11-10,
 * before the November deadline: returns not filed yet are 未申报, earlier ones still not filed 逾期未申报, so
 * the demo agency's month shows every state. From the menu: sync, see each state, filter by a count, then
 * from the overview click a number through to the roster; an accountant sees only their clients.
 */
const TODAY = '2026-11-10';
const MONTH = '2026-11';

let product: Product;
const snap = screenshotsAt('filing-');

const countOf = async (page: Page, key: string) =>
  Number((await page.getByTestId(`count-${key}`).locator('b').textContent()) ?? 'NaN');
const totalOf = async (page: Page) =>
  Number(
    /共\s*([\d,]+)\s*条/
      .exec((await page.locator('.ant-pagination-total-text').textContent()) ?? '')?.[1]
      ?.replace(/,/g, '') ?? 'NaN',
  );

beforeAll(async () => {
  product = await startProduct({ sim: { latencyMs: 20, today: TODAY }, startMs: 180_000 });
}, 240_000);

afterAll(async () => {
  await product?.close();
});

describe('申报清册 and 申报概览 in Chromium', () => {
  it('syncs from the menu, shows every state, filters by a count, and the overview links back', async () => {
    const page = await product.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await openFromMenu(page, '申报', '申报清册');
    // The month of the simulator (the product's own date may be later).
    await page.goto(`${product.baseUrl}/#/declare/sbqc?filingMonth=${MONTH}`);
    await visible(page.getByTestId('state-counts'));

    await page.getByRole('button', { name: /同步申报状态/ }).click();
    // The demo agency's two clients without a tax number are named with the spec's prompt.
    await visible(page.getByText('请补充企业税号，企业税号为空时无法使用发票/记账/申报'));
    await visible(page.getByText('以下企业没有税号，未同步'));
    await page.getByRole('button', { name: '知道了' }).click();
    await visible(page.getByTestId('sync-progress').getByText('同步完成'), 90_000);

    // Every state has clients, and each shows in the table or as a count.
    await expect.poll(async () => countOf(page, 'all'), { timeout: 15_000 }).toBeGreaterThan(0);
    for (const s of FILING_STATES) {
      await expect.poll(() => countOf(page, s), { message: FILING_STATE_NAMES[s], timeout: 10_000 }).toBeGreaterThan(0);
    }
    const table = page.locator('.dzy-filing-table');
    await visible(table.locator('.dzy-filing-tag'));

    // A count filters the roster: the URL says so, the total is the count, the first row shows the state
    // (逾期未申报 as a cell or as the count of earlier overdue returns).
    const first = table.locator('.ant-table-tbody tr.ant-table-row').first();
    for (const s of FILING_STATES) {
      const n = await countOf(page, s);
      await page.getByTestId(`count-${s}`).click();
      await expect.poll(() => page.url()).toContain(`state=${s}`);
      await expect.poll(() => totalOf(page)).toBe(n);
      await visible(page.getByTestId('filtered-marker'));
      await expect
        .poll(
          async () =>
            (await first.locator(`[data-state="${s}"]`).count()) +
            (s === 'yqwsb' ? await first.getByText(/\d+ 项/).count() : 0),
          { message: FILING_STATE_NAMES[s] },
        )
        .toBeGreaterThan(0);
    }
    const filteredUrl = page.url();

    // 申报概览: the matrix, the staff progress; a number opens the roster filtered to it.
    await openFromMenu(page, '申报', '申报概览');
    await page.goto(`${product.baseUrl}/#/declare/sbgl?filingMonth=${MONTH}`);
    // The first non-zero number of a tax type's row (zero is shown plain, not as a link).
    const cell = page.locator('a[data-testid^="matrix-"]:not([data-testid^="matrix-sum-"])').first();
    await visible(cell);
    const [, type, state] = /^matrix-(\w+)-(\w+)$/.exec((await cell.getAttribute('data-testid')) ?? '') ?? [];
    const n = Number(await cell.textContent());
    expect(n).toBeGreaterThan(0);
    await visible(page.locator('.ant-progress').first());
    const overviewUrl = page.url();
    await cell.click();
    await expect.poll(() => page.url()).toContain(`taxType=${type}`);
    expect(page.url()).toContain(`state=${state}`);
    await expect.poll(() => totalOf(page)).toBe(n);
    await visible(page.getByTestId('filtered-marker'));
    const rosterUrl = page.url();
    // The three views at 1440 and 1024 px (the narrow window last: it folds the sidebar).
    for (const [name, url] of [
      ['roster', `${product.baseUrl}/#/declare/sbqc?filingMonth=${MONTH}`],
      ['roster-filtered', filteredUrl],
      ['roster-from-overview', rosterUrl],
      ['overview', overviewUrl],
    ] as const) {
      await page.goto(url);
      await visible(page.locator('.ant-table-row'));
      await snap(page, name);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('an ordinary staff member sees only their own clients', async () => {
    const admin = await product.newPage();
    await signIn(admin, product.baseUrl, DEMO_ADMIN);
    await admin.goto(`${product.baseUrl}/#/declare/sbqc?filingMonth=${MONTH}`);
    await expect.poll(() => countOf(admin, 'all'), { timeout: 15_000 }).toBeGreaterThan(0);
    const all = await countOf(admin, 'all');
    await admin.context().close();

    const page = await product.newPage();
    await signIn(page, product.baseUrl, '13800000001');
    await openFromMenu(page, '申报', '申报清册');
    await page.goto(`${product.baseUrl}/#/declare/sbqc?filingMonth=${MONTH}`);
    await expect.poll(() => countOf(page, 'all'), { timeout: 15_000 }).toBeGreaterThan(0);
    const mine = await countOf(page, 'all');
    expect(mine).toBeLessThan(all);
    await expect.poll(() => totalOf(page)).toBe(mine);
    await snap(page, 'roster-staff');
    await page.context().close();
  }, 120_000);
});
