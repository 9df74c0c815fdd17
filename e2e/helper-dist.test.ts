import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MSG } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHelperDist } from '../apps/helper/src/packaging/build.js';
import { DEMO_ADMIN, type Product, screenshotsAt, signIn, startProduct, visible } from './harness.js';

/** Issue 18 points 3 and 7: 相关下载 offers the helper's builds; a 403 on a download shows 登录超时. */
let product: Product;
let dist: string;
const shots = screenshotsAt('helper-dist-');

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'dzy-e2e-helper-dist-'));
  // The quick build (bundle and Windows installer); the server offers what the manifest names.
  await buildHelperDist({
    root: resolve(import.meta.dirname, '..'),
    outDir: dist,
    sea: false,
    origins: ['http://127.0.0.1:8080'],
    bureauUrl: 'http://127.0.0.1:8090',
  });
  process.env.HELPER_DIST_DIR = dist;
  product = await startProduct({ startMs: 240_000 });
}, 300_000);
afterAll(async () => {
  await product?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('相关下载', () => {
  it('lists the builds with size and sha256, and 下载 saves the file from the product', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.goto(`${product.baseUrl}/#/nested/aboutDownload`);
    const builds = page.getByTestId('helper-builds');
    await visible(builds);
    await visible(builds.getByText('dzy-helper-setup.ps1', { exact: false }));
    await visible(builds.getByText(/sha256 [0-9a-f]{16}…/));
    await visible(builds.getByText(/最低可用版本/));
    await shots(page, 'downloads');
    const item = builds.locator('.dzy-download-item').filter({ hasText: 'dzy-helper.cjs' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('button', { name: /下\s*载/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('dzy-helper.cjs');
    await page.context().close();
  });
});

describe('a 403 on a file download', () => {
  it('shows the 登录超时 dialog with 重新登录, as every other call does', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
    await page.getByRole('button', { name: /导入客户/ }).click();
    const dialog = page.getByRole('dialog', { name: '导入客户' });
    await visible(dialog);
    await page.route('**/api/user/agency/enterpriseTemplateExport', (route) =>
      route.fulfill({ status: 403, contentType: 'application/json', body: '{"code":403,"msg":"","data":null}' }),
    );
    await dialog.getByRole('button', { name: /下载导入模板/ }).click();
    const expired = page.getByRole('dialog').filter({ hasText: MSG.sessionExpired });
    await visible(expired, 5_000);
    await visible(expired.getByRole('button', { name: /重新登录/ }));
    await page.context().close();
  });
});

describe('获取用户信息失败，请重新登录 (foundation.md §8)', () => {
  it('the server answers the user-info call with an error: that message and 重新登录, not 无法连接', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.route('**/api/userext/v1.0/common/user/session', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: '{"code":500,"msg":"NullPointerException","data":null}',
      }),
    );
    await page.reload();
    await visible(page.getByText('获取用户信息失败，请重新登录'));
    expect(await page.getByText('暂时无法连接到服务器').count()).toBe(0);
    await page.unroute('**/api/userext/v1.0/common/user/session');
    await page.getByRole('button', { name: /重新登录/ }).click();
    await page.waitForURL(/#\/(login|dashboard)/);
    await page.context().close();
  });
});
