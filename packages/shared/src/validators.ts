import { z } from 'zod';

/** Shared validators with the spec's Chinese messages (foundation.md §5), used by server and web. */

export const MOBILE_RE = /^1[3-9]\d{9}$/;

export function checkMobile(v: string): string | null {
  if (!v) return '手机号不能为空';
  return MOBILE_RE.test(v) ? null : '请输入正确的手机号';
}

/** 8-20 characters, no Chinese, no three identical characters in a row, upper + lower + digit + special. */
export function checkPassword(v: string): string | null {
  if (!v) return '请输入密码';
  const len = Array.from(v).length;
  if (len < 8 || len > 20) return '密码长度为8-20位';
  if (/\p{Script=Han}/u.test(v)) return '密码不能包含中文';
  if (/(.)\1\1/su.test(v)) return '密码不能包含三个连续相同的字符';
  if (!/[A-Z]/.test(v) || !/[a-z]/.test(v) || !/\d/.test(v) || !/[^A-Za-z0-9]/.test(v)) {
    return '密码须包含大写字母、小写字母、数字和特殊字符';
  }
  return null;
}

export function checkSmsCode(v: string): string | null {
  if (!v) return '验证码不能为空';
  return /^\d{6}$/.test(v) ? null : '请输入正确的验证码';
}

/** The alternate password rule: 6-20 letters or digits, with both upper- and lower-case letters. */
export function checkAltPassword(v: string): string | null {
  return /^(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9]{6,20}$/.test(v) ? null : '密码为6-20位字母或数字，须包含大小写字母';
}

/** Removes every whitespace character (including the full-width space); tax numbers are stripped before checking. */
export const stripSpaces = (v: string): string => v.replace(/\s+/g, '');

/**
 * Full-width letters and digits (what a Chinese input method types) as their ASCII forms, and the
 * ideographic space as a space. Punctuation stays as typed: （） belong in company names.
 */
export const halfWidth = (v: string): string =>
  v
    .replace(/[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ');

/** YYYY-MM-DD naming a day that exists: 2026-02-30 and 2027-13-45 are refused (and never reach toISOString). */
export const isCalendarDay = (v: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const t = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v;
};

/** A tax number as people paste it (spaces, lower case, full width) in the one form it is kept in. */
export const normalizeTaxNumber = (v: string): string => stripSpaces(halfWidth(v)).toUpperCase();

/** Warning of the missing-tax-number dialog (business.md §5). */
export const TAX_NUMBER_DIALOG_MSG = '税号为6-20位，请输入符合规范的税号';

/** Tax number: 6-20 letters or digits. Callers strip whitespace first (stripSpaces). */
export function checkTaxNumber(v: string): string | null {
  if (!v) return '请输入税号';
  return /^[A-Za-z0-9]{6,20}$/.test(v) ? null : '税号为6-20位数字或字母';
}

const USCC_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
const USCC_RE = /^[0-9ABCDEFGHJKLMNPQRTUWXY]{18}$/;

/** The 18th (check) character of a unified social credit code (GB 32100-2015) from its first 17. */
export function usccCheckChar(first17: string): string {
  if (first17.length !== 17) throw new Error('usccCheckChar needs 17 characters');
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const value = USCC_CHARS.indexOf(first17.charAt(i));
    if (value < 0) throw new Error(`invalid unified social credit code character: ${first17.charAt(i)}`);
    sum += value * (USCC_WEIGHTS[i] ?? 0);
  }
  return USCC_CHARS.charAt((31 - (sum % 31)) % 31);
}

/** True for an 18-character unified social credit code with a correct check character. */
export function isValidUscc(code: string): boolean {
  return USCC_RE.test(code) && usccCheckChar(code.slice(0, 17)) === code.charAt(17);
}

/** Unified social credit code; upper case only (callers may upper-case input first). */
export function checkUscc(v: string): string | null {
  if (!USCC_RE.test(v)) return '统一社会信用代码为18位';
  return usccCheckChar(v.slice(0, 17)) === v.charAt(17) ? null : '统一社会信用代码校验位不正确';
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** The 18th (check) character of a resident ID number (ISO 7064 MOD 11-2) from its first 17 digits. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17.charAt(i)) * (ID_WEIGHTS[i] ?? 0);
  return ID_CHECK.charAt(sum % 11);
}

function isRealDate(y: number, m: number, d: number): boolean {
  if (y < 1900 || m < 1 || m > 12 || d < 1) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** Resident ID card: 15 digits (old, 19YYMMDD birth date) or 18 with a MOD 11-2 check character; 'x' accepted. */
export function checkIdCard(v: string): string | null {
  const bad = '请输入正确的身份证号';
  if (/^[1-9]\d{14}$/.test(v)) {
    return isRealDate(1900 + Number(v.slice(6, 8)), Number(v.slice(8, 10)), Number(v.slice(10, 12))) ? null : bad;
  }
  if (!/^[1-9]\d{16}[\dXx]$/.test(v)) return bad;
  if (!isRealDate(Number(v.slice(6, 10)), Number(v.slice(10, 12)), Number(v.slice(12, 14)))) return bad;
  return idCardCheckChar(v.slice(0, 17)) === v.charAt(17).toUpperCase() ? null : bad;
}

const EMAIL_RE =
  /^[A-Za-z0-9_%+-]+(\.[A-Za-z0-9_%+-]+)*@[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

export function checkEmail(v: string): string | null {
  return v.length <= 254 && EMAIL_RE.test(v) ? null : '请输入正确的邮箱';
}

/** Landline: area code 0 + 2-3 digits, optional '-', 7-8 digit number, optional '-' extension (010-12345678-801). */
export function checkLandline(v: string): string | null {
  return /^0\d{2,3}-?[1-9]\d{6,7}(-\d{1,6})?$/.test(v) ? null : '请输入正确的座机号码';
}

/** Non-negative amount with at most 2 decimals, no leading zeros ('0.5', '12', '1234567.89'). */
export function checkAmount(v: string): string | null {
  return /^(0|[1-9]\d*)(\.\d{1,2})?$/.test(v) ? null : '请输入正确的金额';
}

/** A zod string checked by one of the functions above, so both sides report the same words. */
export const checked = (check: (v: string) => string | null) =>
  z.string().superRefine((v, ctx) => {
    const msg = check(v);
    if (msg) ctx.addIssue({ code: 'custom', message: msg });
  });

/** As `checked`, for codes people paste with spaces (phone numbers, SMS codes): the spaces are dropped first. */
const compactChecked = (check: (v: string) => string | null) => z.string().transform(stripSpaces).pipe(checked(check));

export const mobileSchema = compactChecked(checkMobile);
export const passwordSchema = checked(checkPassword);
export const smsCodeSchema = compactChecked(checkSmsCode);
export const altPasswordSchema = checked(checkAltPassword);
export const taxNumberSchema = z.string().transform(normalizeTaxNumber).pipe(checked(checkTaxNumber));
export const usccSchema = checked(checkUscc);
export const idCardSchema = checked(checkIdCard);
export const emailSchema = checked(checkEmail);
export const landlineSchema = checked(checkLandline);
export const amountSchema = checked(checkAmount);
