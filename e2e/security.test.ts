import { createHmac } from 'node:crypto';
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

const snap = screenshotsAt('security-');

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

let product: Product;
beforeAll(async () => {
  product = await startProduct({ startMs: 300_000 });
}, 360_000);
afterAll(async () => {
  await product?.close();
});

describe('two-factor sign-in and the audit log in the browser', () => {
  it('the administrator turns on two factors, signs in again with a code, and finds it in 操作日志', {
    timeout: 240_000,
  }, async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await openFromMenu(page, '设置', '个人设置');
    await page.getByRole('button', { name: '开启两步验证' }).click();
    const secretText = page.getByTestId('two-factor-secret');
    await visible(secretText);
    const secret = ((await secretText.textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await snap(page, 'enrol');
    const dialog = page.locator('.ant-modal', { hasText: '开启两步验证' });
    await dialog.getByPlaceholder('6位验证码').fill(totp(secret));
    await dialog.getByRole('button', { name: /完成绑定/ }).click();
    // The recovery codes then show in their own dialog (the one 重新生成恢复码 uses too).
    const codes = page.locator('.ant-modal', { hasText: '请立即保存以下恢复码' });
    await visible(codes.getByRole('button', { name: '我已保存恢复码' }));
    await snap(page, 'recovery');
    await codes.getByRole('button', { name: '我已保存恢复码' }).click();
    await visible(page.getByText('已开启'));

    // A new browser: the password alone no longer signs in; the second step asks for the code.
    const again = await product.newPage();
    await again.goto(`${product.baseUrl}/#/login`);
    await again.getByPlaceholder('手机号 / 账号').fill(DEMO_ADMIN);
    await again.getByPlaceholder('密码').fill(DEMO_PASSWORD);
    await again.getByRole('checkbox').check();
    await again.getByRole('button', { name: /^登\s*录$/ }).click();
    const step = again.getByTestId('two-factor-step');
    await visible(step);
    expect(again.url()).toContain('#/login');
    await step.getByPlaceholder('6位验证码').fill('000000');
    await step.getByRole('button', { name: /验\s*证/ }).click();
    await visible(step.locator('.ant-alert-error, .dzy-plain-alert, [role="alert"]'));
    await snap(again, 'second-step');
    // The code of the next step is still accepted (±1 step of skew) and not the one used at enrolment.
    await step.getByPlaceholder('6位验证码').fill(totp(secret, Date.now() + 30_000));
    await step.getByRole('button', { name: /验\s*证/ }).click();
    await again.waitForURL(/#\/dashboard/);

    await openFromMenu(again, '设置', '操作日志');
    const row = again.locator('tr.ant-table-row', { hasText: '两步验证' });
    await visible(row);
    await snap(again, 'audit-log');
  });
});
