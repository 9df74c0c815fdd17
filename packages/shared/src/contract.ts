import { z } from 'zod';
import { defineCall } from './call.js';
import { AMOUNT_RE } from './contract-template.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { normalizeTaxNumber, stripSpaces } from './validators.js';

/**
 * Contracts (business.md §3 contract status item and reminder settings, §4 contract actions and warning
 * levels, §7 contracts and special permissions, §8 contract status warnings): numbering, create from a
 * template, save, view, renew, terminate, delete and recover, batch actions, the status of an
 * enterprise's contracts with its warnings, reminder settings per source and special permissions.
 * Money on the wire is yuan strings with two decimals ("1234.50"); the server counts in integer fen
 * (yuanToFen / fenToYuan of contract-template.ts).
 */

// --- money -------------------------------------------------------------------------------------

const yuanSchema = (label: string) =>
  z
    .string({ error: `请输入${label}` })
    .trim()
    .min(1, `请输入${label}`)
    .max(10, '合同金额长度不能超过10位')
    .regex(AMOUNT_RE, '请输入正确的合同金额');

// --- dictionaries ------------------------------------------------------------------------------

/** htzt: the stored contract states (schema/contract.ts). 到期 is derived from the end date. */
export const HTZT_NAMES: Readonly<Record<string, string>> = {
  '1': '待提交',
  '2': '执行中',
  '3': '已终止',
  '0': '已删除',
};

/** The list's status filter: the stored states plus 已到期 and 即将到期 (in force, by end date). */
export const CONTRACT_STATUS_FILTERS = [
  { value: '1', label: '待提交' },
  { value: '2', label: '执行中' },
  { value: 'expiring', label: '即将到期' },
  { value: 'expired', label: '已到期' },
  { value: '3', label: '已终止' },
  { value: '0', label: '已删除' },
] as const;
export type ContractStatusFilter = (typeof CONTRACT_STATUS_FILTERS)[number]['value'];

/** Billing cycle in months; 0 bills the whole term once. */
export const PAY_CYCLES = [
  { value: 1, label: '按月' },
  { value: 3, label: '按季' },
  { value: 6, label: '按半年' },
  { value: 12, label: '按年' },
  { value: 0, label: '一次性' },
] as const;
export const PAY_CYCLE_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  PAY_CYCLES.map((c) => [c.value, c.label]),
);

export const CONTRACT_PAGE_SIZES = [20, 50, 100, 500] as const;
export const CONTRACT_BATCH_MAX = 500;
export const CONTRACT_LINES_MAX = 50;

export const CONTRACT_MSG = {
  saved: '保存成功',
  submitted: '提交成功',
  renewed: '续签成功',
  terminated: '终止成功',
  deleted: '删除成功',
  recovered: '恢复成功',
  notFound: '合同不存在或无权访问',
  noEdit: '您没有修改他人合同的权限',
  noCustomers: '未找到符合权限的客户',
  numberTaken: '合同编号已存在',
  chooseContract: '请选择合同',
  chooseEnterprise: '请选择企业',
  endBeforeStart: '服务结束日期不能早于开始日期',
  termTooLong: '服务期不能超过10年',
  discountTooHigh: '合同优惠不能大于合同总价',
  lineDiscountTooHigh: '优惠金额不能大于单价',
  serviceRepeat: '服务项目不可重复',
  onlyDraftEdit: '只有待提交的合同可以修改',
  onlyDraftSubmit: '只有待提交的合同可以提交',
  onlyActiveEnd: '只有执行中的合同可以终止',
  onlyActiveRenew: '只有执行中的合同可以续签',
  alreadyRenewed: '该合同已续签，请勿重复续签',
  renewStart: '续签合同的开始日期须晚于原合同的开始日期',
  onlyDeletable: '执行中的合同不能删除，请先终止',
  onlyDeleted: '只有已删除的合同可以恢复',
  endReason: '请输入终止原因',
  endDateRange: '终止日期须在合同服务期内',
  userNotMember: '合同负责人须为本机构员工',
} as const;

// --- warnings (business.md §4, §8, §9) ---------------------------------------------------------

export const CONTRACT_WARNING = {
  both: '合同已欠费/到期，请及时续费',
  arrears: '合同已欠费，请及时续费',
  expired: '合同已到期，请及时续费',
  noContract: '企业无有效合同，请及时创建合同',
  /** Not yet expired but within the reminder days (decision: the spec's text says 已到期 only after the end). */
  expiring: (days: number) => `合同将于${days}天后到期，请及时续费`,
} as const;

/** Reminder sources ly: where a warning is shown and, at level 2, what it blocks. */
export const REMINDER_SOURCES = [
  { ly: 'kh', label: '客户管理', blocks: '登录电子税务局' },
  { ly: 'sb', label: '申报', blocks: '报税检查' },
  { ly: 'fp', label: '发票', blocks: '开票（发票模块上线后生效）' },
  { ly: 'jz', label: '记账', blocks: '记账（记账模块上线后生效）' },
] as const;
export type ReminderSource = (typeof REMINDER_SOURCES)[number]['ly'];
export const REMINDER_LY = REMINDER_SOURCES.map((s) => s.ly) as [ReminderSource, ...ReminderSource[]];

/** Warning levels: 0 off, 1 warn only, 2 warn and block. */
export const WARNING_LEVELS = [
  { value: 0, label: '关闭' },
  { value: 1, label: '仅提醒' },
  { value: 2, label: '提醒并限制操作' },
] as const;

export interface ReminderSetting {
  qf: number;
  dq: number;
  wyxht: number;
  /** Warn about arrears from this many months in arrears. */
  qfyf: number;
  /** Warn about expiry from this many days before the end date. */
  dqts: number;
}

/** What a source does when the agency has not set it: the client book warns, the others stay quiet. */
export const REMINDER_DEFAULTS: Readonly<Record<ReminderSource, ReminderSetting>> = {
  kh: { qf: 1, dq: 1, wyxht: 1, qfyf: 1, dqts: 30 },
  sb: { qf: 0, dq: 0, wyxht: 0, qfyf: 1, dqts: 30 },
  fp: { qf: 0, dq: 0, wyxht: 0, qfyf: 1, dqts: 30 },
  jz: { qf: 0, dq: 0, wyxht: 0, qfyf: 1, dqts: 30 },
};

/** The contract status item of one enterprise (business.md §3). */
export const contractStatusItemSchema = z.object({
  aeiId: z.number(),
  /** '0' arrears: a period that fell due before today is not fully paid; '1' otherwise. */
  sfstatus: z.enum(['0', '1']),
  /** '1' the latest in-force contract ended before today. */
  sfdq: z.enum(['0', '1']),
  /** '3' no in-force contract covers today; '2' one does. */
  htstatus: z.enum(['2', '3']),
  /** Days from today to the latest in-force contract's end date (negative once past); null without one. */
  dqts: z.number().nullable(),
  /** Months in arrears: whole calendar months since the oldest unpaid due date (0 in its first month). */
  qfys: z.number(),
  /** End date of the latest in-force contract. */
  endDate: z.string().nullable(),
});
export type ContractStatusItem = z.infer<typeof contractStatusItemSchema>;

export interface ContractWarningResult {
  warning: string | null;
  /** The highest level of the conditions that fired: 0 none, 1 warn, 2 warn and block. */
  level: number;
}

/**
 * The warning of one enterprise for one source (business.md §8): arrears from qfyf months (qf level),
 * expiry from dqts days before the end (dq level), no valid contract (wyxht level). Arrears and expiry
 * together give the combined text. An expired contract is an expiry, not "no valid contract".
 */
export function contractWarningOf(s: ContractStatusItem, set: ReminderSetting): ContractWarningResult {
  const arrears = set.qf > 0 && s.sfstatus === '0' && s.qfys >= Math.max(1, set.qfyf);
  const expiry = set.dq > 0 && s.dqts !== null && s.dqts <= set.dqts;
  const none = set.wyxht > 0 && s.htstatus === '3' && !(expiry && s.sfdq === '1');
  let warning: string | null = null;
  let level = 0;
  if (arrears && expiry) {
    warning = s.sfdq === '1' ? CONTRACT_WARNING.both : CONTRACT_WARNING.arrears;
    level = Math.max(set.qf, set.dq);
  } else if (arrears) {
    warning = CONTRACT_WARNING.arrears;
    level = set.qf;
  } else if (expiry) {
    warning = s.sfdq === '1' ? CONTRACT_WARNING.expired : CONTRACT_WARNING.expiring(s.dqts ?? 0);
    level = set.dq;
  }
  if (none && (warning === null || s.sfdq !== '1')) {
    if (warning === null) warning = CONTRACT_WARNING.noContract;
    level = Math.max(level, set.wyxht);
  }
  return { warning, level };
}

// --- shared pieces -----------------------------------------------------------------------------

const idSchema = z.number().int().positive();
const idsSchema = z
  .array(idSchema)
  .min(1, CONTRACT_MSG.chooseContract)
  .max(CONTRACT_BATCH_MAX, `一次最多操作${CONTRACT_BATCH_MAX}份合同`);
const dateSchema = (label: string) =>
  z
    .string({ error: `请选择${label}` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `请选择${label}`)
    .refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `${label}不是有效日期`,
    );

const paging = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (CONTRACT_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50、100或500')
    .default(20),
  ...cursorField,
};

/** The agency id the original client sends; taken from the session, a different one is refused (404). */
const sentAgency = {
  agencyId: z.number().int().positive().optional(),
  agency_id: z.number().int().positive().optional(),
};

// --- numbering ---------------------------------------------------------------------------------

export const createContractNoCall = defineCall({
  path: 'user/contract/createContractNoNew',
  summary: '合同：生成新合同编号（本机构按年连续，如 HT2026000123）',
  access: 'contract:add',
  body: z.strictObject({}),
  data: z.object({ contractNo: z.string() }),
});

// --- save, view --------------------------------------------------------------------------------

export const contractLineInputSchema = z.strictObject({
  serviceId: z.number({ error: '请选择服务项目' }).int().positive('请选择服务项目'),
  isGive: z.union([z.literal(0), z.literal(1)]).default(0),
  price: yuanSchema('单价'),
  discount: yuanSchema('优惠金额').default('0.00'),
});
export type ContractLineInput = z.input<typeof contractLineInputSchema>;

const contractFields = {
  /** Left out: the server gives the next number. */
  contractNo: z
    .string()
    .transform(stripSpaces)
    .pipe(
      z
        .string()
        .max(30, '合同编号不能超过30个字符')
        .regex(/^[A-Za-z0-9-]*$/, '合同编号只能包含字母、数字和-'),
    )
    .optional(),
  aeiId: z.number({ error: '请选择企业' }).int().positive('请选择企业'),
  templateId: idSchema.nullable().default(null),
  /** The owner; the creator when left out. Naming another member needs to be allowed to edit theirs. */
  contractUserId: idSchema.optional(),
  signDate: dateSchema('签订日期'),
  startDate: dateSchema('服务开始日期'),
  endDate: dateSchema('服务结束日期'),
  payCycle: z.union([z.literal(0), z.literal(1), z.literal(3), z.literal(6), z.literal(12)], {
    error: '请选择付款周期',
  }),
  /** Contract-level discount off the lines' total. */
  discount: yuanSchema('合同优惠').default('0.00'),
  remark: z.string().trim().max(500, '备注不能超过500个字符').default(''),
  lines: z
    .array(contractLineInputSchema)
    .min(1, '请至少添加一项服务')
    .max(CONTRACT_LINES_MAX, `服务项目最多${CONTRACT_LINES_MAX}项`)
    .refine((l) => new Set(l.map((x) => x.serviceId)).size === l.length, CONTRACT_MSG.serviceRepeat),
};

export const saveContractCall = defineCall({
  path: 'user/contractV2/saveContractInfoV3',
  summary: '合同：新增或修改（待提交的合同；submit 为 true 时保存并提交生效）',
  access: 'contract:add',
  body: z.strictObject({
    /** Present: edit that draft (needs 编辑合同); absent: a new contract. */
    id: idSchema.optional(),
    ...contractFields,
    submit: z.boolean().default(false),
  }),
  data: z.object({ id: z.number(), contractNo: z.string() }),
});
export type SaveContractBody = z.input<typeof saveContractCall.body>;

export const contractLineSchema = z.object({
  serviceId: z.number().nullable(),
  serviceName: z.string(),
  jobType: z.string(),
  isGive: z.number(),
  price: z.string(),
  discount: z.string(),
  nowPrice: z.string(),
});
export type ContractLine = z.infer<typeof contractLineSchema>;

export const contractItemSchema = z.object({
  id: z.number(),
  contractNo: z.string(),
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  templateId: z.number().nullable(),
  contractUserId: z.number(),
  contractUserName: z.string(),
  htzt: z.string(),
  /** The state in words: 待提交, 执行中, 即将到期 (in force, within 30 days), 已到期, 已终止, 已删除. */
  statusText: z.string(),
  signDate: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  payCycle: z.number(),
  totalPrice: z.string(),
  discount: z.string(),
  amount: z.string(),
  paid: z.string(),
  /** Days from today to the end date, for contracts in force. */
  dqts: z.number().nullable(),
  renewedFromId: z.number().nullable(),
  /** Set when a renewal of this contract exists. */
  renewedById: z.number().nullable(),
  endReason: z.string(),
  remark: z.string(),
  serviceNames: z.string(),
  /** The client-book warning (source kh) of the contract's enterprise, for the list's warning column. */
  warning: z.string().nullable(),
  /** Whether the caller may change it (own data scope, or special permission htsz edit). */
  canEdit: z.boolean(),
  createdAt: z.string(),
});
export type ContractItem = z.infer<typeof contractItemSchema>;

export const receivablePeriodSchema = z.object({
  periodNo: z.number(),
  periodStart: z.string(),
  periodEnd: z.string(),
  dueDate: z.string(),
  amount: z.string(),
  paid: z.string(),
});

export const contractDetailSchema = contractItemSchema.extend({
  lines: z.array(contractLineSchema),
  receivables: z.array(receivablePeriodSchema),
});
export type ContractDetail = z.infer<typeof contractDetailSchema>;

export const contractInfoCall = defineCall({
  path: 'user/contractV2/getContractInfoNew',
  summary: '合同：详情（服务项目与应收计划）',
  access: 'contract:list:view',
  body: z.strictObject({ id: idSchema }),
  data: contractDetailSchema,
});

// --- list --------------------------------------------------------------------------------------

export const contractFilterSchema = z.strictObject({
  contractNo: z.string().trim().max(30, '合同编号不能超过30个字符').optional(),
  /** Enterprise name or tax number, any part. */
  keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
  aeiId: idSchema.optional(),
  status: z.enum(['1', '2', '3', '0', 'expiring', 'expired']).optional(),
  contractUserId: idSchema.optional(),
  /** Contracts whose service period overlaps [periodFrom, periodTo]. */
  periodFrom: dateSchema('服务期开始').optional(),
  periodTo: dateSchema('服务期结束').optional(),
  /** In force and ending within this many days from today. */
  expireDays: z.number().int().min(0, '到期天数不能为负数').max(3650, '到期天数不能超过3650').optional(),
});
export type ContractFilter = z.input<typeof contractFilterSchema>;

export const contractListCall = defineCall({
  path: 'user/contract/getContractListNew',
  summary: '合同列表（筛选、分页；按数据权限与合同特殊权限）',
  access: 'contract:list:view',
  body: contractFilterSchema.extend(paging),
  data: z.object({ list: z.array(contractItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const contractListByEnterpriseCall = defineCall({
  path: 'user/contract/getContractListByAgencyEnterpriseId',
  summary: '合同：某企业的合同（按数据权限与合同特殊权限）',
  access: 'contract:list:view',
  body: z.strictObject({ aeiId: idSchema, ...sentAgency }),
  data: z.array(contractItemSchema),
});

export const contractByQyshCall = defineCall({
  path: 'user/contract/getContractInfoByAgencyAndQyshNew',
  summary: '合同：按税号查企业的合同（406 表示没有）',
  access: 'contract:list:view',
  body: z.strictObject({
    qysh: z.string().transform(normalizeTaxNumber).pipe(z.string().min(6, '请输入企业税号').max(20, '税号为6-20位')),
    ...sentAgency,
  }),
  data: z.array(contractItemSchema),
});

export const contractEnterpriseItemSchema = z.object({ id: z.number(), qymc: z.string(), qysh: z.string() });

export const contractEnterprisesCall = defineCall({
  path: 'user/contract/getContractEnterpriseList',
  summary: '合同：可签合同的企业（数据权限内；406 未找到符合权限的客户）',
  access: 'contract:list:view',
  body: z.strictObject({ keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional() }),
  data: z.array(contractEnterpriseItemSchema),
});

export const contractOwnersCall = defineCall({
  path: 'user/contract/getContractUsers',
  summary: '合同：可选的合同负责人（本机构员工）',
  access: 'contract:list:view',
  body: z.strictObject({}),
  data: z.array(z.object({ userId: z.number(), hymc: z.string() })),
});

// --- actions -----------------------------------------------------------------------------------

export const renewContractCall = defineCall({
  path: 'user/contract/extensionContractNew',
  summary: '合同：续签（生成新合同并生效，自带应收计划）',
  access: 'contract:renew',
  body: z.strictObject({
    /** The contract renewed. */
    id: idSchema,
    contractNo: contractFields.contractNo,
    signDate: contractFields.signDate,
    startDate: contractFields.startDate,
    endDate: contractFields.endDate,
    payCycle: contractFields.payCycle,
    discount: contractFields.discount,
    remark: contractFields.remark,
    lines: contractFields.lines,
  }),
  data: z.object({ id: z.number(), contractNo: z.string() }),
});
export type RenewContractBody = z.input<typeof renewContractCall.body>;

/** type 0 delete (recoverable), type 3 terminate (with a reason and the last day of service). */
export const updateContractStatusCall = defineCall({
  path: 'user/contract/updateContractStatus',
  summary: '合同：删除（type 0）或终止（type 3）',
  access: 'contract:list:view',
  body: z.strictObject({
    id: idSchema,
    type: z.enum(['0', '3'], { error: '请选择操作类型' }),
    reason: z.string().trim().max(200, '终止原因不能超过200个字符').optional(),
    /** The last day of service on termination; today when left out. */
    endDate: dateSchema('终止日期').optional(),
  }),
  data: z.null(),
});

export const recoverContractCall = defineCall({
  path: 'user/contract/recoverContract',
  summary: '合同：恢复已删除的合同',
  access: 'contract:recover',
  body: z.strictObject({ ids: idsSchema }),
  data: z.object({ count: z.number() }),
});

export const batchSubmitContractCall = defineCall({
  path: 'user/contract/batchSubmitContract',
  summary: '合同：批量提交（待提交 → 执行中，生成应收计划）',
  access: 'contract:edit',
  body: z.strictObject({ ids: idsSchema }),
  data: z.object({ count: z.number() }),
});

export const batchEndContractCall = defineCall({
  path: 'user/contract/batchEndContract',
  summary: '合同：批量终止',
  access: 'contract:end',
  body: z.strictObject({
    ids: idsSchema,
    reason: z
      .string({ error: CONTRACT_MSG.endReason })
      .trim()
      .min(1, CONTRACT_MSG.endReason)
      .max(200, '终止原因不能超过200个字符'),
  }),
  data: z.object({ count: z.number() }),
});

export const batchDeleteContractCall = defineCall({
  path: 'user/contract/batchDeleteContract',
  summary: '合同：批量删除（可恢复）',
  access: 'contract:delete',
  body: z.strictObject({ ids: idsSchema }),
  data: z.object({ count: z.number() }),
});

// --- status and warnings -----------------------------------------------------------------------

export const contractStatusCall = defineCall({
  path: 'user/contract/getContractContractStatusByAeiId',
  summary: '合同状态：企业的欠费、到期、有效合同，及按提醒设置的提醒',
  access: 'signedIn',
  body: z.strictObject({ aeiId: idSchema, ly: z.enum(REMINDER_LY).default('kh') }),
  data: contractStatusItemSchema.extend({ warning: z.string().nullable(), level: z.number() }),
});

// --- reminder settings -------------------------------------------------------------------------

const levelSchema = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: '提醒级别须为0、1或2' });
const settingShape = Object.fromEntries(
  REMINDER_LY.flatMap((ly) => [
    [`${ly}_qf`, levelSchema],
    [`${ly}_dq`, levelSchema],
    [`${ly}_wyxht`, levelSchema],
    [`${ly}_qfyf`, z.number().int().min(1, '欠费月数须为1-36').max(36, '欠费月数须为1-36')],
    [`${ly}_dqts`, z.number().int().min(0, '到期提醒天数须为0-365').max(365, '到期提醒天数须为0-365')],
  ]),
) as Record<string, z.ZodType<number>>;

/** The flat settings object of every source: kh_qf, kh_dq, kh_wyxht, kh_qfyf, kh_dqts, sb_qf ... */
export const reminderSettingsSchema = z.object(settingShape);
export type ReminderSettings = Record<string, number>;

export function reminderSettingOf(all: ReminderSettings, ly: ReminderSource): ReminderSetting {
  const d = REMINDER_DEFAULTS[ly];
  return {
    qf: all[`${ly}_qf`] ?? d.qf,
    dq: all[`${ly}_dq`] ?? d.dq,
    wyxht: all[`${ly}_wyxht`] ?? d.wyxht,
    qfyf: all[`${ly}_qfyf`] ?? d.qfyf,
    dqts: all[`${ly}_dqts`] ?? d.dqts,
  };
}

export const getReminderSettingsCall = defineCall({
  path: 'user/contract/getContractReminderSetting',
  summary: '合同提醒设置：各来源的欠费、到期、无有效合同提醒级别与阈值',
  access: 'contract:setting:edit',
  body: z.strictObject({}),
  data: reminderSettingsSchema,
});

export const saveReminderSettingsCall = defineCall({
  path: 'user/contract/saveContractReminderSetting',
  summary: '合同提醒设置：保存（仅管理员）',
  access: 'contract:setting:edit',
  body: z.strictObject(Object.fromEntries(Object.entries(settingShape).map(([k, v]) => [k, v.optional()]))),
  data: z.null(),
});

// --- special permissions (business.md §6-§7) ---------------------------------------------------

export const SPECIAL_AREAS = [
  { area: 'htsz', label: '合同', meaning: '查看或修改他人负责的合同' },
  { area: 'htsf', label: '收费', meaning: '查看或登记他人合同的应收与收款' },
  { area: 'khsz', label: '客户', meaning: '查看或修改他人负责的客户' },
  { area: 'general', label: '通用', meaning: '以上各项的默认权限' },
] as const;
export type SpecialArea = (typeof SPECIAL_AREAS)[number]['area'];
/** '' none, 'view' see others' records, 'edit' see and change them. */
export const SPECIAL_LEVELS = [
  { value: '', label: '无' },
  { value: 'view', label: '查看' },
  { value: 'edit', label: '查看和修改' },
] as const;
const specialLevel = z.enum(['', 'view', 'edit'], { error: '权限须为无、查看或查看和修改' });
export type SpecialLevel = z.infer<typeof specialLevel>;

const lookupBody = z.strictObject({
  ...sentAgency,
  /** Whose permissions: the caller when left out; someone else needs 特殊权限. */
  userId: idSchema.optional(),
  userName: z.string().max(50).optional(),
  isAdmin: z.union([z.string(), z.number(), z.boolean()]).optional(),
});

export const specialMemberSchema = z.object({
  userId: z.number(),
  hymc: z.string(),
  phone: z.string(),
  departmentName: z.string(),
  isAdmin: z.boolean(),
  htsz: z.string(),
  htsf: z.string(),
  khsz: z.string(),
  general: z.string(),
});
export type SpecialMember = z.infer<typeof specialMemberSchema>;

export const getSpecialPermissionCall = defineCall({
  path: 'user/specialPermission/getSpecialPermission',
  summary: '特殊权限：本机构员工及其各领域特殊权限（userName 筛选）',
  access: 'contract:special:edit',
  body: lookupBody,
  data: z.array(specialMemberSchema),
});

const effective = z.object({
  /** The level in force for the area: its own or, when none, the general one; administrators 'edit'. */
  level: z.string(),
  canView: z.boolean(),
  canEdit: z.boolean(),
});

export const getSpecialPermissionByUserIdCall = defineCall({
  path: 'user/specialPermission/getSpecialPermissionByUserId',
  summary: '特殊权限：某员工（默认本人）各领域的特殊权限',
  access: 'signedIn',
  body: lookupBody,
  data: z.object({ htsz: effective, htsf: effective, khsz: effective, general: effective }),
});

export const getSpecialPermissionHtszCall = defineCall({
  path: 'user/specialPermissionHtsz/getSpecialPermissionByUserIdHtsz',
  summary: '特殊权限（合同）：能否查看、修改某员工负责的合同',
  access: 'signedIn',
  body: lookupBody.extend({ contractUserId: idSchema }),
  data: effective,
});

export const getSpecialPermissionKhszCall = defineCall({
  path: 'user/specialPermissionKhsz/getSpecialPermissionByUserIdKhsz',
  summary: '特殊权限（客户）',
  access: 'signedIn',
  body: lookupBody,
  data: effective,
});

export const getSpecialPermissionHtsfCall = defineCall({
  path: 'user/specialPermissionHtsf/getSpecialPermissionByUserIdHtsf',
  summary: '特殊权限（收费）',
  access: 'signedIn',
  body: lookupBody,
  data: effective,
});

const saveBody = z.strictObject({
  ...sentAgency,
  userIds: z.array(idSchema).min(1, '请选择员工').max(CONTRACT_BATCH_MAX),
  level: specialLevel,
});

export const saveSpecialPermissionCall = defineCall({
  path: 'user/specialPermission/saveSpecialPermission',
  summary: '特殊权限（通用）：保存（仅管理员）',
  access: 'contract:special:edit',
  body: saveBody,
  data: z.object({ count: z.number() }),
});
export const saveSpecialPermissionHtszCall = defineCall({
  path: 'user/specialPermissionHtsz/saveSpecialPermissionHtsz',
  summary: '特殊权限（合同）：保存（仅管理员）',
  access: 'contract:special:edit',
  body: saveBody,
  data: z.object({ count: z.number() }),
});
export const saveSpecialPermissionKhszCall = defineCall({
  path: 'user/specialPermissionKhsz/saveSpecialPermissionKhsz',
  summary: '特殊权限（客户）：保存（仅管理员）',
  access: 'contract:special:edit',
  body: saveBody,
  data: z.object({ count: z.number() }),
});
export const saveSpecialPermissionHtsfCall = defineCall({
  path: 'user/specialPermissionHtsf/saveSpecialPermissionHtsf',
  summary: '特殊权限（收费）：保存（仅管理员）',
  access: 'contract:special:edit',
  body: saveBody,
  data: z.object({ count: z.number() }),
});
