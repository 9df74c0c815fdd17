import { describe, expect, it } from 'vitest';
import {
  altPasswordSchema,
  amountSchema,
  checkAltPassword,
  checkAmount,
  checkEmail,
  checkIdCard,
  checkLandline,
  checkMobile,
  checkPassword,
  checkSmsCode,
  checkTaxNumber,
  checkUscc,
  emailSchema,
  idCardCheckChar,
  idCardSchema,
  isCalendarDay,
  isValidUscc,
  landlineSchema,
  mobileSchema,
  passwordSchema,
  smsCodeSchema,
  stripSpaces,
  TAX_NUMBER_DIALOG_MSG,
  taxNumberSchema,
  usccCheckChar,
  usccSchema,
} from '../src/validators.js';

const cases = (check: (v: string) => string | null, rows: [string, string | null][]) => {
  for (const [input, expected] of rows) {
    it(`${JSON.stringify(input)} -> ${expected ?? 'ok'}`, () => {
      expect(check(input)).toBe(expected);
    });
  }
};

describe('checkMobile', () => {
  cases(checkMobile, [
    ['13812345678', null],
    ['19912345678', null],
    ['', '手机号不能为空'],
    ['12812345678', '请输入正确的手机号'],
    ['1381234567', '请输入正确的手机号'],
    ['138123456789', '请输入正确的手机号'],
    ['1381234567a', '请输入正确的手机号'],
  ]);
});

describe('checkSmsCode', () => {
  cases(checkSmsCode, [
    ['123456', null],
    ['', '验证码不能为空'],
    ['12345', '请输入正确的验证码'],
    ['1234567', '请输入正确的验证码'],
    ['12345a', '请输入正确的验证码'],
  ]);
});

describe('checkPassword', () => {
  const mix = '密码须包含大写字母、小写字母、数字和特殊字符';
  cases(checkPassword, [
    ['Abcd123!', null],
    ['Aa1!Aa1!Aa1!Aa1!Aa1!', null],
    ['', '请输入密码'],
    ['Abc123!', '密码长度为8-20位'],
    ['Aa1!Aa1!Aa1!Aa1!Aa1!x', '密码长度为8-20位'],
    ['Abcd123!中', '密码不能包含中文'],
    ['Abcd123!𠀀', '密码不能包含中文'],
    ['Abcd1113!', '密码不能包含三个连续相同的字符'],
    ['Abcd123!!!', '密码不能包含三个连续相同的字符'],
    ['Xaaab123!', '密码不能包含三个连续相同的字符'],
    ['Aaab123!', null],
    ['Abcd12!!', null],
    ['abcd123!', mix],
    ['ABCD123!', mix],
    ['Abcdefg!', mix],
    ['Abcd1234', mix],
  ]);
});

describe('checkAltPassword', () => {
  const msg = '密码为6-20位字母或数字，须包含大小写字母';
  cases(checkAltPassword, [
    ['Abcdef', null],
    ['Abc123', null],
    ['aB345678901234567890', null],
    ['', msg],
    ['Abcde', msg],
    ['aB3456789012345678901', msg],
    ['abc123', msg],
    ['ABC123', msg],
    ['Abc12!', msg],
    ['Abc 123', msg],
  ]);
});

describe('tax number', () => {
  const msg = '税号为6-20位数字或字母';
  cases(checkTaxNumber, [
    ['123456', null],
    ['ABC123', null],
    ['91350100M000100Y43', null],
    ['12345678901234567890', null],
    ['abcdef', null],
    ['', '请输入税号'],
    ['12345', msg],
    ['123456789012345678901', msg],
    ['123-456', msg],
    ['税号123456', msg],
    ['1234 56', msg],
  ]);

  it('stripSpaces removes every kind of whitespace', () => {
    expect(stripSpaces(' 9135 0100\tM000100Y43\u3000\n')).toBe('91350100M000100Y43');
    expect(checkTaxNumber(stripSpaces(' 1234 56 '))).toBeNull();
    expect(stripSpaces('   ')).toBe('');
  });

  it('exports the dialog warning verbatim', () => {
    expect(TAX_NUMBER_DIALOG_MSG).toBe('税号为6-20位，请输入符合规范的税号');
  });
});

describe('unified social credit code', () => {
  const real = ['91350100M000100Y43', '911100001000080343', '91110108551385082Q', '91310000MA1FL4B24G'];

  it('computes the check character of known real codes', () => {
    for (const code of real) {
      expect(usccCheckChar(code.slice(0, 17))).toBe(code.charAt(17));
      expect(isValidUscc(code)).toBe(true);
    }
  });

  it('maps a remainder of 0 to check character 0', () => {
    // weights sum for '1' followed by zeros is 1; 31 - 1 = 30 -> 'Y'
    expect(usccCheckChar('10000000000000000')).toBe('Y');
    expect(usccCheckChar('00000000000000000')).toBe('0');
  });

  it('rejects a wrong length or a bad character in usccCheckChar', () => {
    expect(() => usccCheckChar('9135010')).toThrow();
    expect(() => usccCheckChar('91350100M00010OY4')).toThrow();
  });

  it('isValidUscc rejects bad codes', () => {
    expect(isValidUscc('91350100M000100Y44')).toBe(false);
    expect(isValidUscc('91350100M000100Y4')).toBe(false);
    expect(isValidUscc('91350100m000100y43')).toBe(false);
    expect(isValidUscc('')).toBe(false);
  });

  const bad = '统一社会信用代码校验位不正确';
  const len = '统一社会信用代码为18位';
  cases(checkUscc, [
    ['91350100M000100Y43', null],
    ['911100001000080343', null],
    ['91350100M000100Y44', bad],
    ['911100001000080340', bad],
    ['', len],
    ['91350100M000100Y4', len],
    ['91350100M000100Y433', len],
    ['91350100M000100I43', len],
    ['91350100m000100y43', len],
  ]);
});

describe('checkIdCard', () => {
  const msg = '请输入正确的身份证号';
  it('constructed numbers carry the MOD 11-2 check character', () => {
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(idCardCheckChar('33010619850615201')).toBe('7');
  });
  cases(checkIdCard, [
    ['11010519491231002X', null],
    ['11010519491231002x', null],
    ['330106198506152017', null],
    ['440304200002291236', null],
    ['110105491231002', null],
    ['', msg],
    ['11010519491231002Y', msg],
    ['110105194912310021', msg],
    ['330106198506152018', msg],
    ['44030419000229123X', msg],
    ['330106198513152015', msg],
    ['330106198506312017', msg],
    ['33010619850615201', msg],
    ['3301061985061520177', msg],
    ['110105491331002', msg],
    ['11010549123100', msg],
    ['011010519491231002', msg],
  ]);
  it('uses the right check characters for the bad-date cases (so only the date is wrong)', () => {
    expect(idCardCheckChar('44030420000229123')).toBe('6');
    expect(idCardCheckChar('44030419000229123')).toBe('X');
    expect(idCardCheckChar('33010619851315201')).toBe('5');
    expect(idCardCheckChar('33010619850631201')).toBe('7');
  });
});

describe('checkEmail', () => {
  const msg = '请输入正确的邮箱';
  cases(checkEmail, [
    ['user@example.com', null],
    ['zhang.san+tax@mail.dzy.com.cn', null],
    ['a_b-c@163.com', null],
    ['', msg],
    ['user@', msg],
    ['@example.com', msg],
    ['user@example', msg],
    ['user example@qq.com', msg],
    ['user..x@qq.com', msg],
    ['user@-qq.com', msg],
    ['张三@qq.com', msg],
  ]);
});

describe('checkLandline', () => {
  const msg = '请输入正确的座机号码';
  cases(checkLandline, [
    ['010-12345678', null],
    ['0571-1234567', null],
    ['0571-88888888', null],
    ['021-62345678-801', null],
    ['01062345678', null],
    ['', msg],
    ['10-12345678', msg],
    ['010-123456', msg],
    ['010-123456789', msg],
    ['0571-01234567', msg],
    ['13812345678', msg],
    ['010-12345678-', msg],
    ['010-1234567a', msg],
  ]);
});

describe('checkAmount', () => {
  const msg = '请输入正确的金额';
  cases(checkAmount, [
    ['1234567', null],
    ['1234567.8', null],
    ['1234567.89', null],
    ['0', null],
    ['0.5', null],
    ['0.05', null],
    ['1234567.891', msg],
    ['', msg],
    ['-1', msg],
    ['01', msg],
    ['1.', msg],
    ['.5', msg],
    ['1,000', msg],
    ['abc', msg],
    [' 12', msg],
  ]);
});

describe('zod schemas report the same words', () => {
  const rows: [typeof mobileSchema, string, string][] = [
    [mobileSchema, '123', '请输入正确的手机号'],
    [passwordSchema, 'abc', '密码长度为8-20位'],
    [smsCodeSchema, '', '验证码不能为空'],
    [altPasswordSchema, 'abcdef', '密码为6-20位字母或数字，须包含大小写字母'],
    [taxNumberSchema, '12345', '税号为6-20位数字或字母'],
    [usccSchema, '91350100M000100Y44', '统一社会信用代码校验位不正确'],
    [idCardSchema, '123', '请输入正确的身份证号'],
    [emailSchema, 'x@', '请输入正确的邮箱'],
    [landlineSchema, '123', '请输入正确的座机号码'],
    [amountSchema, '1.234', '请输入正确的金额'],
  ];
  for (const [schema, bad, message] of rows) {
    it(`rejects ${JSON.stringify(bad)} with ${message}`, () => {
      const r = schema.safeParse(bad);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(message);
    });
  }

  it('accepts good values', () => {
    expect(taxNumberSchema.safeParse('91350100M000100Y43').success).toBe(true);
    expect(usccSchema.safeParse('911100001000080343').success).toBe(true);
    expect(amountSchema.safeParse('1234567.89').success).toBe(true);
    expect(idCardSchema.safeParse('330106198506152017').success).toBe(true);
  });
});

describe('isCalendarDay', () => {
  it('takes days that exist and refuses the rest without throwing', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-12-31')).toBe(true);
    for (const v of ['2027-02-29', '2026-02-30', '2027-13-45', '2026-00-10', '2026-1-5', '', '2026-01-01x'])
      expect(isCalendarDay(v), v).toBe(false);
  });
});
