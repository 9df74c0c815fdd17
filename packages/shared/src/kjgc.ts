import { z } from 'zod';
import { defineCall } from './call.js';
import { agencyApplyCall, ORG_PAGE_SIZES } from './org.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { normalizeTaxNumber } from './validators.js';

/**
 * Accounting factories (kjgc): applying to become one, binding to agencies with the agency's consent,
 * the clients handed over (tgkh) and the lists of foundation.md §7 (issue 18 point 1).
 */

/** kjgc_bindings.status: 0 待同意, 1 已绑定, 2 已拒绝, 3 已解除. */
export const BIND_STATUS = { pending: 0, bound: 1, refused: 2, ended: 3 } as const;
export const BIND_STATUS_NAMES: Record<number, string> = { 0: '待同意', 1: '已绑定', 2: '已拒绝', 3: '已解除' };
const bindStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
  error: '状态须为0待同意、1已绑定、2已拒绝或3已解除',
});

export const KJGC_MSG = {
  applyOk: '您的会计工厂申请已提交，系统审核后会以短信的形式通知您！',
  notFactory: '当前组织不是会计工厂',
  notAgency: '会计工厂不能进行此操作，请切换到代理机构',
  agencyUnknown: '未找到该税号的代理机构',
  agencyNotOpen: '该代理机构未开通会计工厂功能',
  bindExists: '已向该代理机构发起关联或已关联',
  bindNotFound: '关联记录不存在或无权访问',
  bindNotPending: '该关联申请已处理，请刷新列表',
  bindNotBound: '该会计工厂未与本机构关联',
  clientNotFound: '客户不存在或无权访问',
  clientTaken: '客户已交由其他会计工厂，请先收回',
  notHandedOver: '客户未交由会计工厂',
} as const;

const pageNoSchema = z.number().int().min(1, '页码须为正整数').default(1);
const pageSizeSchema = z
  .number()
  .int()
  .refine((n) => (ORG_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50、100或500')
  .default(20);
const idSchema = (msg: string) => z.number({ error: msg }).int(msg).positive(msg);
const idListSchema = z
  .array(idSchema('请选择客户'), { error: '请选择客户' })
  .min(1, '请选择客户')
  .max(500, '一次最多选择500个客户');

export const saveKjgcApplyInfoCall = defineCall({
  path: 'user/kjgc/kjgcSqXx/saveKjgcApplyInfo',
  summary: '申请成为会计工厂（平台运营审核）',
  access: 'signedIn',
  body: agencyApplyCall.body.omit({ agencyType: true }),
  data: z.object({ id: z.number() }),
});

const relatedAgencySchema = z.object({ agencyId: z.number(), agencyName: z.string(), agencyTax: z.string() });

export const getUserKjgcRelationCall = defineCall({
  path: 'user/kjgc/getUserKjgcRelation',
  summary: '当前用户的会计工厂关系（所属工厂、关联代理机构、申请状态）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({
    isKjgc: z.boolean(),
    kjgcId: z.number().nullable(),
    kjgcMc: z.string().nullable(),
    /** The agency the factory acts for now (foundation.md §3 organisation context). */
    kjgcDlsId: z.number().nullable(),
    kjgcDlsMc: z.string().nullable(),
    kjgcDlsYhId: z.number().nullable(),
    kjgcDlsSjh: z.string().nullable(),
    /** Agencies the factory is bound to (the top bar's select of linked agencies). */
    agencies: z.array(relatedAgencySchema),
    /** The latest factory application of the user: 0 待审核, 1 已通过, 2 已驳回. */
    applyStatus: z.union([z.literal(0), z.literal(1), z.literal(2)]).nullable(),
    applyReason: z.string().nullable(),
  }),
});

export const tgkhSchema = z.object({
  id: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  agencyId: z.number(),
  kjgcId: z.number(),
  kjgcMc: z.string(),
  handedAt: z.string(),
});
export type Tgkh = z.infer<typeof tgkhSchema>;

/** How many handed-over clients getTgDLSAndTgKH names per agency; the rest through getEntList. */
export const TGKH_PREVIEW = 20;

export const getTgDLSAndTgKHCall = defineCall({
  path: 'user/kjgc/getTgDLSAndTgKH',
  summary: '会计工厂服务的代理机构及各自交办的客户',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({
    list: z.array(
      relatedAgencySchema.extend({
        current: z.boolean(),
        tgkhCount: z.number(),
        tgkh: z.array(z.object({ id: z.number(), qymc: z.string(), qysh: z.string() })),
      }),
    ),
  }),
});

export const getEntListCall = defineCall({
  path: 'user/kjgc/kjgcEntInfo/getEntList',
  summary: '交办客户列表（代理机构按会计工厂查，会计工厂按代理机构查）',
  access: 'signedIn',
  body: z.strictObject({
    /** Agency side: one factory's clients (all factories when left out). */
    kjgcId: idSchema('请选择会计工厂').optional(),
    /** Factory side: the clients of one bound agency (the current one when left out). */
    agencyId: idSchema('请选择代理机构').optional(),
    keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
    pageNo: pageNoSchema,
    pageSize: pageSizeSchema,
    ...cursorField,
  }),
  data: z.object({ list: z.array(tgkhSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const bindingItemSchema = z.object({
  id: z.number(),
  kjgcId: z.number(),
  kjgcMc: z.string(),
  kjgcTax: z.string(),
  agencyId: z.number(),
  agencyName: z.string(),
  agencyTax: z.string(),
  status: bindStatusSchema,
  statusName: z.string(),
  tgkhCount: z.number(),
  /** Factory side: the agency the factory acts for now. */
  current: z.boolean(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type BindingItem = z.infer<typeof bindingItemSchema>;

export const getAgencyInfoListCall = defineCall({
  path: 'user/kjgc/kjgcDljg/getAgencyInfoList',
  summary: '会计工厂与代理机构的关联列表（代理机构看会计工厂，会计工厂看代理机构）',
  access: 'signedIn',
  body: z.strictObject({
    status: bindStatusSchema.optional(),
    pageNo: pageNoSchema,
    pageSize: pageSizeSchema,
    ...cursorField,
  }),
  data: z.object({ list: z.array(bindingItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const requestBindCall = defineCall({
  path: 'user/kjgc/kjgcDljg/applyBind',
  summary: '会计工厂：申请关联代理机构（按税号）',
  access: 'kjgc:manage',
  body: z.strictObject({
    agencyTax: z
      .string({ error: '请输入代理机构税号' })
      .transform(normalizeTaxNumber)
      .pipe(z.string().min(1, '请输入代理机构税号').max(20, '税号为6-20位数字或字母')),
  }),
  data: z.object({ id: z.number() }),
});

export const decideBindCall = defineCall({
  path: 'user/kjgc/kjgcDljg/decide',
  summary: '代理机构管理员：同意或拒绝会计工厂的关联申请',
  access: 'kjgc:manage',
  body: z.strictObject({ id: idSchema('请选择关联申请'), accept: z.boolean({ error: '请选择同意或拒绝' }) }),
  data: z.null(),
});

export const endBindCall = defineCall({
  path: 'user/kjgc/kjgcDljg/unbind',
  summary: '解除会计工厂与代理机构的关联（任一方管理员；交办客户随之收回）',
  access: 'kjgc:manage',
  body: z.strictObject({ id: idSchema('请选择关联记录') }),
  data: z.null(),
});

export const handoverCall = defineCall({
  path: 'user/kjgc/kjgcEntInfo/handover',
  summary: '代理机构：把客户交给已关联的会计工厂',
  access: 'kjgc:manage',
  body: z.strictObject({ bindingId: idSchema('请选择会计工厂'), aeiIds: idListSchema }),
  data: z.object({ count: z.number() }),
});

export const takeBackCall = defineCall({
  path: 'user/kjgc/kjgcEntInfo/takeBack',
  summary: '代理机构：从会计工厂收回客户',
  access: 'kjgc:manage',
  body: z.strictObject({ aeiIds: idListSchema }),
  data: z.object({ count: z.number() }),
});

export const switchKjgcAgencyCall = defineCall({
  path: 'user/kjgc/kjgcDljg/switchAgency',
  summary: '会计工厂：切换当前服务的代理机构',
  access: 'kjgc:manage',
  body: z.strictObject({ agencyId: idSchema('请选择代理机构') }),
  data: z.null(),
});
