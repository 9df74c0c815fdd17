import { checkMobile, checkPassword, checkSmsCode, halfWidth, normalizeTaxNumber, stripSpaces } from '@dzy/shared';
import type { FormRule } from 'antd';

/** An antd form rule from one of the shared validators, so the form says what the server would. */
export function ruleOf(check: (value: string) => string | null): FormRule {
  return {
    validator: (_rule, value: unknown) => {
      const msg = check(typeof value === 'string' ? value.trim() : '');
      return msg ? Promise.reject(new Error(msg)) : Promise.resolve();
    },
  };
}

/** Phone numbers and codes are checked as the server reads them: spaces dropped, full width made ASCII. */
const compact = (check: (value: string) => string | null) => (v: string) => check(stripSpaces(halfWidth(v)));

export const mobileRule = ruleOf(compact(checkMobile));
export const smsCodeRule = ruleOf(compact(checkSmsCode));

/** Form.Item `normalize` of names and addresses: full-width letters and digits made ASCII; （） stay as typed. */
export const textInput = (v: unknown) => (typeof v === 'string' ? halfWidth(v) : v);
/** Form.Item `normalize` of codes, phones and identifiers as pasted: no spaces, full width made ASCII. */
export const codeInput = (v: unknown) => (typeof v === 'string' ? stripSpaces(halfWidth(v)) : v);
/** The same, lower-cased: identifiers the server keeps in lower case (服务商编码, 字典类型). */
export const lowerCodeInput = (v: unknown) => (typeof v === 'string' ? stripSpaces(halfWidth(v)).toLowerCase() : v);

/** Form.Item `normalize` of a tax-number field: what is pasted shows at once as it will be kept. */
export const taxNumberInput = (value: unknown) => (typeof value === 'string' ? normalizeTaxNumber(value) : value);

/** The password rule checks the value as typed: spaces count. */
export const passwordRule: FormRule = {
  validator: (_rule, value: unknown) => {
    const msg = checkPassword(typeof value === 'string' ? value : '');
    return msg ? Promise.reject(new Error(msg)) : Promise.resolve();
  },
};

/** The confirm field must repeat the field named `field`. */
export function sameAsRule(field: string, message = '两次输入的密码不一致'): FormRule {
  return ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) => {
      if (!value) return Promise.reject(new Error('请再次输入新密码'));
      return value === getFieldValue(field) ? Promise.resolve() : Promise.reject(new Error(message));
    },
  });
}

export const PASSWORD_HINT = '8-20位，须包含大小写字母、数字和特殊字符';
