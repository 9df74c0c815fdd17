import { z } from 'zod';
import { sessionInfoSchema } from './auth.js';
import { defineCall } from './call.js';
import { halfWidth } from './validators.js';

/**
 * Two-factor sign-in (issue 18 point 5): TOTP (RFC 6238, any authenticator app), recovery codes,
 * remembered devices, and the agency's requirement.
 */
export const TWO_FACTOR_REQUIRE_LABELS = { none: '不要求', admins: '管理员', all: '全体员工' } as const;
export const twoFactorRequireSchema = z.enum(['none', 'admins', 'all'], { error: '请选择两步验证要求' });
export type TwoFactorRequire = z.infer<typeof twoFactorRequireSchema>;

export const RECOVERY_CODE_COUNT = 10;
export const REMEMBER_DEVICE_DAYS = 30;
export const AUDIT_RETENTION_MIN_DAYS = 180;

export const TWO_FACTOR_MSG = {
  codeFormat: '请输入6位数字验证码',
  wrongCode: '验证码错误或已使用，请输入验证器上的最新验证码',
  wrongRecovery: '恢复码错误或已使用',
  locked: '验证码错误次数过多，请15分钟后再试',
  ticketExpired: '登录验证已超时，请重新登录',
  ticketUsed: '此登录验证已使用过，请重新登录',
  notEnrolled: '尚未开启两步验证',
  alreadyEnabled: '已开启两步验证',
  noPending: '请先获取绑定二维码',
  requiredByAgency: '机构要求您使用两步验证，不能关闭',
  memberNotFound: '员工不存在或不属于本机构',
  wrongPassword: '登录密码错误',
  noPassword: '您的账号未设置登录密码，请使用验证码',
} as const;

/** An authenticator code as people paste it: '123 456', full-width digits. */
export const totpDigits = (v: string): string => halfWidth(v).replace(/\s+/g, '');
const codeSchema = z
  .string({ error: TWO_FACTOR_MSG.codeFormat })
  .transform(totpDigits)
  .pipe(z.string().regex(/^\d{6}$/, TWO_FACTOR_MSG.codeFormat));
const recoverySchema = z.string().trim().min(1, '请输入恢复码').max(20, TWO_FACTOR_MSG.wrongRecovery);
/** The pending sign-in a password or SMS step handed out when a second step is due. */
const ticketSchema = z.string().min(1, TWO_FACTOR_MSG.ticketExpired).max(200, TWO_FACTOR_MSG.ticketExpired);

/** What the login answers instead of a session when a second step is due (no session cookie yet). */
export const twoFactorPendingSchema = z.object({
  twoFactor: z.object({
    ticket: z.string(),
    /** true: the agency requires two factors and the user has none yet — enrol before anything else. */
    enrol: z.boolean(),
  }),
});
export type TwoFactorPending = z.infer<typeof twoFactorPendingSchema>;

export const twoFactorVerifyCall = defineCall({
  path: 'userext/v1.0/common/user/twoFactorVerify',
  summary: '两步验证：登录第二步（验证器验证码或恢复码）',
  access: 'public',
  body: z
    .strictObject({
      ticket: ticketSchema,
      code: codeSchema.optional(),
      recoveryCode: recoverySchema.optional(),
      /** 在此设备上 30 天内不再询问. */
      remember: z.boolean().default(false),
    })
    .refine((b) => (b.code === undefined) !== (b.recoveryCode === undefined), {
      message: '请输入验证码或恢复码',
      path: ['code'],
    }),
  data: sessionInfoSchema,
});

export const twoFactorEnrolStartCall = defineCall({
  path: 'userext/v1.0/common/user/twoFactorEnrolStart',
  summary: '两步验证：生成绑定密钥（二维码与文本）',
  // Public for the forced enrolment of a sign-in (with its ticket); without a ticket it needs a session.
  access: 'public',
  body: z.strictObject({ ticket: ticketSchema.optional() }),
  data: z.object({ secret: z.string(), otpauth: z.string() }),
});

export const twoFactorEnrolConfirmCall = defineCall({
  path: 'userext/v1.0/common/user/twoFactorEnrolConfirm',
  summary: '两步验证：输入首个验证码完成绑定，返回恢复码（仅显示一次）',
  access: 'public',
  body: z.strictObject({ ticket: ticketSchema.optional(), code: codeSchema }),
  data: z.object({ recoveryCodes: z.array(z.string()), session: sessionInfoSchema.nullable() }),
});

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryLeft: z.number(),
  rememberedDevices: z.number(),
  /** The agency requires two factors of this user (they cannot turn it off). */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const twoFactorStatusCall = defineCall({
  path: 'user/twoFactor/status',
  summary: '两步验证：本人状态',
  access: 'signedIn',
  body: z.strictObject({}),
  data: twoFactorStatusSchema,
});

export const twoFactorDisableCall = defineCall({
  path: 'user/twoFactor/disable',
  summary: '两步验证：关闭（需验证码或恢复码）',
  access: 'signedIn',
  body: z
    .strictObject({ code: codeSchema.optional(), recoveryCode: recoverySchema.optional() })
    .refine((b) => (b.code === undefined) !== (b.recoveryCode === undefined), {
      message: '请输入验证码或恢复码',
      path: ['code'],
    }),
  data: z.null(),
});

/**
 * New recovery codes in place of the old ones (which stop working at once), shown once. Proven with a
 * current authenticator code or the account password: the session alone is not enough.
 */
export const twoFactorRegenerateRecoveryCall = defineCall({
  path: 'user/twoFactor/regenerateRecovery',
  summary: '两步验证：重新生成恢复码（需验证码或登录密码，旧恢复码立即失效）',
  access: 'signedIn',
  body: z
    .strictObject({
      code: codeSchema.optional(),
      password: z.string().min(1, '请输入登录密码').max(64, TWO_FACTOR_MSG.wrongPassword).optional(),
    })
    .refine((b) => (b.code === undefined) !== (b.password === undefined), {
      message: '请输入验证码或登录密码',
      path: ['code'],
    }),
  data: z.object({ recoveryCodes: z.array(z.string()) }),
});

export const twoFactorResetCall = defineCall({
  path: 'user/twoFactor/reset',
  summary: '两步验证：管理员重置员工的两步验证',
  access: 'agency:security:edit',
  body: z.strictObject({ userId: z.number({ error: '请选择员工' }).int().positive('请选择员工') }),
  data: z.null(),
});

export const securitySettingsSchema = z.object({
  requireTwoFactor: twoFactorRequireSchema,
  auditRetentionDays: z
    .number({ error: '请输入日志保留天数' })
    .int('日志保留天数须为整数')
    .min(AUDIT_RETENTION_MIN_DAYS, `日志保留天数不能少于${AUDIT_RETENTION_MIN_DAYS}天`)
    .max(3650, '日志保留天数不能超过3650天'),
});
export type SecuritySettings = z.infer<typeof securitySettingsSchema>;

export const securitySettingsGetCall = defineCall({
  path: 'user/agency/security/get',
  summary: '机构安全设置：两步验证要求、操作日志保留天数',
  access: 'agency:security:edit',
  body: z.strictObject({}),
  data: securitySettingsSchema.extend({
    /** Members and whether each has two factors on (for the reset button). */
    members: z.array(
      z.object({ userId: z.number(), hymc: z.string(), phone: z.string(), isAdmin: z.boolean(), enabled: z.boolean() }),
    ),
  }),
});

export const securitySettingsSaveCall = defineCall({
  path: 'user/agency/security/save',
  summary: '机构安全设置：保存',
  access: 'agency:security:edit',
  body: securitySettingsSchema.strict(),
  data: z.null(),
});
