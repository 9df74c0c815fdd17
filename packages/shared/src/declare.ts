import { z } from 'zod';
import { MSG_TYPE_NAMES, type MsgType } from './bureau.js';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * 报税检查 /declare/bssz (tax-bureau.md §3 check result, saved check log, summary log; §4 inspection
 * status and msg_type; §7 user/lbs calls; §9 poll every 2 s up to 10 polls, reset 3 s after completion).
 * A check runs on the server as one background job per enterprise; the page polls and is pushed.
 */

// --- constants ---------------------------------------------------------------------------------

/** The job queue of the batch check (one job per enterprise, key `${batchId}:${enterpriseId}`). */
export const CHECK_QUEUE = 'declare-check';
/** The push type of check progress: data is a CheckRate. */
export const CHECK_PUSH_TYPE = 'declare-check';
export const CHECK_POLL_MS = 2000;
/** Polls without progress after which the page gives up with 检查出错 (tax-bureau.md §4, §9). */
export const CHECK_MAX_IDLE_POLLS = 10;
export const CHECK_RESET_MS = 3000;
/** The month picker's minimum (tax-bureau.md §9). */
export const SSQ_MIN = '2019-08';
export const CHECK_PAGE_SIZES = [10, 20, 50, 100] as const;
/** At most this many enterprises chosen by hand in one check. */
export const CHECK_SELECT_MAX = 2000;

/** isChecks (tax-bureau.md §4): 0 idle, 1 started, 2 finished. */
export const IS_CHECKS = { idle: 0, started: 1, finished: 2 } as const;

export const CHECK_MSG = {
  chooseEnterprise: '请选择企业',
  started: '已开始检查',
  stopped: '已停止检查',
  finished: '检查完成',
  checkError: '检查出错',
  busyRunning: '已有检查正在进行，请等待完成或先停止检查',
  noEnterprise: '没有可检查的企业，请先在我的客户中添加企业',
  notFound: '检查记录不存在',
  notRunning: '该检查已结束',
  notYours: '只能检查您负责的企业',
  ssqFormat: '请选择月份（yyyy-MM）',
  ssqRange: `须在${SSQ_MIN}至两个月前之间`,
  noTaxNumber: '企业税号未填写',
  /** Every chosen enterprise is blocked by the 申报 contract reminder (level 2, 提醒并限制操作). */
  allBlocked: '所选企业均因合同欠费、到期或无有效合同被限制检查，请续费、新建合同或在合同提醒设置中调整后再检查',
  blockedTitle: '以下企业因合同提醒被限制，未检查',
} as const;

/**
 * The tax period a check defaults to and the latest it may take: two months before now, YYYY-MM
 * (tax-bureau.md §5: the month picker disables months after two months before now; the period defaults
 * to two months earlier). Issue 18 point 7 replaced the earlier "previous month" (docs/decisions/web.md).
 */
export function defaultSsq(now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth() - 2, 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

/** Whether a period may be checked: from 2019-08 up to two months before now. */
export const ssqAllowed = (ssq: string, now = new Date()) => ssq >= SSQ_MIN && ssq <= defaultSsq(now);

export const MSG_TYPE_OPTIONS = (Object.entries(MSG_TYPE_NAMES) as [string, string][]).map(([value, label]) => ({
  value: Number(value) as MsgType,
  label,
}));

// --- shared pieces -----------------------------------------------------------------------------

const idSchema = z.number().int().positive();
const paging = {
  pageNum: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (CHECK_PAGE_SIZES as readonly number[]).includes(n), '每页条数须为10、20、50或100')
    .default(20),
  ...cursorField,
};
const ssqSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, CHECK_MSG.ssqFormat)
  .refine((v) => ssqAllowed(v), CHECK_MSG.ssqRange);
const msgTypeSchema = z.number().int().min(1).max(8) as unknown as z.ZodType<MsgType>;

/** Check result (tax-bureau.md §3) with the batch's state. */
export const checkRateSchema = z.object({
  batchId: z.number(),
  ssq: z.string(),
  /** 0 idle (no check yet), 1 started, 2 finished (done or stopped). */
  isChecks: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  state: z.enum(['running', 'done', 'stopped']),
  completeNum: z.number(),
  successNum: z.number(),
  failNum: z.number(),
  totalNum: z.number(),
  /** Percent done, 0-100. */
  rate: z.number(),
});
export type CheckRate = z.infer<typeof checkRateSchema>;

/** Summary log (tax-bureau.md §3): one check run. */
export const summaryLogSchema = z.object({
  id: z.number(),
  ssq: z.string(),
  userId: z.number(),
  userName: z.string(),
  state: z.enum(['running', 'done', 'stopped']),
  checkNum: z.number(),
  successNum: z.number(),
  failNum: z.number(),
  totalNum: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type SummaryLog = z.infer<typeof summaryLogSchema>;

/** Saved check log (tax-bureau.md §3): one enterprise's outcome. msg_type null: not checked yet. */
export const checkLogSchema = z.object({
  id: z.number(),
  batchId: z.number(),
  aeiId: z.number(),
  qysh: z.string(),
  qymc: z.string(),
  ssq: z.string(),
  msg_type: z.number().nullable(),
  msg: z.string(),
  geshui_type: z.string(),
  updatedAt: z.string(),
});
export type CheckLog = z.infer<typeof checkLogSchema>;

const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number(), cursor: pageCursorsSchema });

// --- calls -------------------------------------------------------------------------------------

export const checkStartCall = defineCall({
  path: 'user/lbs/check',
  summary: '开始报税检查（全部企业或所选企业，后台逐户检查）',
  access: 'declare:check:run',
  body: z
    .strictObject({
      ssq: ssqSchema,
      /** all: every enterprise in the caller's data scope; selected: aeiIds. */
      scope: z.enum(['all', 'selected']).default('all'),
      aeiIds: z.array(idSchema).max(CHECK_SELECT_MAX, `一次最多检查${CHECK_SELECT_MAX}家企业`).default([]),
    })
    .refine((b) => b.scope === 'all' || b.aeiIds.length > 0, { message: CHECK_MSG.chooseEnterprise }),
  data: checkRateSchema.extend({
    /** Enterprises left out because their 申报 (sb) contract reminder is at level 2, with the warning each shows. */
    blocked: z.array(z.object({ aeiId: z.number(), qymc: z.string(), qysh: z.string(), warning: z.string() })),
  }),
});

export type CheckStartReply = z.infer<typeof checkStartCall.data>;

const batchBody = z.strictObject({ batchId: idSchema.optional() });

export const checkRateCall = defineCall({
  path: 'user/lbs/getRate',
  summary: '报税检查进度（默认本人最近一次检查）',
  access: 'declare:check:view',
  body: batchBody,
  data: checkRateSchema.nullable(),
});

export const checkCountCall = defineCall({
  path: 'user/lbs/getCheckCount',
  summary: '报税检查结果统计（completeNum/failNum/successNum/totalNum，及各msg_type户数）',
  access: 'declare:check:view',
  body: batchBody,
  data: z
    .object({
      batchId: z.number(),
      completeNum: z.number(),
      failNum: z.number(),
      successNum: z.number(),
      totalNum: z.number(),
      /** Enterprises per msg_type '1'..'8'. */
      byType: z.record(z.string(), z.number()),
    })
    .nullable(),
});

export const checkStopCall = defineCall({
  path: 'user/lbs/stopCheck',
  summary: '停止报税检查（未开始的企业不再检查）',
  access: 'declare:check:run',
  body: z.strictObject({ batchId: idSchema }),
  data: checkRateSchema,
});

export const lastCheckInfoCall = defineCall({
  path: 'user/lbs/getLastCheckInfo',
  summary: '本人最近一次报税检查（汇总日志）',
  access: 'declare:check:view',
  body: z.strictObject({}),
  data: summaryLogSchema.nullable(),
});

export const checkListCall = defineCall({
  path: 'user/lbs/getCheckList',
  summary: '报税检查汇总日志（数据范围内）',
  access: 'declare:check:view',
  body: z.strictObject({
    ...paging,
    ssq: z
      .string()
      .regex(/^(\d{4}-\d{2})?$/, CHECK_MSG.ssqFormat)
      .default(''),
  }),
  data: pageOf(summaryLogSchema),
});

const resultQuery = {
  batchId: idSchema,
  ...paging,
  /** Name or tax number contains. */
  keyword: z.string().trim().max(50, '关键字不能超过50个字符').default(''),
};

export const checkResultListCall = defineCall({
  path: 'user/lbs/getCheckResultList',
  summary: '报税检查明细（保存的检查日志，可按msg_type筛选）',
  access: 'declare:check:view',
  body: z.strictObject({ ...resultQuery, msg_type: msgTypeSchema.optional() }),
  data: pageOf(checkLogSchema),
});

export const failCheckListCall = defineCall({
  path: 'user/lbs/getFailCheckList',
  summary: '报税检查失败列表（msg_type 2-8）',
  access: 'declare:check:view',
  body: z.strictObject(resultQuery),
  data: pageOf(checkLogSchema),
});

export const checkQyshCountCall = defineCall({
  path: 'user/lbs/checkQyshCount',
  summary: '可检查的企业户数（数据范围内，有税号/无税号）',
  access: 'declare:check:view',
  body: z.strictObject({}),
  data: z.object({ totalNum: z.number(), qyshNum: z.number(), noQyshNum: z.number() }),
});

export const DECLARE_CHECK_CALLS = [
  checkStartCall,
  checkRateCall,
  checkCountCall,
  checkStopCall,
  lastCheckInfoCall,
  checkListCall,
  checkResultListCall,
  failCheckListCall,
  checkQyshCountCall,
] as const;
