import { z } from 'zod';
import { orgTypeSchema, roleSchema, SMS_PURPOSES } from './auth.js';
import { defineCall } from './call.js';
import { mobileSchema, smsCodeSchema } from './validators.js';

/**
 * Session checks of foundation.md §7 served beside the sign-in calls (issue 19's sweep):
 * the session user in the V3 shape (getUserV3), whether a person holds a menu or button
 * (checkPersonHasMenuAuth and V2), and an SMS code checked before the step that uses it
 * (checkSmsVerificationCodeMsg). Identity always comes from the session, never from the body.
 */

export const MENU_AUTH_MSG = {
  menuId: '请选择菜单',
  unknownMenu: '菜单不存在',
  notMember: '该人员不属于本机构',
  tooMany: '一次最多查询100个菜单',
} as const;

const menuIdSchema = z.number({ error: MENU_AUTH_MSG.menuId }).int(MENU_AUTH_MSG.menuId).positive(MENU_AUTH_MSG.menuId);

export const userV3Schema = z.object({
  user_id: z.number(),
  phone: z.string(),
  hymc: z.string(),
  headimg: z.string(),
  /** The tenant (for a bound factory, its agency); null before joining any organisation. */
  agency_id: z.number().nullable(),
  /** The organisation signed into (a factory's own id), its name and kind. */
  org_id: z.number().nullable(),
  org_name: z.string().nullable(),
  org_type: orgTypeSchema.nullable(),
  /** 0 部门员工, 1 代理所管理员, 2 部门负责人. */
  role: roleSchema.nullable(),
  isAdmin: z.enum(['0', '1']),
  /** '1' while the user is a member of the organisation (the original's is_connection). */
  is_connection: z.enum(['0', '1']),
  /** The organisation's quitSet: '1' members may leave by themselves, '0' only an administrator removes them. */
  quitSet: z.enum(['0', '1']).nullable(),
  department_id: z.number().nullable(),
  department_name: z.string().nullable(),
});
export type UserV3 = z.infer<typeof userV3Schema>;

export const getUserV3Call = defineCall({
  path: 'user/v1.0/userinfo/getUserV3',
  summary: '当前登录用户（V3：机构、角色、是否在职、退出设置、部门）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: userV3Schema,
});

const menuAuthRow = z.object({
  menuId: z.number(),
  title: z.string(),
  /** 'M' directory, 'C' page, 'F' button. */
  menuType: z.enum(['M', 'C', 'F']),
  hasAuth: z.boolean(),
});

export const checkPersonHasMenuAuthCall = defineCall({
  path: 'user/agency/checkPersonHasMenuAuth',
  summary: '某人员（默认本人）是否有某菜单或按钮的权限（查他人须有员工管理权限）',
  access: 'signedIn',
  body: z.strictObject({
    menuId: menuIdSchema,
    /** Another member of the caller's agency; omitted: the caller. */
    userId: z.number().int().positive('人员不存在').optional(),
  }),
  data: menuAuthRow,
});

export const checkPersonHasMenuAuthV2Call = defineCall({
  path: 'user/agency/checkPersonHasMenuAuthV2',
  summary: '某人员（默认本人）对一组菜单或按钮的权限（一次最多100个）',
  access: 'signedIn',
  body: z.strictObject({
    menuIds: z.array(menuIdSchema).min(1, MENU_AUTH_MSG.menuId).max(100, MENU_AUTH_MSG.tooMany),
    userId: z.number().int().positive('人员不存在').optional(),
  }),
  data: z.object({ list: z.array(menuAuthRow) }),
});

export const checkSmsCodeCall = defineCall({
  path: 'user/verify/checkSmsVerificationCodeMsg',
  summary: '校验短信验证码（不使用验证码：登录或找回密码时仍需提交；错误次数计入上限）',
  access: 'public',
  body: z.strictObject({ phone: mobileSchema, dictLabel: z.enum(SMS_PURPOSES), code: smsCodeSchema }),
  data: z.object({ valid: z.literal(true) }),
});
