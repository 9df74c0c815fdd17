import { BRAND_MSG, brandAssignCall, brandSaveCall, noQyshListCall, sessionCall } from '@dzy/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callAs,
  DEMO_ADMIN,
  DEMO_OPERATOR,
  DEMO_PASSWORD,
  type Product,
  screenshotsAt,
  signIn,
  startProduct,
  visible,
} from './harness';

/**
 * Issue 18 point 7: 门户版本 changes the portal (1 /dashboard, 2 /newDashboard; /, the logo and 门户 lead to
 * the chosen one), the one enterprise chooser, 账号异常 at another provider's sign-in address, and the
 * sign-in page's links.
 */

const ADMIN = '13800000001';
const STAFF = '13800000002';
let product: Product;
const shots = screenshotsAt('portal-');

beforeAll(async () => {
  product = await startProduct({ startMs: 180_000 });
}, 300_000);
afterAll(async () => {
  await product?.close();
});

/** A fresh page; generous waits, for a busy machine. */
async function newPage(): Promise<Page> {
  const page = await product.newPage();
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(60_000);
  return page;
}

async function chooseVersion(page: Page, label: '进度版' | '服务版') {
  await page.getByRole('button', { name: '布局设置' }).click();
  const drawer = page.getByRole('dialog', { name: '布局设置' });
  await visible(drawer);
  await drawer.getByText(label, { exact: true }).click();
  await drawer.getByRole('button', { name: /close|关闭/i }).click();
}

async function signInAt(page: Page, path: string, account: string) {
  await page.goto(`${product.baseUrl}/#${path}`);
  await page.getByPlaceholder('手机号 / 账号').fill(account);
  await page.getByPlaceholder('密码').fill(DEMO_PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
}

describe('门户版本', () => {
  for (const account of [ADMIN, STAFF]) {
    it(`switches between the progress and the service portal, and home follows (${account})`, async () => {
      const page = await newPage();
      await signIn(page, product.baseUrl, account);
      await visible(page.locator('.dzy-stat'));
      await expect.poll(() => page.locator('.dzy-dashboard .ant-skeleton').count(), { timeout: 20_000 }).toBe(0);
      await shots(page, `progress-${account}`);

      await chooseVersion(page, '服务版');
      // / and the logo lead to the chosen portal; the menu's 门户 too.
      await page.goto(`${product.baseUrl}/#/`);
      await page.waitForURL(/#\/newDashboard$/);
      const service = page.getByTestId('service-dashboard');
      await visible(service.getByText('我的待办工单').first());
      await visible(service.getByText('派工消息'));
      await expect.poll(() => service.locator('.ant-skeleton').count(), { timeout: 20_000 }).toBe(0);
      expect(await page.title()).toBe('门户 - 代账云');
      await shots(page, `service-${account}`);
      await page.goto(`${product.baseUrl}/#/nested/aboutDownload`);
      await page.getByRole('link', { name: '门户' }).first().click();
      await page.waitForURL(/#\/newDashboard$/);

      // The choice persists: a new visit in the same browser opens the service version.
      await page.reload();
      await page.goto(`${product.baseUrl}/#/`);
      await page.waitForURL(/#\/newDashboard$/);

      await chooseVersion(page, '进度版');
      await page.goto(`${product.baseUrl}/#/`);
      await page.waitForURL(/#\/dashboard$/);
      await visible(page.locator('.dzy-stat'));
      await page.context().close();
    }, 120_000);
  }
});

describe('one enterprise chooser', () => {
  it('报税检查 chooses several from the 500 px infinite-scroll list; online service one', async () => {
    const page = await newPage();
    await signIn(page, product.baseUrl, ADMIN);
    await page.goto(`${product.baseUrl}/#/declare/bssz`);
    await page.getByText('选择企业', { exact: true }).first().click();
    await page.getByRole('button', { name: '开始检查' }).click();
    const picker = page.getByRole('dialog', { name: '选择企业' });
    await visible(picker.getByRole('checkbox'));
    expect(Math.round((await picker.boundingBox())?.width ?? 0)).toBe(500);
    // 20 a page, the next page as the list is scrolled to its end.
    expect(await picker.getByRole('checkbox').count()).toBe(20);
    await picker.getByTestId('enterprise-chooser-list').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => picker.getByRole('checkbox').count()).toBeGreaterThan(20);
    // Each item reads name(tax number).
    expect(await picker.locator('.dzy-chooser-item').first().textContent()).toMatch(/^.+\([0-9A-Z]{6,20}\)$/);
    await picker.getByRole('checkbox').first().check();
    await expect.poll(() => picker.getByRole('button', { name: /开始检查（已选 1 家）/ }).count()).toBe(1);
    await shots(page, 'chooser-multiple');
    await picker.getByRole('button', { name: /取\s*消/ }).click();

    await page.getByTestId('help-panel').getByText('在线客服').click();
    const chooser = page.getByRole('dialog', { name: '请选择企业' });
    await visible(chooser.getByRole('radio'));
    await chooser.getByRole('button', { name: '联系客服' }).click();
    await visible(page.locator('.ant-message').getByText('请选择企业'));
    await chooser.getByRole('radio').first().check();
    await shots(page, 'chooser-single');
    await chooser.getByRole('button', { name: '联系客服' }).click();
    await visible(page.getByText('已通知在线客服', { exact: false }));
    await page.context().close();
  }, 180_000);
});

describe('账号异常 and the sign-in page', () => {
  it("an agency signing in at another provider's address is warned and stopped; its own address works", async () => {
    const op = await newPage();
    await signInAt(op, '/login', DEMO_OPERATOR);
    await op.waitForURL((u) => !u.hash.startsWith('#/login'));
    const a = await callAs<{ id: number }>(op, brandSaveCall.path, {
      fwsid: 'portal-a',
      name: '甲服务商',
      primaryColor: '#13c2c2',
    });
    await callAs(op, brandSaveCall.path, { fwsid: 'portal-b', name: '乙服务商', primaryColor: '#fa8c16' });
    const admin = await newPage();
    await signIn(admin, product.baseUrl, DEMO_ADMIN);
    const me = await callAs<{ orgId: number }>(admin, sessionCall.path, {});
    await callAs(op, brandAssignCall.path, { agencyId: me.orgId, providerId: a.id });

    const page = await newPage();
    // A call the shell makes at start is held until the sign-out has ended the session and the sign-in page
    // shows: the 403 a slow call meets. The user still sees only the warning, not 登录超时 over the page.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/${noQyshListCall.path}`, async (route) => {
      await released;
      await route.continue();
    });
    await signInAt(page, '/login/portal-b', ADMIN);
    // Signed in, then stopped at the shell: back at the same address with the warning.
    await visible(page.getByText(BRAND_MSG.accountAbnormal), 60_000);
    expect(page.url()).toMatch(/#\/login\/portal-b$/);
    // Stopped: the session is gone.
    expect(await callAs(page, sessionCall.path, {})).toBeNull();
    const held = page.waitForResponse((r) => r.url().endsWith(noQyshListCall.path));
    release();
    expect((await held).status()).toBe(403);
    // Had the 403 opened a dialog, its code would have been fetched by now.
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    await page.unrouteAll();

    await signInAt(page, '/login/portal-a', ADMIN);
    await page.waitForURL(/#\/dashboard$/);
    await visible(page.locator('.dzy-stat'));
    // The shell's calls (the provider's among them) have all been answered: no guard sends it away later.
    await page.waitForLoadState('networkidle');
    expect(page.url()).toMatch(/#\/dashboard$/);
    await callAs(op, brandAssignCall.path, { agencyId: me.orgId, providerId: null });
    for (const p of [op, admin, page]) await p.context().close();
  }, 180_000);

  it('every link of the sign-in page opens what it names', async () => {
    const page = await newPage();
    for (const [where, name, title] of [
      ['.dzy-auth-links', '用户协议', /用户服务协议/],
      ['.dzy-auth-links', '隐私政策', /隐私/],
      ['.dzy-auth-card', '忘记密码？', /找回密码/],
    ] as const) {
      await page.goto(`${product.baseUrl}/#/login`);
      await page.locator(where).getByRole('link', { name }).click();
      await expect.poll(() => page.title(), { timeout: 45_000 }).toMatch(title);
    }
    // The consent's links open the same documents in a new tab.
    await page.goto(`${product.baseUrl}/#/login`);
    const consent = page.locator('.dzy-auth-consent');
    expect(await consent.getByRole('link', { name: '《用户协议》' }).getAttribute('href')).toBe('#/agreement');
    expect(await consent.getByRole('link', { name: '《隐私政策》' }).getAttribute('href')).toBe('#/privacy');
    // Third-party sign-in shows only the providers the server has (in development, its test provider).
    const third = await callAs<{ thirdProviders: { label: string }[] }>(
      page,
      'user/urlAndJsConfig/getUrlAndJsConfigData',
      {},
    );
    expect(await page.locator('.dzy-auth-third-button').count()).toBe(third.thirdProviders.length);
    await page.context().close();
  }, 180_000);
});
