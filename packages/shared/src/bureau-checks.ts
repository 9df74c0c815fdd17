import { z } from 'zod';
import { defineCall } from './call.js';
import { qyshSchema } from './customer.js';

/**
 * 可信登录密码校验 (tax-bureau.md §7 user/jszt/checkPassword, §5: "a key-password check runs only when
 * the enterprise's province is whitelisted (kxdlmmjy)"): an e-tax account and password typed in the
 * client's form are tried at the bureau before they are saved. Nothing is stored: neither the
 * password nor the bureau session; the check is audited without the password.
 */

export const CHECK_PASSWORD_MSG = {
  pass: '账号密码校验通过',
  passSms: '账号密码校验通过（登录时需短信验证）',
  agentQysh: '代理登录须填写代理机构税号',
  noTaxNumber: '该企业没有税号，无法校验',
  tooMany: '密码校验过于频繁，请一小时后再试',
} as const;

export const checkPasswordCall = defineCall({
  path: 'user/jszt/checkPassword',
  summary: '可信登录密码校验：用填写的电子税务局账号密码试登录（不保存；企业所在省份须开通 kxdlmmjy）',
  access: 'customer:edit',
  body: z
    .strictObject({
      aeiId: z.number({ error: '请选择企业' }).int('请选择企业').positive('请选择企业'),
      /** 登录身份 (xdzswj_sfbm): 1 办税员, 2 法定代表人, 3 财务负责人, 6 购票员, 97 代理. */
      dlsf: z.enum(['1', '2', '3', '6', '97'], { error: '登录身份须为 1、2、3、6 或 97' }),
      kxzh: z.string({ error: '请输入账号' }).trim().min(1, '请输入账号').max(50, '账号不能超过50个字符'),
      kxmm: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(64, '密码不能超过64个字符'),
      /** 代理机构税号, for an agent login (dlsf 97). */
      dljgsh: z.string().trim().max(20, '代理机构税号不能超过20个字符').default(''),
    })
    .refine((b) => b.dlsf !== '97' || b.dljgsh !== '', { message: CHECK_PASSWORD_MSG.agentQysh, path: ['dljgsh'] }),
  data: z.object({ pass: z.boolean(), msg: z.string() }),
});

export const whitelistByQyshCall = defineCall({
  path: 'user/newTaxBureau/getWhitelistByQysh',
  summary: '某客户适用的白名单（本机构与企业所在省份开通的功能；kxdlmmjy 决定是否显示密码校验）',
  access: 'customer:list:view',
  body: z.strictObject({ qysh: qyshSchema }),
  data: z.object({
    aeiId: z.number(),
    qysh: z.string(),
    /** The client's province (6 digits), '' when the client has none. */
    province: z.string(),
    /** White-list types that apply: those naming the agency or the client's province. */
    lists: z.array(z.string()),
    /** 可信登录密码校验 is on for this client (its province is on kxdlmmjy). */
    kxdlmmjy: z.boolean(),
  }),
});
