import { z } from 'zod';
import { defineCall } from './call.js';
import { AMOUNT_RE } from './contract-template.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { checkMobile, normalizeTaxNumber } from './validators.js';

/**
 * Opportunities (商机, business.md §1 "a sales opportunity pool with follow-up logs, transfer and release",
 * §4 opportunity actions, §7 changeBusiOppFollowupBy, §8 toasts). An opportunity belongs to one staff
 * member (its owner) or to nobody — then it is in the agency's public pool (公海). Stages are the
 * agency's own list (ordered; one kind each: open, won, lost). A won opportunity converts once into a
 * client of the client book and a draft contract prefilled from a contract template.
 * Money on the wire is yuan strings with two decimals; the server counts integer fen.
 */

// --- dictionaries ------------------------------------------------------------------------------

export const OPP_SOURCES = [
  '电话咨询',
  '朋友介绍',
  '老客户转介绍',
  '网络推广',
  '上门拜访',
  '工商注册转化',
  '其他',
] as const;
export const OPP_FOLLOW_WAYS = ['电话', '微信', '上门拜访', '到店面谈', '短信', '其他'] as const;

/** A stage's kind: open stages are the pipeline; won (签约) allows converting; lost (输单) ends it. */
export const OPP_STAGE_KINDS = [
  { value: 'open', label: '进行中' },
  { value: 'won', label: '赢单' },
  { value: 'lost', label: '输单' },
] as const;
export type OppStageKind = (typeof OPP_STAGE_KINDS)[number]['value'];

/** The stages a new agency starts with. */
export const DEFAULT_OPP_STAGES: readonly { name: string; kind: OppStageKind }[] = [
  { name: '初步接触', kind: 'open' },
  { name: '需求确认', kind: 'open' },
  { name: '报价', kind: 'open' },
  { name: '签约', kind: 'won' },
  { name: '输单', kind: 'lost' },
];

/** Transfer log kinds. */
export const OPP_TRANSFER_KINDS: Readonly<Record<string, string>> = {
  create: '新建',
  transfer: '转移',
  release: '释放到公海',
  auto: '超期自动释放',
  claim: '从公海领取',
  handover: '离职交接',
  remove: '员工移除释放',
};

export const OPP_PAGE_SIZES = [20, 50, 100] as const;
export const OPP_BATCH_MAX = 200;
export const OPP_STAGES_MAX = 20;
/** Automatic release: 0 off, otherwise 1-365 days without follow-up. */
export const OPP_AUTO_RELEASE_MAX = 365;

/** The remembered last query of the list page (getMemory/updateMemory). */
export const OPP_MEMORY_KEY = '/customer/swgl/sjgl';

export const OPP_MSG = {
  saved: '保存成功',
  added: '新增成功',
  updated: '修改成功',
  deleted: '删除成功',
  followSaved: '跟进记录已保存',
  transferred: '转移成功',
  released: '释放成功',
  claimed: '领取成功',
  converted: '转化成功',
  stageChanged: '阶段已更新',
  notFound: '商机不存在或无权访问',
  notInPool: '商机不在公海中，可能已被他人领取',
  inPool: '商机已在公海中',
  alreadyConverted: '该商机已转化为客户，不能再修改',
  notWon: '只有赢单阶段的商机可以转为客户',
  followNotFound: '跟进记录不存在',
  followNotOwn: '只能删除自己的跟进记录',
  userNotMember: '负责人须为本机构员工',
  sameOwner: '商机已属于该员工',
  noEdit: '您没有修改该商机的权限',
  chooseOpp: '请选择商机',
  stageNotFound: '商机阶段不存在',
  stageInUse: (name: string) => `阶段「${name}」下还有商机，不能删除`,
  stageRepeat: '阶段名称不能重复',
  stageKinds: '至少需要一个进行中的阶段和一个赢单阶段',
  templateNotFound: '合同模板不存在或已停用',
  serviceNotFound: '意向服务不存在',
  releaseSoon: (name: string, days: number) => `商机「${name}」已${days - 1}天未跟进，明天将自动释放到公海，请及时跟进`,
  autoReleased: (name: string, days: number) => `商机「${name}」已${days}天未跟进，已自动释放到公海`,
  followDue: (name: string, at: string, contact: string) =>
    `商机「${name}」（联系人 ${contact}）约定今天跟进（${at}），请及时联系`,
  transferredToYou: (name: string, by: string) => `${by}将商机「${name}」转给了您，请及时跟进`,
  /** A new opportunity for a company the pipeline already has (saveBusiOpp without confirmDuplicate). */
  duplicate: (name: string) => `该企业已有商机「${name}」，确定还要新增吗？`,
} as const;

/** The message centre labels of opportunity reminders (system reminders, link to the list). */
export const OPP_REMINDER_LABEL = '商机提醒';

// --- shared pieces -----------------------------------------------------------------------------

const idSchema = z.number().int().positive().max(2_147_483_647);
const idsSchema = z.array(idSchema).min(1, OPP_MSG.chooseOpp).max(OPP_BATCH_MAX, `一次最多操作${OPP_BATCH_MAX}个商机`);

const yuanSchema = z
  .string({ error: '请输入预计金额' })
  .trim()
  .max(12, '预计金额过大')
  .regex(AMOUNT_RE, '请输入正确的金额（最多两位小数）');

const dateSchema = (label: string) =>
  z
    .string({ error: `请选择${label}` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `请选择${label}`)
    .refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `${label}不是有效日期`,
    );

/** A follow-up time in China: 'YYYY-MM-DD HH:mm'. */
export const oppTimeSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/, '下次跟进时间格式为 YYYY-MM-DD HH:mm')
  .refine((v) => !Number.isNaN(Date.parse(`${v.replace(' ', 'T')}:00+08:00`)), '下次跟进时间不是有效时间');

const paging = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (OPP_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50或100')
    .default(20),
  ...cursorField,
};

// --- stages and setting ------------------------------------------------------------------------

export const oppStageSchema = z.object({ id: z.number(), name: z.string(), kind: z.string(), sort: z.number() });
export type OppStage = z.infer<typeof oppStageSchema>;

export const oppSettingSchema = z.object({ autoReleaseDays: z.number(), stages: z.array(oppStageSchema) });
export type OppSetting = z.infer<typeof oppSettingSchema>;

export const getOppSettingCall = defineCall({
  path: 'user/busiOpp/getBusiOppSetting',
  summary: '商机：阶段与自动释放设置',
  access: 'signedIn',
  body: z.strictObject({}),
  data: oppSettingSchema,
});

export const saveOppSettingCall = defineCall({
  path: 'user/busiOpp/saveBusiOppSetting',
  summary: '商机设置：阶段（顺序、改名、新增、删除未用的）与超期自动释放天数',
  access: 'opportunity:setting:edit',
  body: z.strictObject({
    autoReleaseDays: z
      .number({ error: '请输入自动释放天数' })
      .int('自动释放天数须为整数')
      .min(0, '自动释放天数不能为负数')
      .max(OPP_AUTO_RELEASE_MAX, `自动释放天数不能超过${OPP_AUTO_RELEASE_MAX}天`),
    /** In order; an id keeps (and renames) that stage, no id adds one; stages left out are deleted. */
    stages: z
      .array(
        z.strictObject({
          id: idSchema.optional(),
          name: z.string().trim().min(1, '请输入阶段名称').max(20, '阶段名称不能超过20个字符'),
          kind: z.enum(['open', 'won', 'lost'], { error: '请选择阶段类型' }),
        }),
      )
      .min(2, '至少需要两个阶段')
      .max(OPP_STAGES_MAX, `阶段最多${OPP_STAGES_MAX}个`)
      .refine((l) => new Set(l.map((s) => s.name)).size === l.length, OPP_MSG.stageRepeat)
      .refine((l) => l.some((s) => s.kind === 'open') && l.some((s) => s.kind === 'won'), OPP_MSG.stageKinds),
  }),
  data: oppSettingSchema,
});

// --- create, edit, view ------------------------------------------------------------------------

export const oppFields = {
  companyName: z.string().trim().min(1, '请输入公司名称').max(100, '公司名称不能超过100个字符'),
  contactName: z.string().trim().min(1, '请输入联系人').max(20, '联系人不能超过20个字符'),
  phone: z
    .string({ error: '请输入联系电话' })
    .trim()
    .superRefine((v, ctx) => {
      const msg = v === '' ? '请输入联系电话' : checkMobile(v);
      if (msg) ctx.addIssue({ code: 'custom', message: msg });
    }),
  source: z.enum(OPP_SOURCES, { error: '请选择商机来源' }),
  /** The agency's service items the client is interested in. */
  serviceIds: z.array(idSchema).max(20, '意向服务最多20项').default([]),
  expectAmount: yuanSchema.default('0.00'),
  stageId: idSchema.optional(),
  remark: z.string().trim().max(500, '备注不能超过500个字符').default(''),
};

/**
 * An opportunity of the agency for the same company (the name compared without spaces, case or the width
 * of brackets), still in the pipeline or converted — lost ones do not count. `canOpen`: the caller may
 * open it (their data scope, or the pool for pool viewers); others see its name, stage and owner only.
 */
export const oppDuplicateSchema = z.object({
  id: z.number(),
  companyName: z.string(),
  stageName: z.string(),
  /** '' when it is in the pool (公海). */
  ownerName: z.string(),
  inPool: z.boolean(),
  converted: z.boolean(),
  createdAt: z.string(),
  canOpen: z.boolean(),
});
export type OppDuplicate = z.infer<typeof oppDuplicateSchema>;
/** The data of saveBusiOpp's 409 refusal for a company already in the pipeline. */
export type OppDuplicateRefusal = { duplicates: OppDuplicate[] };

export const saveOppCall = defineCall({
  path: 'user/busiOpp/saveBusiOpp',
  summary:
    '商机：新增（负责人为本人）或修改（数据权限内、未转化的）；新增的企业已有商机时先以 409 返回已有的商机，确认后带 confirmDuplicate 再存',
  access: 'opportunity:add',
  body: z.strictObject({
    id: idSchema.optional(),
    ...oppFields,
    /** New ones: save even though the company already has an opportunity (the user saw the warning). */
    confirmDuplicate: z.boolean().default(false),
  }),
  data: z.object({ id: z.number() }),
  labels: { source: '商机来源' },
});
export type SaveOppBody = z.input<typeof saveOppCall.body>;

export const oppItemSchema = z.object({
  id: z.number(),
  companyName: z.string(),
  contactName: z.string(),
  phone: z.string(),
  source: z.string(),
  serviceIds: z.array(z.number()),
  serviceNames: z.string(),
  expectAmount: z.string(),
  stageId: z.number(),
  stageName: z.string(),
  stageKind: z.string(),
  ownerId: z.number().nullable(),
  ownerName: z.string(),
  remark: z.string(),
  /** Last follow-up, or when it got its current owner. */
  followedAt: z.string(),
  nextFollowAt: z.string().nullable(),
  followCount: z.number(),
  enterpriseId: z.number().nullable(),
  contractId: z.number().nullable(),
  releasedAt: z.string().nullable(),
  createdAt: z.string(),
  createdByName: z.string(),
});
export type OppItem = z.infer<typeof oppItemSchema>;

export const oppDetailCall = defineCall({
  path: 'user/busiOpp/selectBusiOppById',
  summary: '商机：详情（本人数据权限内，或公海中的）',
  access: 'signedIn',
  body: z.strictObject({ id: idSchema }),
  data: oppItemSchema,
});

// --- lists -------------------------------------------------------------------------------------

export const OPP_SORTS = [
  { value: 'created', label: '最新创建' },
  { value: 'followed', label: '最近跟进' },
  { value: 'amount', label: '预计金额' },
] as const;

export const oppFilterSchema = z.strictObject({
  /** Company, contact or phone, any part. */
  keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
  stageId: idSchema.optional(),
  source: z.enum(OPP_SOURCES).optional(),
  ownerId: idSchema.optional(),
  /** Next follow-up: overdue (before now), today, within 7 days. */
  due: z.enum(['overdue', 'today', 'week']).optional(),
  sort: z.enum(['created', 'followed', 'amount']).default('created'),
});
export type OppFilter = z.input<typeof oppFilterSchema>;

const listData = z.object({ list: z.array(oppItemSchema), total: z.number(), cursor: pageCursorsSchema });

export const oppListCall = defineCall({
  path: 'user/busiOpp/selectBusiOppList',
  summary: '商机列表（筛选、排序、分页；按数据权限，公海中的不在内）',
  access: 'opportunity:list:view',
  body: oppFilterSchema.extend(paging),
  data: listData,
  labels: { source: '商机来源' },
});

export const oppPoolListCall = defineCall({
  path: 'user/busiOpp/selectPoolList',
  summary: '公海：无负责人的商机（本机构全部）',
  access: 'opportunity:pool:view',
  body: oppFilterSchema.omit({ ownerId: true, due: true }).extend(paging),
  data: listData,
  labels: { source: '商机来源' },
});

export const oppOwnersCall = defineCall({
  path: 'user/busiOpp/getBusiOppUsers',
  summary: '商机：可选的负责人（本机构员工）',
  access: 'opportunity:list:view',
  body: z.strictObject({}),
  data: z.array(z.object({ userId: z.number(), hymc: z.string() })),
});

// --- follow-ups --------------------------------------------------------------------------------

export const oppFollowItemSchema = z.object({
  id: z.number(),
  content: z.string(),
  way: z.string(),
  nextFollowAt: z.string().nullable(),
  userId: z.number().nullable(),
  userName: z.string(),
  mine: z.boolean(),
  createdAt: z.string(),
});
export type OppFollowItem = z.infer<typeof oppFollowItemSchema>;

export const oppFollowListCall = defineCall({
  path: 'user/busiOpp/selectFollowupList',
  summary: '商机：跟进记录（新的在前）',
  access: 'signedIn',
  body: z.strictObject({ oppId: idSchema }),
  data: z.array(oppFollowItemSchema),
});

export const oppFollowSaveCall = defineCall({
  path: 'user/busiOpp/saveFollowup',
  summary: '商机：写跟进记录（可同时改阶段、约下次跟进时间）',
  access: 'opportunity:followup',
  body: z.strictObject({
    oppId: idSchema,
    content: z.string().trim().min(1, '请输入跟进内容').max(1000, '跟进内容不能超过1000个字符'),
    way: z.enum(OPP_FOLLOW_WAYS, { error: '请选择跟进方式' }),
    nextFollowAt: oppTimeSchema.nullable().default(null),
    stageId: idSchema.optional(),
  }),
  data: z.object({ id: z.number() }),
});
export type OppFollowBody = z.input<typeof oppFollowSaveCall.body>;

export const oppFollowDeleteCall = defineCall({
  path: 'user/busiOpp/deleteFollowup',
  summary: '商机：删除本人的跟进记录',
  access: 'opportunity:followup',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

export const oppStageCall = defineCall({
  path: 'user/busiOpp/updateBusiOppStage',
  summary: '商机：改阶段（记入跟进记录）',
  access: 'opportunity:followup',
  body: z.strictObject({ id: idSchema, stageId: idSchema }),
  data: z.null(),
});

// --- owner, transfer, pool ---------------------------------------------------------------------

export const oppTransferCall = defineCall({
  path: 'user/busiOpp/changeBusiOppFollowupBy',
  summary: '商机：更换负责人 / 转移给同事（记入转移记录，通知新负责人）',
  access: 'opportunity:transfer',
  body: z.strictObject({
    ids: idsSchema,
    userId: idSchema,
    reason: z.string().trim().max(200, '转移原因不能超过200个字符').default(''),
  }),
  data: z.object({ count: z.number() }),
});

export const oppReleaseCall = defineCall({
  path: 'user/busiOpp/releaseBusiOpp',
  summary: '商机：释放到公海',
  access: 'opportunity:release',
  body: z.strictObject({
    ids: idsSchema,
    reason: z.string().trim().max(200, '释放原因不能超过200个字符').default(''),
  }),
  data: z.object({ count: z.number() }),
});

export const oppClaimCall = defineCall({
  path: 'user/busiOpp/claimBusiOpp',
  summary: '公海：领取商机（成为负责人）',
  access: 'opportunity:pool:claim',
  body: z.strictObject({ ids: idsSchema }),
  data: z.object({ count: z.number() }),
});

export const oppPoolDeleteCall = defineCall({
  path: 'user/busiOpp/deletePoolBusiOpp',
  summary: '公海：删除商机（连同跟进与转移记录）',
  access: 'opportunity:pool:delete',
  body: z.strictObject({ ids: idsSchema }),
  data: z.object({ count: z.number() }),
});

export const oppDeleteCall = defineCall({
  path: 'user/busiOpp/deleteBusiOpp',
  summary: '商机：删除数据权限内未转化的商机',
  access: 'opportunity:delete',
  body: z.strictObject({ ids: idsSchema }),
  data: z.object({ count: z.number() }),
});

export const oppTransferItemSchema = z.object({
  id: z.number(),
  kind: z.string(),
  kindName: z.string(),
  fromName: z.string(),
  toName: z.string(),
  byName: z.string(),
  reason: z.string(),
  createdAt: z.string(),
});
export type OppTransferItem = z.infer<typeof oppTransferItemSchema>;

export const oppTransferListCall = defineCall({
  path: 'user/busiOpp/selectTransferList',
  summary: '商机：转移记录（新建、转移、释放、领取，新的在前）',
  access: 'signedIn',
  body: z.strictObject({ oppId: idSchema }),
  data: z.array(oppTransferItemSchema),
});

// --- convert -----------------------------------------------------------------------------------

export const oppConvertCall = defineCall({
  path: 'user/busiOpp/convertBusiOpp',
  summary: '商机：赢单转客户（进客户名册）并按合同模板生成待提交合同；重复提交只生成一次',
  access: 'opportunity:convert',
  body: z.strictObject({
    id: idSchema,
    qysh: z
      .string({ error: '请输入企业税号' })
      .transform(normalizeTaxNumber)
      .pipe(z.string().min(6, '请输入企业税号（6-20位）').max(20, '税号为6-20位')),
    templateId: idSchema,
    signDate: dateSchema('签订日期'),
    startDate: dateSchema('服务开始日期'),
    endDate: dateSchema('服务结束日期'),
    payCycle: z.union([z.literal(0), z.literal(1), z.literal(3), z.literal(6), z.literal(12)], {
      error: '请选择付款周期',
    }),
  }),
  data: z.object({
    enterpriseId: z.number(),
    contractId: z.number(),
    contractNo: z.string(),
    /** False when the opportunity had already been converted (the same client and contract). */
    created: z.boolean(),
  }),
});
export type OppConvertBody = z.input<typeof oppConvertCall.body>;
