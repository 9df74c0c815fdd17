import { z } from 'zod';
import { defineCall } from './call.js';
import { mobileSchema, passwordSchema, smsCodeSchema } from './validators.js';

export const ORG_TYPES = ['dls', 'kd', 'kjgc'] as const;
export const orgTypeSchema = z.enum(ORG_TYPES);
export type OrgType = z.infer<typeof orgTypeSchema>;
export const ORG_TYPE_NAMES: Record<OrgType, string> = { dls: '代理机构', kd: '会计工厂代理机构', kjgc: '会计工厂' };

/** Role labels (foundation.md §3): they decide data scope. */
export const ROLE_LABELS = { 0: '部门员工', 1: '代理所管理员', 2: '部门负责人' } as const;
export const roleSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);

/** What the client holds about the signed-in user (foundation.md §3 "User session"). */
export const sessionInfoSchema = z.object({
  token: z.object({
    id: z.number(),
    hymc: z.string(),
    zw: z.string(),
    headimg: z.string(),
    hasPassword: z.boolean(),
  }),
  isAdmin: z.enum(['0', '1']),
  isAgency: z.enum(['0', '1']),
  phone: z.string(),
  orgType: orgTypeSchema.nullable(),
  orgId: z.number().nullable(),
  orgName: z.string().nullable(),
  role: roleSchema.nullable(),
  kjgcDlsId: z.number().nullable(),
  /** Permission keys held in the current organisation (`*:*:*` for administrators). */
  perms: z.array(z.string()),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** Sign-in type: '1' account or phone with password, '2' phone with SMS code. */
export const LOGIN_TYPE = { password: '1', sms: '2' } as const;

export const loginCall = defineCall({
  path: 'userext/v1.0/common/user/login',
  summary: '登录（账号/手机号+密码，或手机号+短信验证码）',
  access: 'public',
  body: z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('1'),
      account: z.string().trim().min(1, '请输入账号').max(50),
      password: z.string().min(1, '请输入密码').max(64),
      ptbm: z.string().max(20).optional(),
    }),
    z.strictObject({
      type: z.literal('2'),
      account: mobileSchema,
      code: smsCodeSchema,
      ptbm: z.string().max(20).optional(),
    }),
  ]),
  // A session; a registration ticket (phone not yet registered); or a pending second step (two-factor.ts).
  data: z.union([
    sessionInfoSchema,
    z.object({ registerTicket: z.string() }),
    z.object({ twoFactor: z.object({ ticket: z.string(), enrol: z.boolean() }) }),
  ]),
});

/**
 * Purposes the public send call issues codes for (the spec's dictLabel). A code for a new phone
 * number is asked for by the signed-in user (sendChangePhoneCodeCall), never here.
 */
export const SMS_PURPOSES = ['login', 'reset'] as const;
export const SMS_RESEND_SECONDS = 60;

export const sendSmsCall = defineCall({
  path: 'user/verify/sendSmsVerificationCodeMsg',
  summary: '发送短信验证码',
  access: 'public',
  body: z.strictObject({
    phone: mobileSchema,
    dictLabel: z.enum(SMS_PURPOSES),
    fwsid: z.string().max(40).optional(),
  }),
  data: z.object({ resendAfter: z.number() }),
});

export const saveUserCall = defineCall({
  path: 'user/v1.0/userinfo/saveUser',
  summary: '手机号首次登录时注册为代理机构用户',
  access: 'public',
  body: z.strictObject({
    phone: mobileSchema,
    isAgency: z.literal('1'),
    dataSource: z.string().max(20).optional(),
    registerTicket: z.string().min(1),
  }),
  // An existing user with two factors gets the pending second step, as at login.
  data: z.union([sessionInfoSchema, z.object({ twoFactor: z.object({ ticket: z.string(), enrol: z.boolean() }) })]),
});

export const forgetPasswordCall = defineCall({
  path: 'userext/v1.0/common/user/forgetPassword',
  summary: '短信验证码找回密码',
  access: 'public',
  body: z.strictObject({ phone: mobileSchema, code: smsCodeSchema, password: passwordSchema }),
  data: z.null(),
});

export const logoutCall = defineCall({
  path: 'userext/v1.0/common/user/logout',
  summary: '退出登录',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.null(),
});

export const sessionCall = defineCall({
  path: 'userext/v1.0/common/user/session',
  summary: '当前登录信息（未登录时为 null）',
  // Public so that a page asking "is anyone signed in?" gets a quiet null instead of a refused call
  // (a 403 in the console and the 登录超时 dialog after a deliberate sign-out).
  access: 'public',
  body: z.strictObject({}),
  data: sessionInfoSchema.nullable(),
});

export const userInfoSchema = z.object({
  id: z.number(),
  hymc: z.string(),
  phone: z.string(),
  headimg: z.string(),
});

export const getUserCall = defineCall({
  path: 'user/v1.0/userinfo/getUser',
  summary: '查询用户信息（本人或同机构成员）',
  access: 'signedIn',
  body: z.strictObject({ phone: mobileSchema.optional(), id: z.number().int().positive().optional() }),
  data: userInfoSchema,
});
