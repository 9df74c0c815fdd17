import { z } from 'zod';
import { defineCall } from './call.js';

/**
 * Per-enterprise e-tax bureau login through the local helper (tax-bureau.md §4 helper login outcomes,
 * §5 用户名与密码不匹配 → isVerifySet '4'). The stored password never reaches the browser: the browser
 * gets a one-time grant, the helper redeems it here for the credentials and reports the outcome back.
 */

/** A grant lives this long and is redeemed once. */
export const ETAX_GRANT_TTL_S = 60;
/** After redemption the helper may report the outcome (an SMS step may take a while) for this long. */
export const ETAX_RESULT_TTL_S = 15 * 60;

export const ETAX_MSG = {
  grantInvalid: '登录凭证无效或已过期，请重新登录',
  grantUsed: '登录凭证已使用，请重新登录',
  noAccount: '网上办税账号未补全',
  noAgentAccount: '代理登录账号未补全',
} as const;

const grantSchema = z.string().trim().min(1, '缺少登录凭证').max(512, '登录凭证无效');

export const etaxGrantCall = defineCall({
  path: 'user/etax/helperGrant',
  summary: '申请一次性电子税务局登录凭证（交给365基础服务兑换账号）',
  access: 'customer:etax:login',
  body: z.strictObject({ aeiId: z.number().int().positive('请选择企业') }),
  data: z.object({
    grant: z.string(),
    expiresIn: z.number(),
    qymc: z.string(),
    qysh: z.string(),
    /** '4' when the last login found the name and password do not match. */
    isVerifySet: z.string(),
  }),
});

/** What the helper needs to log in (tax-bureau.md §3 enterprise login parameters). */
export const etaxLoginParamsSchema = z.object({
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  account: z.string(),
  password: z.string(),
  sfbm: z.enum(['1', '2', '3', '6', '97']),
  loginType: z.enum(['0', '1']),
  agentQysh: z.string(),
});
export type EtaxLoginParams = z.infer<typeof etaxLoginParamsSchema>;

export const helperRedeemCall = defineCall({
  path: 'helper/redeem',
  summary: '365基础服务兑换登录凭证（凭证即身份，一次有效）',
  access: 'public',
  body: z.strictObject({ grant: grantSchema }),
  data: etaxLoginParamsSchema,
});

export const helperResultCall = defineCall({
  path: 'helper/result',
  summary: '365基础服务回报登录结果（用户名与密码不匹配时保存 isVerifySet 4）',
  access: 'public',
  body: z.strictObject({
    grant: grantSchema,
    status: z.union([z.literal(0), z.literal(1)]),
    msg: z.string().max(500).default(''),
  }),
  data: z.object({ isVerifySet: z.string() }),
});
