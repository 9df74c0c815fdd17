import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  DEMO_PASSWORD,
  openFromMenu,
  type Product,
  screenshotsAt,
  signIn,
  startProduct,
  visible,
} from './harness';

/** 数据列表 in Chromium: the manager's table from the menu, its filters and the export; an employee's own clients. */

const STAFF = '13800000002';
let product: Product;
const shots = screenshotsAt('data-list-');

async function api<T>(cookie: string, path: string, body: unknown) {
  const res = await fetch(`${product.baseUrl}/api/${path}`, {
    method: 'POST',
    // As the product's page would send it: a cookie-carrying POST needs its Origin (plugins/security.ts).
    headers: { 'content-type': 'application/json', cookie, origin: product.baseUrl },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: T };
}

beforeAll(async () => {
  product = await startProduct();
  // This month's roster of the first ten clients, synced from the simulated bureau as 同步申报状态 does.
  const res = await fetch(`${product.baseUrl}/api/userext/v1.0/common/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: '1', account: DEMO_ADMIN, password: DEMO_PASSWORD }),
  });
  const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('dzy_session=')) ?? '').split(';')[0] ?? '';
  const ids = Array.from({ length: 10 }, (_, i) => i + 1);
  const start = await api<{ batchId: number }>(cookie, 'aisino/declared/sbSyncData', {
    scope: 'selected',
    aeiIds: ids,
  });
  expect(start.code, start.msg).toBe(200);
  for (let n = 0; n < 120; n++) {
    const rate = await api<{ state: string } | null>(cookie, 'aisino/declared/getSbStatus', {});
    if (rate.data?.state !== 'running') break;
    await new Promise((ok) => setTimeout(ok, 1000));
  }
}, 300_000);
afterAll(async () => {
  await product?.close();
});

const rows = (page: Page) => page.locator('tr.ant-table-row');

describe('数据列表', () => {
  it('the administrator filters clients in arrears and exports them', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await openFromMenu(page, '客户', '数据列表');
    await visible(rows(page));
    await visible(page.getByText(/共 60 条/));
    // The synced clients show this month's filing state; the others 未同步.
    await expect.poll(() => rows(page).first().textContent()).toMatch(/已完成|未完成/);
    await shots(page, 'admin');

    await page.getByText('展开').click();
    await page.locator('.ant-form-item', { hasText: '是否欠费' }).locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: /^欠费$/ }).click();
    await page
      .getByRole('button', { name: /查\s*询/ })
      .first()
      .click();
    await expect
      .poll(
        async () =>
          (await page
            .getByText(/共 \d+ 条/)
            .first()
            .textContent()) ?? '',
      )
      .not.toContain('共 60 条');
    const texts = await rows(page).allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts) expect(t).toMatch(/欠费 \d+ 个月|逾期未满1个月/);
    await shots(page, 'arrears');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /导\s*出/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^数据列表_\d{8}\.xlsx$/);
  });

  it('an ordinary employee sees only the clients they are responsible for', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, STAFF);
    await openFromMenu(page, '客户', '数据列表');
    await visible(rows(page));
    await visible(page.getByText(/共 20 条/));
    for (const t of await rows(page).allTextContents()) expect(t).toContain('张伟');
    await shots(page, 'staff');
  });
});
