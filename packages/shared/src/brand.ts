import { z } from 'zod';
import { defineCall } from './call.js';
import { SERVICE365_OFF_MSG } from './helper-protocol.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { isCalendarDay } from './validators.js';

/**
 * Issue 19 points 4 and 5 (foundation.md §3 "theme by agency fwsid", getZtByFwsid, getUrlAndJsConfigData,
 * the `/login/{fwsid}` route; business.md "Benefit and agency status": user/entSetting settingSaveZhzt,
 * settingSaveZhztByAgencyId, setting365SaveZhzt). docs/decisions/account.md records the shapes.
 */

// --- service-provider branding -----------------------------------------------------------------

export const FWSID_RE = /^[a-z0-9][a-z0-9-]{1,31}$/;
export const COLOR_RE = /^#[0-9a-f]{6}$/;
export const BRAND_LOGO_UPLOAD_PATH = 'brand/uploadLogo';
export const BRAND_LOGO_MAX_BYTES = 512 * 1024;
/** Stored logo names: 32 hex characters and the image kind. */
export const BRAND_LOGO_NAME_RE = /^[0-9a-f]{32}\.(png|jpg|webp)$/;
export const BRAND_FILE_URL_PREFIX = '/api/files/brand/';

export const BRAND_MSG = {
  notFound: '服务商不存在或已被删除',
  fwsidBad: '服务商编码为2-32位小写字母、数字或短横线，以字母或数字开头',
  fwsidTaken: '该服务商编码已被使用',
  nameRequired: '请输入服务商名称',
  nameTooLong: '服务商名称不能超过40个字符',
  colorBad: '主题色须为#开头的6位十六进制颜色，如 #1677ff',
  hotlineBad: '服务热线须为3-20位数字、短横线或空格',
  titleTooLong: '登录页标题不能超过40个字符',
  logoBad: '请上传服务商标志',
  logoMissing: '请选择要上传的图片',
  logoType: '标志须为 PNG、JPG 或 WEBP 图片',
  logoTooLarge: '标志图片不能超过512KB',
  inUse: (n: number) => `仍有${n}家机构使用该服务商，请先为这些机构改选服务商`,
  agencyNotFound: '机构不存在',
  /** The agency's provider differs from the address signed in at (foundation.md §5, §8). */
  accountAbnormal: '账号异常，请联系服务商。',
} as const;

export const brandSchema = z.object({
  fwsid: z.string(),
  name: z.string(),
  logoUrl: z.string(),
  primaryColor: z.string(),
  loginTitle: z.string(),
  hotline: z.string(),
});
export type Brand = z.infer<typeof brandSchema>;

export const brandAdminItemSchema = brandSchema.extend({
  id: z.number(),
  logoFile: z.string(),
  enabled: z.boolean(),
  agencyCount: z.number(),
  updatedAt: z.string(),
});
export type BrandAdminItem = z.infer<typeof brandAdminItemSchema>;

const fwsidSchema = z
  .string({ error: BRAND_MSG.fwsidBad })
  .trim()
  .toLowerCase()
  .refine((v) => FWSID_RE.test(v), BRAND_MSG.fwsidBad);
const optionalFwsid = z.string().trim().toLowerCase().max(32, BRAND_MSG.fwsidBad).optional();
const pageBody = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z.number().int().min(1, '每页条数须为1-100').max(100, '每页条数须为1-100').default(20),
  ...cursorField,
};
const keyword = z.string().trim().max(50, '搜索内容不能超过50个字符').optional();
const listData = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number(), cursor: pageCursorsSchema });
const agencyIdSchema = z.number({ error: '请选择机构' }).int().positive('请选择机构');

/** A provider's brand by fwsid (the sign-in page /login/{fwsid}); without one, the caller's agency's. */
export const getZtByFwsidCall = defineCall({
  path: 'user/agency/getZtByFwsid',
  summary: '按服务商编码取品牌（登录页）；不传编码时取当前机构所属服务商的品牌',
  access: 'public',
  body: z.strictObject({ fwsid: optionalFwsid }),
  data: brandSchema.nullable(),
});

/** What the sign-in page needs before sign-in: the brand, the hotline, the agreement links, sign-in providers. */
export const urlAndJsConfigCall = defineCall({
  path: 'user/urlAndJsConfig/getUrlAndJsConfigData',
  summary: '登录页配置：服务商品牌、服务热线、协议链接、可用的第三方登录方式',
  access: 'public',
  body: z.strictObject({ fwsid: optionalFwsid }),
  data: z.object({
    brand: brandSchema.nullable(),
    hotline: z.string(),
    agreementUrl: z.string(),
    privacyUrl: z.string(),
    thirdProviders: z.array(z.object({ id: z.string(), label: z.string() })),
  }),
});

export const brandListCall = defineCall({
  path: 'brand/list',
  summary: '服务商品牌列表（平台运营）',
  access: 'platform:brand:edit',
  body: z.strictObject({ ...pageBody, keyword }),
  data: listData(brandAdminItemSchema),
});

export const brandSaveBodySchema = z.strictObject({
  /** Absent: a new provider. */
  id: z.number().int().positive().optional(),
  fwsid: fwsidSchema,
  name: z
    .string({ error: BRAND_MSG.nameRequired })
    .trim()
    .min(1, BRAND_MSG.nameRequired)
    .max(40, BRAND_MSG.nameTooLong),
  logoFile: z
    .string()
    .trim()
    .refine((v) => v === '' || BRAND_LOGO_NAME_RE.test(v), BRAND_MSG.logoBad)
    .default(''),
  primaryColor: z
    .string({ error: BRAND_MSG.colorBad })
    .trim()
    .toLowerCase()
    .refine((v) => COLOR_RE.test(v), BRAND_MSG.colorBad),
  loginTitle: z.string().trim().max(40, BRAND_MSG.titleTooLong).default(''),
  hotline: z
    .string()
    .trim()
    .refine((v) => v === '' || /^[0-9][0-9 -]{1,18}[0-9]$/.test(v), BRAND_MSG.hotlineBad)
    .default(''),
  enabled: z.boolean().default(true),
});
export type BrandSaveBody = z.input<typeof brandSaveBodySchema>;

export const brandSaveCall = defineCall({
  path: 'brand/save',
  summary: '新增或编辑服务商品牌（平台运营）',
  access: 'platform:brand:edit',
  body: brandSaveBodySchema,
  data: z.object({ id: z.number() }),
});

export const brandDeleteCall = defineCall({
  path: 'brand/delete',
  summary: '删除服务商品牌（平台运营；仍有机构使用时拒绝）',
  access: 'platform:brand:edit',
  body: z.strictObject({ id: z.number({ error: '请选择服务商' }).int().positive('请选择服务商') }),
  data: z.null(),
});

export const brandAssignCall = defineCall({
  path: 'brand/assignAgency',
  summary: '为机构选择服务商（平台运营；null 为平台默认品牌）',
  access: 'platform:brand:edit',
  body: z.strictObject({ agencyId: agencyIdSchema, providerId: z.number().int().positive().nullable() }),
  data: z.null(),
});

// --- account status and benefits ---------------------------------------------------------------

export const BENEFIT_PLANS = [
  { value: 'trial', label: '试用版' },
  { value: 'standard', label: '标准版' },
  { value: 'pro', label: '专业版' },
  { value: 'flagship', label: '旗舰版' },
] as const;
export type BenefitPlan = (typeof BENEFIT_PLANS)[number]['value'];
export const BENEFIT_PLAN_VALUES = BENEFIT_PLANS.map((p) => p.value) as [BenefitPlan, ...BenefitPlan[]];
export const benefitPlanName = (v: string) => BENEFIT_PLANS.find((p) => p.value === v)?.label ?? '未开通';

export const ACCOUNT_MSG = {
  adminOnly: '仅机构管理员可修改账户设置',
  planRequired: '请选择权益版本',
  dateBad: '日期格式应为YYYY-MM-DD',
  expiresBeforeStart: '到期日不能早于开始日',
  expiresPast: '到期日不能早于今天',
  clientsBad: '授权客户数须为0-100000的整数',
  clientsBelowUsed: (used: number) => `授权客户数不能少于机构现有的${used}家客户`,
  remindBad: '到期提醒天数须为1-90天',
  agencyNotFound: '机构不存在',
  remarkTooLong: '备注不能超过200个字符',
  service365Off: SERVICE365_OFF_MSG,
} as const;

/**
 * Whether the agency may use the helper (365基础服务): '' never set by the operator refuses nothing (an
 * account row made for another reason must not switch the helper off); '1' until its expiry (China date,
 * inclusive; none = no end); '0' never.
 */
export function service365Active(service365: string, expiresOn: string | null, today: string): boolean {
  if (service365 === '') return true;
  return service365 === '1' && (expiresOn === null || expiresOn >= today);
}

/**
 * Benefit status qyzt from the expiry (business.md §4): '0' none, '1' active, '2' about to expire (within
 * remindDays), '3' expired. `today` and `expiresOn` are China dates YYYY-MM-DD.
 */
export function qyztOf(expiresOn: string | null, today: string, remindDays: number): '0' | '1' | '2' | '3' {
  if (!expiresOn) return '0';
  if (expiresOn < today) return '3';
  const days = Math.round((Date.parse(expiresOn) - Date.parse(today)) / 86_400_000);
  return days <= remindDays ? '2' : '1';
}

export const QYZT_LABELS: Readonly<Record<string, string>> = {
  '0': '未开通',
  '1': '正常',
  '2': '即将到期',
  '3': '已到期',
};

export const agencyAccountSchema = z.object({
  agencyId: z.number(),
  agencyName: z.string(),
  plan: z.string(),
  planLabel: z.string(),
  startsOn: z.string().nullable(),
  expiresOn: z.string().nullable(),
  daysLeft: z.number().nullable(),
  qyzt: z.string(),
  qyztLabel: z.string(),
  clientCount: z.number().nullable(),
  clientsUsed: z.number(),
  remindDays: z.number(),
  sfgxbzts: z.string(),
  /** '1' on, '0' off, '' never set by the operator (not enforced). */
  service365: z.string(),
  service365ExpiresOn: z.string().nullable(),
  /** The helper may be used now (service365Active). */
  service365Active: z.boolean(),
  providerId: z.number().nullable(),
  providerName: z.string(),
});
export type AgencyAccount = z.infer<typeof agencyAccountSchema>;

const dateSchema = z.string({ error: ACCOUNT_MSG.dateBad }).trim().refine(isCalendarDay, ACCOUNT_MSG.dateBad);

/** The caller's agency's account: plan, expiry, authorised and used clients, reminders, 365 service. */
export const zhztInfoCall = defineCall({
  path: 'user/entSetting/getZhzt',
  summary: '本机构的账户状态：权益版本、到期日、授权客户数与已用数、365基础服务',
  access: 'signedIn',
  body: z.strictObject({}),
  data: agencyAccountSchema,
});

/** Whether the caller's agency may use the helper now; the web asks before it looks for or starts one. */
export const service365StatusCall = defineCall({
  path: 'user/entSetting/service365Status',
  summary: '本机构的365基础服务是否可用（未开通或已到期时不启动基础服务）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({ active: z.boolean(), expiresOn: z.string().nullable(), msg: z.string() }),
});

export const settingSaveZhztCall = defineCall({
  path: 'user/entSetting/settingSaveZhzt',
  summary: '保存本机构的账户状态设置：到期提醒天数、是否不再提醒（机构管理员）',
  access: 'signedIn',
  body: z.strictObject({
    remindDays: z
      .number({ error: ACCOUNT_MSG.remindBad })
      .int(ACCOUNT_MSG.remindBad)
      .min(1, ACCOUNT_MSG.remindBad)
      .max(90, ACCOUNT_MSG.remindBad),
    sfgxbzts: z.enum(['0', '1'], { error: '提醒设置有误' }),
  }),
  data: agencyAccountSchema,
});

export const settingSaveZhztByAgencyIdCall = defineCall({
  path: 'user/entSetting/settingSaveZhztByAgencyId',
  summary: '为机构开通或续期权益：版本、起止日期、授权客户数（平台运营）',
  access: 'platform:benefit:edit',
  body: z
    .strictObject({
      agencyId: agencyIdSchema,
      plan: z.enum(BENEFIT_PLAN_VALUES, { error: ACCOUNT_MSG.planRequired }),
      startsOn: dateSchema.optional(),
      expiresOn: dateSchema,
      clientCount: z
        .number({ error: ACCOUNT_MSG.clientsBad })
        .int(ACCOUNT_MSG.clientsBad)
        .min(0, ACCOUNT_MSG.clientsBad)
        .max(100_000, ACCOUNT_MSG.clientsBad)
        .nullable(),
      remark: z.string().trim().max(200, ACCOUNT_MSG.remarkTooLong).default(''),
    })
    .refine((v) => !v.startsOn || v.startsOn <= v.expiresOn, {
      path: ['expiresOn'],
      message: ACCOUNT_MSG.expiresBeforeStart,
    }),
  data: agencyAccountSchema,
});

export const setting365SaveZhztCall = defineCall({
  path: 'user/entSetting/setting365SaveZhzt',
  summary: '开通或停用机构的365基础服务（平台运营）',
  access: 'platform:benefit:edit',
  body: z.strictObject({
    agencyId: agencyIdSchema,
    service365: z.enum(['0', '1'], { error: '请选择开通或停用' }),
    expiresOn: dateSchema.nullable().default(null),
  }),
  data: agencyAccountSchema,
});

export const accountListCall = defineCall({
  path: 'user/entSetting/agencyList',
  summary: '机构账户与权益列表（平台运营）',
  access: 'platform:benefit:edit',
  body: z.strictObject({ ...pageBody, keyword }),
  data: listData(agencyAccountSchema.extend({ id: z.number() })),
});

export const benefitGrantSchema = z.object({
  id: z.number(),
  plan: z.string(),
  planLabel: z.string(),
  startsOn: z.string(),
  expiresOn: z.string(),
  clientCount: z.number().nullable(),
  remark: z.string(),
  grantedBy: z.string(),
  createdAt: z.string(),
});
export type BenefitGrant = z.infer<typeof benefitGrantSchema>;

export const grantListCall = defineCall({
  path: 'user/entSetting/grantList',
  summary: '机构的权益开通记录（平台运营，最近50条）',
  access: 'platform:benefit:edit',
  body: z.strictObject({ agencyId: agencyIdSchema }),
  data: z.array(benefitGrantSchema),
});
