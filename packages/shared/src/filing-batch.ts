import { z } from 'zod';
import type { ReturnFigures } from './bureau.js';
import { defineCall } from './call.js';
import { taxFenToYuan, taxYuanToFen } from './declare-data.js';
import { addMonths, FILING_TAX_TYPES, type FilingCycle, type FilingTaxType } from './filing-calendar.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { type CityLocation, iitYear, isStampKind, type STAMP_RATES_PER_MILLION, stampDuty } from './tax-compute.js';
import { generalVatReturn, SMALL_SCALE_VAT_RULES, smallScaleReturn, smallScaleRuleOf } from './tax-rules-vat.js';

/**
 * 批量申报 (issue 14; tax-bureau.md §2 the batch income-tax dialog and the multi-tax dialog, §4 the batch
 * wizard and the individual update, §7 "Batch declaration"): a *plan* of returns (one *item* per client,
 * tax type and 所属期) filled from the bureau by a *generate run*, reviewed and edited, then filed by a
 * *file run* and paid by a *pay run* — each run one background job per client on queue `filing-run`.
 * A run's id, as text, is the spec's `redisKey`. Money on the wire: yuan text with two decimals.
 */

// --- constants ---------------------------------------------------------------------------------

/** The job queue of every plan run (one job per run and client, key `${runId}:${enterpriseId}`). */
export const FILING_RUN_QUEUE = 'filing-run';
/** The push type of run progress: data is a FilingRunRate. */
export const FILING_RUN_PUSH_TYPE = 'filing-run';
/** The wizard's progress poll (tax-bureau.md §2: about every 2.5 s) and the update dialog's (2 s). */
export const FILING_RUN_POLL_MS = 2500;
export const FILING_UPDATE_POLL_MS = 2000;
/** The update dialog gives a client up after this many polls without an outcome (数据更新失败). */
export const FILING_UPDATE_EMPTY_POLLS = 10;
/** The wizard's month picker: 所属期 from 2019-08 to the month before the current one (docs/decisions/declarations.md "Period ssq"). */
export const GRSDS_SSQ_MIN = '2019-08';
/** At most this many clients chosen by hand in one plan. */
export const FILING_PLAN_SELECT_MAX = 5000;
/** The web's localStorage key of the wizard's running generation (deleted on cancel/close). */
export const FILING_WIZARD_STORAGE_KEY = 'dzy.grsds.redisKey';

export const PLAN_KINDS = ['multi', 'grsds'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];
export const PLAN_STATES = ['generating', 'ready', 'cancelled'] as const;
export type PlanState = (typeof PLAN_STATES)[number];
export const PLAN_STATE_NAMES: Readonly<Record<PlanState, string>> = {
  generating: '生成中',
  ready: '已生成',
  cancelled: '已取消',
};

export const RUN_KINDS = ['generate', 'file', 'pay', 'update'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const RUN_KIND_NAMES: Readonly<Record<RunKind, string>> = {
  generate: '生成申报计划',
  file: '申报',
  pay: '缴款',
  update: '更新数据',
};
export const RUN_STATES = ['running', 'done', 'stopped'] as const;
export type RunState = (typeof RUN_STATES)[number];

/** Where an item's figures come from. */
export const ITEM_SOURCES = ['wages', 'invoices', 'typed', 'zero', 'books'] as const;
export type ItemSource = (typeof ITEM_SOURCES)[number];
export const ITEM_SOURCE_NAMES: Readonly<Record<ItemSource, string>> = {
  wages: '上月工资',
  invoices: '发票数据',
  typed: '手工录入',
  zero: '零申报',
  books: '账簿数据',
};

export const ITEM_STATES = [
  'pending',
  'planned',
  'needsInput',
  'planFailed',
  'submitting',
  'filed',
  'rejected',
  'dropped',
] as const;
export type ItemState = (typeof ITEM_STATES)[number];
export const ITEM_STATE_NAMES: Readonly<Record<ItemState, string>> = {
  pending: '生成中',
  planned: '待申报',
  needsInput: '待补录',
  planFailed: '生成失败',
  submitting: '申报中',
  filed: '申报成功',
  rejected: '申报失败',
  dropped: '不申报',
};

export const PAY_STATES = ['none', 'paying', 'paid', 'refused', 'nothing'] as const;
export type PayState = (typeof PAY_STATES)[number];
export const PAY_STATE_NAMES: Readonly<Record<PayState, string>> = {
  none: '未缴款',
  paying: '缴款中',
  paid: '已缴款',
  refused: '缴款失败',
  nothing: '无需缴款',
};

/** 客户确认 states of an item (the same as filing-confirm.ts's CONFIRM_STATES). */
const ITEM_CONFIRM_STATES = ['none', 'sent', 'confirmed', 'disputed'] as const;

/** Every message of the batch (what the user reads). */
export const FILING_BATCH_MSG = {
  chooseEnterprise: '请选择企业',
  chooseTaxType: '请至少选择一个税种',
  ssqFormat: '请选择所属期（yyyy-MM）',
  ssqRange: `所属期须在${GRSDS_SSQ_MIN}至上月之间`,
  notYours: '只能为您负责的企业申报',
  noEnterprise: '没有可申报的企业（企业须有税号且在服务中）',
  nothingDue: '所选企业和税种没有待申报的申报表，请先同步申报状态',
  allBlocked: '所选企业均因合同欠费、到期或无有效合同被限制申报，请续费、新建合同或在合同提醒设置中调整',
  planNotFound: '申报计划不存在',
  itemNotFound: '申报表不存在',
  runNotFound: '任务不存在',
  planCancelled: '该申报计划已取消',
  planGenerating: '申报计划正在生成，请稍候',
  busyRunning: '该申报计划已有任务正在进行，请等待完成',
  itemLocked: '该申报表已提交申报，不能修改',
  nothingToFile: '没有可申报的申报表（待补录、待客户确认的申报表不会申报）',
  nothingToRetry: '没有申报失败的申报表',
  nothingToPay: '没有需要缴款的申报表（已申报且应补税额大于0）',
  lateNoticeRequired: '所选申报表中有逾期申报，请确认逾期申报告知后再申报',
  notIitPlan: '只能更新个人所得税申报表',
  // item messages
  needsInput: '待补录',
  needsInputVat: '一般纳税人须录入本期进项税额',
  needsInputTyped: '请录入申报数据或标记为零申报',
  waitingClient: '待客户确认',
  generated: '数据已生成',
  generatedZero: '本期无数据，按零申报',
  generateFailed: '数据生成失败',
  updateFailed: '数据更新失败',
  filed: '申报成功',
  alreadyFiled: '申报成功（税务局已有该所属期的申报）',
  filedFromLedger: '申报成功（本机构已申报过该所属期）',
  paid: '缴款成功',
  alreadyPaid: '缴款成功（该税款已缴纳）',
  nothingToPayItem: '本期无应缴税款',
  noPersons: '没有在职人员，按零申报',
  estimate: '预估',
  dropped: '已移出本次申报',
  stopped: '已停止',
  // the confirm dialog (确认申报)
  confirmTitle: '确认申报',
  confirmText: (n: number, total: string, flagged: number, waiting: number) =>
    `将申报${n}张申报表，应补(退)税额合计${total}元；其中${flagged}张与上期相比变化较大，${waiting}张待客户确认（待客户确认的不会申报）。确认申报吗？`,
  confirmLate: (n: number) => `其中${n}张已逾期，将附逾期申报告知办理逾期申报。`,
  confirmStarted: '已开始申报',
  payStarted: '已开始缴款',
  generateStarted: '已开始生成申报计划',
  retryStarted: '已开始重新申报失败的申报表',
} as const;

/** Validation messages of typed figures. */
export const SBSJ_MSG = {
  money: '金额须为数字，最多两位小数',
  moneyNonNegative: '金额须为不小于0的数字，最多两位小数',
  required: (field: string) => `请录入${field}`,
  vatNoSales: '请至少录入一项销售额，或标记为零申报',
  iitNoPerson: '请至少录入一名人员的工资',
  iitDuplicate: (zjhm: string) => `人员${zjhm}重复`,
  profit: '利润总额须等于营业收入减营业成本',
  balance: '资产总计须等于负债合计加所有者权益合计',
  stampKind: (htlx: string) => `未知的印花税税目：${htlx}`,
  stampNone: '请至少录入一项应税合同',
  staff: '从业人数须为不小于0的整数',
  unknownField: '申报数据含有无法识别的项目',
} as const;

/** The names of the figures (sbsj fields) in messages and forms. */
export const SBSJ_FIELD_NAMES: Readonly<Record<string, string>> = {
  ry: '人员',
  zjhm: '证件号码',
  xm: '姓名',
  sre: '本期收入',
  sxyj: '三险一金',
  zxfjkc: '专项附加扣除',
  qtkc: '其他扣除',
  ppxse: '普票及未开票销售额（1%）',
  zpxse: '专票销售额（1%）',
  ppxse3: '普票及未开票销售额（3%）',
  zpxse3: '专票销售额（3%）',
  ppxse5: '普票及未开票销售额（5%）',
  zpxse5: '专票销售额（5%）',
  xse13: '13%税率销售额',
  xse9: '9%税率销售额',
  xse6: '6%税率销售额',
  jxse: '本期进项税额',
  xwqy: '小型微利企业',
  yysr: '营业收入',
  yycb: '营业成本',
  lrze: '利润总额',
  tdywynssde: '特定业务计算的应纳税所得额',
  bzssr: '不征税收入',
  mssr: '免税收入、减计收入、加计扣除',
  jszjtje: '资产加速折旧、摊销（扣除）调减额',
  sdjm: '所得减免',
  mbyqndks: '弥补以前年度亏损',
  kcfs: '减除费用方式',
  qnycxjj: '全年一次性奖金',
  lw: '劳务报酬',
  cyrs: '从业人数',
  zcze: '资产总计',
  fzze: '负债合计',
  syzqy: '所有者权益合计',
  jlr: '净利润',
  ht: '应税合同',
  htlx: '税目',
  je: '计税金额',
  srze: '收入总额',
  ybtse: '应补(退)税额',
};

// --- figures: what each type's sbsj holds, validated, and the plan's estimate -------------------

const money = z
  .string()
  .trim()
  .regex(/^-?\d{1,13}(\.\d{1,2})?$/, SBSJ_MSG.money);
const amount = z
  .string()
  .trim()
  .regex(/^\d{1,13}(\.\d{1,2})?$/, SBSJ_MSG.moneyNonNegative);

export const iitSbsjSchema = z.strictObject({
  ry: z
    .array(
      z.strictObject({
        zjhm: z.string().trim().min(1).max(30),
        /** Shown only (the bureau matches on zjhm). */
        xm: z.string().max(50).optional(),
        sre: amount,
        sxyj: amount.optional(),
        zxfjkc: amount.optional(),
        qtkc: amount.optional(),
        /** 累计减除费用 rule (公告2020年第13号 firstJob, 第19号 prior60k); absent: 5,000 a month employed */
        kcfs: z.enum(['standard', 'firstJob', 'prior60k']).optional(),
        /** 全年一次性奖金 单独计税 (公告2023年第30号): the bonus paid this month, taxed alone */
        qnycxjj: amount.optional(),
      }),
    )
    .min(1, SBSJ_MSG.iitNoPerson)
    .max(10_000),
  /** 劳务报酬 paid this month (预扣率表二) to people who are not employees */
  lw: z
    .array(z.strictObject({ zjhm: z.string().trim().min(1).max(30), xm: z.string().max(50).optional(), sre: amount }))
    .max(10_000)
    .optional(),
});
/** Small-scale VAT by 征收率: 1 % (减按1%), 3 % (放弃减税的3%专票, or sales the reduction excludes), 5 %. */
export const smallVatSbsjSchema = z.strictObject({
  ppxse: amount.optional(),
  zpxse: amount.optional(),
  ppxse3: amount.optional(),
  zpxse3: amount.optional(),
  ppxse5: amount.optional(),
  zpxse5: amount.optional(),
});
export const generalVatSbsjSchema = z.strictObject({
  xse13: amount.optional(),
  xse9: amount.optional(),
  xse6: amount.optional(),
  jxse: amount,
  xwqy: z.boolean().optional(),
});
/**
 * A200000 (国家税务总局公告2021年第3号): 营业收入, 营业成本 and 利润总额 each as on the 利润表 (利润总额 is after
 * 税金及附加, 期间费用 and 营业外收支, so it is not 营业收入 − 营业成本); lines 4-9 optional (0 when absent).
 */
export const citSbsjSchema = z.strictObject({
  yysr: amount,
  yycb: amount,
  lrze: money,
  tdywynssde: amount.optional(),
  bzssr: amount.optional(),
  mssr: amount.optional(),
  jszjtje: amount.optional(),
  sdjm: amount.optional(),
  mbyqndks: amount.optional(),
  cyrs: z.number().int().min(0, SBSJ_MSG.staff).max(1_000_000).optional(),
  zcze: amount.optional(),
});
export const statementSbsjSchema = z
  .strictObject({ zcze: amount, fzze: money, syzqy: money, yysr: amount, jlr: money })
  .refine((f) => toFen(f.zcze) === toFen(f.fzze) + toFen(f.syzqy), { message: SBSJ_MSG.balance, path: ['zcze'] });
export const stampSbsjSchema = z.strictObject({
  ht: z
    .array(
      z.strictObject({
        htlx: z.string().refine(isStampKind, { error: (i) => SBSJ_MSG.stampKind(String(i.input)) }),
        je: amount,
      }),
    )
    .min(1, SBSJ_MSG.stampNone)
    .max(20),
  xwqy: z.boolean().optional(),
});
export const plainSbsjSchema = z.strictObject({ srze: amount.optional(), ybtse: amount.optional() });

/** The figures schema of a type (VAT by 纳税人类型: '0' general, '1' small-scale). */
export function sbsjSchemaOf(taxType: FilingTaxType, nsrlx: '0' | '1'): z.ZodType {
  switch (taxType) {
    case 'grsds':
      return iitSbsjSchema;
    case 'zzs':
      return nsrlx === '0' ? generalVatSbsjSchema : smallVatSbsjSchema;
    case 'qysds':
      return citSbsjSchema;
    case 'cwbb':
      return statementSbsjSchema;
    case 'yhs':
      return stampSbsjSchema;
    default:
      return plainSbsjSchema;
  }
}

const toFen = (yuan: string | undefined) => (yuan ? (taxYuanToFen(yuan) ?? 0) : 0);

/** The small-scale VAT figures, one per 征收率 and invoice kind. */
export const SMALL_VAT_FIELDS = ['ppxse', 'zpxse', 'ppxse3', 'zpxse3', 'ppxse5', 'zpxse5'] as const;

/** Typed figures checked for the item's type; the first problem as a message. */
export function validateSbsj(
  taxType: FilingTaxType,
  nsrlx: '0' | '1',
  sbsj: unknown,
): { ok: true; sbsj: ReturnFigures } | { ok: false; msg: string } {
  const r = sbsjSchemaOf(taxType, nsrlx).safeParse(sbsj);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = [...(issue?.path ?? [])].reverse().find((k) => typeof k === 'string');
    const name = field ? (SBSJ_FIELD_NAMES[field] ?? field) : '';
    const msg =
      issue?.code === 'unrecognized_keys'
        ? SBSJ_MSG.unknownField
        : issue?.code === 'invalid_type' && name
          ? SBSJ_MSG.required(name)
          : name && issue?.code === 'invalid_format'
            ? `${name}：${issue.message}`
            : (issue?.message ?? SBSJ_MSG.unknownField);
    return { ok: false, msg };
  }
  const v = r.data as Record<string, unknown>;
  if (taxType === 'zzs' && nsrlx === '1' && !SMALL_VAT_FIELDS.some((k) => v[k] !== undefined))
    return { ok: false, msg: SBSJ_MSG.vatNoSales };
  if (taxType === 'grsds') {
    const seen = new Set<string>();
    for (const p of (v as { ry: { zjhm: string }[] }).ry) {
      if (seen.has(p.zjhm)) return { ok: false, msg: SBSJ_MSG.iitDuplicate(p.zjhm) };
      seen.add(p.zjhm);
    }
  }
  return { ok: true, sbsj: v as ReturnFigures };
}

/** One person of the copied month, for the IIT estimate (fen). */
export interface IitEstimatePerson {
  zjhm: string;
  /** 任职受雇日期 YYYY-MM-DD */
  rzrq: string;
  sre: number;
  sxyj: number;
  zxfjkc: number;
  qtkc: number;
}

/**
 * The IIT estimate of a month (累计预扣法): each person assumed paid the copied wages and deductions in
 * every month of the year employed up to the 所属期 month (from January, or from the month of rzrq
 * within the year). The bureau computes the filed figure from what it holds; this is labelled 预估.
 */
export function iitEstimate(persons: readonly IitEstimatePerson[], ssqMonth: string) {
  const year = ssqMonth.slice(0, 4);
  const month = Number(ssqMonth.slice(5, 7));
  let srze = 0;
  let ybtse = 0;
  for (const p of persons) {
    const first = p.rzrq.slice(0, 4) === year ? Math.max(1, Number(p.rzrq.slice(5, 7))) : 1;
    const n = Math.max(1, month - first + 1);
    const months = Array.from({ length: n }, () => ({
      income: p.sre,
      special: p.sxyj,
      additional: p.zxfjkc,
      other: p.qtkc,
    }));
    const res = iitYear(months);
    srze += p.sre;
    ybtse += res[res.length - 1]?.tax ?? 0;
  }
  return { srze, ybtse };
}

/**
 * The plan's figures of an item (fen): 收入总额 and 应补(退)税额 estimated from sbsj by the rules of the
 * 所属期 (skssqz: tax-rules-vat.ts chooses the small-scale rule and the surtax halving by it; without it, the
 * first rule row — periods before 2026). VAT's surtaxes by surtaxFor (the books' 计提附加税 use it too). The
 * surtaxes use the city rate (7%; the bureau knows the client's location and computes the filed figure).
 * IIT items carry their estimate (iitEstimate) and are not recomputed here.
 */
export function planFigures(
  taxType: FilingTaxType,
  nsrlx: '0' | '1',
  cycle: FilingCycle,
  sbsj: ReturnFigures,
  location: CityLocation = 'city',
  skssqz: string = (SMALL_SCALE_VAT_RULES[0] as { to: string }).to,
): { srze: number; ybtse: number } {
  const f = sbsj as Record<string, unknown>;
  const fen = (k: string) => toFen(f[k] as string | undefined);
  const vatCycle = cycle === 'month' ? 'month' : 'quarter';
  switch (taxType) {
    case 'zzs': {
      if (nsrlx === '1') {
        const r = smallScaleReturn({
          skssqq: skssqz,
          skssqz,
          cycle: vatCycle,
          r1: { pp: fen('ppxse'), zp: fen('zpxse') },
          r3: { pp: fen('ppxse3'), zp: fen('zpxse3') },
          r5: { pp: fen('ppxse5'), zp: fen('zpxse5') },
          location,
        });
        return { srze: r.sales, ybtse: r.total };
      }
      const r = generalVatReturn({
        sales: [
          { amount: fen('xse13'), ratePermille: 130 },
          { amount: fen('xse9'), ratePermille: 90 },
          { amount: fen('xse6'), ratePermille: 60 },
        ],
        inputTax: fen('jxse'),
        location,
        halved: f.xwqy === true,
        cycle: vatCycle,
        skssqz,
      });
      return { srze: r.sales, ybtse: r.total };
    }
    case 'yhs': {
      const ht = (f.ht as { htlx: string; je: string }[] | undefined) ?? [];
      const r = stampDuty(
        ht
          .filter((h) => isStampKind(h.htlx))
          .map((h) => ({ kind: h.htlx as keyof typeof STAMP_RATES_PER_MILLION, amount: toFen(h.je) })),
        nsrlx === '1' || f.xwqy === true,
      );
      return { srze: r.amount, ybtse: r.tax };
    }
    case 'qysds':
      // The prepayment depends on the earlier quarters the bureau holds: the plan shows the revenue only.
      return { srze: fen('yysr'), ybtse: 0 };
    case 'cwbb':
      return { srze: fen('yysr'), ybtse: 0 };
    case 'grsds': {
      const ry = (f.ry as { sre: string }[] | undefined) ?? [];
      return { srze: ry.reduce((s, p) => s + toFen(p.sre), 0), ybtse: 0 };
    }
    default:
      return { srze: fen('srze'), ybtse: fen('ybtse') };
  }
}

/** Flagged when |new − prev| > percent % of prev, or prev = 0 and new > 0 (fen). */
export function changeFlagged(now: number, prev: number | null, percent: number): boolean {
  if (prev === null) return false;
  if (prev === 0) return now > 0;
  return Math.abs(now - prev) * 100 > Math.abs(prev) * percent;
}

/** The small-scale exemption line of a cycle in a 所属期, yuan text (shown beside the VAT figure). */
export const smallScaleThresholdText = (cycle: 'month' | 'quarter', skssqz: string) =>
  taxFenToYuan(smallScaleRuleOf(skssqz).thresholdFen[cycle]);

/** The latest 所属期 month a grsds plan may be for: the month before today's. */
export const grsdsSsqMax = (today: string) => addMonths(today.slice(0, 7), -1);

/**
 * The wizard's month picker (tax-bureau.md §2, §5): the 所得月份 — the month the wages were earned — from
 * 2019-08 up to two months before now. Wages are paid the month after (次月发放, the usual practice), so
 * their tax belongs to the next month (税款所属期) and is filed the month after that: in November the
 * picker ends at September, whose wages paid in October make the October return filed now.
 */
export const GRSDS_INCOME_MONTH_MIN = '2019-08';
export const grsdsIncomeMonthMax = (today: string) => addMonths(today.slice(0, 7), -2);
/** The 税款所属期 of a 所得月份 (wages paid the month after). */
export const grsdsSsqOfIncomeMonth = (incomeMonth: string) => addMonths(incomeMonth, 1);

// --- schemas -----------------------------------------------------------------------------------

const idSchema = z.number().int().positive();
const typeSchema = z.enum(FILING_TAX_TYPES);
const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, FILING_BATCH_MSG.ssqFormat);
const redisKeySchema = z.string().regex(/^\d{1,10}$/, FILING_BATCH_MSG.runNotFound);
const PAGE_SIZES = [10, 20, 50, 100] as const;
const paging = {
  pageNum: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数须为10、20、50或100')
    .default(20),
  ...cursorField,
};

/** A run's progress (getBatchMsgByRedisKey; also the push of type filing-run). */
export const filingRunRateSchema = z.object({
  redisKey: z.string(),
  planId: z.number(),
  kind: z.enum(RUN_KINDS),
  state: z.enum(RUN_STATES),
  totalNum: z.number(),
  successNum: z.number(),
  failNum: z.number(),
  completeNum: z.number(),
  /** Percent done, 0-100. */
  rate: z.number(),
});
export type FilingRunRate = z.infer<typeof filingRunRateSchema>;

/** IIT differences against the copied month. */
export const iitDiffSchema = z.object({
  /** The month copied (YYYY-MM; '' when the client never filed an IIT report). */
  fromSsq: z.string(),
  rs: z.number(),
  fromRs: z.number(),
  added: z.array(z.object({ zjhm: z.string(), xm: z.string(), sre: z.string() })),
  removed: z.array(z.object({ zjhm: z.string(), xm: z.string(), sre: z.string() })),
  /** Wages changed: from the copied month's (what is filed), to the bureau's for the period. */
  changed: z.array(z.object({ zjhm: z.string(), xm: z.string(), from: z.string(), to: z.string() })),
});
export type IitDiff = z.infer<typeof iitDiffSchema>;

/** One return of a plan. */
export const planItemSchema = z.object({
  itemId: z.number(),
  planId: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  nsrlx: z.enum(['0', '1']),
  taxType: typeSchema,
  cycle: z.enum(['month', 'quarter', 'year']),
  skssqq: z.string(),
  skssqz: z.string(),
  sbqx: z.string(),
  /** Past the deadline: filed with the late notice (逾期申报). */
  overdue: z.boolean(),
  source: z.enum(ITEM_SOURCES),
  /** The figures to submit (the bureau's sbsj of the type); null for a zero return or before generation. */
  sbsj: z.record(z.string(), z.unknown()).nullable(),
  srze: z.string(),
  ybtse: z.string(),
  /** ybtse is the plan's estimate (IIT): the bureau's computed figure replaces it on filing. */
  estimate: z.boolean(),
  prevSrze: z.string().nullable(),
  prevYbtse: z.string().nullable(),
  /** The change from the previous period is above the agency's threshold. */
  flagged: z.boolean(),
  diff: iitDiffSchema.nullable(),
  state: z.enum(ITEM_STATES),
  stateText: z.string(),
  msg: z.string(),
  pzxh: z.string(),
  sbrq: z.string(),
  payState: z.enum(PAY_STATES),
  payMsg: z.string(),
  jkrq: z.string(),
  confirmState: z.enum(ITEM_CONFIRM_STATES),
  updatedAt: z.string(),
});
export type PlanItem = z.infer<typeof planItemSchema>;

export const planSchema = z.object({
  planId: z.number(),
  filingMonth: z.string(),
  kind: z.enum(PLAN_KINDS),
  state: z.enum(PLAN_STATES),
  userId: z.number(),
  userName: z.string(),
  createdAt: z.string(),
  itemNum: z.number(),
  filedNum: z.number(),
  failedNum: z.number(),
  /** The latest run of the plan (its progress key), '' when none. */
  redisKey: z.string(),
  runKind: z.enum(RUN_KINDS).nullable(),
  runState: z.enum(RUN_STATES).nullable(),
});
export type FilingPlan = z.infer<typeof planSchema>;

export const planSumsSchema = z.object({
  num: z.number(),
  srze: z.string(),
  ybtse: z.string(),
  flagged: z.number(),
  needsInput: z.number(),
  waitingClient: z.number(),
  filed: z.number(),
  failed: z.number(),
  paid: z.number(),
  /** What 确认申报 without a choice files: the 待申报 returns, their tax, the flagged and the overdue ones. */
  toFile: z.number(),
  toFileYbtse: z.string(),
  toFileFlagged: z.number(),
  toFileOverdue: z.number(),
});
export type PlanSums = z.infer<typeof planSumsSchema>;

/** The wizard's step-3 row (tax-bureau.md §2 report table). */
export const reportRowSchema = z.object({
  aeiId: z.number(),
  /** 企业名称（税号） */
  qymcSh: z.string(),
  state_text: z.string(),
  message: z.string(),
  srze: z.string(),
  ybtse: z.string(),
  taxType: typeSchema.nullable(),
  itemId: z.number().nullable(),
  diff: iitDiffSchema.nullable(),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

const runStart = z.object({ redisKey: z.string(), total: z.number() });

// --- calls -------------------------------------------------------------------------------------

export const saveSbqcCall = defineCall({
  path: 'user/ycs/Sbqc/saveSbqc',
  summary: '生成申报计划（所选或全部企业的待申报申报表，后台逐户从电子税务局取数）',
  access: 'declare:filing:plan',
  body: z
    .strictObject({
      /** 申报月份 (multi) or, for kind grsds, the 所属期 month (the return is filed the month after). */
      filingMonth: monthSchema,
      kind: z.enum(PLAN_KINDS).default('multi'),
      scope: z.enum(['all', 'selected']).default('all'),
      aeiIds: z.array(idSchema).max(FILING_PLAN_SELECT_MAX, `一次最多选择${FILING_PLAN_SELECT_MAX}家企业`).default([]),
      /** Empty: every type due. kind grsds: ignored (grsds only). */
      taxTypes: z.array(typeSchema).max(FILING_TAX_TYPES.length).default([]),
    })
    .refine((b) => b.scope === 'all' || b.aeiIds.length > 0, { message: FILING_BATCH_MSG.chooseEnterprise }),
  data: z.object({
    planId: z.number(),
    redisKey: z.string(),
    /** Returns in the plan. */
    total: z.number(),
    /** Clients in the generate run. */
    clientNum: z.number(),
    blocked: z.array(z.object({ aeiId: z.number(), qymc: z.string(), qysh: z.string(), warning: z.string() })),
    noQysh: z.array(z.object({ aeiId: z.number(), qymc: z.string(), qysh: z.string(), warning: z.string() })),
  }),
});
export type SaveSbqcReply = z.infer<typeof saveSbqcCall.data>;

export const runRateCall = defineCall({
  path: 'user/ycs/Sbqc/getBatchMsgByRedisKey',
  summary: '申报计划任务（生成、申报、缴款、更新）的进度',
  access: 'declare:filing:view',
  body: z.strictObject({ redisKey: redisKeySchema }),
  data: filingRunRateSchema,
});

export const runReportCall = defineCall({
  path: 'user/ycs/Sbqc/getYcsGsZcxzWqsjJSON',
  summary: '任务结果：成功与失败的企业（向导第三步）',
  access: 'declare:filing:view',
  body: z.strictObject({ redisKey: redisKeySchema }),
  data: z.object({ success: z.array(reportRowSchema), fail: z.array(reportRowSchema) }),
});

export const runDeleteCall = defineCall({
  path: 'user/ycs/Sbqc/deleteYcsGsZcxzWqsjJSON',
  summary: '删除进度（停止任务；未申报的申报计划随之取消）',
  access: 'declare:filing:plan',
  body: z.strictObject({ redisKey: redisKeySchema }),
  data: z.null(),
});

export const planItemsCall = defineCall({
  path: 'userext/ycs/Sbqc/batchShenBaoExtraList',
  summary: '申报计划明细（每张申报表一行：来源、金额、上期、变化、客户确认、申报与缴款状态）',
  access: 'declare:filing:view',
  body: z.strictObject({
    planId: idSchema,
    state: z.enum(ITEM_STATES).optional(),
    taxType: typeSchema.optional(),
    keyword: z.string().trim().max(50, '关键字不能超过50个字符').default(''),
    flaggedOnly: z.boolean().default(false),
    /** Only overdue returns (逾期未申报: filed with the late notice). */
    overdueOnly: z.boolean().default(false),
    ...paging,
  }),
  data: z.object({
    plan: planSchema,
    list: z.array(planItemSchema),
    total: z.number(),
    cursor: pageCursorsSchema,
    /** Over the whole plan (not the filters). */
    sums: planSumsSchema,
  }),
});

export const planListCall = defineCall({
  path: 'userext/ycs/Sbqc/batchShenBaoList',
  summary: '申报计划列表（本人的，管理员看全部）',
  access: 'declare:filing:view',
  body: z.strictObject({ ...paging }),
  data: z.object({ list: z.array(planSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const updateItemCall = defineCall({
  path: 'user/ycs/Sbqc/updateSbqcItem',
  summary: '修改申报表：录入申报数据、标记零申报或移出本次申报',
  access: 'declare:filing:plan',
  body: z
    .strictObject({
      itemId: idSchema,
      /** true: file as 零申报; false: back to the figures. */
      zero: z.boolean().optional(),
      /** The type's figures (validated per type: sbsjSchemaOf). */
      sbsj: z.record(z.string(), z.unknown()).optional(),
      /** true: leave the return out of this plan; false: take it back. */
      drop: z.boolean().optional(),
    })
    .refine((b) => b.zero !== undefined || b.sbsj !== undefined || b.drop !== undefined, {
      message: SBSJ_MSG.unknownField,
    }),
  data: planItemSchema,
});

export const confirmPlanCall = defineCall({
  path: 'user/ycs/Sbqc/confirmSbqc',
  summary: '确认申报（后台逐户申报，每张申报表只申报一次）',
  access: 'declare:filing:submit',
  body: z.strictObject({
    planId: idSchema,
    /** Default: every item ready (待申报). */
    itemIds: z.array(idSchema).max(100_000).optional(),
    /** The user confirmed the late notice (逾期申报告知) for overdue returns. */
    lateNotice: z.boolean().default(false),
  }),
  data: runStart.extend({
    /** Left out because the agency requires the client's confirmation first. */
    waitingClient: z.number(),
  }),
});

export const retryPlanCall = defineCall({
  path: 'user/ycs/Sbqc/retrySbqc',
  summary: '重试失败：重新申报申报失败的申报表',
  access: 'declare:filing:submit',
  body: z.strictObject({ planId: idSchema, lateNotice: z.boolean().default(false) }),
  data: runStart,
});

export const payPlanCall = defineCall({
  path: 'user/ycs/Sbqc/payBatch',
  summary: '批量缴款（三方协议扣款，已申报且应补税额大于0的申报表）',
  access: 'declare:filing:pay',
  body: z.strictObject({ planId: idSchema, itemIds: z.array(idSchema).max(100_000).optional() }),
  data: runStart,
});

export const updateGssbCall = defineCall({
  path: 'user/gssb/updateGssb',
  summary: '更新一户的个人所得税申报数据（重新取上月人员与工资）',
  access: 'declare:filing:plan',
  body: z.strictObject({ planId: idSchema, aeiId: idSchema }),
  data: z.object({ redisKey: z.string() }),
});

export const FILING_BATCH_CALLS = [
  saveSbqcCall,
  runRateCall,
  runReportCall,
  runDeleteCall,
  planItemsCall,
  planListCall,
  updateItemCall,
  confirmPlanCall,
  retryPlanCall,
  payPlanCall,
  updateGssbCall,
] as const;

/** qymcSh of a report row: 企业名称（税号）. */
export const qymcSh = (qymc: string, qysh: string) => (qysh ? `${qymc}（${qysh}）` : qymc);
