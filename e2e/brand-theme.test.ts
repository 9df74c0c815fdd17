import { createHmac } from 'node:crypto';
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

const snap = screenshotsAt('brand-theme-');
const GREEN = '#389e0d';
const GREEN_RGB = 'rgb(56, 158, 13)';

/** The code an authenticator app shows for a base32 secret (RFC 6238: SHA-1, 30 s, 6 digits). */
function totp(base32: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of base32.replace(/[\s=]/g, '').toUpperCase())
    bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac.at(-1) ?? 0) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const background = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);

let product: Product;
beforeAll(async () => {
  product = await startProduct({ startMs: 300_000 });
}, 360_000);
afterAll(async () => {
  await product?.close();
});

describe('a service provider’s colour and a third-party sign-in with two factors', () => {
  it('the provider’s sign-in page and, after sign-in, the shell wear its colour', { timeout: 240_000 }, async () => {
    const op = await product.newPage();
    await signIn(op, product.baseUrl, DEMO_OPERATOR);
    const { id } = await callAs<{ id: number }>(op, 'brand/save', {
      fwsid: 'e2e-green',
      name: '绿野财税',
      primaryColor: GREEN,
      loginTitle: '绿野财税 · 让代账更轻松',
      hotline: '400-100-2000',
      enabled: true,
    });
    await callAs(op, 'brand/assignAgency', { agencyId: 1, providerId: id });

    const page = await product.newPage();
    await page.goto(`${product.baseUrl}/#/login/e2e-green`);
    await visible(page.getByText('绿野财税 · 让代账更轻松'));
    await expect.poll(() => background(page, '.dzy-btn-primary'), { timeout: 15_000 }).toBe(GREEN_RGB);
    await expect.poll(() => background(page, '.dzy-auth-brand'), { timeout: 15_000 }).toBe(GREEN_RGB);
    await snap(page, 'login');

    await page.getByPlaceholder('手机号 / 账号').fill(DEMO_ADMIN);
    await page.getByPlaceholder('密码').fill(DEMO_PASSWORD);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    await page.waitForURL(/#\/dashboard/);
    // The shell's theme (布局设置 untouched) is the provider's colour.
    await expect
      .poll(() => page.locator('.dzy-shell').evaluate((el) => getComputedStyle(el).getPropertyValue('--dzy-theme')), {
        timeout: 20_000,
      })
      .toBe(GREEN);
    // On the default light menu the selected entry's background is a light tint of it, not antd's light blue.
    expect(
      await page
        .locator('.dzy-shell')
        .evaluate((el) => getComputedStyle(el).getPropertyValue('--dzy-menu-selected-bg')),
    ).toBe('#e7f3e2');
    // The screenshot shows the portal loaded: its figures, not their skeletons.
    await expect.poll(() => page.locator('.ant-skeleton').count(), { timeout: 20_000 }).toBe(0);
    await snap(page, 'shell');

    // The user's own choice in 布局设置 wins over the provider's colour.
    await page.evaluate(() =>
      localStorage.setItem('dzy-layout-settings', JSON.stringify({ theme: '#722ed1', themeChosen: true })),
    );
    await page.reload();
    await expect
      .poll(() => page.locator('.dzy-shell').evaluate((el) => getComputedStyle(el).getPropertyValue('--dzy-theme')), {
        timeout: 20_000,
      })
      .toBe('#722ed1');
  });

  it('a third-party sign-in of a user with two factors shows the second step and signs in', {
    timeout: 240_000,
  }, async () => {
    const admin = await product.newPage();
    await signIn(admin, product.baseUrl, DEMO_ADMIN);
    const { secret } = await callAs<{ secret: string }>(admin, 'userext/v1.0/common/user/twoFactorEnrolStart', {});
    await callAs(admin, 'userext/v1.0/common/user/twoFactorEnrolConfirm', { code: totp(secret) });
    // Bind the development account as 个人设置 does: the provider approves at once with `user`.
    const { url } = await callAs<{ url: string }>(admin, 'user/third/login/render', {
      provider: 'dev',
      purpose: 'bind',
    });
    await admin.goto(`${url}&user=dev-openid-0001`);
    await admin.waitForURL(/thirdBound=dev/);

    const page = await product.newPage();
    await page.goto(`${product.baseUrl}/#/login`);
    await page.getByRole('button', { name: '开发用登录' }).click();
    await page.getByRole('link', { name: '开发用户甲' }).click();
    const step = page.getByTestId('two-factor-step');
    await visible(step);
    // The ticket is taken off the address at once.
    await expect.poll(() => page.url(), { timeout: 10_000 }).not.toContain('twoFactorTicket');
    await snap(page, 'third-second-step');
    await step.getByPlaceholder('6位验证码').fill(totp(secret, Date.now() + 30_000));
    await step.getByRole('button', { name: /验\s*证/ }).click();
    await page.waitForURL(/#\/dashboard/);
  });
});
