import { z } from 'zod';
import { defineCall } from './call.js';
import { QYXZ_NAMES } from './customer.js';

/**
 * The client book against the bureau's registration, and the rest of the client book's calls (issue 19
 * points 1 and 2; business.md "Enterprises and agency"; docs/decisions/customer.md):
 * - 需更新: when tax data is collected (batch check, the 纳税人信息 tab) the bureau's registered name,
 *   taxpayer kind, region, legal representative and tax types are kept and compared with the book; the
 *   differences are listed and the bureau's values can be taken for one client or a batch;
 * - the 税局 password template, import and failure file (the e-tax login only);
 * - institution type (jglx), invoicing method (kpfs) per client and the agency's default;
 * - note drafts, clearing the remembered queries, and the agency's print settings.
 */

const idSchema = z.number().int().positive();
const idList = (max: number) =>
  z.array(idSchema, { error: '请选择客户' }).min(1, '请选择客户').max(max, `一次最多选择${max}个客户`);

export const MASTER_BATCH_MAX = 500;

/** The fields compared with the bureau, in the order shown. */
export const BUREAU_DIFF_FIELDS = [
  { value: 'qymc', label: '企业名称' },
  { value: 'qyxz', label: '纳税人类型' },
  { value: 'region', label: '所属地区' },
  { value: 'fddbrxm', label: '法定代表人' },
  { value: 'taxTypes', label: '登记税种' },
] as const;
export type BureauDiffField = (typeof BUREAU_DIFF_FIELDS)[number]['value'];
export const bureauFieldLabel = (f: string) => BUREAU_DIFF_FIELDS.find((x) => x.value === f)?.label ?? f;

export const MASTER_MSG = {
  needUpdateTag: '需更新',
  noDiff: '与税局登记信息一致',
  notChecked: '尚未采集税局登记信息（批量检查或查看税务数据后比对）',
  takeConfirm: (n: number) => `将用税局登记信息覆盖所选${n}个客户的企业名称、纳税人类型等信息，是否继续？`,
  nothingToTake: '所选客户与税局登记信息一致，无需更新',
  fddbrxmTooLong: '不能超过30个字符',
  taxTypesTooLong: '不能超过200个字符',
  jglxInvalid: '请选择正确的机构类型',
  kpfsInvalid: '请选择正确的开票方式',
  draftTooLong: '不能超过500个字符',
  printInvalid: '打印设置有误',
  noFile: '请选择要上传的文件',
} as const;

export const bureauDiffItemSchema = z.object({
  field: z.string(),
  label: z.string(),
  book: z.string(),
  bureau: z.string(),
  /** The values in words (纳税人类型 and 地区 as names). */
  bookText: z.string(),
  bureauText: z.string(),
});
export type BureauDiffItem = z.infer<typeof bureauDiffItemSchema>;

export const bureauDiffCall = defineCall({
  path: 'user/agency/queryEnterpriseBureauDiff',
  summary: '我的客户：与税局登记信息的差异（需更新）',
  access: 'customer:list:view',
  body: z.strictObject({ id: idSchema }),
  data: z.object({
    checkedAt: z.string().nullable(),
    needUpdate: z.boolean(),
    diffs: z.array(bureauDiffItemSchema),
    profile: z.object({ fddbrxm: z.string(), taxTypes: z.string(), kpfs: z.string(), jglx: z.string() }),
  }),
});

export const profileSaveCall = defineCall({
  path: 'user/agency/saveEnterpriseProfile',
  summary: '我的客户：法定代表人、登记税种',
  access: 'customer:edit',
  body: z.strictObject({
    id: idSchema,
    fddbrxm: z.string().trim().max(30, MASTER_MSG.fddbrxmTooLong),
    taxTypes: z.string().trim().max(200, MASTER_MSG.taxTypesTooLong),
  }),
  data: z.object({ needUpdate: z.boolean() }),
});

export const takeBureauCall = defineCall({
  path: 'user/agency/updateAgencyEnterpriseInfoQymcFroYjz',
  summary: '我的客户：按税局登记信息更新（单个或批量）',
  access: 'customer:edit',
  body: z.strictObject({ aeiIds: idList(MASTER_BATCH_MAX) }),
  data: z.object({ updated: z.number(), unchanged: z.number() }),
});

/** GET/POST download: the clients marked 需更新 the caller sees, one row per difference. */
export const MASTER_FILES = {
  needUpdateExport: 'user/agency/exportNeedUpdateAgencyEnterpriseInfo',
  shuiJuTemplate: 'user/agency/shuiJuPwdTemplateExport',
  shuiJuUpload: 'user/agency/importShuiJuPassword',
  shuiJuFailList: 'user/agency/exportShuiJuPassFailData',
} as const;

export const NEED_UPDATE_EXPORT_COLUMNS = [
  '企业名称',
  '企业税号',
  '差异项',
  '客户资料',
  '税局登记',
  '比对时间',
] as const;

/** Columns of the 税局 password template: the e-tax login only. */
export const SHUIJU_PWD_COLUMNS = ['企业税号*', '企业名称', '登录身份', '电子税务局账号', '电子税务局密码'] as const;

// --- institution type, invoicing method ------------------------------------------------------------

export const JGLX_OPTIONS = [
  { value: '1', label: '企业' },
  { value: '2', label: '个体工商户' },
  { value: '3', label: '事业单位' },
  { value: '4', label: '社会团体' },
  { value: '5', label: '民办非企业单位' },
  { value: '9', label: '其他组织' },
] as const;
const jglxSchema = z.enum(JGLX_OPTIONS.map((o) => o.value) as ['1', ...string[]], { error: MASTER_MSG.jglxInvalid });

export const jglxBatchCall = defineCall({
  path: 'user/agency/updateJglxManageV143',
  summary: '我的客户：批量设置机构类型',
  access: 'customer:edit',
  body: z.strictObject({ aeiIds: idList(MASTER_BATCH_MAX), jglx: jglxSchema }),
  data: z.object({ updated: z.number() }),
});

export const jglxOneCall = defineCall({
  path: 'user/agency/updateJglxManageV131',
  summary: '我的客户：设置机构类型',
  access: 'customer:edit',
  body: z.strictObject({ id: idSchema, jglx: jglxSchema }),
  data: z.object({ updated: z.number() }),
});

/** 开票方式 of a client; '' on a client means the agency's default. */
export const KPFS_OPTIONS = [
  { value: '1', label: '数电发票（乐企/电子税务局）' },
  { value: '2', label: '税控盘/金税盘' },
  { value: '3', label: '税务UKey' },
  { value: '4', label: '税务机关代开' },
  { value: '0', label: '不开票' },
] as const;
export const kpfsLabel = (v: string) => KPFS_OPTIONS.find((o) => o.value === v)?.label ?? '';
const kpfsSchema = z.enum(KPFS_OPTIONS.map((o) => o.value) as ['1', ...string[]], { error: MASTER_MSG.kpfsInvalid });

export const defKpTypeCall = defineCall({
  path: 'user/agency/updDefKpType',
  summary: '我的客户：机构默认开票方式',
  access: 'customer:edit',
  body: z.strictObject({ kpfs: kpfsSchema }),
  data: z.object({ kpfs: z.string() }),
});

export const kpfsBatchCall = defineCall({
  path: 'user/agency/updateAgencyEnterpriseKpfsTypeListV3',
  summary: '我的客户：批量设置开票方式',
  access: 'customer:edit',
  body: z.strictObject({ aeiIds: idList(MASTER_BATCH_MAX), kpfs: kpfsSchema.or(z.literal('')) }),
  data: z.object({ updated: z.number() }),
});

export const kpfsOneCall = defineCall({
  path: 'user/agency/updateAgencyEnterpriseKpfsType',
  summary: '我的客户：设置开票方式',
  access: 'customer:edit',
  body: z.strictObject({ id: idSchema, kpfs: kpfsSchema.or(z.literal('')) }),
  data: z.object({ updated: z.number() }),
});

export const kpfsQueryCall = defineCall({
  path: 'user/agency/queryAgencyUserFpbxV3',
  summary: '我的客户：客户的开票方式（发票模块读取）',
  access: 'customer:list:view',
  body: z.strictObject({ aeiIds: idList(MASTER_BATCH_MAX) }),
  data: z.object({
    defKpfs: z.string(),
    list: z.array(
      z.object({
        id: z.number(),
        qymc: z.string(),
        /** The client's own setting ('' when it follows the default). */
        kpfs: z.string(),
        /** What applies: its own, else the agency's default. */
        effective: z.string(),
        effectiveLabel: z.string(),
      }),
    ),
  }),
});

// --- note drafts, cache, print settings --------------------------------------------------------------

export const noteStagingCall = defineCall({
  path: 'user/note/staging',
  summary: '企业记事：暂存未写完的记事（空内容即删除草稿）',
  access: 'customer:list:view',
  body: z.strictObject({ enterpriseId: idSchema, content: z.string().max(500, MASTER_MSG.draftTooLong) }),
  data: z.object({ savedAt: z.string().nullable() }),
});

export const noteGetStagingCall = defineCall({
  path: 'user/note/getstaging',
  summary: '企业记事：取回暂存的记事',
  access: 'customer:list:view',
  body: z.strictObject({ enterpriseId: idSchema }),
  data: z.object({ content: z.string(), savedAt: z.string().nullable() }),
});

export const clearAgencyCacheCall = defineCall({
  path: 'userext/agency/clearAgencyCache',
  summary: '我的客户：清除本人记住的筛选条件与草稿',
  access: 'customer:list:view',
  body: z.strictObject({}),
  data: z.object({ cleared: z.number() }),
});

export const PRINT_PAPERS = ['A4', 'A5', '241-1'] as const;
export const printSettingsSchema = z.strictObject({
  paper: z.enum(PRINT_PAPERS, { error: '须为A4、A5或241-1' }),
  orientation: z.enum(['portrait', 'landscape'], { error: '须为纵向或横向' }),
  marginMm: z
    .number({ error: '须为0到30毫米的整数' })
    .int('须为0到30毫米的整数')
    .min(0, '须为0到30毫米的整数')
    .max(30, '须为0到30毫米的整数'),
  showAgencyName: z.boolean(),
  showPrintTime: z.boolean(),
  copies: z.number({ error: '须为1到10' }).int('须为1到10').min(1, '须为1到10').max(10, '须为1到10'),
});
export type PrintSettings = z.infer<typeof printSettingsSchema>;
export const DEFAULT_PRINT_SETTINGS: PrintSettings = {
  paper: 'A4',
  orientation: 'portrait',
  marginMm: 10,
  showAgencyName: true,
  showPrintTime: true,
  copies: 1,
};

export const printSettingsGetCall = defineCall({
  path: 'user/print/getPrintSetting',
  summary: '打印设置：读取本机构的打印设置',
  access: 'customer:list:view',
  body: z.strictObject({}),
  data: printSettingsSchema,
});

export const printSettingsSaveCall = defineCall({
  path: 'user/print/savePrintSetting',
  summary: '打印设置：保存本机构的打印设置',
  // Agency-wide, like the agency's other settings: not every member who edits clients (issue 18 review).
  access: 'agency:info:edit',
  body: printSettingsSchema,
  data: printSettingsSchema,
});

export const qyxzText = (v: string) => QYXZ_NAMES[v] ?? v;
