/**
 * The sign-in forms' checks, with the Chinese messages of the shared validators (packages/shared
 * validators.ts checkMobile, checkSmsCode, halfWidth, stripSpaces). Written out here because that module
 * builds its zod schemas when it loads and the sign-in page loads no zod; the server checks every body
 * again with the contract's schemas, so these only spare a round trip. e2e/first-load.test.ts checks the
 * messages a visitor sees.
 */

/** Full-width digits and letters as ASCII, spaces dropped: how the server reads a phone or a code. */
export const compact = (v: string): string =>
  v
    .replace(/[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\s+/g, '');

export function checkMobile(raw: string): string | null {
  const v = compact(raw);
  if (!v) return '手机号不能为空';
  return /^1[3-9]\d{9}$/.test(v) ? null : '请输入正确的手机号';
}

export function checkSmsCode(raw: string): string | null {
  const v = compact(raw);
  if (!v) return '验证码不能为空';
  return /^\d{6}$/.test(v) ? null : '请输入正确的验证码';
}

export const checkAccount = (v: string): string | null => (v.trim() ? null : '请输入账号');
export const checkPasswordGiven = (v: string): string | null => (v ? null : '请输入密码');
