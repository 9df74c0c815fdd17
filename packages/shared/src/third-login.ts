import { z } from 'zod';
import { sessionInfoSchema } from './auth.js';
import { defineCall } from './call.js';

/**
 * Third-party sign-in (issue 19 point 6; foundation.md §3: user/third/login/render, updateUserChanne,
 * getBindThirdparty, unbindThirdparty). OAuth2 authorization code: render gives the provider's address with a
 * signed state; the provider sends the browser back to /api/user/third/login/callback/{provider}, which
 * finishes through updateUserChanne. docs/decisions/account.md.
 */

export const THIRD_PROVIDERS = [
  { id: 'wechat', label: '微信' },
  { id: 'dingtalk', label: '钉钉' },
  { id: 'dev', label: '开发用登录' },
] as const;
export type ThirdProviderId = (typeof THIRD_PROVIDERS)[number]['id'];
export const THIRD_PROVIDER_IDS = THIRD_PROVIDERS.map((p) => p.id) as [ThirdProviderId, ...ThirdProviderId[]];
export const thirdProviderName = (id: string) => THIRD_PROVIDERS.find((p) => p.id === id)?.label ?? id;
export const THIRD_CALLBACK_PATH = 'user/third/login/callback';

export const THIRD_MSG = {
  providerBad: '请选择第三方登录方式',
  notConfigured: (label: string) => `${label}登录尚未配置，请联系平台管理员`,
  signInFirst: '请先登录后再绑定第三方账号',
  stateBad: '登录请求已失效或来源不一致，请重新发起',
  codeRequired: '缺少授权码，请重新发起',
  exchangeFailed: (label: string) => `${label}授权失败，请稍后重试`,
  notBound: (label: string) => `该${label}账号尚未绑定代账云账号，请先用手机号登录后在个人设置中绑定`,
  takenByOther: (label: string) => `该${label}账号已绑定其他代账云账号`,
  alreadyBound: (label: string) => `您已绑定${label}账号，如需更换请先解绑`,
  notBoundSelf: (label: string) => `您尚未绑定${label}账号`,
  disabled: '该账号已停用',
} as const;

const providerSchema = z.enum(THIRD_PROVIDER_IDS, { error: THIRD_MSG.providerBad });

export const thirdRenderCall = defineCall({
  path: 'user/third/login/render',
  summary: '发起第三方登录或绑定：返回第三方授权地址（含一次性 state）',
  access: 'public',
  body: z.strictObject({ provider: providerSchema, purpose: z.enum(['bind', 'login'], { error: '用途有误' }) }),
  data: z.object({ url: z.string() }),
});

export const updateUserChanneCall = defineCall({
  path: 'user/third/login/updateUserChanne',
  summary: '第三方授权回来后完成绑定或登录（校验 state，用授权码换取第三方账号）',
  access: 'public',
  body: z.strictObject({
    code: z
      .string({ error: THIRD_MSG.codeRequired })
      .trim()
      .min(1, THIRD_MSG.codeRequired)
      .max(512, THIRD_MSG.codeRequired),
    state: z.string({ error: THIRD_MSG.stateBad }).trim().min(1, THIRD_MSG.stateBad).max(1024, THIRD_MSG.stateBad),
  }),
  data: z.object({
    purpose: z.enum(['bind', 'login']),
    provider: z.string(),
    nickname: z.string(),
    session: sessionInfoSchema.nullable(),
    /** A second factor is due first (as after a password): the sign-in page goes on with this ticket. */
    twoFactor: z.object({ ticket: z.string(), enrol: z.boolean() }).nullable(),
  }),
});

export const thirdBindingSchema = z.object({
  provider: z.string(),
  label: z.string(),
  configured: z.boolean(),
  bound: z.boolean(),
  nickname: z.string(),
  boundAt: z.string().nullable(),
});
export type ThirdBinding = z.infer<typeof thirdBindingSchema>;

export const getBindThirdpartyCall = defineCall({
  path: 'user/third/login/getBindThirdparty',
  summary: '我的第三方账号绑定情况',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.array(thirdBindingSchema),
});

export const unbindThirdpartyCall = defineCall({
  path: 'user/third/login/unbindThirdparty',
  summary: '解绑我的第三方账号',
  access: 'signedIn',
  body: z.strictObject({ provider: providerSchema }),
  data: z.null(),
});
