import { z } from 'zod';
import { defineCall } from './call.js';
import { passwordSchema } from './validators.js';

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
