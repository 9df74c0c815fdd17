import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import {
  checkEmail,
  checkLandline,
  checkMobile,
  checkTaxNumber,
  isValidUscc,
  normalizeTaxNumber,
  TAX_NUMBER_DIALOG_MSG,
} from './validators.js';

/**
 * The client-enterprise book 我的客户 (business.md §1, §3 Enterprise, §4-§9; foundation.md missing
 * tax-number dialog and enterprise chooser): list, create and edit, credentials, assignment, service
 * status, recycle bin, benefit checks, import and export, notes and access tracking.
 */

// --- constants ---------------------------------------------------------------------------------

/** Page sizes of the customer tables (business.md §9). */
export const CUSTOMER_PAGE_SIZES = [20, 50, 100, 500] as const;
/** At most this many enterprises in one batch action. */
export const BATCH_MAX = 500;

export const QYXZ_NAMES: Readonly<Record<string, string>> = { '0': '一般纳税人', '1': '小规模纳税人' };
export const QYXZ_OPTIONS = [
  { value: '0', label: '一般纳税人' },
  { value: '1', label: '小规模纳税人' },
] as const;

/** Membership grades hydj_real (business.md §3; 41 is read as the trial grade). */
export const HYDJ_NAMES: Readonly<Record<number, string>> = {
  1: '基础会员',
  2: '金税会员',
  3: '金税会员（小规模）',
  8: '高级会员',
  41: '金税会员（试用）',
};

export const SERVICE_STATUS_NAMES: Readonly<Record<string, string>> = { '1': '服务中', '0': '已停止服务' };

/** e-tax login identity (tax-bureau.md: 1 tax officer, 2 legal representative, 3 finance head, 6 ticket purchaser, 97 agent). */
export const SFBM_OPTIONS = [
  { value: '1', label: '办税员' },
  { value: '2', label: '法定代表人' },
  { value: '3', label: '财务负责人' },
  { value: '6', label: '购票员' },
  { value: '97', label: '代理人（代理登录）' },
] as const;

/** Personal-tax login mode dlfs: 1 with the report password, 2 with a real-name account. */
export const DLFS_OPTIONS = [
  { value: '1', label: '申报密码登录' },
  { value: '2', label: '实名账号登录' },
] as const;

/** login_type: '0' national e-tax bureau, '1' another tax-bureau login. */
export const LOGIN_TYPE_OPTIONS = [
  { value: '0', label: '全国统一电子税务局' },
  { value: '1', label: '其他税务局登录' },
] as const;

export const LABEL_COLORS = ['blue', 'green', 'orange', 'red', 'purple', 'cyan', 'magenta', 'gold'] as const;

/** The web path of the book; the memory of the last query is kept under this key. */
export const CUSTOMER_PAGE_KEY = '/customer/khgl/wdkh';

export const CUSTOMER_MSG = {
  saved: '保存成功',
  /** A factory works on the clients an agency handed over; it never adds its own (issue 26 point 2). */
  factoryNoCreate: '会计工厂不能新增或导入客户，请由代理机构新增后移交给本工厂',
  deleted: '删除成功',
  restored: '恢复成功',
  purged: '彻底删除成功',
  assigned: '分配成功',
  stopped: '已停止服务',
  resumed: '已恢复服务',
  exported: '导出成功',
  duplicate: (qymc: string) => `该税号的企业已存在：${qymc}`,
  duplicateInBin: (qymc: string) => `该税号的企业已存在：${qymc}（在回收站中，可恢复）`,
  /** The other enterprise is outside the caller's data scope: its name is not theirs to learn. */
  duplicateHidden: '该税号的企业已在本机构登记，由其他同事负责，请联系管理员',
  /** Added by someone else while the import ran. */
  duplicateDuringImport: '该税号的企业在导入期间已被他人添加',
  usccWarning: '统一社会信用代码校验位不正确，请核对税号',
  shareTotal: '股东持股比例合计不能超过100%',
  taxDialog: TAX_NUMBER_DIALOG_MSG,
  fillFirst: '请填充后确认',
  taxDialogText: '请补充企业税号，企业税号为空时无法使用发票/记账/申报',
  licence: (n: number) => `客户数已达授权上限（${n}家），请联系客户经理扩容`,
  chooseEnterprise: '请选择企业',
  noteOwn: '只能删除自己的记录',
} as const;

// --- shared pieces -----------------------------------------------------------------------------

const idSchema = z.number().int().positive();
const idsSchema = z
  .array(idSchema)
  .min(1, CUSTOMER_MSG.chooseEnterprise)
  .max(BATCH_MAX, `一次最多操作${BATCH_MAX}家企业`);

const paging = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (CUSTOMER_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50、100或500')
    .default(20),
  ...cursorField,
};

const regionCode = z.string().regex(/^(\d{6})?$/, '地区编码为6位数字');

/** Tax number as typed: whitespace removed, upper case, then 6-20 letters or digits. */
export const qyshSchema = z
  .string()
  .transform(normalizeTaxNumber)
  .superRefine((v, ctx) => {
    const msg = checkTaxNumber(v);
    if (msg) ctx.addIssue({ code: 'custom', message: msg === '请输入税号' ? '请输入企业税号' : msg });
  });

/** A warning (not a refusal) for an 18-character tax number whose check character is wrong. */
export function qyshWarning(qysh: string): string | null {
  const v = normalizeTaxNumber(qysh);
  return v.length === 18 && !isValidUscc(v) ? CUSTOMER_MSG.usccWarning : null;
}

const optionalChecked = (check: (v: string) => string | null) =>
  z
    .string()
    .trim()
    .default('')
    .superRefine((v, ctx) => {
      const msg = v ? check(v) : null;
      if (msg) ctx.addIssue({ code: 'custom', message: msg });
    });

export const contactSchema = z.strictObject({
  name: z.string().trim().min(1, '请输入联系人姓名').max(20, '联系人姓名不能超过20个字符'),
  position: z.string().trim().max(20, '职务不能超过20个字符').default(''),
  /** A masked mobile (138****8000, as the viewer was shown it) stands for the stored number: the server keeps it. */
  mobile: optionalChecked((v) => (/^1\d{2}\*{4}\d{4}$/.test(v) ? null : checkMobile(v))),
  landline: optionalChecked(checkLandline),
  email: optionalChecked(checkEmail),
  isPrimary: z.boolean().default(false),
});
export type ContactInput = z.input<typeof contactSchema>;

/** Share in percent with at most 2 decimals, above 0 and at most 100. */
export const shareholderSchema = z.strictObject({
  name: z.string().trim().min(1, '请输入股东名称').max(50, '股东名称不能超过50个字符'),
  share: z
    .number({ error: '请输入持股比例' })
    .gt(0, '持股比例须大于0')
    .max(100, '持股比例不能超过100%')
    .refine((n) => Math.round(n * 100) === Number((n * 100).toFixed(6)), '持股比例最多两位小数'),
});
export type ShareholderInput = z.input<typeof shareholderSchema>;

/** Sum of shares in hundredths, so 33.33 + 33.33 + 33.34 is exactly 100. */
export const shareTotal = (list: readonly { share: number }[]) =>
  list.reduce((s, h) => s + Math.round(h.share * 100), 0) / 100;

/**
 * Login credentials as sent by the form: a field left out keeps what is stored, '' clears it.
 * Passwords are stored encrypted and never sent back in clear except through the reveal call.
 */
export const credentialInputSchema = z.strictObject({
  login_type: z.enum(['0', '1', '']).optional(),
  xdzswj_dlzh: z.string().trim().max(50, '电子税务局账号不能超过50个字符').optional(),
  xdzswj_pass: z.string().max(64, '电子税务局密码不能超过64个字符').optional(),
  xdzswj_sfbm: z.enum(['1', '2', '3', '6', '97', '']).optional(),
  dlfs: z.enum(['1', '2', '']).optional(),
  dl_id: z.string().trim().max(50, '个税实名账号不能超过50个字符').optional(),
  dl_password: z.string().max(64, '个税登录密码不能超过64个字符').optional(),
  report_password: z.string().max(64, '个税申报密码不能超过64个字符').optional(),
  agent_login_account: z.string().trim().max(50, '代理登录账号不能超过50个字符').optional(),
  agent_login_password: z.string().max(64, '代理登录密码不能超过64个字符').optional(),
  agent_login_qysh: z
    .string()
    .transform(normalizeTaxNumber)
    .refine((v) => v === '' || checkTaxNumber(v) === null, '代理机构税号为6-20位数字或字母')
    .optional(),
});
export type CredentialInput = z.input<typeof credentialInputSchema>;
export const CREDENTIAL_FIELDS = Object.keys(credentialInputSchema.shape) as (keyof CredentialInput)[];
/** The secret ones: encrypted at rest, shown as ****** until revealed. */
export const CREDENTIAL_SECRETS = ['xdzswj_pass', 'dl_password', 'report_password', 'agent_login_password'] as const;

/** Stored credentials: account names masked (first 3, ****, last 4), passwords ****** when set. */
export const credentialsSchema = z.object({
  login_type: z.string(),
  xdzswj_dlzh: z.string(),
  xdzswj_pass: z.string(),
  xdzswj_sfbm: z.string(),
  dlfs: z.string(),
  dl_id: z.string(),
  dl_password: z.string(),
  report_password: z.string(),
  agent_login_account: z.string(),
  agent_login_password: z.string(),
  agent_login_qysh: z.string(),
});
export type Credentials = z.infer<typeof credentialsSchema>;

/** The enterprise form's fields (create and edit). */
const enterpriseFields = {
  qymc: z.string().trim().min(1, '请输入企业名称').max(100, '企业名称不能超过100个字符'),
  qysh: qyshSchema,
  qyxz: z.enum(['0', '1'], { error: '请选择企业性质' }).default('1'),
  sssf: regionCode.default(''),
  ssds: regionCode.default(''),
  ssqx: regionCode.default(''),
  address: z.string().trim().max(200, '地址不能超过200个字符').default(''),
  fjh: z
    .string()
    .trim()
    .regex(/^\d{0,4}$/, '开票分机号为0-4位数字')
    .default(''),
  remark: z.string().trim().max(500, '备注不能超过500个字符').default(''),
  gradeId: idSchema.nullable().default(null),
  labelIds: z.array(idSchema).max(10, '每家企业最多10个标签').default([]),
  contacts: z.array(contactSchema).max(20, '联系人最多20个').default([]),
  shareholders: z
    .array(shareholderSchema)
    .max(50, '股东最多50个')
    .default([])
    .refine((list) => shareTotal(list) <= 100, CUSTOMER_MSG.shareTotal),
  credentials: credentialInputSchema.optional(),
};

// --- list --------------------------------------------------------------------------------------

/** Sort columns: both index-backed (id for 创建时间, the name index for 企业名称). */
export const CUSTOMER_SORT_FIELDS = ['createdAt', 'qymc'] as const;

/** Benefit-status filter: 正常 qyzt 1, 即将到期 2, 已到期 3 / 0 / empty. */
export const BENEFIT_FILTERS = [
  { value: 'active', label: '正常' },
  { value: 'expiring', label: '即将到期' },
  { value: 'expired', label: '已到期' },
] as const;

export const customerFilterSchema = z.strictObject({
  /** Name or tax number, any part. */
  keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
  qyxz: z.enum(['0', '1']).optional(),
  sssf: regionCode.optional(),
  ssds: regionCode.optional(),
  ssqx: regionCode.optional(),
  labelId: idSchema.optional(),
  gradeId: idSchema.optional(),
  /** A member's user id; 0 for enterprises given to nobody. */
  allocateUser: z.number().int().min(0).optional(),
  serviceStatus: z.enum(['0', '1']).optional(),
  benefitStatus: z.enum(['active', 'expiring', 'expired']).optional(),
  /** '1': only the clients whose book differs from the bureau's registration (需更新). */
  needUpdate: z.enum(['1']).optional(),
  sortField: z.enum(CUSTOMER_SORT_FIELDS).optional(),
  sortOrder: z.enum(['ascend', 'descend']).optional(),
});
export type CustomerFilter = z.input<typeof customerFilterSchema>;

export const labelRefSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });

export const customerItemSchema = z.object({
  id: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  qybm: z.string(),
  qyxz: z.string(),
  sssf: z.string(),
  ssds: z.string(),
  ssqx: z.string(),
  /** 省 市 区 in words. */
  regionName: z.string(),
  address: z.string(),
  fjh: z.string(),
  gradeId: z.number().nullable(),
  gradeName: z.string(),
  labels: z.array(labelRefSchema),
  allocate_user: z.number().nullable(),
  allocateUserName: z.string(),
  serviceStatus: z.string(),
  qyzt: z.string(),
  hydj_real: z.number().nullable(),
  hydqsj: z.string().nullable(),
  contactName: z.string(),
  contactPhone: z.string(),
  createdAt: z.string(),
  /** The book differs from the bureau's registration (customer-master.ts). */
  needUpdate: z.boolean(),
});
export type CustomerItem = z.infer<typeof customerItemSchema>;

export const customerListCall = defineCall({
  path: 'userext/agency/queryAgencyUserEnterpriseV3',
  summary: '我的客户：列表（筛选、排序、分页；按数据权限）',
  access: 'customer:list:view',
  body: customerFilterSchema.extend(paging),
  data: z.object({ list: z.array(customerItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

// --- detail, create, edit ----------------------------------------------------------------------

export const contactItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  position: z.string(),
  mobile: z.string(),
  landline: z.string(),
  email: z.string(),
  isPrimary: z.boolean(),
});
export const shareholderItemSchema = z.object({ id: z.number(), name: z.string(), share: z.number() });
export const attachmentItemSchema = z.object({
  id: z.number(),
  fileName: z.string(),
  mime: z.string(),
  size: z.number(),
  uploadedByName: z.string(),
  createdAt: z.string(),
});
export type AttachmentItem = z.infer<typeof attachmentItemSchema>;

export const customerDetailSchema = customerItemSchema.extend({
  remark: z.string(),
  contacts: z.array(contactItemSchema),
  shareholders: z.array(shareholderItemSchema),
  attachments: z.array(attachmentItemSchema),
  credentials: credentialsSchema,
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

export const customerDetailCall = defineCall({
  path: 'user/agency/selectAgencyEnterpriseInfo',
  summary: '我的客户：企业详情（账号密码脱敏）',
  access: 'customer:list:view',
  body: z.strictObject({ id: idSchema }),
  data: customerDetailSchema,
});

const saveResult = z.object({ id: z.number(), warning: z.string().nullable() });

export const customerCreateCall = defineCall({
  path: 'user/agency/saveAgencyEnterprise',
  summary: '我的客户：新增企业',
  access: 'customer:add',
  body: z.strictObject({
    ...enterpriseFields,
    /** The member the enterprise is given to; the creator when left out. */
    allocate_user: idSchema.optional(),
  }),
  data: saveResult,
});
export type CustomerCreateBody = z.input<typeof customerCreateCall.body>;

export const customerUpdateCall = defineCall({
  path: 'user/agency/updateAgencyEnterpriseDataV3',
  summary: '我的客户：编辑企业',
  access: 'customer:edit',
  body: z.strictObject({ id: idSchema, ...enterpriseFields }),
  data: saveResult,
});
export type CustomerUpdateBody = z.input<typeof customerUpdateCall.body>;

/** Reveals a user may make in an hour (all attempts count, wrong passwords and codes included). */
export const REVEAL_PER_HOUR = 20;

export const REVEAL_MSG = {
  reason: '请填写查看原因（2-100个字）',
  reauth: '请输入登录密码或短信验证码',
  wrongPassword: '登录密码错误，请重新输入',
  noPassword: '您的账号未设置登录密码，请使用短信验证码验证',
  codeSent: '验证码已发送至您的手机，请注意查收',
  tooMany: (seconds: number) =>
    `查看账号密码过于频繁（每小时最多${REVEAL_PER_HOUR}次），请${seconds >= 120 ? `${Math.ceil(seconds / 60)}分钟` : `${seconds}秒`}后再试`,
} as const;

export const revealCredentialCall = defineCall({
  path: 'user/agency/revealEnterpriseCredential',
  summary: '我的客户：查看账号密码明文（再次验证身份、填写原因，每次记录审计日志，每小时限次）',
  access: 'customer:credential:reveal',
  // Re-proves the person at the keyboard (their password, or a code to their own phone): never a key.
  person: true,
  body: z
    .strictObject({
      id: idSchema,
      reason: z.string({ error: REVEAL_MSG.reason }).trim().min(2, REVEAL_MSG.reason).max(100, REVEAL_MSG.reason),
      /** The caller's own sign-in password, or */
      password: z.string().max(64).optional(),
      /** the code sent by revealCodeCall to the caller's phone. */
      smsCode: z
        .string()
        .regex(/^\d{6}$/, '请输入6位短信验证码')
        .optional(),
    })
    .refine((b) => (b.password ?? '') !== '' || (b.smsCode ?? '') !== '', { message: REVEAL_MSG.reauth }),
  data: credentialsSchema,
});

export const revealCodeCall = defineCall({
  path: 'user/agency/sendRevealCredentialCode',
  summary: '我的客户：发送查看账号密码的短信验证码（发到本人手机）',
  access: 'customer:credential:reveal',
  // Re-proves the person at the keyboard (their password, or a code to their own phone): never a key.
  person: true,
  body: z.strictObject({}),
  data: z.object({ resendAfter: z.number() }),
});

export const revealLogItemSchema = z.object({
  userName: z.string(),
  at: z.string(),
  reason: z.string(),
});
export type RevealLogItem = z.infer<typeof revealLogItemSchema>;

export const revealLogCall = defineCall({
  path: 'user/agency/getEnterpriseCredentialRevealLog',
  summary: '我的客户：账号密码的最近查看记录（谁、何时、原因）',
  access: 'customer:credential:reveal',
  body: z.strictObject({ id: idSchema }),
  data: z.array(revealLogItemSchema),
});

export const contactListCall = defineCall({
  path: 'user/agency/getContactList',
  summary: '我的客户：企业的联系人',
  access: 'customer:list:view',
  body: z.strictObject({ enterpriseId: idSchema }),
  data: z.array(contactItemSchema),
});

// --- actions -----------------------------------------------------------------------------------

const countResult = z.object({ count: z.number() });

export const customerAssignCall = defineCall({
  path: 'user/agency/allocateAgencyEnterprise',
  summary: '我的客户：分配给员工（发派工消息）',
  access: 'customer:assign',
  body: z.strictObject({
    aeiIds: idsSchema,
    userId: z.number({ error: '请选择负责人' }).int().positive('请选择负责人'),
  }),
  data: countResult,
});

export const customerServiceCall = defineCall({
  path: 'user/agency/updateAgencyUEOperationStatus',
  summary: '我的客户：停止或恢复服务',
  access: 'customer:service:toggle',
  body: z.strictObject({ aeiIds: idsSchema, serviceStatus: z.enum(['0', '1'], { error: '请选择服务状态' }) }),
  data: countResult,
});

export const customerDeleteCall = defineCall({
  path: 'user/agency/deleteAgencyEnterprise',
  summary: '我的客户：删除到回收站',
  access: 'customer:delete',
  body: z.strictObject({ aeiIds: idsSchema }),
  data: countResult,
});

export const recycleItemSchema = z.object({
  id: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  qyxz: z.string(),
  allocateUserName: z.string(),
  deletedAt: z.string(),
});
export type RecycleItem = z.infer<typeof recycleItemSchema>;

export const recycleListCall = defineCall({
  path: 'user/agency/queryRecycleEnterprise',
  summary: '回收站：已删除的企业',
  access: 'customer:recycle:view',
  body: z.strictObject({
    keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
    qyxz: z.enum(['0', '1']).optional(),
    allocateUser: z.number().int().min(0).optional(),
    ...paging,
  }),
  data: z.object({ list: z.array(recycleItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const customerRestoreCall = defineCall({
  path: 'user/agency/restoreAgencyEnterprise',
  summary: '回收站：恢复企业',
  access: 'customer:restore',
  body: z.strictObject({ aeiIds: idsSchema }),
  data: countResult,
});

export const customerPurgeCall = defineCall({
  path: 'user/agency/purgeAgencyEnterprise',
  summary: '回收站：彻底删除（仅管理员）',
  access: 'customer:purge',
  body: z.strictObject({ aeiIds: idsSchema }),
  data: countResult,
});

export const allocateUserSchema = z.object({ userId: z.number(), hymc: z.string(), departmentName: z.string() });
export type AllocateUser = z.infer<typeof allocateUserSchema>;

export const allocateUsersCall = defineCall({
  path: 'user/agency/getAllocateUsers',
  summary: '我的客户：可分配的员工（本机构成员）',
  access: 'customer:list:view',
  body: z.strictObject({}),
  data: z.array(allocateUserSchema),
});

// --- labels and grades -------------------------------------------------------------------------

export const labelItemSchema = labelRefSchema.extend({ count: z.number() });
export type LabelItem = z.infer<typeof labelItemSchema>;

export const labelListCall = defineCall({
  path: 'user/label/list',
  summary: '客户标签：本机构的标签',
  access: 'customer:list:view',
  body: z.strictObject({}),
  data: z.array(labelItemSchema),
});

export const labelSaveCall = defineCall({
  path: 'user/label/save',
  summary: '客户标签：新增或修改',
  access: 'customer:edit',
  body: z.strictObject({
    id: idSchema.optional(),
    name: z.string().trim().min(1, '请输入标签名称').max(10, '标签名称不能超过10个字符'),
    color: z.enum(LABEL_COLORS).default('blue'),
  }),
  data: z.object({ id: z.number() }),
});

export const labelDeleteCall = defineCall({
  path: 'user/label/delete',
  summary: '客户标签：删除（从企业上一并移除）',
  access: 'customer:edit',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

export const gradeItemSchema = z.object({ id: z.number(), name: z.string(), sort: z.number(), count: z.number() });
export type GradeItem = z.infer<typeof gradeItemSchema>;

export const gradeListCall = defineCall({
  path: 'user/grade/list',
  summary: '客户等级：本机构的等级',
  access: 'customer:list:view',
  body: z.strictObject({}),
  data: z.array(gradeItemSchema),
});

export const gradeSaveCall = defineCall({
  path: 'user/grade/save',
  summary: '客户等级：新增或修改',
  access: 'customer:grade:edit',
  body: z.strictObject({
    id: idSchema.optional(),
    name: z.string().trim().min(1, '请输入等级名称').max(10, '等级名称不能超过10个字符'),
    sort: z.number().int().min(0).max(999).default(0),
  }),
  data: z.object({ id: z.number() }),
});

export const gradeDeleteCall = defineCall({
  path: 'user/grade/delete',
  summary: '客户等级：删除（企业的等级清空）',
  access: 'customer:grade:edit',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

// --- missing tax numbers -----------------------------------------------------------------------

export const noQyshItemSchema = z.object({ id: z.number(), qymc: z.string(), qysh: z.string() });

export const noQyshListCall = defineCall({
  path: 'user/agency/selectNoQyshEnterpriseList',
  summary: '缺少税号的企业（按数据权限；406 表示没有）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.array(noQyshItemSchema),
});

export const updateQyshCall = defineCall({
  path: 'user/agency/updateAgencyEnterpriseQysh',
  summary: '补充企业税号',
  access: 'customer:edit',
  body: z.strictObject({
    qyshList: z
      .array(
        z.strictObject({
          id: idSchema,
          qysh: z
            .string()
            .transform(normalizeTaxNumber)
            .refine((v) => /^[A-Za-z0-9]{6,20}$/.test(v), TAX_NUMBER_DIALOG_MSG),
        }),
      )
      .min(1, CUSTOMER_MSG.fillFirst)
      .max(BATCH_MAX),
  }),
  data: z.null(),
});

// --- benefits (business.md §6, §8) -------------------------------------------------------------

/** Feature menu ids checked against the benefits (equity_menus): the customer buttons of the registry. */
export const BENEFIT_MENU = {
  add: 2111,
  edit: 2112,
  delete: 2113,
  assign: 2114,
  service: 2115,
  import: 2116,
  export: 2117,
  /** 发票 (issue 15): 开具 and 批量开票, 红冲, 进项勾选/用途确认, 发票池采集. */
  invoiceIssue: 2131,
  invoiceRed: 2132,
  invoiceInput: 2133,
  invoiceCollect: 2134,
} as const;

export const equityMenuSchema = z.object({
  menuid: z.number(),
  title: z.string(),
  iscontrol: z.string(),
  anqyflag: z.string(),
});

export const agencyEquityCall = defineCall({
  path: 'equity/agency/equity/getMenuAgencyByTenantid',
  summary: '机构权益：权益状态、不再提醒标记与功能权益表',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({
    agency_id: z.number().nullable(),
    qyzt: z.string(),
    sfgxbzts: z.string(),
    /** Accounting-factory users bypass every benefit check and never see the tags. */
    kjgc: z.boolean(),
    menus: z.array(equityMenuSchema),
  }),
});

export const equityFactsSchema = z.object({
  menuid: z.number(),
  /** False when equity_menus has no entry for the menu: 权限异常！ */
  entry: z.boolean(),
  iscontrol: z.string(),
  anqyflag: z.string(),
  agencyQyzt: z.string(),
  sfgxbzts: z.string(),
  kjgc: z.boolean(),
  total: z.number(),
  /** The asked enterprises whose qylb lists the menu id. */
  entitledIds: z.array(z.number()),
  /** For a single enterprise: its own benefit status. */
  enterpriseQyzt: z.string().nullable(),
});
export type EquityFacts = z.infer<typeof equityFactsSchema>;

export const equityCheckCall = defineCall({
  path: 'equity/agency/equity/checkEnterpriseEquity',
  summary: '权益校验：所选企业对某功能的权益',
  access: 'customer:list:view',
  body: z.strictObject({ menuid: z.number().int().positive(), aeiIds: idsSchema }),
  data: equityFactsSchema,
});

export const muteEquityCall = defineCall({
  path: 'equity/qy/ggtszt/agency',
  summary: '权益提示：不再提醒',
  access: 'signedIn',
  body: z.strictObject({ agency_id: idSchema, sfgxbzts: z.literal('1') }),
  data: z.null(),
});

export const EQUITY_MSG = {
  title: '权益提示',
  noEntry: '权限异常！',
  expiring: '您的付费权益即将到期，为避免影响使用，请及时联系客户经理续费。',
  agencyExpired: '您的付费权益已到期，该企业暂无此功能的使用权限，请联系客户经理续费后使用。',
  noneEntitled: (n: number) => `该功能为付费功能，所选${n}家企业均无使用权限，请重新选择。`,
  someEntitled: (n: number, m: number) => `所选${n}家企业中有${m}家有使用权限，是否继续对这${m}家企业操作？`,
  notInPlan: '当前套餐不包含该功能，请联系客户经理购买。',
  enterpriseExpired: '该企业的付费权益已到期，请联系客户经理续费后使用。',
  upgrade: '该功能为付费功能，请联系客户经理升级套餐后使用。',
  refused: (n: number) => `所选企业中有${n}家无该功能的使用权限，请重新选择`,
} as const;

/** A 权益提示 dialog (business.md §8): type 1 single feature, 2 bulk selection, 3 plan. */
export interface EquityDialog {
  type: 1 | 2 | 3;
  status: '2' | '3' | null;
  content: string;
  /** Type 1 status 2 offers 不再提醒. */
  canMute: boolean;
  /** Type 2 status 3: 继续 goes on with only these. */
  continueIds: number[] | null;
}

export interface EquityDecision {
  /** 权限异常！: refuse with a warning, nothing else. */
  error: string | null;
  /** Go on at once with these ids (after acknowledging `dialog`, when one is given). */
  proceedIds: number[] | null;
  dialog: EquityDialog | null;
}

/**
 * The benefit check of business.md §6, shared by the page (which dialog) and the server (which ids
 * may go on): kjgc bypasses; no entry → 权限异常！; iscontrol N → allowed; agency qyzt 1/2 with
 * anqyflag Y → allowed (status 2 reminds once unless muted); otherwise per enterprise by qylb.
 */
export function equityDecision(f: EquityFacts, ids: readonly number[]): EquityDecision {
  const all = [...ids];
  if (f.kjgc) return { error: null, proceedIds: all, dialog: null };
  if (!f.entry) return { error: EQUITY_MSG.noEntry, proceedIds: null, dialog: null };
  if (f.iscontrol !== 'Y') return { error: null, proceedIds: all, dialog: null };
  const agencyActive = f.agencyQyzt === '1' || f.agencyQyzt === '2';
  if (agencyActive && f.anqyflag === 'Y') {
    const remind = f.agencyQyzt === '2' && f.sfgxbzts !== '1';
    return {
      error: null,
      proceedIds: all,
      dialog: remind ? { type: 1, status: '2', content: EQUITY_MSG.expiring, canMute: true, continueIds: null } : null,
    };
  }
  const entitled = new Set(f.entitledIds);
  const allowed = all.filter((id) => entitled.has(id));
  if (allowed.length === all.length) return { error: null, proceedIds: all, dialog: null };
  if (all.length === 1) {
    if (f.agencyQyzt === '3') {
      return {
        error: null,
        proceedIds: null,
        dialog: { type: 1, status: '3', content: EQUITY_MSG.agencyExpired, canMute: false, continueIds: null },
      };
    }
    const q = f.enterpriseQyzt ?? '';
    const content =
      q === '3' ? EQUITY_MSG.enterpriseExpired : q === '1' || q === '2' ? EQUITY_MSG.upgrade : EQUITY_MSG.notInPlan;
    return {
      error: null,
      proceedIds: null,
      dialog: { type: 3, status: null, content, canMute: false, continueIds: null },
    };
  }
  if (allowed.length === 0) {
    return {
      error: null,
      proceedIds: null,
      dialog: {
        type: 2,
        status: '2',
        content: EQUITY_MSG.noneEntitled(all.length),
        canMute: false,
        continueIds: null,
      },
    };
  }
  return {
    error: null,
    proceedIds: null,
    dialog: {
      type: 2,
      status: '3',
      content: EQUITY_MSG.someEntitled(all.length, allowed.length),
      canMute: false,
      continueIds: allowed,
    },
  };
}

/**
 * The row tag of business.md §4: 即将到期 for qyzt '2', 已到期 for '3', '0' or empty; shown only when
 * the agency itself is not in status 1 or 2 and the user is not of an accounting factory.
 */
export function benefitTag(agencyQyzt: string, kjgc: boolean, qyzt: string): '即将到期' | '已到期' | null {
  if (kjgc || agencyQyzt === '1' || agencyQyzt === '2') return null;
  if (qyzt === '2') return '即将到期';
  if (qyzt === '3' || qyzt === '0' || qyzt === '') return '已到期';
  return null;
}

// --- remembered last query ---------------------------------------------------------------------

/** A page's route path, e.g. /customer/khgl/wdkh. */
const pageKeySchema = z.string().regex(/^\/[\w/-]{0,99}$/, '页面标识有误');

export const getMemoryCall = defineCall({
  path: 'user/userLastQuery/getMemory',
  summary: '记住的上次查询条件',
  access: 'signedIn',
  body: z.strictObject({ pageKey: pageKeySchema }),
  data: z.object({ query: z.record(z.string(), z.unknown()).nullable() }),
});

export const updateMemoryCall = defineCall({
  path: 'user/userLastQuery/updateMemory',
  summary: '保存本次查询条件',
  access: 'signedIn',
  body: z.strictObject({
    pageKey: pageKeySchema,
    query: z.record(z.string(), z.unknown()).refine((q) => JSON.stringify(q).length <= 4096, '查询条件过长'),
  }),
  data: z.null(),
});

// --- notes and access tracking -----------------------------------------------------------------

export const noteItemSchema = z.object({
  id: z.number(),
  content: z.string(),
  concern: z.boolean(),
  userId: z.number(),
  userName: z.string(),
  mine: z.boolean(),
  createdAt: z.string(),
});
export type NoteItem = z.infer<typeof noteItemSchema>;

export const noteSaveCall = defineCall({
  path: 'user/note/save',
  summary: '企业记事：新增或修改（本人的）',
  access: 'customer:list:view',
  body: z.strictObject({
    id: idSchema.optional(),
    enterpriseId: idSchema,
    content: z.string().trim().min(1, '请输入记事内容').max(500, '记事内容不能超过500个字符'),
  }),
  data: z.object({ id: z.number() }),
});

export const noteDeleteCall = defineCall({
  path: 'user/note/delete',
  summary: '企业记事：删除（本人的，管理员可删任何）',
  access: 'customer:list:view',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

export const noteConcernCall = defineCall({
  path: 'user/note/concern',
  summary: '企业记事：关注（置顶）',
  access: 'customer:list:view',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

export const noteCancelConcernCall = defineCall({
  path: 'user/note/cancelConcern',
  summary: '企业记事：取消关注',
  access: 'customer:list:view',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

export const noteListCall = defineCall({
  path: 'user/note/selectList',
  summary: '企业记事：列表（关注的在前）',
  access: 'customer:list:view',
  body: z.strictObject({
    enterpriseId: idSchema,
    pageNo: paging.pageNo,
    pageSize: z.number().int().min(1).max(100).default(20),
    ...cursorField,
  }),
  data: z.object({ list: z.array(noteItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

/** Product codes (cpbm) an access record names: where the enterprise was opened. */
export const CPBM = { customer: 'khgl', chooser: 'kfxz' } as const;

export const accessLogCall = defineCall({
  path: 'esLog/api/enterprise/insertLog',
  summary: '访问记录：打开企业（企业信息由服务器补全）',
  access: 'signedIn',
  body: z.strictObject({
    enterprise_id: idSchema,
    cpbm: z.string().regex(/^[a-z0-9_]{1,20}$/, '产品编码有误'),
  }),
  data: z.null(),
});

// --- enterprise chooser (foundation.md §2) -----------------------------------------------------

export const CHOOSER_PAGE_SIZE = 20;

export const chooserItemSchema = z.object({
  id: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  qybm: z.string(),
  agency_id: z.number(),
  allocate_user: z.number().nullable(),
});
export type ChooserItem = z.infer<typeof chooserItemSchema>;

export const chooserListCall = defineCall({
  path: 'user/agency/selectChooserEnterprise',
  summary: '请选择企业：按名称或税号搜索（滚动加载）',
  access: 'signedIn',
  body: z.strictObject({
    pageNum: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(50).default(CHOOSER_PAGE_SIZE),
    qymc: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
    ...cursorField,
  }),
  data: z.object({ list: z.array(chooserItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

// --- import and export -------------------------------------------------------------------------

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_QUEUE = 'customer-import';

export const IMPORT_MSG = {
  noFile: '请上传文件',
  badType: '文件格式有误，请检查后再上传!',
  tooLarge: '上传文件大小不能超过 5MB!',
  tooMany: `单次最多导入${IMPORT_MAX_ROWS}条，请分批导入`,
  header: '表头与模板不一致，请下载最新模板填写，不要修改表头',
  empty: '文件中没有可导入的数据',
  oneFile: '当前限制上传 1 个文件',
  tooBig: '文件解压后超过 50MB，请删除无关的工作表和图片后再上传',
  busy: '本机构有文件正在解析，请稍候几秒再上传',
  result: (ok: number, fail: number, skip: number) => `导入成功${ok}条，失败${fail}条，未导入${skip}条`,
} as const;

export const ATTACHMENT_MSG = {
  badType: '仅支持 PDF、JPG、PNG、XLSX、DOCX 文件，且内容须与扩展名一致',
  tooLarge: '附件大小不能超过 10MB',
  missing: '请选择要上传的附件',
} as const;

/** Plain routes (multipart uploads and file downloads), served beside the JSON calls. */
export const CUSTOMER_FILES = {
  importUpload: 'user/agency/importAgencyEnterprise',
  importTemplate: 'user/agency/enterpriseTemplateExport',
  importFailList: 'user/agency/exportImportFailList',
  pwdUpload: 'user/agency/importPassword',
  pwdTemplate: 'user/agency/pwdTemplateExport',
  pwdFailList: 'user/agency/exportPwdFailList',
  export: 'user/agency/exportAgencyEnterprise',
  attachmentUpload: 'user/agency/uploadEnterpriseAttachment',
  attachmentDownload: 'files/attachment',
} as const;

/** Columns of the import template, in order; * marks required ones. */
export const IMPORT_COLUMNS = [
  '企业名称*',
  '企业税号*',
  '企业性质',
  '所属省份',
  '所属地市',
  '所属区县',
  '详细地址',
  '开票分机号',
  '客户等级',
  '标签',
  '负责人手机号',
  '联系人',
  '联系人手机',
  '备注',
] as const;

/** Columns of the credentials template (importPassword); rows are matched by tax number. */
export const PWD_IMPORT_COLUMNS = [
  '企业税号*',
  '电子税务局账号',
  '电子税务局密码',
  '登录身份',
  '个税登录方式',
  '个税实名账号',
  '个税登录密码',
  '个税申报密码',
  '代理登录账号',
  '代理登录密码',
  '代理机构税号',
] as const;

export const importResultSchema = z.object({
  successNum: z.number(),
  failNum: z.number(),
  /** Rows valid but not imported (the licensed number of customers was reached). */
  unExport: z.number(),
  /** Key of the failure file ('' when every row was imported). */
  redisKey: z.string(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const importStartSchema = z.object({ jobId: z.number(), total: z.number() });

export const importProgressCall = defineCall({
  path: 'user/agency/importAgencyEnterpriseProgress',
  summary: '导入客户：进度与结果',
  access: 'customer:import',
  body: z.strictObject({ jobId: idSchema }),
  data: z.object({
    state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
    total: z.number(),
    done: z.number(),
    result: importResultSchema.nullable(),
    error: z.string().nullable(),
    /** Its worker stopped (a restart or crash) and the job waits to be taken again: it resumes by itself. */
    interrupted: z.boolean(),
  }),
});

export const pwdImportResultSchema = z.object({ successNum: z.number(), failNum: z.number(), redisKey: z.string() });

export const deleteAttachmentCall = defineCall({
  path: 'user/agency/deleteEnterpriseAttachment',
  summary: '我的客户：删除附件',
  access: 'customer:edit',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

/** Push payload type of import progress (the message channel's `push`). */
export const IMPORT_PUSH_TYPE = 'customer-import';
