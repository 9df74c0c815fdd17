import { z } from 'zod';
import { defineCall } from './call.js';
import { inviteRoleSchema } from './staff.js';
import { stripSpaces } from './validators.js';

/**
 * Issue 19 point 3: the rest of the staff calls (foundation.md §7 "Staff and agency administration"):
 * batch invitations with a result per phone, the copy-invite-link text, who sees full phone numbers,
 * and deleting one's own account. docs/decisions/org.md records the shapes chosen.
 */

/** At most this many phones in one batch invitation. */
export const BATCH_INVITE_MAX = 200;

/**
 * A phone as typed or pasted: full-width digits made half-width, spaces (also full-width) and dashes
 * dropped. What is left is judged by checkMobile.
 */
export function normaliseInvitePhone(v: string): string {
  return stripSpaces(v.replace(/[\uff10-\uff19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)))
    .replace(/[\s\u3000\-－—]/g, '')
    .slice(0, 40);
}

/** The batch invitation's .xlsx: a template to download and the upload that reads it into the list. */
export const INVITE_FILES = {
  template: 'user/agency/inviteTemplateExport',
  upload: 'user/agency/importAgencyInviteList',
} as const;
export const INVITE_FILE_COLUMNS = ['手机号*', '姓名'] as const;
export const INVITE_FILE_MAX_BYTES = 1024 * 1024;
export const INVITE_FILE_MSG = {
  tooLarge: '文件不能超过 1MB',
  tooMany: `一次最多邀请${BATCH_INVITE_MAX}人，请分批上传`,
  empty: '文件中没有要邀请的手机号',
} as const;

export const batchInviteRowSchema = z.object({
  /** As pasted (spaces dropped, full-width digits made half-width): a bad number is answered, not refused with the batch. */
  sjh: z.string().max(40, '手机号格式不正确').transform(normaliseInvitePhone),
  hymc: z.string().trim().max(20, '姓名不能超过20个字符').optional(),
});

export const saveAgencyInviteListCall = defineCall({
  path: 'user/agency/saveAgencyInviteList',
  summary: '员工管理：批量邀请员工（粘贴名单），逐个手机号给出结果',
  access: 'staff:invite',
  body: z
    .strictObject({
      list: z
        .array(batchInviteRowSchema, { error: '请填写要邀请的手机号' })
        .min(1, '请填写要邀请的手机号')
        .max(BATCH_INVITE_MAX, `一次最多邀请${BATCH_INVITE_MAX}人`),
      role: inviteRoleSchema,
      departmentId: z.number().int().positive().optional(),
    })
    .refine((b) => b.role !== 2 || b.departmentId !== undefined, {
      message: '部门负责人须选择部门',
      path: ['departmentId'],
    }),
  data: z.object({
    sent: z.number(),
    failed: z.number(),
    results: z.array(
      z.object({ sjh: z.string(), hymc: z.string(), ok: z.boolean(), msg: z.string(), id: z.number().nullable() }),
    ),
  }),
});

/**
 * One pasted line per person: a phone, optionally followed by a name (space, comma or tab between).
 * Blank lines are skipped; the server judges every phone.
 */
export function parseInviteLines(text: string): { sjh: string; hymc?: string }[] {
  return text
    .replace(/[\uff10-\uff19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      // The phone is the leading run of digits (spaces and dashes inside are dropped); the rest is the name.
      const lead = l.match(/^[\d\s-]*/)?.[0] ?? '';
      const sjh = lead.replace(/[\s-]/g, '');
      const hymc = l
        .slice(lead.length)
        .replace(/^[,，;；、\s]+/, '')
        .trim()
        .slice(0, 20);
      if (!sjh) return { sjh: l.replace(/\s/g, '').slice(0, 40) };
      return hymc ? { sjh, hymc } : { sjh };
    });
}

export const copyCommandCall = defineCall({
  path: 'user/agency/copyCommand',
  summary: '员工管理：复制邀请口令（邀请链接与说明文字，可发到微信等）',
  access: 'staff:invite',
  body: z.strictObject({ id: z.number({ error: '请选择邀请记录' }).int().positive() }),
  data: z.object({ text: z.string(), link: z.string() }),
});

// --- who sees full phone numbers -------------------------------------------------------------------

/** 'all': every member sees full numbers; 'admin': only the administrator and the members listed. */
export const phoneVisibilitySchema = z.enum(['all', 'admin'], { error: '请选择号码显示方式' });
export type PhoneVisibility = z.infer<typeof phoneVisibilitySchema>;
export const PHONE_VISIBILITY_NAMES: Readonly<Record<PhoneVisibility, string>> = {
  all: '所有员工可见完整号码',
  admin: '仅管理员与指定员工可见完整号码',
};
/** Today's behaviour is the default: colleagues' phones masked, clients' contact phones in full. */
export const DEFAULT_PHONE_SETTING = { staffPhone: 'admin', clientPhone: 'all' } as const;
export const PHONE_SETTING_MAX_USERS = 100;

export const phoneSettingSchema = z.object({
  staffPhone: phoneVisibilitySchema,
  clientPhone: phoneVisibilitySchema,
  /** Members who see full numbers whatever the two settings say. */
  userIds: z.array(z.number()),
});
export type PhoneSetting = z.infer<typeof phoneSettingSchema>;

export const getPhoneSettingInfoCall = defineCall({
  path: 'user/agency/getPhoneSettingInfo',
  summary: '号码显示设置：员工与客户手机号谁可见完整号码',
  access: 'staff:list:view',
  body: z.strictObject({}),
  data: phoneSettingSchema.extend({ editable: z.boolean() }),
});

export const savePhoneSettingCall = defineCall({
  path: 'user/agency/savePhoneSetting',
  summary: '号码显示设置：保存（仅管理员）',
  access: 'staff:phone:setting',
  body: z.strictObject({
    staffPhone: phoneVisibilitySchema,
    clientPhone: phoneVisibilitySchema,
    userIds: z
      .array(z.number().int().positive(), { error: '请选择员工' })
      .max(PHONE_SETTING_MAX_USERS, `最多指定${PHONE_SETTING_MAX_USERS}名员工`)
      .default([]),
  }),
  data: phoneSettingSchema,
});

// --- deleting one's own account --------------------------------------------------------------------

export const DELETE_PERSONAL_MSG = {
  admin: '您是代理机构的管理员，请先转让管理员后再注销账号',
  handover: '您名下还有客户或部门负责人职务，请先联系管理员完成工作交接后再注销账号',
  confirm: '请输入“确认注销”',
  done: '账号已注销',
} as const;
export const DELETE_PERSONAL_WORD = '确认注销';

export const deletePersonalCall = defineCall({
  path: 'user/agency/deletePersonal',
  summary: '注销本人账号（须不是管理员、名下无待交接的工作）',
  access: 'signedIn',
  body: z.strictObject({
    confirm: z.literal(DELETE_PERSONAL_WORD, { error: DELETE_PERSONAL_MSG.confirm }),
  }),
  data: z.null(),
});
