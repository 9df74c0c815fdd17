import { z } from 'zod';
import { ORG_TYPE_NAMES } from './auth.js';
import { defineCall } from './call.js';
import { HTZT_NAMES } from './contract.js';
import { HYDJ_NAMES, QYXZ_NAMES, SFBM_OPTIONS } from './customer.js';
import { FILING_TAX_TYPE_NAMES } from './filing-calendar.js';
import { AGENCY_SCALE_OPTIONS, MORE_MENUS, WHITELIST_TYPE_NAMES } from './org.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { mobileSchema } from './validators.js';

/**
 * Issue 19 points 7 and 8: dictionaries as data (user/dict/getDictData, user/sysDict/getList,
 * user/sysDictDataTyyygl/data) served from one table the platform operator edits, seeded from the
 * constants below; and the customer-service calls (whitelist check and save, the AI knowledge URL).
 */

export interface DictSeedGroup {
  type: string;
  name: string;
  items: readonly { code: string; label: string }[];
}

const entries = (names: Readonly<Record<string | number, string>>) =>
  Object.entries(names).map(([code, label]) => ({ code, label }));

/**
 * The dictionaries as the product ships them: the table's seed (migration 0035 inserts exactly these;
 * apps/server/test/dicts.test.ts checks they agree). 'tyyygl' (通用应用管理) lists the partner modules.
 */
export const DICT_SEED: readonly DictSeedGroup[] = [
  {
    type: 'agency_scale',
    name: '机构规模',
    items: AGENCY_SCALE_OPTIONS.map((o) => ({ code: String(o.value), label: o.label })),
  },
  { type: 'taxpayer_kind', name: '纳税人类型', items: entries(QYXZ_NAMES) },
  { type: 'sfbm', name: '办税身份', items: SFBM_OPTIONS.map((o) => ({ code: o.value, label: o.label })) },
  { type: 'hydj', name: '会员等级', items: entries(HYDJ_NAMES) },
  { type: 'htzt', name: '合同状态', items: entries(HTZT_NAMES) },
  { type: 'filing_tax_type', name: '申报税种', items: entries(FILING_TAX_TYPE_NAMES) },
  { type: 'org_type', name: '机构类型', items: entries(ORG_TYPE_NAMES) },
  { type: 'whitelist_type', name: '白名单类型', items: entries(WHITELIST_TYPE_NAMES) },
  {
    type: 'tyyygl',
    name: '通用应用管理',
    items: [...MORE_MENUS.map((m) => ({ code: m.key, label: m.title })), { code: 'ai', label: 'AI 咨询' }],
  },
];

export const dictItemSchema = z.object({
  id: z.number(),
  dictType: z.string(),
  code: z.string(),
  label: z.string(),
  sort: z.number(),
  enabled: z.boolean(),
});
export type DictItem = z.infer<typeof dictItemSchema>;

const dictTypeSchema = z
  .string({ error: '请输入字典类型' })
  .trim()
  .min(1, '请输入字典类型')
  .max(40, '字典类型不能超过40个字符')
  .regex(/^[a-z][a-z0-9_]*$/, '字典类型只能包含小写字母、数字和下划线，并以字母开头');

/** One value as a page reads it. */
export const dictValueSchema = z.object({ code: z.string(), label: z.string() });
export type DictValue = z.infer<typeof dictValueSchema>;

export const getDictDataCall = defineCall({
  path: 'user/dict/getDictData',
  summary: '数据字典：某一类型的启用值（按排序）',
  access: 'signedIn',
  body: z.strictObject({ dictGroup: dictTypeSchema }),
  data: z.array(dictValueSchema),
});

export const dictTypeInfoSchema = z.object({ dictType: z.string(), name: z.string(), count: z.number() });

export const getSysDictListCall = defineCall({
  path: 'user/sysDict/getList',
  summary: '数据字典：全部字典类型及其启用值个数',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.array(dictTypeInfoSchema),
});

export const getTyyyglDataCall = defineCall({
  path: 'user/sysDictDataTyyygl/data',
  summary: '数据字典：通用应用管理（合作伙伴模块）的启用值',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.array(dictValueSchema),
});

// --- the operator's editing ---------------------------------------------------------------------

export const DICT_PAGE_SIZES = [20, 50, 100] as const;

export const listDictAdminCall = defineCall({
  path: 'platform/dict/list',
  summary: '平台运营：数据字典（按类型筛选，含停用值）',
  access: 'platform:dict:edit',
  body: z.strictObject({
    dictType: z.string().trim().max(40).optional(),
    label: z.string().trim().max(40, '名称不能超过40个字符').optional(),
    pageNo: z.number().int().min(1, '页码须为正整数').default(1),
    pageSize: z
      .number()
      .int()
      .refine((n) => (DICT_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50或100')
      .default(20),
    ...cursorField,
  }),
  data: z.object({
    list: z.array(dictItemSchema.extend({ typeName: z.string() })),
    total: z.number(),
    cursor: pageCursorsSchema,
    types: z.array(dictTypeInfoSchema),
  }),
});

export const saveDictCall = defineCall({
  path: 'platform/dict/save',
  summary: '平台运营：新增或修改字典值',
  access: 'platform:dict:edit',
  body: z.strictObject({
    id: z.number().int().positive().optional(),
    dictType: dictTypeSchema,
    typeName: z.string({ error: '请输入类型名称' }).trim().min(1, '请输入类型名称').max(20, '类型名称不能超过20个字符'),
    /** The value's code (named dictCode here: code is the SMS code elsewhere). */
    dictCode: z
      .string({ error: '请输入编码' })
      .trim()
      .min(1, '请输入编码')
      .max(40, '编码不能超过40个字符')
      .regex(/^[A-Za-z0-9_.-]+$/, '编码只能包含字母、数字、下划线、点和横线'),
    label: z.string({ error: '请输入名称' }).trim().min(1, '请输入名称').max(40, '名称不能超过40个字符'),
    sort: z.number({ error: '排序须为整数' }).int('排序须为整数').min(0, '排序不能小于0').max(9999, '排序不能大于9999'),
    enabled: z.boolean(),
  }),
  data: z.object({ id: z.number() }),
});

export const deleteDictCall = defineCall({
  path: 'platform/dict/delete',
  summary: '平台运营：删除字典值',
  access: 'platform:dict:edit',
  body: z.strictObject({ id: z.number({ error: '请选择字典值' }).int().positive() }),
  data: z.null(),
});

// --- customer service: the AI knowledge whitelist and URL ---------------------------------------

export const AQ_URL_MSG = {
  notConfigured: '您所在地区的 AI 咨询尚未配置，请联系服务商开通',
  badUrl: '请输入以 https:// 或 http:// 开头的地址',
} as const;

export const whitelistCheckCall = defineCall({
  path: 'user/whiteList/check',
  summary: 'AI 咨询：当前用户是否已在本机构的开通名单中',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({ exists: z.boolean() }),
});

export const whitelistSaveCall = defineCall({
  path: 'user/whiteList/save',
  summary: 'AI 咨询：把当前用户加入本机构的开通名单（记下订单号）',
  access: 'signedIn',
  body: z.strictObject({
    orderNo: z.string().trim().max(40, '订单号不能超过40个字符').default(''),
    userPhone: mobileSchema.optional(),
  }),
  data: z.object({ exists: z.boolean() }),
});

export const getAqUrlCall = defineCall({
  path: 'user/whiteList/aqUrl',
  summary: 'AI 咨询：本机构所在地区的财税知识问答地址（未配置时 aqUrl 为空）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({
    aqUrl: z.string(),
    /** The region whose address applies ('' = the nationwide default). */
    regionCode: z.string(),
    configured: z.boolean(),
    /** Whether the user is in the agency's whitelist (user/whiteList/check). */
    whitelistResult: z.boolean(),
  }),
});

const regionCodeSchema = z
  .string({ error: '请选择地区' })
  .trim()
  .regex(/^(\d{6})?$/, '地区编码须为6位数字（留空表示全国默认）');

export const aqUrlItemSchema = z.object({
  regionCode: z.string(),
  regionName: z.string(),
  url: z.string(),
  updatedAt: z.string(),
});
export type AqUrlItem = z.infer<typeof aqUrlItemSchema>;

export const listAqUrlCall = defineCall({
  path: 'platform/aqUrl/list',
  summary: '平台运营：各地区的 AI 咨询地址',
  access: 'platform:dict:edit',
  body: z.strictObject({}),
  data: z.array(aqUrlItemSchema),
});

export const saveAqUrlCall = defineCall({
  path: 'platform/aqUrl/save',
  summary: '平台运营：设置某地区的 AI 咨询地址（省、市或区县编码；留空为全国默认）',
  access: 'platform:dict:edit',
  body: z.strictObject({
    regionCode: regionCodeSchema,
    url: z
      .string({ error: AQ_URL_MSG.badUrl })
      .trim()
      .max(500, '地址不能超过500个字符')
      .regex(/^https?:\/\/[^\s/$.?#][^\s]*$/i, AQ_URL_MSG.badUrl),
  }),
  data: z.null(),
});

export const deleteAqUrlCall = defineCall({
  path: 'platform/aqUrl/delete',
  summary: '平台运营：删除某地区的 AI 咨询地址',
  access: 'platform:dict:edit',
  body: z.strictObject({ regionCode: regionCodeSchema }),
  data: z.null(),
});
