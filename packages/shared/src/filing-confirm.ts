import { z } from 'zod';
import { defineCall } from './call.js';
import { FILING_TAX_TYPES, type FilingTaxType } from './filing-calendar.js';

/**
 * Issue 14, evidence and the client's confirmation:
 * - 申报回执 preview and download (sbjtyl, downloadSbjtFiles; tax-bureau.md §7): file routes, not calls —
 *   the preview is GET-able so a link or an iframe opens the PDF inline; the download is a zip.
 * - 客户确认 (sendSbqr): an SMS with a signed, expiring link to a mobile page without sign-in
 *   (`/#/m/sbqr?t=…`), where the client confirms the amounts or disputes them with a comment
 *   (open/sbqr/get, open/sbqr/answer: public calls, the tenant taken from the verified token only).
 * Money on the wire: yuan text with two decimals; integer fen inside.
 */

// --- constants ---------------------------------------------------------------------------------

/** The mobile page's route (hash router): the SMS link is `<origin>/#/m/sbqr?t=<token>`. */
export const SBQR_PAGE_PATH = '/m/sbqr';

/** The file routes (served at /api/<path>): sbjtyl GET (query) or POST (JSON); downloadSbjtFiles POST or GET. */
export const EVIDENCE_FILES = {
  sbjtyl: 'user/ycs/Sbqc/sbjtyl',
  downloadSbjtFiles: 'user/ycs/Sbqc/downloadSbjtFiles',
} as const;

/** At most this many receipts in one zip. */
export const SBJT_ZIP_MAX = 5000;
/** At most this many clients chosen by hand in one zip or one sending. */
export const SBQR_SELECT_MAX = 2000;

/** 申报设置 defaults and bounds of the confirmation settings. */
export const CONFIRM_THRESHOLD_DEFAULT_FEN = 1;
export const CONFIRM_DAYS_DEFAULT = 7;
export const CONFIRM_DAYS_MAX = 30;
export const DIFF_PERCENT_DEFAULT = 30;
export const DIFF_PERCENT_MAX = 1000;
/** Largest threshold accepted: 100,000,000.00 yuan. */
export const CONFIRM_THRESHOLD_MAX_FEN = 10_000_000_000;

/** 客户确认 of a plan item. */
export const CONFIRM_STATES = ['none', 'sent', 'confirmed', 'disputed'] as const;
export type ConfirmState = (typeof CONFIRM_STATES)[number];
export const CONFIRM_STATE_NAMES: Readonly<Record<ConfirmState, string>> = {
  none: '未发送',
  sent: '待确认',
  confirmed: '已确认',
  disputed: '有异议',
};

/** The client's answers. */
export const SBQR_ANSWERS = ['confirmed', 'disputed'] as const;
export type SbqrAnswer = (typeof SBQR_ANSWERS)[number];

export const SBQR_COMMENT_MAX = 200;

export const SBQR_MSG = {
  invalid: '链接无效',
  expired: '链接已过期，请联系您的代理机构重新发送',
  superseded: '该链接已失效，请打开代理机构最新发送的链接',
  answered: '您已答复，如需更改请联系您的代理机构',
  commentRequired: '请填写异议说明',
  commentMax: `异议说明不能超过${SBQR_COMMENT_MAX}个字`,
  chooseEnterprise: '请选择企业',
  planNotFound: '申报计划不存在',
  notYours: '只能发送您负责的企业',
  sent: '已发送客户确认',
  noPhone: '客户没有联系人手机号',
  belowThreshold: (yuan: string) => `应补(退)税额合计低于客户确认金额（${yuan}元），无需确认`,
  noItems: '该企业在本计划中没有待申报的税款',
  allFiled: '该企业本计划的税款已申报',
  confirmedNotice: (qymc: string, month: string) => `客户「${qymc}」已确认${month}申报的税款`,
  disputedNotice: (qymc: string, month: string, comment: string) =>
    `客户「${qymc}」对${month}申报的税款有异议：${comment}`,
} as const;

export const EVIDENCE_MSG = {
  notFound: '未找到该申报的回执（未申报或无申报凭证序号）',
  fetchFailed: '暂时无法从电子税务局获取申报回执，请稍后再试',
  chooseScope: '请选择申报计划、企业或申报月份',
  none: '没有可下载的申报回执',
  tooMany: `单次最多下载${SBJT_ZIP_MAX}份申报回执，请缩小范围`,
  planNotFound: '申报计划不存在',
  notYours: '只能下载您负责的企业的申报回执',
} as const;

/** The SMS text (the agency's name, the client, the filing month, the total, the link and its days). */
export function sbqrSmsText(p: {
  agencyName: string;
  qymc: string;
  filingMonth: string;
  total: string;
  days: number;
  link: string;
}) {
  return `【代账云】${p.agencyName}提请「${p.qymc}」确认${p.filingMonth}申报的税款（合计${p.total}元），请在${p.days}天内打开链接确认：${p.link}`;
}

/** The preview's address for a return (what the roster and the plan link to; opens inline). */
export function sbjtylUrl(p: { aeiId: number; taxType: FilingTaxType; skssqq: string }) {
  const q = `aeiId=${p.aeiId}&taxType=${encodeURIComponent(p.taxType)}&skssqq=${encodeURIComponent(p.skssqq)}`;
  return `/api/${EVIDENCE_FILES.sbjtyl}?${q}`;
}

// --- schemas -----------------------------------------------------------------------------------

const idSchema = z.number().int().positive();
const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '请选择月份（yyyy-MM）');

/** sbjtyl: one return. From a query string the id arrives as text: coerced. */
export const sbjtylQuerySchema = z.object({
  aeiId: z.coerce.number().int().positive(),
  taxType: z.enum(FILING_TAX_TYPES, { error: '税种不正确' }),
  skssqq: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '所属期起不正确'),
});
export type SbjtylQuery = z.infer<typeof sbjtylQuerySchema>;

/** downloadSbjtFiles: a plan's returns, chosen clients' returns, or a filing month's (any combination narrows). */
export const downloadSbjtFilesSchema = z
  .object({
    planId: z.coerce.number().int().positive().optional(),
    aeiIds: z.array(idSchema).max(SBQR_SELECT_MAX, `一次最多选择${SBQR_SELECT_MAX}家企业`).optional(),
    filingMonth: monthSchema.optional(),
  })
  .refine((b) => b.planId !== undefined || (b.aeiIds?.length ?? 0) > 0 || b.filingMonth !== undefined, {
    message: EVIDENCE_MSG.chooseScope,
  });
export type DownloadSbjtFilesBody = z.infer<typeof downloadSbjtFilesSchema>;

const skipped = z.object({ aeiId: z.number(), qymc: z.string(), reason: z.string() });

export const sendSbqrCall = defineCall({
  path: 'user/ycs/Sbqc/sendSbqr',
  summary: '发送客户确认：向所选企业的联系人发送确认短信（应补(退)税额合计达到确认金额且有手机号）',
  access: 'declare:filing:confirm',
  body: z.strictObject({
    planId: idSchema,
    aeiIds: z
      .array(idSchema)
      .min(1, SBQR_MSG.chooseEnterprise)
      .max(SBQR_SELECT_MAX, `一次最多选择${SBQR_SELECT_MAX}家企业`),
  }),
  data: z.object({
    /** Texts sent (one per client). */
    sent: z.number(),
    /** Clients not sent to, with the reason. */
    skipped: z.array(skipped),
  }),
});

/** The link's token; anything that is not a valid one is answered 链接无效 by the handler. */
const tokenSchema = z.string().trim().max(500, SBQR_MSG.invalid);

export const sbqrItemSchema = z.object({
  taxType: z.enum(FILING_TAX_TYPES),
  /** The tax type's name (增值税及附加税费 …). */
  name: z.string(),
  skssqq: z.string(),
  skssqz: z.string(),
  srze: z.string(),
  ybtse: z.string(),
});
export type SbqrItem = z.infer<typeof sbqrItemSchema>;

export const sbqrViewSchema = z.object({
  qymc: z.string(),
  qysh: z.string(),
  /** The agency asking (shown so the client knows who sent it). */
  agencyName: z.string(),
  filingMonth: z.string(),
  items: z.array(sbqrItemSchema),
  /** Σ ybtse, yuan. */
  total: z.string(),
  state: z.enum(['sent', 'confirmed', 'disputed']),
  comment: z.string(),
  answeredAt: z.string().nullable(),
  expiresAt: z.string(),
});
export type SbqrView = z.infer<typeof sbqrViewSchema>;

export const sbqrGetCall = defineCall({
  path: 'open/sbqr/get',
  summary: '客户确认页：按链接读取企业、所属期、各税种金额与确认状态（无需登录）',
  access: 'public',
  body: z.strictObject({ t: tokenSchema }),
  data: sbqrViewSchema,
});

export const sbqrAnswerCall = defineCall({
  path: 'open/sbqr/answer',
  summary: '客户确认页：确认无误或提出异议（无需登录；首次答复为准）',
  access: 'public',
  body: z
    .strictObject({
      t: tokenSchema,
      answer: z.enum(SBQR_ANSWERS, { error: '请选择确认无误或有异议' }),
      comment: z.string().trim().max(SBQR_COMMENT_MAX, SBQR_MSG.commentMax).default(''),
    })
    .refine((b) => b.answer !== 'disputed' || b.comment.length > 0, {
      message: SBQR_MSG.commentRequired,
      path: ['comment'],
    }),
  data: sbqrViewSchema,
});

export const FILING_CONFIRM_CALLS = [sendSbqrCall, sbqrGetCall, sbqrAnswerCall] as const;
