import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * Service items and contract templates (business.md §2-§9, 合同设置): the agency's catalogue of
 * services with job type and unit price, and templates bundling them into priced lines.
 * Money on the wire in this module: yuan strings with two decimals ("1200.00"); integer fen inside.
 */

// --- constants ---------------------------------------------------------------------------------

/** Job types of service items; the colour marks an item wherever it is shown (antd Tag colours). */
export const JOB_TYPES = [
  { value: '1', label: '记账', color: 'blue' },
  { value: '2', label: '报税', color: 'green' },
  { value: '3', label: '工商', color: 'orange' },
  { value: '4', label: '社保', color: 'purple' },
  { value: '5', label: '个税', color: 'cyan' },
  { value: '6', label: '发票', color: 'magenta' },
  { value: '7', label: '咨询', color: 'gold' },
  { value: '9', label: '其他', color: 'default' },
] as const;
export type JobType = (typeof JOB_TYPES)[number]['value'];
export const JOB_TYPE_VALUES = JOB_TYPES.map((j) => j.value) as [JobType, ...JobType[]];
export const jobTypeOf = (value: string) => JOB_TYPES.find((j) => j.value === value);
export const jobTypeColor = (value: string): string => jobTypeOf(value)?.color ?? 'default';

/** Page sizes of the template list (business.md §9); the first is the default. */
export const TEMPLATE_PAGE_SIZES = [10, 20, 30, 50] as const;
export const TEMPLATE_PAGE_KEY = '/contract/htsz/htmb';
export const SERVICE_PAGE_KEY = '/contract/htsz/fwxm';

export const TEMPLATE_NAME_MAX = 10;
export const TEMPLATE_DESC_MAX = 50;
export const AMOUNT_MAX_LEN = 10;
/** Lines in one template: the catalogue is small; this bounds a body. */
export const TEMPLATE_LINES_MAX = 50;
export const SERVICE_NAME_MAX = 20;
export const SERVICE_BRI_NAME_MAX = 10;

/** The shared amount pattern: a non-negative amount with at most two decimals ('0.5', '12', '1200.00'). */
export const AMOUNT_RE = /^(0|[1-9]\d*)(\.\d{1,2})?$/;

export const TEMPLATE_MSG = {
  nameRequired: '请输入活动名称',
  nameTooLong: `模板名称不能超过${TEMPLATE_NAME_MAX}个字符`,
  descTooLong: `模板说明不能超过${TEMPLATE_DESC_MAX}个字符`,
  serviceRequired: '请选择服务项目',
  serviceDuplicate: '服务项目不可重复',
  amountRequired: '请输入合同金额',
  amountPattern: '请输入正确的合同金额',
  amountTooLong: `合同金额长度不能超过${AMOUNT_MAX_LEN}位`,
  discountTooBig: '优惠金额不能大于单价',
  lineRequired: '请至少保留一个服务项目',
  tooManyLines: `每个模板最多${TEMPLATE_LINES_MAX}个服务项目`,
  incomplete: '请填写完整',
  nowPriceMismatch: '优惠后金额与单价减优惠不一致，请重新填写',
  totalMismatch: '合同总价与服务项目合计不一致，请刷新后重新提交',
  nameTaken: '模板名称已存在，请更换名称',
  notFound: '模板不存在或已被删除',
  serviceUnknown: '服务项目不存在或已停用，请重新选择',
  adminOnly: '请联系管理员修改！',
  deleteConfirm: '此操作将删除此条模板, 是否继续?',
  saved: '保存成功',
  deleted: '删除成功',
  statusOn: '已启用',
  statusOff: '已停用',
  configured: '已配置',
  notConfigured: '未配置',
  settingsDisabled: '模板已停用，启用后才能设置',
} as const;

export const SERVICE_MSG = {
  nameRequired: '请输入服务名称',
  nameTooLong: `服务名称不能超过${SERVICE_NAME_MAX}个字符`,
  briTooLong: `服务简称不能超过${SERVICE_BRI_NAME_MAX}个字符`,
  jobTypeRequired: '请选择业务类型',
  priceRequired: '请输入单价',
  pricePattern: '请输入正确的单价（最多两位小数）',
  priceTooLong: `单价长度不能超过${AMOUNT_MAX_LEN}位`,
  nameTaken: '服务名称已存在，请更换名称',
  notFound: '服务项目不存在或已被删除',
  saved: '保存成功',
} as const;

// --- money -------------------------------------------------------------------------------------

/** "1200.5" → 120050 fen, by string arithmetic (no floating point). Call only on AMOUNT_RE matches. */
export function yuanToFen(yuan: string): number {
  const [int = '0', dec = ''] = yuan.split('.');
  return Number(int) * 100 + Number(dec.padEnd(2, '0').slice(0, 2));
}

/** 120050 fen → "1200.50". */
export function fenToYuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The form's amount check: required, the shared pattern, at most 10 characters; null when fine. */
export function checkContractAmount(v: string): string | null {
  if (v.trim() === '') return TEMPLATE_MSG.amountRequired;
  if (v.length > AMOUNT_MAX_LEN) return TEMPLATE_MSG.amountTooLong;
  if (!AMOUNT_RE.test(v)) return TEMPLATE_MSG.amountPattern;
  return null;
}

const amount = z
  .string({ error: TEMPLATE_MSG.amountRequired })
  .trim()
  .superRefine((v, ctx) => {
    const msg = checkContractAmount(v);
    if (msg) ctx.addIssue({ code: 'custom', message: msg });
  });

const servicePrice = z
  .string({ error: SERVICE_MSG.priceRequired })
  .trim()
  .superRefine((v, ctx) => {
    if (v === '') ctx.addIssue({ code: 'custom', message: SERVICE_MSG.priceRequired });
    else if (v.length > AMOUNT_MAX_LEN) ctx.addIssue({ code: 'custom', message: SERVICE_MSG.priceTooLong });
    else if (!AMOUNT_RE.test(v)) ctx.addIssue({ code: 'custom', message: SERVICE_MSG.pricePattern });
  });

const idSchema = z.number({ error: '请选择服务项目' }).int().positive();
const staticFlag = z.enum(['0', '1'], { error: '状态须为0或1' });

// --- service items ------------------------------------------------------------------------------

export const serviceItemSchema = z.object({
  id: z.number(),
  serviceName: z.string(),
  serviceBriName: z.string(),
  jobType: z.string(),
  /** Unit price in yuan. */
  price: z.string(),
  /** service_static: '1' enabled, '0' disabled. */
  service_static: z.enum(['0', '1']),
  sort: z.number(),
});
export type ServiceItem = z.infer<typeof serviceItemSchema>;

export const serviceItemListCall = defineCall({
  path: 'user/contract/service/getContractServiceItemByAgencyOrStatic',
  summary: '服务项目：本机构的服务项目（可按状态、名称筛选）',
  // Read by the template dialog and the contract form too: the agency's price list, not owner data.
  access: 'signedIn',
  body: z.strictObject({
    service_static: z.enum(['', '0', '1']).default(''),
    service_name: z.string().trim().max(50).default(''),
  }),
  data: z.object({ list: z.array(serviceItemSchema), total: z.number() }),
});

export const serviceItemSaveBody = z.strictObject({
  id: z.number().int().positive().optional(),
  serviceName: z
    .string({ error: SERVICE_MSG.nameRequired })
    .trim()
    .min(1, SERVICE_MSG.nameRequired)
    .max(SERVICE_NAME_MAX, SERVICE_MSG.nameTooLong),
  serviceBriName: z.string().trim().max(SERVICE_BRI_NAME_MAX, SERVICE_MSG.briTooLong).default(''),
  jobType: z.enum(JOB_TYPE_VALUES, { error: SERVICE_MSG.jobTypeRequired }),
  price: servicePrice,
  service_static: staticFlag.default('1'),
  sort: z.number().int().min(0).max(9999).default(0),
});

export const serviceItemSaveCall = defineCall({
  path: 'user/contract/service/saveOrUpdateServiceItem',
  summary: '服务项目：新增或修改',
  access: 'contract:service:edit',
  body: serviceItemSaveBody,
  data: z.object({ id: z.number() }),
});

export const serviceItemStaticCall = defineCall({
  path: 'user/contract/service/updateServiceItemStatic',
  summary: '服务项目：启用或停用',
  access: 'contract:service:edit',
  body: z.strictObject({ id: z.number().int().positive(), service_static: staticFlag }),
  data: z.null(),
});

// --- templates ----------------------------------------------------------------------------------

/** A template line as the server gives it (business.md §3 template detail line). */
export const templateLineSchema = z.object({
  /** The service item id. */
  service: z.number(),
  serviceName: z.string(),
  serviceBriName: z.string(),
  jobType: z.string(),
  /** 1 given free with the contract (赠送), 0 not. */
  isGive: z.union([z.literal(0), z.literal(1)]),
  price: z.string(),
  discount: z.string(),
  /** price - discount. */
  nowPrice: z.string(),
});
export type TemplateLine = z.infer<typeof templateLineSchema>;

/** A line as the dialog sends it; names and job type come from the service item on the server. */
export const templateLineInputSchema = z.strictObject({
  service: idSchema,
  isGive: z.union([z.literal(0), z.literal(1)]).default(0),
  price: amount,
  discount: amount,
  /** Optional echo of price - discount; refused when it disagrees. */
  nowPrice: z.string().trim().optional(),
});
export type TemplateLineInput = z.input<typeof templateLineInputSchema>;

export const templateItemSchema = z.object({
  id: z.number(),
  tempName: z.string(),
  tempIllustration: z.string(),
  tempTotalPrice: z.string(),
  /** Service names in line order, comma-separated. */
  tempServName: z.string(),
  /** Job types matching tempServName, comma-separated. */
  jobTypeList: z.string(),
  tempStatic: z.enum(['0', '1']),
  isVerifySet: z.string(),
  updatedAt: z.string(),
});
export type TemplateItem = z.infer<typeof templateItemSchema>;

export const templateDetailSchema = templateItemSchema.extend({ tempDetailList: z.array(templateLineSchema) });
export type TemplateDetail = z.infer<typeof templateDetailSchema>;

export const templatePageCall = defineCall({
  path: 'user/contract/temp/selectTemplatePage',
  summary: '合同模板：分页列表（按模板名称查询）',
  access: 'contract:template:view',
  body: z.strictObject({
    pageNo: z.number().int().min(1, '页码须为正整数').default(1),
    pageSize: z
      .number()
      .int()
      .refine((n) => (TEMPLATE_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为10、20、30或50')
      .default(TEMPLATE_PAGE_SIZES[0]),
    tempName: z.string().trim().max(50).default(''),
    ...cursorField,
  }),
  data: z.object({ list: z.array(templateItemSchema), total: z.string(), cursor: pageCursorsSchema }),
});

/** Enabled templates for choosers (the contract form). */
export const selectTemplateListCall = defineCall({
  path: 'user/contract/temp/selectTemplateList',
  summary: '合同模板：启用的模板（选择用）',
  access: 'signedIn',
  body: z.strictObject({ tempName: z.string().trim().max(50).default('') }),
  data: z.array(templateItemSchema),
});

const byIdBody = z.strictObject({ id: z.number({ error: TEMPLATE_MSG.notFound }).int().positive() });

export const selectTemplateByIdCall = defineCall({
  path: 'user/contract/temp/selectTemplateById',
  summary: '合同模板：模板及其服务项目明细',
  access: 'signedIn',
  body: byIdBody,
  data: templateDetailSchema,
});

/** The same template for the contract form (contractV2). */
export const selectTemplateByIdV2Call = defineCall({
  path: 'user/contractV2/temp/selectTemplateById',
  summary: '合同模板：模板及其服务项目明细（合同表单）',
  access: 'signedIn',
  body: byIdBody,
  data: templateDetailSchema,
});

export const templateSaveBody = z
  .strictObject({
    /** Absent: add (type 1); present: edit (type 2). */
    id: z.number().int().positive().optional(),
    tempName: z
      .string({ error: TEMPLATE_MSG.nameRequired })
      .trim()
      .min(1, TEMPLATE_MSG.nameRequired)
      .max(TEMPLATE_NAME_MAX, TEMPLATE_MSG.nameTooLong),
    tempIllustration: z.string().trim().max(TEMPLATE_DESC_MAX, TEMPLATE_MSG.descTooLong).default(''),
    tempDetailList: z
      .array(templateLineInputSchema, { error: TEMPLATE_MSG.lineRequired })
      .min(1, TEMPLATE_MSG.lineRequired)
      .max(TEMPLATE_LINES_MAX, TEMPLATE_MSG.tooManyLines),
    /** Optional echo of the total the dialog shows; refused when it disagrees with the lines. */
    tempTotalPrice: z.string().trim().optional(),
  })
  .superRefine((b, ctx) => {
    const seen = new Set<number>();
    b.tempDetailList.forEach((l, i) => {
      if (seen.has(l.service)) {
        ctx.addIssue({
          code: 'custom',
          message: TEMPLATE_MSG.serviceDuplicate,
          path: ['tempDetailList', i, 'service'],
        });
      }
      seen.add(l.service);
      const price = yuanToFen(l.price);
      const discount = yuanToFen(l.discount);
      if (discount > price) {
        ctx.addIssue({ code: 'custom', message: TEMPLATE_MSG.discountTooBig, path: ['tempDetailList', i, 'discount'] });
      } else if (
        l.nowPrice !== undefined &&
        (!AMOUNT_RE.test(l.nowPrice) || yuanToFen(l.nowPrice) !== price - discount)
      ) {
        ctx.addIssue({
          code: 'custom',
          message: TEMPLATE_MSG.nowPriceMismatch,
          path: ['tempDetailList', i, 'nowPrice'],
        });
      }
    });
  });
export type TemplateSaveBody = z.input<typeof templateSaveBody>;

export const templateSaveCall = defineCall({
  path: 'user/contract/temp/saveOrUpdateTemplate',
  summary: '合同模板：新增（无id）或修改（有id）',
  // 239 add or 241 edit, decided by the id in the handler.
  access: 'contract:template:view',
  body: templateSaveBody,
  data: z.object({ id: z.number(), tempTotalPrice: z.string() }),
});

export const templateStaticCall = defineCall({
  path: 'user/contract/temp/updateTemplateStatic',
  summary: '合同模板：启用或停用（仅管理员）',
  access: 'contract:template:view',
  body: z.strictObject({ id: z.number().int().positive(), temp_static: staticFlag }),
  data: z.null(),
});

export const templateVerifySetCall = defineCall({
  path: 'user/contract/temp/updateTemplateVerifySet',
  summary: '合同模板：标记模板设置为已配置或未配置',
  access: 'contract:template:edit',
  body: z.strictObject({ id: z.number().int().positive(), isVerifySet: z.enum(['', '1']) }),
  data: z.null(),
});

export const templateDeleteCall = defineCall({
  path: 'user/contract/temp/deleteTemplate',
  summary: '合同模板：删除（已用此模板的合同保留，不再关联模板）',
  access: 'contract:template:delete',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.null(),
});

// --- import -------------------------------------------------------------------------------------

export const TEMPLATE_IMPORT_MAX = 500;
export const TEMPLATE_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Rows in one file: up to 500 templates of several lines each. */
export const TEMPLATE_IMPORT_MAX_ROWS = 10_000;
export const SERVICE_IMPORT_MAX_ROWS = 1_000;

/** Plain routes (multipart uploads and file downloads), served beside the JSON calls. */
export const CONTRACT_TEMPLATE_FILES = {
  templateImport: 'user/contract/temp/import',
  templateFailList: 'user/contract/temp/exportContractTemplateErrorData',
  templateStatic: 'static/htmb_temp.xlsx',
  serviceImport: 'user/contract/service/import',
  serviceFailList: 'user/contract/service/exportServiceItemErrorData',
  serviceTemplate: 'static/fwxm_temp.xlsx',
} as const;

/**
 * The template import file: one row per template line; rows with the same template name form one
 * template, its lines in row order. Name and description are read from the template's first row.
 */
export const TEMPLATE_IMPORT_COLUMNS = [
  '模板名称*',
  '模板说明',
  '服务项目*',
  '是否赠送',
  '单价（元）*',
  '优惠（元）',
] as const;

/** The service-item import file: one row per item; the same name updates the existing item. */
export const SERVICE_IMPORT_COLUMNS = ['服务名称*', '服务简称', '业务类型*', '单价（元）*', '状态'] as const;

export const TEMPLATE_IMPORT_MSG = {
  noFile: '请上传文件',
  badType: '文件格式有误，请检查后再上传!',
  tooLarge: '上传文件大小不能超过 5MB!',
  oneFile: '当前限制上传 1 个文件',
  header: '表头与模板不一致，请下载最新模板填写，不要修改表头',
  empty: '文件中没有可导入的数据',
  tooManyRows: (n: number) => `单次最多导入${n}行，请分批导入`,
  tooBig: '文件解压后超过 50MB，请删除无关的工作表和图片后再上传',
  busy: '本机构有文件正在解析，请稍候几秒再上传',
  notes: [
    `单次最多导入${TEMPLATE_IMPORT_MAX}个模板`,
    '请勿修改表头',
    '模板名称相同的将更新已有模板',
    '每行一个服务项目，同一模板的多行须填写相同的模板名称',
  ],
  result: (ok: number, fail: number, skip: number) => `导入成功${ok}条，失败${fail}条，未导入${skip}条`,
  overLimit: `超出单次导入上限${TEMPLATE_IMPORT_MAX}个模板，未导入`,
  failListName: '批量导入合同模板失败记录',
  serviceFailListName: '批量导入服务项目失败记录',
} as const;

export const templateImportResultSchema = z.object({
  /** Templates written (added or updated). */
  successNum: z.number(),
  /** Templates refused (any bad row refuses its template; every row of it goes to the failure file). */
  failNum: z.number(),
  /** Templates beyond the 500 limit, not imported. */
  unExport: z.number(),
  /** Key of the failure file ('' when nothing failed). */
  redisKey: z.string(),
});
export type TemplateImportResult = z.infer<typeof templateImportResultSchema>;

export const serviceImportResultSchema = templateImportResultSchema;
