import { z } from 'zod';
import { orgTypeSchema, type SessionInfo, sessionInfoSchema } from './auth.js';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { hasPerm } from './permissions.js';
import { mobileSchema, normalizeTaxNumber } from './validators.js';

/**
 * Organisations, switching, agency applications, white-list orders and region rules
 * (foundation.md §1-§8, business.md §6-§7).
 */

// --- organisations and switching ---------------------------------------------------------------

export const orgListItemSchema = z.object({
  id: z.number(),
  orgName: z.string(),
  orgTypeName: z.string(),
  orgTax: z.string(),
  orgType: orgTypeSchema,
});
export type OrgListItem = z.infer<typeof orgListItemSchema>;

export const getOrgListCall = defineCall({
  path: 'user/v1.0/common/user/getOrgList',
  summary: '我所在的组织（按名称或税号筛选）',
  access: 'signedIn',
  body: z.strictObject({ orgName: z.string().trim().max(50, '搜索内容不能超过50个字符').optional() }),
  data: z.object({
    orgList: z.array(orgListItemSchema),
    /** Agencies (dls, kd) and accounting factories (kjgc) the user belongs to, whatever the filter. */
    dlsSl: z.number(),
    kjgcSl: z.number(),
  }),
});

export const updateSessionUserInfoCall = defineCall({
  path: 'user/v1.0/common/user/updateSessionUserInfo',
  summary: '切换当前组织',
  access: 'signedIn',
  body: z.strictObject({ orgId: z.number({ error: '请选择组织' }).int().positive('请选择组织') }),
  data: sessionInfoSchema,
});

export const judgeSwitchingButtonCall = defineCall({
  path: 'user/kjgc/kjgcDljgYy/judgeSwitchingButton',
  summary: '是否显示身份切换（代理机构端 / 会计工厂端）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({
    show: z.boolean(),
    /** The organisation of the other kind to switch to; null when the user has none (a kd without a factory). */
    targetOrgId: z.number().nullable(),
    targetName: z.string().nullable(),
  }),
});

/** Identity switch label: what the button offers to switch to (foundation.md §2 top bar). */
export const identitySwitchLabel = (orgType: SessionInfo['orgType']) =>
  orgType === 'kjgc' ? '代理机构端' : '会计工厂端';

export const agencyInfoBriefSchema = z.object({
  id: z.number(),
  agency_name: z.string(),
  agency_tax: z.string(),
  org_type: orgTypeSchema,
  sssf: z.string(),
  ssds: z.string(),
  ssqx: z.string(),
});

/** Application status: 0 待审核, 1 已通过, 2 已驳回. */
export const APPLY_STATUS = { pending: 0, approved: 1, rejected: 2 } as const;
export const APPLY_STATUS_NAMES: Readonly<Record<number, string>> = { 0: '待审核', 1: '已通过', 2: '已驳回' };
export const applyStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);

export const agencyUserRelationCall = defineCall({
  path: 'user/agency/agencyUserRelation',
  summary: '当前用户与代理机构的关系',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({
    isAdmin: z.enum(['0', '1']),
    /** '1' when the current organisation is an agency (dls, kd); '0' for a factory or no organisation. */
    isAgency: z.enum(['0', '1']),
    agencyApplyStatus: applyStatusSchema.nullable(),
    /** The agency the session acts for (a bound factory's agency); null without one. */
    agencyInfo: agencyInfoBriefSchema.nullable(),
  }),
});

// --- factories bound to an agency --------------------------------------------------------------

export const LINKED_AGENCY_MSG = '请先关联代理所';
/** Pages a factory user may open only when the factory is bound to an agency (foundation.md §6). */
export const LINKED_AGENCY_PREFIXES = ['/declare', '/account'] as const;

/** True for a session acting in an accounting factory that is not bound to an agency. */
export const isUnlinkedFactory = (s: Pick<SessionInfo, 'orgType' | 'kjgcDlsId'>) =>
  s.orgType === 'kjgc' && s.kjgcDlsId === null;

/** Whether `path` must be refused with 请先关联代理所 for this session. */
export function needsLinkedAgency(s: Pick<SessionInfo, 'orgType' | 'kjgcDlsId'>, path: string): boolean {
  if (!isUnlinkedFactory(s)) return false;
  const p = path.split(/[?#]/)[0] ?? '';
  return LINKED_AGENCY_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
}

// --- regions -----------------------------------------------------------------------------------

/** Region level: 1 province, 2 city, 3 county. */
export const REGION_LEVEL = { province: 1, city: 2, county: 3 } as const;
export const regionSchema = z.object({ code: z.string(), name: z.string() });
export type Region = z.infer<typeof regionSchema>;

export const getCompartmentInfoCall = defineCall({
  path: 'user/v1.0/area/getCompartmentInfo',
  summary: '省市区（国家行政区划）',
  access: 'signedIn',
  body: z
    .strictObject({
      dataType: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: '请选择地区级别（1省 2市 3区县）' }),
      parentCode: z
        .string()
        .regex(/^\d{6}$/, '地区编码为6位数字')
        .optional(),
    })
    .refine((b) => b.dataType === 1 || b.parentCode !== undefined, { message: '请选择上级地区', path: ['parentCode'] }),
  data: z.object({ dataType: z.number(), dataArray: z.array(regionSchema) }),
});

// --- create agency -----------------------------------------------------------------------------

/** Scale and accountant-count options 1-5 (foundation.md §5). */
export const AGENCY_SCALE_OPTIONS = [
  { value: 1, label: '20人以下' },
  { value: 2, label: '20-99人' },
  { value: 3, label: '100-299人' },
  { value: 4, label: '300-499人' },
  { value: 5, label: '500人以上' },
] as const;
export const scaleLabel = (v: number | null | undefined) =>
  AGENCY_SCALE_OPTIONS.find((o) => o.value === v)?.label ?? '';

export const AGENCY_APPLY_OK_MSG = '您的申请已提交，系统审核后会以短信的形式通知您！';
export const AGENCY_NAME_TAKEN_MSG = '代理机构名称已存在';
export const AGENCY_APPLY_PENDING_MSG = '您已有一份待审核的申请，请等待审核结果';

export const AGENCY_TAX_RE = /^[A-Za-z0-9]{6,20}$/;

const agencyNameSchema = z
  .string({ error: '请输入代理所名称' })
  .trim()
  .min(1, '请输入代理所名称')
  .max(50, '代理所名称不能超过50个字符');

const scaleSchema = (msg: string) => z.number({ error: msg }).int(msg).min(1, msg).max(5, msg);
/** 机构规模 is a dictionary the operator may extend (agency_scale): the server checks the code against it. */
const agencyScaleSchema = z
  .number({ error: '请选择机构规模' })
  .int('请选择机构规模')
  .min(1, '请选择机构规模')
  .max(999, '请选择机构规模');

const addressSchema = z.string({ error: '请输入地址' }).trim().min(1, '请输入地址').max(100, '地址不能超过100个字符');
const linkSchema = z.string().trim().max(20, '联系人不能超过20个字符');

export const selectPersonalAgencyInfoCall = defineCall({
  path: 'user/agency/selectPersonalAgencyInfo',
  summary: '代理机构名称是否已存在（已有机构或待审核申请）',
  access: 'signedIn',
  body: z.strictObject({ agencyName: agencyNameSchema }),
  data: z.object({ exists: z.boolean() }),
});

export const agencyApplyCall = defineCall({
  path: 'user/agency/agencyApply',
  summary: '申请创建代理机构',
  access: 'signedIn',
  body: z.strictObject({
    agencyName: agencyNameSchema,
    agencyTax: z
      .string({ error: '请输入代理所税号' })
      .transform(normalizeTaxNumber)
      .pipe(z.string().min(1, '请输入代理所税号').regex(AGENCY_TAX_RE, '税号为6-20位数字或字母')),
    address: addressSchema,
    agencyScale: agencyScaleSchema,
    staffNum: scaleSchema('请选择会计人数'),
    sssf: z.string({ error: '请选择地区' }).regex(/^\d{6}$/, '请选择地区'),
    ssds: z.string({ error: '请选择地区' }).regex(/^\d{6}$/, '请选择地区'),
    ssqx: z.string({ error: '请选择区县' }).regex(/^\d{6}$/, '请选择区县'),
    /** Contact; the applicant's own phone and name when left out. */
    linkPhone: mobileSchema.optional(),
    link: linkSchema.optional(),
    agencyType: z.enum(['dls', 'kd'], { error: '机构类型须为 dls 或 kd' }).optional(),
  }),
  data: z.object({ id: z.number() }),
});

// --- platform review of applications -----------------------------------------------------------

export const ORG_PAGE_SIZES = [20, 50, 100, 500] as const;
const pageNoSchema = z.number().int().min(1, '页码须为正整数').default(1);
const pageSizeSchema = z
  .number()
  .int()
  .refine((n) => (ORG_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50、100或500')
  .default(20);

export const agencyApplyItemSchema = z.object({
  id: z.number(),
  agencyName: z.string(),
  agencyTax: z.string(),
  /** kjgc: an application to become an accounting factory (saveKjgcApplyInfo). */
  agencyType: z.enum(['dls', 'kd', 'kjgc']),
  sssf: z.string(),
  ssds: z.string(),
  ssqx: z.string(),
  /** 省 市 区 in words. */
  regionName: z.string(),
  address: z.string(),
  agencyScale: z.number(),
  staffNum: z.number(),
  link: z.string(),
  linkPhone: z.string(),
  status: applyStatusSchema,
  reason: z.string(),
  applicantPhone: z.string(),
  applicantName: z.string(),
  reviewerName: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  /** The organisation created on approval. */
  agencyId: z.number().nullable(),
  createdAt: z.string(),
});
export type AgencyApplyItem = z.infer<typeof agencyApplyItemSchema>;

export const APPLY_SORT_FIELDS = ['createdAt', 'reviewedAt', 'agencyName'] as const;

export const listAgencyApplyCall = defineCall({
  path: 'platform/agencyApply/list',
  summary: '平台运营：代理机构入驻申请列表',
  access: 'platform:apply:review',
  body: z.strictObject({
    status: applyStatusSchema.optional(),
    /** Matches name, tax number or the applicant's phone. */
    keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
    sortField: z.enum(APPLY_SORT_FIELDS).optional(),
    sortOrder: z.enum(['ascend', 'descend']).optional(),
    pageNo: pageNoSchema,
    pageSize: pageSizeSchema,
    ...cursorField,
  }),
  data: z.object({
    list: z.array(agencyApplyItemSchema),
    total: z.number(),
    cursor: pageCursorsSchema,
    /** Pending applications, whatever the filter (for the tab badge). */
    pendingCount: z.number(),
  }),
});

export const approveAgencyApplyCall = defineCall({
  path: 'platform/agencyApply/approve',
  summary: '平台运营：通过入驻申请并创建代理机构',
  access: 'platform:apply:review',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.object({ agencyId: z.number() }),
});

export const rejectAgencyApplyCall = defineCall({
  path: 'platform/agencyApply/reject',
  summary: '平台运营：驳回入驻申请',
  access: 'platform:apply:review',
  body: z.strictObject({
    id: z.number().int().positive(),
    reason: z.string({ error: '请输入驳回原因' }).trim().min(1, '请输入驳回原因').max(200, '驳回原因不能超过200个字符'),
  }),
  data: z.null(),
});

// --- agency information ------------------------------------------------------------------------

export const agencyInfoSchema = z.object({
  id: z.number(),
  agencyName: z.string(),
  agencyTax: z.string(),
  orgType: orgTypeSchema,
  orgTypeName: z.string(),
  sssf: z.string(),
  ssds: z.string(),
  ssqx: z.string(),
  sssfmc: z.string(),
  ssdsmc: z.string(),
  ssqxmc: z.string(),
  address: z.string(),
  link: z.string(),
  linkPhone: z.string(),
  agencyScale: z.number().nullable(),
  staffNum: z.number().nullable(),
  staffCount: z.number(),
  clientCount: z.number(),
  /** False for a factory user looking at the agency it is bound to. */
  editable: z.boolean(),
  createdAt: z.string(),
});
export type AgencyInfo = z.infer<typeof agencyInfoSchema>;

export const getAgencyInfoCall = defineCall({
  path: 'user/agency/getAgencyInfo',
  summary: '代理机构信息',
  access: 'agency:info:view',
  body: z.strictObject({}),
  data: agencyInfoSchema,
});

export const updateAgencyInfoCall = defineCall({
  path: 'user/agency/updateAgencyInfo',
  summary: '修改代理机构信息（名称与税号不可改）',
  access: 'agency:info:edit',
  body: z.strictObject({
    address: addressSchema,
    link: linkSchema,
    linkPhone: z.union([z.literal(''), mobileSchema]),
    agencyScale: agencyScaleSchema,
    staffNum: scaleSchema('请选择会计人数'),
  }),
  data: agencyInfoSchema,
});

// --- white-list orders -------------------------------------------------------------------------

/** White-list order types switching features on per agency or province (foundation.md §6). */
export const WHITELIST_TYPES = ['lbsjc', 'dljghdkjgcmenu', 'wsbsdt', 'kxdlmmjy'] as const;
export const whitelistTypeSchema = z.enum(WHITELIST_TYPES, {
  error: '白名单类型须为 lbsjc、dljghdkjgcmenu、wsbsdt 或 kxdlmmjy',
});
export type WhitelistType = z.infer<typeof whitelistTypeSchema>;
/** What each type switches on; the spec gives only the codes, the names are the project's reading of them. */
export const WHITELIST_TYPE_NAMES: Record<WhitelistType, string> = {
  lbsjc: '列表数据检查',
  dljghdkjgcmenu: '代理机构会计工厂菜单',
  wsbsdt: '网上办税大厅',
  kxdlmmjy: '可信登录密码校验',
};

const busiValSchema = z
  .string({ error: '请输入业务值' })
  .trim()
  .min(1, '请输入业务值')
  .max(20, '业务值不能超过20个字符');

export const existsWhiteOrderCall = defineCall({
  path: 'user/whiteorder/existsByTypeAndBusiVal',
  summary: '本机构（或本省）是否在白名单内',
  access: 'signedIn',
  body: z.strictObject({ type: whitelistTypeSchema, busiVal: busiValSchema }),
  data: z.object({ exists: z.boolean() }),
});

export const whiteOrderItemSchema = z.object({
  id: z.number(),
  type: whitelistTypeSchema,
  typeName: z.string(),
  busiVal: z.string(),
  /** The agency's name or the province's name. */
  busiName: z.string(),
  createdAt: z.string(),
});
export type WhiteOrderItem = z.infer<typeof whiteOrderItemSchema>;

export const listWhiteOrderCall = defineCall({
  path: 'platform/whiteorder/list',
  summary: '平台运营：白名单列表',
  access: 'platform:apply:review',
  body: z.strictObject({
    type: whitelistTypeSchema.optional(),
    busiVal: z.string().trim().max(20).optional(),
    pageNo: pageNoSchema,
    pageSize: pageSizeSchema,
    ...cursorField,
  }),
  data: z.object({ list: z.array(whiteOrderItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const saveWhiteOrderCall = defineCall({
  path: 'platform/whiteorder/save',
  summary: '平台运营：添加白名单（代理机构ID或省份编码）',
  access: 'platform:apply:review',
  body: z.strictObject({ type: whitelistTypeSchema, busiVal: busiValSchema }),
  data: z.object({ id: z.number() }),
});

export const deleteWhiteOrderCall = defineCall({
  path: 'platform/whiteorder/delete',
  summary: '平台运营：删除白名单',
  access: 'platform:apply:review',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.null(),
});

// --- region rules of the top bar's more menu ---------------------------------------------------

export interface MoreMenuEntry {
  /** The spec's menu id (foundation.md §3 "Permission-derived flags from menu ids"). */
  id: number;
  key: 'wxwork' | 'managModule' | 'boss' | 'moreModuleCloudInvoice' | 'czc';
  title: string;
  path: string;
  /** Permission it needs: 发票's is its first page's; the others are not in the registry yet, so only `*:*:*` holders see them. */
  perm: string;
  /** Province codes (6 digits) it is limited to. */
  onlyRegions?: readonly string[];
  /** Province codes it is hidden in. */
  hiddenRegions?: readonly string[];
}

/** The top bar's more menu and its region rules (foundation.md §2, §6). */
export const MORE_MENUS: readonly MoreMenuEntry[] = [
  {
    id: 7,
    key: 'wxwork',
    title: '企业微信',
    path: '/wxwork/ChatSidebar',
    perm: 'wxwork:chat:view',
    hiddenRegions: ['230000'],
  },
  { id: 8, key: 'managModule', title: '管理', path: '/managModule/ygyj/dzhtj', perm: 'manage:module:view' },
  { id: 215, key: 'boss', title: '服务', path: '/moreModuleServe/boss', perm: 'boss:serve:view' },
  {
    id: 303,
    key: 'moreModuleCloudInvoice',
    title: '发票',
    path: '/moreModuleCloudInvoice',
    perm: 'invoice:output:view',
    onlyRegions: ['130000'],
  },
  {
    id: 301,
    key: 'czc',
    title: '财税存储',
    path: '/czc/czcSSO',
    perm: 'czc:storage:view',
    onlyRegions: ['130000', '230000'],
  },
];

/** A province code in 6-digit form ('13', '130000' and '130102' all give '130000'); '' when there is none. */
export const provinceOf = (code: string | null | undefined) =>
  code && /^\d{2}/.test(code) ? `${code.slice(0, 2)}0000` : '';

/** The more-menu entries a holder of `perms` in an agency of province `sssf` sees. */
export function moreMenuFor(perms: readonly string[], sssf: string | null | undefined): MoreMenuEntry[] {
  const region = provinceOf(sssf);
  return MORE_MENUS.filter((m) => {
    if (!hasPerm(perms, m.perm)) return false;
    if (m.onlyRegions && !m.onlyRegions.includes(region)) return false;
    if (m.hiddenRegions?.includes(region)) return false;
    return true;
  });
}
