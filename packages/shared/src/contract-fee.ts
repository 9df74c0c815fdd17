import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { isCalendarDay } from './validators.js';

/**
 * Receivables and charges 收费列表 (/contractFee/sfgl/sflb, business.md §1, §3, §5, §9): each contract's
 * receivable schedule per period, payments (收款) against one period, revoking them, the fee list with
 * its totals (合计), the schedule of one contract and the export. Money travels as yuan strings with two
 * decimals ("1234.50"); the server keeps and sums integer fen.
 */

// --- constants ---------------------------------------------------------------------------------

/** Page sizes of the fee tables (business.md §9, as the customer tables). */
export const FEE_PAGE_SIZES = [20, 50, 100, 500] as const;

/** Payment methods (收款方式), stored as the code. */
export const PAY_METHODS = [
  { value: '1', label: '现金' },
  { value: '2', label: '银行转账' },
  { value: '3', label: '微信' },
  { value: '4', label: '支付宝' },
  { value: '9', label: '其他' },
] as const;
export type PayMethod = (typeof PAY_METHODS)[number]['value'];
const PAY_METHOD_VALUES = PAY_METHODS.map((m) => m.value) as [PayMethod, ...PayMethod[]];
export const PAY_METHOD_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  PAY_METHODS.map((m) => [m.value, m.label]),
);

/**
 * A receivable period's state (feeStatus): 已收清 paid in full, 部分收款 partly paid, 未收款 due and
 * nothing paid, 未到期 not yet due and nothing paid. The four never overlap.
 */
export const FEE_STATUS = [
  { value: 'paid', label: '已收清', color: 'success' },
  { value: 'partial', label: '部分收款', color: 'warning' },
  { value: 'unpaid', label: '未收款', color: 'error' },
  { value: 'notDue', label: '未到期', color: 'default' },
] as const;
export type FeeStatus = (typeof FEE_STATUS)[number]['value'];
const FEE_STATUS_VALUES = FEE_STATUS.map((s) => s.value) as [FeeStatus, ...FeeStatus[]];
export const FEE_STATUS_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  FEE_STATUS.map((s) => [s.value, s.label]),
);

/** The state of a period from its amounts and due date (dates as YYYY-MM-DD compare as text). */
export function feeStatusOf(amountFen: number, paidFen: number, dueDate: string, today: string): FeeStatus {
  if (paidFen >= amountFen) return 'paid';
  if (paidFen > 0) return 'partial';
  return dueDate > today ? 'notDue' : 'unpaid';
}

/** Fee reminders (msg_sftx) go out for unpaid periods due within this many days, and for overdue ones. */
export const FEE_REMIND_DAYS = 7;

/** Plain routes (file downloads) of the fee list. */
export const FEE_FILES = { export: 'user/contractFee/exportFeeList' } as const;

/** At most this many rows in one export. */
export const FEE_EXPORT_MAX = 100_000;

export const FEE_MSG = {
  saved: '收款登记成功',
  revoked: '已撤销该笔收款',
  exported: '导出成功',
  notFound: '应收记录不存在或无权访问',
  chargeNotFound: '收款记录不存在或无权访问',
  contractNotFound: '合同不存在或无权访问',
  amountRequired: '请输入收款金额',
  amountPattern: '请输入正确的收款金额（最多两位小数）',
  amountLength: '收款金额长度不能超过10位',
  amountPositive: '收款金额须大于0',
  overpay: (unpaid: string) => `收款金额不能超过本期未收金额 ¥${unpaid}`,
  settled: '该期已收清，无需再登记收款',
  dateRequired: '请选择收款日期',
  dateFuture: '收款日期不能晚于今天',
  methodRequired: '请选择收款方式',
  receiptTaken: (no: string) => `收据编号「${no}」已被其他收款使用`,
  alreadyRevoked: '该笔收款已撤销',
  noEditRight: '您没有该合同的收费权限，请联系管理员开通收费特殊权限',
  exportTooMany: `单次最多导出${FEE_EXPORT_MAX}条，请缩小筛选范围`,
} as const;

// --- money -------------------------------------------------------------------------------------

const YUAN_RE = /^(0|[1-9]\d*)(\.\d{1,2})?$/;

/** Yuan text ("1234.5", "12", "0.05") to integer fen, exactly (no floating point); null when malformed. */
export function feeFen(yuan: string): number | null {
  const v = yuan.trim();
  if (!YUAN_RE.test(v)) return null;
  const [int = '0', dec = ''] = v.split('.');
  return Number(int) * 100 + Number(dec.padEnd(2, '0'));
}

/** Integer fen to yuan text with two decimals (123450 → "1234.50", -5 → "-0.05"). */
export function feeYuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Yuan text with thousands separators for display ("1234567.50" → "1,234,567.50"). */
export function feeYuanGrouped(yuan: string): string {
  const [int = '0', dec = '00'] = yuan.split('.');
  const neg = int.startsWith('-');
  const digits = neg ? int.slice(1) : int;
  return `${neg ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${dec}`;
}

/** A payment amount as typed: yuan, at most two decimals, above 0, at most 10 characters. */
export const feeAmountSchema = z
  .string({ error: FEE_MSG.amountRequired })
  .trim()
  .min(1, FEE_MSG.amountRequired)
  .max(10, FEE_MSG.amountLength)
  .superRefine((v, ctx) => {
    const fen = feeFen(v);
    if (fen === null) ctx.addIssue({ code: 'custom', message: FEE_MSG.amountPattern });
    else if (fen <= 0) ctx.addIssue({ code: 'custom', message: FEE_MSG.amountPositive });
  });

/** A calendar date YYYY-MM-DD that exists (2026-02-30 is refused). */
export const feeDateSchema = (required: string) =>
  z.string({ error: required }).min(1, required).refine(isCalendarDay, '请输入正确的日期（YYYY-MM-DD）');

const optionalDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '请输入正确的日期（YYYY-MM-DD）')
  .optional();

// --- shared pieces -----------------------------------------------------------------------------

const idSchema = z.number().int().positive();

const paging = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (FEE_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为20、50、100或500')
    .default(20),
  ...cursorField,
};

const commonFilter = {
  /** Enterprise name or tax number, any part. */
  keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
  contractNo: z.string().trim().max(30, '合同编号不能超过30个字符').optional(),
  /** The contract's owner (contractUserId). */
  contractUserId: idSchema.optional(),
  contractId: idSchema.optional(),
  sortOrder: z.enum(['ascend', 'descend']).optional(),
};

// --- receivables (应收) ------------------------------------------------------------------------

export const RECEIVABLE_SORT_FIELDS = ['dueDate', 'amount', 'paid', 'unpaid'] as const;

export const receivableFilterSchema = z.strictObject({
  ...commonFilter,
  feeStatus: z.enum(FEE_STATUS_VALUES).optional(),
  dueFrom: optionalDate,
  dueTo: optionalDate,
  sortField: z.enum(RECEIVABLE_SORT_FIELDS).optional(),
});
export type ReceivableFilter = z.input<typeof receivableFilterSchema>;

export const receivableItemSchema = z.object({
  id: z.number(),
  contractId: z.number(),
  contractNo: z.string(),
  htzt: z.string(),
  enterpriseId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  periodNo: z.number(),
  periodStart: z.string(),
  periodEnd: z.string(),
  dueDate: z.string(),
  /** Yuan, two decimals. */
  amount: z.string(),
  paid: z.string(),
  unpaid: z.string(),
  feeStatus: z.enum(FEE_STATUS_VALUES),
  /** The enterprise's months in arrears (contract status qfys). */
  qfys: z.number(),
  contractUserId: z.number(),
  contractUserName: z.string(),
  /** The caller may record and revoke payments of this contract. */
  editable: z.boolean(),
});
export type ReceivableItem = z.infer<typeof receivableItemSchema>;

export const receivableTotalsSchema = z.object({ amount: z.string(), paid: z.string(), unpaid: z.string() });

export const receivableListCall = defineCall({
  path: 'user/contractFee/selectReceivableList',
  summary: '收费列表：应收（按账期；筛选、排序、分页，合计为整个筛选结果）',
  access: 'fee:list:view',
  body: receivableFilterSchema.extend(paging),
  data: z.object({
    list: z.array(receivableItemSchema),
    total: z.number(),
    totals: receivableTotalsSchema,
    cursor: pageCursorsSchema,
  }),
});

// --- charges (收款记录) ------------------------------------------------------------------------

export const CHARGE_SORT_FIELDS = ['payDate', 'amount', 'createdAt'] as const;

export const chargeFilterSchema = z.strictObject({
  ...commonFilter,
  payFrom: optionalDate,
  payTo: optionalDate,
  payMethod: z.enum(PAY_METHOD_VALUES).optional(),
  /** '0' live charges only, '1' revoked only; all when left out. */
  revoked: z.enum(['0', '1']).optional(),
  sortField: z.enum(CHARGE_SORT_FIELDS).optional(),
});
export type ChargeFilter = z.input<typeof chargeFilterSchema>;

export const chargeItemSchema = z.object({
  id: z.number(),
  receivableId: z.number(),
  contractId: z.number(),
  contractNo: z.string(),
  enterpriseId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  periodNo: z.number(),
  dueDate: z.string(),
  amount: z.string(),
  payDate: z.string(),
  payMethod: z.string(),
  payer: z.string(),
  receiptNo: z.string(),
  remark: z.string(),
  operatorName: z.string(),
  createdAt: z.string(),
  revoked: z.boolean(),
  revokedAt: z.string().nullable(),
  revokedByName: z.string(),
  contractUserName: z.string(),
  editable: z.boolean(),
});
export type ChargeItem = z.infer<typeof chargeItemSchema>;

export const chargeListCall = defineCall({
  path: 'user/contractFee/selectChargeList',
  summary: '收费列表：收款记录（筛选、排序、分页，合计为整个筛选结果中未撤销的收款）',
  access: 'fee:list:view',
  body: chargeFilterSchema.extend(paging),
  data: z.object({
    list: z.array(chargeItemSchema),
    total: z.number(),
    totals: z.object({ amount: z.string() }),
    cursor: pageCursorsSchema,
  }),
});

export const saveChargeBodySchema = z.strictObject({
  receivableId: idSchema,
  /** 收款金额, yuan. */
  payAmount: feeAmountSchema,
  payDate: feeDateSchema(FEE_MSG.dateRequired),
  payMethod: z.enum(PAY_METHOD_VALUES, { error: FEE_MSG.methodRequired }),
  payer: z.string().trim().max(50, '付款人不能超过50个字符').default(''),
  /** 收据编号: unique among the agency's live charges when given. */
  receiptNo: z
    .string()
    .trim()
    .max(30, '收据编号不能超过30个字符')
    .regex(/^[\w\-/]*$/, '收据编号只能包含字母、数字、-、_、/')
    .default(''),
  remark: z.string().trim().max(200, '备注不能超过200个字符').default(''),
});
export type SaveChargeBody = z.input<typeof saveChargeBodySchema>;

export const saveChargeCall = defineCall({
  path: 'user/contractFee/saveCharge',
  summary: '收费列表：登记收款（金额不超过该期未收金额；记录审计日志）',
  access: 'fee:charge:add',
  body: saveChargeBodySchema,
  data: z.object({ id: z.number(), paid: z.string(), unpaid: z.string(), feeStatus: z.enum(FEE_STATUS_VALUES) }),
});

export const revokeChargeCall = defineCall({
  path: 'user/contractFee/revokeCharge',
  summary: '收费列表：撤销收款（该期未收金额恢复；记录审计日志）',
  access: 'fee:charge:delete',
  body: z.strictObject({
    id: idSchema,
    reason: z.string().trim().max(100, '撤销原因不能超过100个字符').default(''),
  }),
  data: z.object({ paid: z.string(), unpaid: z.string(), feeStatus: z.enum(FEE_STATUS_VALUES) }),
});

// --- one contract's schedule -------------------------------------------------------------------

export const feeScheduleCall = defineCall({
  path: 'user/contractFee/selectContractSchedule',
  summary: '收费列表：一份合同的应收计划与收款记录',
  access: 'fee:list:view',
  body: z.strictObject({ contractId: idSchema }),
  data: z.object({
    contract: z.object({
      id: z.number(),
      contractNo: z.string(),
      htzt: z.string(),
      qymc: z.string(),
      qysh: z.string(),
      signDate: z.string(),
      startDate: z.string(),
      endDate: z.string(),
      payCycle: z.number(),
      amount: z.string(),
      paid: z.string(),
      unpaid: z.string(),
      /** Due so far and not paid. */
      dueUnpaid: z.string(),
      qfys: z.number(),
      contractUserName: z.string(),
      editable: z.boolean(),
    }),
    periods: z.array(receivableItemSchema),
    charges: z.array(chargeItemSchema),
  }),
});

export const feeOwnersCall = defineCall({
  path: 'user/contractFee/getFeeOwners',
  summary: '收费列表：合同负责人选项（本机构成员）',
  access: 'fee:list:view',
  body: z.strictObject({}),
  data: z.array(z.object({ userId: z.number(), hymc: z.string() })),
});

/** The export's body: which tab and its filter. */
export const feeExportBodySchema = z.discriminatedUnion('tab', [
  receivableFilterSchema.extend({ tab: z.literal('receivable') }),
  chargeFilterSchema.extend({ tab: z.literal('charge') }),
]);
export type FeeExportBody = z.input<typeof feeExportBodySchema>;

/** Page label of the contract-status months (qfys) column. */
export const QFYS_LABEL = '欠费月数';
