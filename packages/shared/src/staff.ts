import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { mobileSchema } from './validators.js';

/**
 * Staff administration (foundation.md §3 "Agency staff data", §7 "Staff and agency administration"):
 * invitations, the staff list, administrator transfer, quitting, work handover and removal.
 */

/** Invite reply code (foundation.md §8): the phone already belongs to a member of the agency. */
export const STAFF_CODE = { alreadyMember: 101 } as const;

export const STAFF_MSG = {
  alreadyMember: '该用户已加入代理机构，不能重复加入',
  invitePending: '已邀请该手机号，请勿重复邀请',
  inviteSent: '发送邀请成功',
  needHandover: '请先进行工作交接',
  receiverHeadsAnother: '接收人已是其他部门的负责人，请先在部门管理中调整负责人后再交接',
  saved: '保存成功',
  deleted: '删除成功',
  set: '设置成功',
} as const;

/** An invitation is valid for 7 days. */
export const INVITE_VALID_DAYS = 7;

/** Invitation states: 0 待接受, 1 已接受, 2 已取消; 3 已过期 is a pending one past its date (never stored). */
export const INVITE_STATUS = { pending: 0, accepted: 1, cancelled: 2, expired: 3 } as const;
export const INVITE_STATUS_NAMES: Readonly<Record<number, string>> = {
  0: '待接受',
  1: '已接受',
  2: '已取消',
  3: '已过期',
};
export const inviteStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

/** The web path of the invitation page; the SMS carries `<origin>/#/acceptInvite?id=<id>`. */
export const ACCEPT_INVITE_PATH = '/acceptInvite';

/** Role labels an invitation may give: 0 部门员工, 2 部门负责人 (an administrator is made by transfer only). */
export const inviteRoleSchema = z.union([z.literal(0), z.literal(2)], { error: '请选择角色标签' });
export const staffRoleSchema = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: '请选择角色标签' });

export const STAFF_PAGE_SIZES = [20, 50, 100, 500] as const;
const staffPaging = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (STAFF_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50、100或500')
    .default(20),
};

const idSchema = z.number({ error: '请选择员工' }).int().positive();
const hymcSchema = z.string().trim().max(20, '姓名不能超过20个字符');

/** 138****0000: phones of colleagues are shown masked to everyone but the administrator. */
export const maskStaffPhone = (phone: string) =>
  phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone;

// --- invitations -------------------------------------------------------------------------------

export const saveAgencyInviteCall = defineCall({
  path: 'user/agency/saveAgencyInvite',
  summary: '员工管理：按手机号邀请员工（短信发送邀请链接，7天内有效）',
  access: 'staff:invite',
  body: z
    .strictObject({
      sjh: mobileSchema,
      hymc: hymcSchema.optional(),
      role: inviteRoleSchema,
      departmentId: z.number().int().positive().optional(),
    })
    .refine((b) => b.role !== 2 || b.departmentId !== undefined, {
      message: '部门负责人须选择部门',
      path: ['departmentId'],
    }),
  data: z.object({ id: z.number() }),
});

export const inviteLogItemSchema = z.object({
  id: z.number(),
  sjh: z.string(),
  hymc: z.string(),
  role: z.number(),
  departmentName: z.string(),
  inviterName: z.string(),
  status: inviteStatusSchema,
  statusName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  acceptedAt: z.string().nullable(),
});
export type InviteLogItem = z.infer<typeof inviteLogItemSchema>;

export const getAgencyInviteLogListCall = defineCall({
  path: 'user/agency/getAgencyInviteLogList',
  summary: '员工管理：邀请记录（按状态筛选，分页，最新在前）',
  access: 'staff:list:view',
  body: z.strictObject({
    status: inviteStatusSchema.optional(),
    sjh: z.string().trim().max(11).optional(),
    ...staffPaging,
    ...cursorField,
  }),
  data: z.object({ list: z.array(inviteLogItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const cancelAgInviteLogCall = defineCall({
  path: 'user/agency/cancelAgInviteLog',
  summary: '员工管理：取消待接受的邀请',
  access: 'staff:invite',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.null(),
});

export const deleteAgInviteLogCall = defineCall({
  path: 'user/agency/deleteAgInviteLog',
  summary: '员工管理：删除已取消或已过期的邀请记录',
  access: 'staff:invite',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.null(),
});

export const inviteInfoSchema = z.object({
  id: z.number(),
  agencyName: z.string(),
  inviterName: z.string(),
  /** The phone the invitation is addressed to (the signed-in user's own). */
  sjh: z.string(),
  hymc: z.string(),
  role: z.number(),
  departmentName: z.string(),
  status: inviteStatusSchema,
  statusName: z.string(),
  expiresAt: z.string(),
  /** The signed-in user already belongs to the inviting agency. */
  alreadyMember: z.boolean(),
});
export type InviteInfo = z.infer<typeof inviteInfoSchema>;

export const getInviteInfoCall = defineCall({
  path: 'user/agency/getInviteInfo',
  summary: '接受邀请页：邀请详情（仅发给本人手机号的邀请）',
  access: 'signedIn',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: inviteInfoSchema,
});

export const acceptInviteCall = defineCall({
  path: 'user/agency/acceptInvite',
  summary: '接受邀请：加入代理机构并切换到该机构',
  access: 'signedIn',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.object({ orgId: z.number(), orgName: z.string() }),
});

// --- staff list ----------------------------------------------------------------------------------

export const staffItemSchema = z.object({
  userId: z.number(),
  hymc: z.string(),
  /** Masked (138****0000) unless the caller is the administrator or the member themself. */
  phone: z.string(),
  zw: z.string(),
  headimg: z.string(),
  role: z.number(),
  isAdmin: z.enum(['0', '1']),
  departmentId: z.number().nullable(),
  departmentName: z.string(),
  stations: z.array(z.string()),
  roles: z.array(z.string()),
  /** Client enterprises allocated to the member. */
  clientCount: z.number(),
  joinedAt: z.string(),
});
export type StaffItem = z.infer<typeof staffItemSchema>;

export const STAFF_SORT_FIELDS = ['joinedAt', 'clientCount'] as const;

export const getAgencyInviteUserListV3Call = defineCall({
  path: 'user/agency/getAgencyInviteUserListV3',
  summary: '员工管理：员工列表（姓名、手机号、部门、角色标签筛选；按加入时间或客户数排序）',
  access: 'staff:list:view',
  body: z.strictObject({
    /** Part of a phone for the administrator; the whole number for everyone else (phones are masked to them). */
    sjh: z
      .string()
      .trim()
      .regex(/^\d{0,11}$/, '手机号只能包含数字')
      .optional(),
    hymc: z.string().trim().max(20, '姓名不能超过20个字符').optional(),
    departmentId: z.number().int().positive().optional(),
    role: staffRoleSchema.optional(),
    sortField: z.enum(STAFF_SORT_FIELDS).optional(),
    sortOrder: z.enum(['ascend', 'descend']).optional(),
    ...staffPaging,
    ...cursorField,
  }),
  data: z.object({ list: z.array(staffItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const updateAgUserConnectionIsAdminV3Call = defineCall({
  path: 'user/agency/updateAgUserConnectionIsAdminV3',
  summary: '员工管理：把管理员转让给另一名员工（仅管理员本人）',
  access: 'staff:admin:transfer',
  body: z.strictObject({
    admin_user_id: z.number({ error: '请选择新管理员' }).int().positive(),
    notadmin_user_id: z.number().int().positive(),
  }),
  data: z.null(),
});

// --- quitting ------------------------------------------------------------------------------------

/** quitSet: '1' members may leave by themselves, '0' only the administrator removes them. */
export const quitSetSchema = z.enum(['0', '1'], { error: '退出设置须为 0 或 1' });

export const getStaffOptionsCall = defineCall({
  path: 'user/agency/getStaffOptions',
  summary: '员工管理：部门选项与本机构的退出设置',
  access: 'staff:list:view',
  body: z.strictObject({}),
  data: z.object({
    /** Departments of the agency; label is the path from the top (记账中心 / 记账一部). */
    departments: z.array(z.object({ id: z.number(), label: z.string() })),
    quitSet: quitSetSchema,
  }),
});

export const saveUserQuitSettingCall = defineCall({
  path: 'user/agency/saveUserQuitSetting',
  summary: '员工管理：设置是否允许员工自行退出（仅管理员）',
  access: 'signedIn',
  body: z.strictObject({ quitSet: quitSetSchema }),
  data: z.object({ quitSet: quitSetSchema }),
});

export const quitCheckCall = defineCall({
  path: 'user/agency/quitCheck',
  summary: '退出代理机构前的检查',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({ canQuit: z.boolean(), reason: z.string(), clientCount: z.number() }),
});

export const personalQuitAgencyCall = defineCall({
  path: 'user/agency/personalQuitAgency',
  summary: '退出当前代理机构',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.null(),
});

// --- work handover and removal -------------------------------------------------------------------

export const handoverInfoCheckCall = defineCall({
  path: 'user/agency/handoverInfoCheck',
  summary: '工作交接：交接人名下的客户、岗位与部门负责人职务',
  access: 'staff:handover',
  body: z.strictObject({ id: idSchema }),
  data: z.object({ clientCount: z.number(), stationCount: z.number(), departmentDirector: z.boolean() }),
});

export const handoverStaffSchema = z.object({
  userId: z.number(),
  hymc: z.string(),
  phone: z.string(),
  departmentName: z.string(),
  clientCount: z.number(),
});

export const getHandoverStaffCall = defineCall({
  path: 'user/agency/getHandoverStaff',
  summary: '工作交接：可接收工作的同事',
  access: 'staff:handover',
  body: z.strictObject({}),
  data: z.array(handoverStaffSchema),
});

export const workHandoverCall = defineCall({
  path: 'user/agency/workHandover',
  summary: '工作交接：把客户、部门负责人职务与岗位一次性移交给同事',
  access: 'staff:handover',
  body: z
    .strictObject({
      fromId: z.number({ error: '请选择交接人' }).int().positive(),
      toId: z.number({ error: '请选择接收人' }).int().positive(),
    })
    .refine((b) => b.fromId !== b.toId, { message: '接收人不能是交接人本人', path: ['toId'] }),
  data: z.object({ clients: z.number(), directorPosts: z.number(), stations: z.number() }),
});

export const deleteAgUserConnectionIsConnCall = defineCall({
  path: 'user/agency/deleteAgUserConnectionIsConn',
  summary: '员工管理：移除员工（须先完成工作交接）',
  access: 'staff:remove',
  body: z.strictObject({ userId: idSchema }),
  data: z.null(),
});
