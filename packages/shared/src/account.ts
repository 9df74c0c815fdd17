import { z } from 'zod';
import { defineCall } from './call.js';
import { mobileSchema, passwordSchema, smsCodeSchema } from './validators.js';

export const profileSchema = z.object({
  id: z.number(),
  hymc: z.string(),
  zw: z.string(),
  phone: z.string(),
  headimg: z.string(),
  hasPassword: z.boolean(),
});

export const getProfileCall = defineCall({
  path: 'user/v1.0/userinfo/getProfile',
  summary: '个人设置：查询本人资料',
  access: 'signedIn',
  body: z.strictObject({}),
  data: profileSchema,
});

export const updateProfileCall = defineCall({
  path: 'user/v1.0/userinfo/updateProfile',
  summary: '个人设置：修改姓名与职位',
  access: 'signedIn',
  body: z.strictObject({
    hymc: z.string().trim().min(1, '请输入姓名').max(20, '姓名不能超过20个字符'),
    zw: z.string().trim().max(20, '职位不能超过20个字符'),
  }),
  data: profileSchema,
});

export const changePasswordCall = defineCall({
  path: 'user/v1.0/userinfo/changePassword',
  summary: '修改密码（未设置过密码的用户可直接设置）',
  access: 'signedIn',
  body: z.strictObject({ oldPassword: z.string().max(64).optional(), password: passwordSchema }),
  data: z.null(),
});

// --- avatar and phone (personal settings) ---------------------------------------------------------

/**
 * Avatar upload: multipart/form-data with one file in the field `file`, served at
 * POST /api/<AVATAR_UPLOAD_PATH>; the reply envelope's data is the new profile.
 */
export const AVATAR_UPLOAD_PATH = 'user/v1.0/userinfo/uploadIconInfo';
export const AVATAR_FIELD = 'file';
export const avatarUploadDataSchema = z.object({ headimg: z.string() });
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_MSG = {
  tooLarge: '头像图片不能超过2MB',
  badType: '仅支持 JPG、PNG、WEBP 格式的图片',
  missing: '请选择头像图片',
} as const;
/** What the file picker offers; the server decides by the file's content, not its name. */
export const AVATAR_ACCEPT = 'image/png,image/jpeg,image/webp';

export const PHONE_TAKEN_MSG = '该手机号已被其他账号使用';
export const PHONE_SAME_MSG = '新手机号不能与当前手机号相同';

export const sendChangePhoneCodeCall = defineCall({
  path: 'user/v1.0/userinfo/sendChangePhoneCode',
  summary: '更换手机号：向新手机号发送验证码',
  access: 'signedIn',
  body: z.strictObject({ phone: mobileSchema }),
  data: z.object({ resendAfter: z.number() }),
});

export const changePhoneCall = defineCall({
  path: 'user/v1.0/userinfo/changePhone',
  summary: '更换手机号（新手机号短信验证）',
  access: 'signedIn',
  body: z.strictObject({ phone: mobileSchema, code: smsCodeSchema }),
  data: profileSchema,
});
