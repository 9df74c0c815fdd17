import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * Work-order templates and work orders (business.md §7 "Work orders"): the one-off services an agency
 * sells (company registration, changes, deregistration, licences), tracked step by step.
 *
 * States (docs/decisions-17-17-wo.md):
 * - a step: todo 未开始 (an earlier step is open) → doing 进行中 (the current step) → done 已完成;
 * - a work order: pending 待处理 (no step done yet) → doing 进行中 (some done) → done 已完成 (all done);
 *   cancelled 已取消 by updateWorkOrderStep's cancel action (the open steps are cancelled with it).
 * Steps are completed strictly in order: only the current (first open) step can be completed.
 */

export const WO_STATES = [
  { value: 'pending', label: '待处理', color: 'default' },
  { value: 'doing', label: '进行中', color: 'processing' },
  { value: 'done', label: '已完成', color: 'success' },
  { value: 'cancelled', label: '已取消', color: 'error' },
] as const;
export type WoState = (typeof WO_STATES)[number]['value'];
export const WO_STATE_VALUES = WO_STATES.map((s) => s.value) as [WoState, ...WoState[]];
export const woStateOf = (v: string) => WO_STATES.find((s) => s.value === v);

export const STEP_STATES = [
  { value: 'todo', label: '未开始', color: 'default' },
  { value: 'doing', label: '进行中', color: 'processing' },
  { value: 'done', label: '已完成', color: 'success' },
  { value: 'cancelled', label: '已取消', color: 'error' },
] as const;
export type StepState = (typeof STEP_STATES)[number]['value'];
export const stepStateOf = (v: string) => STEP_STATES.find((s) => s.value === v);

export const WO_PAGE_SIZES = [10, 20, 50] as const;
/** The work-order list's remembered last query (getMemory/updateMemory), as the other lists keep theirs. */
export const WO_MEMORY_KEY = '/customer/swgl/workorder';
export const WO_TEMPLATE_NAME_MAX = 20;
export const WO_STEP_NAME_MAX = 20;
export const WO_STEPS_MAX = 30;
export const WO_STEP_DAYS_MAX = 365;
export const WO_REMARK_MAX = 200;
export const WO_COMMENT_MAX = 500;

export const WO_MSG = {
  templateNameRequired: '请输入模板名称',
  templateNameTooLong: `模板名称不能超过${WO_TEMPLATE_NAME_MAX}个字符`,
  templateNameTaken: '模板名称已存在，请更换名称',
  templateNotFound: '工单模板不存在或已被删除',
  templateDisabled: '工单模板已停用，请选择其他模板',
  stepRequired: '请至少添加一个步骤',
  tooManySteps: `每个模板最多${WO_STEPS_MAX}个步骤`,
  stepNameRequired: '请输入步骤名称',
  stepNameTooLong: `步骤名称不能超过${WO_STEP_NAME_MAX}个字符`,
  stepDays: `预计天数须为1到${WO_STEP_DAYS_MAX}的整数`,
  stationUnknown: '岗位不存在，请重新选择',
  serviceUnknown: '服务项目不存在，请重新选择',
  serviceTaken: (name: string) => `服务项目「${name}」已关联其他工单模板`,
  deleteTemplateConfirm: '此操作将删除此工单模板, 是否继续?',
  deleteOrderConfirm: '此操作将删除此工单及其步骤记录, 是否继续?',
  notFound: '工单不存在或无权访问',
  stepNotFound: '工单步骤不存在或无权访问',
  clientRequired: '请选择客户',
  templateRequired: '请选择工单模板',
  assigneeUnknown: '处理人不是本机构的成员，请重新选择',
  lineUnknown: '合同服务项目不存在或无权访问',
  lineTaken: '该合同服务项目已发起工单',
  lineNoTemplate: '该服务项目未关联工单模板，请选择工单模板（或先在工单模板中关联该服务项目）',
  outOfOrder: '请按顺序处理：前面的步骤尚未完成',
  stepDone: '该步骤已完成',
  orderClosed: '工单已完成或已取消，不能再处理',
  notAssignee: '只有该步骤的处理人或客户负责人可以处理此步骤',
  commentTooLong: `处理意见不能超过${WO_COMMENT_MAX}个字符`,
  saved: '保存成功',
  added: '新增成功',
  deleted: '删除成功',
  updated: '更新成功',
  stepCompleted: '步骤已完成',
  statusOn: '已启用',
  statusOff: '已停用',
  cancelled: '工单已取消',
} as const;

// --- templates ---------------------------------------------------------------------------------

export const woTemplateStepSchema = z.object({
  id: z.number(),
  name: z.string(),
  stationId: z.number().nullable(),
  stationName: z.string(),
  days: z.number(),
});
export type WoTemplateStep = z.infer<typeof woTemplateStepSchema>;

export const woTemplateSchema = z.object({
  id: z.number(),
  name: z.string(),
  remark: z.string(),
  /** '1' enabled, '0' disabled. */
  status: z.enum(['0', '1']),
  steps: z.array(woTemplateStepSchema),
  /** Linked service items (a contract line of one of these can start a work order from this template). */
  services: z.array(z.object({ id: z.number(), serviceName: z.string() })),
  /** Sum of the steps' expected days. */
  totalDays: z.number(),
  updatedAt: z.string(),
});
export type WoTemplate = z.infer<typeof woTemplateSchema>;

export const woTemplateListCall = defineCall({
  path: 'user/workorder/selectWorkOrderTemplateList',
  summary: '工单模板：列表（按名称、状态筛选）',
  // Read by the new-work-order dialog too (only enabled ones there).
  access: 'signedIn',
  body: z.strictObject({
    name: z.string().trim().max(50).default(''),
    status: z.enum(['', '0', '1']).default(''),
  }),
  data: z.object({ list: z.array(woTemplateSchema), total: z.number() }),
});

export const woTemplateByIdCall = defineCall({
  path: 'user/workorder/selectWorkOrderTemplateById',
  summary: '工单模板：模板及其步骤',
  access: 'signedIn',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: woTemplateSchema,
});

export const woTemplateStepInput = z.strictObject({
  name: z
    .string({ error: WO_MSG.stepNameRequired })
    .trim()
    .min(1, WO_MSG.stepNameRequired)
    .max(WO_STEP_NAME_MAX, WO_MSG.stepNameTooLong),
  stationId: z.number().int().positive().nullable().default(null),
  days: z
    .number({ error: WO_MSG.stepDays })
    .int(WO_MSG.stepDays)
    .min(1, WO_MSG.stepDays)
    .max(WO_STEP_DAYS_MAX, WO_MSG.stepDays),
});

export const woTemplateSaveBody = z.strictObject({
  name: z
    .string({ error: WO_MSG.templateNameRequired })
    .trim()
    .min(1, WO_MSG.templateNameRequired)
    .max(WO_TEMPLATE_NAME_MAX, WO_MSG.templateNameTooLong),
  remark: z.string().trim().max(WO_REMARK_MAX, `说明不能超过${WO_REMARK_MAX}个字符`).default(''),
  steps: z
    .array(woTemplateStepInput, { error: WO_MSG.stepRequired })
    .min(1, WO_MSG.stepRequired)
    .max(WO_STEPS_MAX, WO_MSG.tooManySteps),
  serviceIds: z.array(z.number().int().positive()).max(50).default([]),
});
export type WoTemplateSaveBody = z.input<typeof woTemplateSaveBody>;

export const woTemplateAddCall = defineCall({
  path: 'user/workorder/addWorkOrderTemplate',
  summary: '工单模板：新增',
  access: 'workorder:template:edit',
  body: woTemplateSaveBody,
  data: z.object({ id: z.number() }),
});

export const woTemplateUpdateCall = defineCall({
  path: 'user/workorder/updateWorkOrderTemplate',
  summary: '工单模板：修改（已发起的工单保留自己的步骤）',
  access: 'workorder:template:edit',
  body: woTemplateSaveBody.extend({ id: z.number().int().positive() }),
  data: z.object({ id: z.number() }),
});

export const woTemplateStatusCall = defineCall({
  path: 'user/workorder/updateWorkOrderTemplateStatus',
  summary: '工单模板：启用或停用',
  access: 'workorder:template:edit',
  body: z.strictObject({ id: z.number().int().positive(), status: z.enum(['0', '1'], { error: '状态须为0或1' }) }),
  data: z.null(),
});

export const woTemplateDeleteCall = defineCall({
  path: 'user/workorder/deleteWorkOrderTemplate',
  summary: '工单模板：删除（已发起的工单保留，不再关联模板）',
  access: 'workorder:template:delete',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.null(),
});

export const woTemplateServiceCall = defineCall({
  path: 'user/workorder/getWorkOrderTemplateService',
  summary: '工单模板：服务项目及其关联的工单模板',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.array(
    z.object({
      id: z.number(),
      serviceName: z.string(),
      jobType: z.string(),
      templateId: z.number().nullable(),
      templateName: z.string(),
    }),
  ),
});

// --- work orders -------------------------------------------------------------------------------

export const woAttachmentSchema = z.object({
  id: z.number(),
  fileName: z.string(),
  size: z.number(),
  stepId: z.number(),
  uploadedAt: z.string(),
});
export type WoAttachment = z.infer<typeof woAttachmentSchema>;

export const woStepSchema = z.object({
  id: z.number(),
  sort: z.number(),
  name: z.string(),
  stationName: z.string(),
  assigneeId: z.number().nullable(),
  assigneeName: z.string(),
  days: z.number(),
  /** YYYY-MM-DD, set when the step becomes current. */
  dueDate: z.string().nullable(),
  state: z.enum(['todo', 'doing', 'done', 'cancelled']),
  overdue: z.boolean(),
  comment: z.string(),
  doneByName: z.string(),
  doneAt: z.string().nullable(),
  attachments: z.array(woAttachmentSchema),
});
export type WoStep = z.infer<typeof woStepSchema>;

export const woItemSchema = z.object({
  id: z.number(),
  orderNo: z.string(),
  enterpriseId: z.number(),
  qymc: z.string(),
  templateId: z.number().nullable(),
  templateName: z.string(),
  contractNo: z.string(),
  state: z.enum(WO_STATE_VALUES),
  /** The current step's name and assignee ('' when none is open). */
  currentStep: z.string(),
  currentAssignee: z.string(),
  doneSteps: z.number(),
  totalSteps: z.number(),
  overdue: z.boolean(),
  remark: z.string(),
  createdByName: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type WoItem = z.infer<typeof woItemSchema>;

export const woDetailSchema = woItemSchema.extend({ steps: z.array(woStepSchema) });
export type WoDetail = z.infer<typeof woDetailSchema>;

export const woFilterSchema = z.strictObject({
  state: z.enum(['', ...WO_STATE_VALUES]).default(''),
  templateId: z.number().int().positive().optional(),
  assigneeId: z.number().int().positive().optional(),
  enterpriseId: z.number().int().positive().optional(),
  /** Client name or order number. */
  keyword: z.string().trim().max(50).default(''),
  overdue: z.boolean().default(false),
});
export type WoFilter = z.input<typeof woFilterSchema>;

export const woListCall = defineCall({
  path: 'user/workorder/selectWorkOrderList',
  summary: '工单：分页列表（状态、模板、处理人、客户、逾期筛选）',
  access: 'workorder:list:view',
  body: woFilterSchema.extend({
    pageNo: z.number().int().min(1, '页码须为正整数').default(1),
    pageSize: z
      .number()
      .int()
      .refine((n) => (WO_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为10、20或50')
      .default(WO_PAGE_SIZES[0]),
    ...cursorField,
  }),
  data: z.object({
    list: z.array(woItemSchema),
    total: z.number(),
    cursor: pageCursorsSchema,
    /** Counts by state within the filter's other conditions (the board's column heads). */
    counts: z.record(z.string(), z.number()),
  }),
});

export const woAddBody = z
  .strictObject({
    enterpriseId: z.number({ error: WO_MSG.clientRequired }).int().positive(WO_MSG.clientRequired).optional(),
    templateId: z.number({ error: WO_MSG.templateRequired }).int().positive().optional(),
    /** Start from a contract line instead: client and template come from it. */
    contractLineId: z.number().int().positive().optional(),
    remark: z.string().trim().max(WO_REMARK_MAX, `备注不能超过${WO_REMARK_MAX}个字符`).default(''),
    /** Assignees by step position (0-based); absent: by the step's station. */
    assignees: z.array(z.number().int().positive().nullable()).max(WO_STEPS_MAX).default([]),
  })
  .superRefine((b, ctx) => {
    if (b.contractLineId === undefined) {
      if (b.enterpriseId === undefined)
        ctx.addIssue({ code: 'custom', message: WO_MSG.clientRequired, path: ['enterpriseId'] });
      if (b.templateId === undefined)
        ctx.addIssue({ code: 'custom', message: WO_MSG.templateRequired, path: ['templateId'] });
    }
  });
export type WoAddBody = z.input<typeof woAddBody>;

export const woAddCall = defineCall({
  path: 'user/workorder/addWorkOrder',
  summary: '工单：新建（按模板或合同服务项目），通知各步骤处理人',
  access: 'workorder:add',
  body: woAddBody,
  data: z.object({ id: z.number(), orderNo: z.string() }),
});

export const woOrderNumCall = defineCall({
  path: 'user/workorder/getOrderNum',
  summary: '工单：下一个工单编号（预览；新建时才占用）',
  access: 'workorder:add',
  body: z.strictObject({}),
  data: z.object({ orderNo: z.string() }),
});

export const woServiceCall = defineCall({
  path: 'user/workorder/getWorkOrderService',
  summary: '工单：合同的服务项目、关联的工单模板与已发起的工单',
  access: 'workorder:list:view',
  body: z.strictObject({
    contractId: z.number().int().positive().optional(),
    enterpriseId: z.number().int().positive().optional(),
  }),
  data: z.array(
    z.object({
      lineId: z.number(),
      contractId: z.number(),
      contractNo: z.string(),
      serviceName: z.string(),
      templateId: z.number().nullable(),
      templateName: z.string(),
      workOrderId: z.number().nullable(),
      orderNo: z.string(),
    }),
  ),
});

export const woByIdCall = defineCall({
  path: 'user/workorder/selectWorkOrderById',
  summary: '工单：详情及步骤',
  access: 'workorder:list:view',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: woDetailSchema,
});

export const woCheckStepCall = defineCall({
  path: 'user/workorder/checkWorkOrderStepById',
  summary: '工单：检查步骤能否由本人处理（按顺序、处理人）',
  access: 'workorder:step',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.object({ ok: z.boolean(), msg: z.string() }),
});

export const woUpdateStepCall = defineCall({
  path: 'user/workorder/updateWorkOrderStep',
  summary: '工单：处理步骤（完成、改处理人、备注），或取消工单',
  access: 'workorder:step',
  body: z.strictObject({
    id: z.number().int().positive(),
    action: z.enum(['complete', 'assign', 'comment', 'cancel']),
    assigneeId: z.number().int().positive().optional(),
    comment: z.string().trim().max(WO_COMMENT_MAX, WO_MSG.commentTooLong).default(''),
  }),
  data: z.object({ orderState: z.enum(WO_STATE_VALUES) }),
});

export const woDeleteCall = defineCall({
  path: 'user/workorder/deleteWorkOrder',
  summary: '工单：删除',
  access: 'workorder:delete',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.null(),
});

// --- files -------------------------------------------------------------------------------------

export const WO_FILES = {
  /** ?kind=template|order */
  import: 'user/workorder/import',
  failList: 'user/workorder/exportWorkOrderTemplateErrorData',
  templateStatic: 'static/gdmb_temp.xlsx',
  orderStatic: 'static/gd_temp.xlsx',
  attachmentUpload: 'user/workorder/uploadStepAttachment',
  attachmentDownload: 'files/workorder-attachment',
} as const;

export const WO_IMPORT_MAX_ROWS = 2000;
export const WO_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const WO_ATTACHMENTS_PER_STEP = 10;

/** One row per step; rows with the same template name form one template, steps in row order. */
export const WO_TEMPLATE_IMPORT_COLUMNS = ['模板名称*', '步骤名称*', '岗位', '预计天数*', '关联服务项目'] as const;
/** One row per work order. */
export const WO_ORDER_IMPORT_COLUMNS = ['企业税号*', '工单模板*', '备注'] as const;

export const WO_IMPORT_MSG = {
  failListName: '批量导入工单失败记录',
  templateFailListName: '批量导入工单模板失败记录',
  result: (ok: number, fail: number, skip: number) => `导入成功${ok}条，失败${fail}条，未导入${skip}条`,
} as const;

export const woImportResultSchema = z.object({
  successNum: z.number(),
  failNum: z.number(),
  unExport: z.number(),
  redisKey: z.string(),
});
export type WoImportResult = z.infer<typeof woImportResultSchema>;
