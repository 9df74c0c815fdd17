import { z } from 'zod';
import { defineCall } from './call.js';
import {
  FILING_STATE_NAMES,
  FILING_STATES,
  FILING_TAX_TYPE_NAMES,
  FILING_TAX_TYPES,
  type FilingState,
  type FilingTaxType,
} from './filing-calendar.js';
import { CONFIRM_DAYS_MAX, CONFIRM_THRESHOLD_MAX_FEN, DIFF_PERCENT_MAX } from './filing-confirm.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * 征期日历 /declare/zqrl (aisino/declared/getShenbaoZqrl), 漏报检查 /declare/lbsjc (user/ycs/Lbsjc
 * checkUnDeclared / checkUnPaid, jcResult checkSbqk, wddb dealLbsjc, user/ycs selectJcLog, the two
 * dictionaries) and 申报设置 /declare/sbsz (user/ycs/SbqcSzSetting, user/ycs/bs/xxbq, user/ycs/bs selectLog).
 * 漏报检查 is switched on per agency by the `lbsjc` white list; the unfiled-return view by `wsbsdt`.
 * Money on the wire: yuan text with two decimals; integer fen inside.
 */

// --- constants ---------------------------------------------------------------------------------

/** The job queue of the missed-filing check (one job per client, key `${batchId}:${enterpriseId}`). */
export const LBSJC_QUEUE = 'filing-lbsjc';
/** The push type of check progress: data is a LbsjcRate. */
export const LBSJC_PUSH_TYPE = 'filing-lbsjc';
/** The daily reminder scan, one job per agency and day. */
export const FILING_REMIND_QUEUE = 'filing.remind-scan';
export const LBSJC_POLL_MS = 2000;
export const LBSJC_SELECT_MAX = 2000;
/** Default days before a deadline the reminder goes out (申报设置, per agency). */
export const REMIND_DAYS_DEFAULT = 3;
export const REMIND_DAYS_MAX = 15;

/** The white-list order types this area reads (packages/shared/src/org.ts WHITELIST_TYPES). */
export const LBSJC_WHITELIST = 'lbsjc';
export const WSB_WHITELIST = 'wsbsdt';
/** Menu paths switched by a white list: absent from the menu when the agency is not on it. */
export const MENU_WHITELIST_GATES: Readonly<Record<string, string>> = {
  '/declare/lbsjc': LBSJC_WHITELIST,
  '/nested/kjgcgl/kjgcxx': 'dljghdkjgcmenu',
};
/** Button permissions switched by a white list. */
export const PERM_WHITELIST_GATES: Readonly<Record<string, string>> = {
  'declare:lbsjc:view': LBSJC_WHITELIST,
  'declare:lbsjc:run': LBSJC_WHITELIST,
};

/** The kinds of check: 未申报 (missed returns, overdue or still due) and 未缴款 (filed, tax unpaid). */
export const LBSJC_KINDS = ['wsb', 'wjk'] as const;
export type LbsjcKind = (typeof LBSJC_KINDS)[number];
export const LBSJC_KIND_NAMES: Readonly<Record<LbsjcKind, string>> = { wsb: '未申报', wjk: '未缴款' };

export const LBSJC_MSG = {
  notOpen: '贵机构未开通漏报检查（白名单 lbsjc），请联系平台开通',
  wsbNotOpen: '贵机构未开通未申报查询（白名单 wsbsdt），请联系平台开通',
  chooseEnterprise: '请选择企业',
  started: '已开始漏报检查',
  finished: '漏报检查完成',
  busyRunning: '已有漏报检查正在进行，请等待完成',
  noEnterprise: '没有可检查的企业（企业须有税号且在服务中）',
  notYours: '只能检查您负责的企业',
  notFound: '检查记录不存在',
  allBlocked: '所选企业均因合同欠费、到期或无有效合同被限制申报，请续费、新建合同或在合同提醒设置中调整后再检查',
  blockedTitle: '以下企业因合同提醒被限制，未检查',
  noQysh: '企业税号未填写',
  ok: '检查成功',
} as const;

export const FILING_SETTING_MSG = {
  chooseEnterprise: '请选择企业',
  notYours: '只能设置您负责的企业',
  saved: '已保存',
  remindDays: `提醒天数须为1至${REMIND_DAYS_MAX}之间的整数`,
  adminOnly: '仅管理员可修改提醒天数',
  typeUnknown: '税种不正确',
  confirmThreshold: `客户确认金额须为0.01至${CONFIRM_THRESHOLD_MAX_FEN / 100}之间的金额（元，最多两位小数）`,
  confirmDays: `确认链接有效天数须为1至${CONFIRM_DAYS_MAX}之间的整数`,
  diffPercent: `变动提示比例须为1至${DIFF_PERCENT_MAX}之间的整数（%）`,
  confirmRequired: '请选择申报前是否须客户确认',
  confirmAdminOnly: '仅管理员可修改客户确认设置',
} as const;

/** The bureau's 征收项目 names (qsxx zsxmMc) of the roster tax types (docs/tax-bureau-protocol.md). */
export const ZSXM_NAME_TYPES: Readonly<Record<string, FilingTaxType>> = {
  增值税: 'zzs',
  企业所得税: 'qysds',
  个人所得税: 'grsds',
  财务报表: 'cwbb',
  印花税: 'yhs',
  企业所得税年度汇算: 'qysdsnd',
  工商年报: 'gsnb',
  残疾人就业保障金: 'cbj',
};

/** 信息补全 (xxbq): what a client can lack for filing. */
export const XXBQ_ITEMS = ['etax', 'gs', 'sfxy', 'qysh'] as const;
export type XxbqItem = (typeof XXBQ_ITEMS)[number];
export const XXBQ_ITEM_NAMES: Readonly<Record<XxbqItem, string>> = {
  qysh: '企业税号',
  etax: '电子税务局账号/密码',
  gs: '个税申报密码',
  sfxy: '三方协议（缴款）',
};

/** What a settings log line records (selectLog). */
export const FILING_LOG_ACTIONS = {
  ignore: '设置忽略税种',
  remind: '修改提醒天数',
  sfxy: '三方协议',
  confirm: '修改客户确认设置',
} as const;
export type FilingLogAction = keyof typeof FILING_LOG_ACTIONS;

/** The reminder's text. */
export function filingReminderText(p: {
  qymc: string;
  typeName: string;
  skssqq: string;
  skssqz: string;
  sbqx: string;
}) {
  return `客户「${p.qymc}」${p.typeName}（所属期 ${p.skssqq} 至 ${p.skssqz}）申报期限为 ${p.sbqx}，尚未申报，请及时申报。`;
}

// --- schemas -----------------------------------------------------------------------------------

const idSchema = z.number().int().positive();
const paging = {
  pageNum: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => [10, 20, 50, 100].includes(n), '每页条数须为10、20、50或100')
    .default(20),
  ...cursorField,
};
const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number(), cursor: pageCursorsSchema });
const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '请选择月份（yyyy-MM）');
const dateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '请选择日期（yyyy-MM-dd）');
const typeSchema = z.enum(FILING_TAX_TYPES, { error: FILING_SETTING_MSG.typeUnknown });
const keyword = z.string().trim().max(50, '关键字不能超过50个字符').default('');

/** One return due on the calendar. */
export const calendarItemSchema = z.object({
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  allocateUserName: z.string(),
  type: typeSchema,
  skssqq: z.string(),
  skssqz: z.string(),
  sbqx: z.string(),
  /** The state as the last roster sync said; '' not synced (derived from the client book). */
  state: z.union([z.enum(FILING_STATES), z.literal('')]),
  /** bureau: the synced registrations; book: derived from 纳税人类型. */
  source: z.enum(['bureau', 'book']),
});
export type CalendarItem = z.infer<typeof calendarItemSchema>;

export const calendarCall = defineCall({
  path: 'aisino/declared/getShenbaoZqrl',
  summary: '征期日历：本申报月与下月每个截止日应申报的户次',
  access: 'declare:calendar:view',
  body: z.strictObject({ filingMonth: z.union([monthSchema, z.literal('')]).default('') }),
  data: z.object({
    /** The two filing months shown. */
    months: z.array(z.string()),
    /** Each month's published deadline. */
    deadlines: z.record(z.string(), z.string()),
    /** Per deadline day: returns due, and those not filed yet. */
    days: z.array(z.object({ date: z.string(), count: z.number(), unfiled: z.number() })),
    clientNum: z.number(),
    remindDays: z.number(),
  }),
});

export const calendarDayCall = defineCall({
  path: 'aisino/declared/getShenbaoZqrlDay',
  summary: '征期日历：某截止日应申报的企业与税种',
  access: 'declare:calendar:view',
  body: z.strictObject({ date: dateSchema, ...paging, keyword }),
  data: pageOf(calendarItemSchema),
});

// 漏报检查

export const lbsjcRateSchema = z.object({
  batchId: z.number(),
  kind: z.enum(LBSJC_KINDS),
  filingMonth: z.string(),
  state: z.enum(['running', 'done']),
  completeNum: z.number(),
  successNum: z.number(),
  failNum: z.number(),
  totalNum: z.number(),
  /** Returns found (missed or unpaid) so far. */
  foundNum: z.number(),
  rate: z.number(),
});
export type LbsjcRate = z.infer<typeof lbsjcRateSchema>;

const leftOut = z.object({ aeiId: z.number(), qymc: z.string(), qysh: z.string(), warning: z.string() });

const startBody = z
  .strictObject({
    scope: z.enum(['all', 'selected']).default('all'),
    aeiIds: z.array(idSchema).max(LBSJC_SELECT_MAX, `一次最多检查${LBSJC_SELECT_MAX}家企业`).default([]),
  })
  .refine((b) => b.scope === 'all' || b.aeiIds.length > 0, { message: LBSJC_MSG.chooseEnterprise });
const startData = lbsjcRateSchema.extend({ blocked: z.array(leftOut), noQysh: z.array(leftOut) });
export type LbsjcStartReply = z.infer<typeof startData>;

export const checkUnDeclaredCall = defineCall({
  path: 'user/ycs/Lbsjc/checkUnDeclared',
  summary: '漏报检查：未申报（含以前所属期逾期未申报），后台逐户检查',
  access: 'declare:lbsjc:run',
  body: startBody,
  data: startData,
});

export const checkUnPaidCall = defineCall({
  path: 'user/ycs/Lbsjc/checkUnPaid',
  summary: '漏报检查：已申报未缴款与欠税，后台逐户检查',
  access: 'declare:lbsjc:run',
  body: startBody,
  data: startData,
});

export const lbsjcRateCall = defineCall({
  path: 'jcResult/checkSbqk',
  summary: '漏报检查进度（默认本人最近一次）',
  access: 'declare:lbsjc:view',
  body: z.strictObject({ batchId: idSchema.optional(), kind: z.enum(LBSJC_KINDS).optional() }),
  data: lbsjcRateSchema.nullable(),
});

export const lbsjcLogSchema = lbsjcRateSchema.extend({
  userName: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type LbsjcLog = z.infer<typeof lbsjcLogSchema>;

export const lbsjcLogListCall = defineCall({
  path: 'user/ycs/selectJcLog',
  summary: '漏报检查日志（每次检查一条）',
  access: 'declare:lbsjc:view',
  body: z.strictObject({ kind: z.enum(LBSJC_KINDS).optional(), ...paging }),
  data: pageOf(lbsjcLogSchema),
});

/** One missed or unpaid return found by a check. */
export const lbsjcItemSchema = z.object({
  id: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  allocateUserName: z.string(),
  type: typeSchema,
  skssqq: z.string(),
  skssqz: z.string(),
  sbqx: z.string(),
  /** wsb / yqwsb for 未申报; ysb (filed, unpaid) or qs (arrears past the deadline) for 未缴款. */
  state: z.string(),
  /** 应补(退)税额 or 欠税金额, yuan. */
  amount: z.string(),
  /** 滞纳金 (late fee) of arrears, yuan. */
  znj: z.string(),
  daysOverdue: z.number(),
});
export type LbsjcItem = z.infer<typeof lbsjcItemSchema>;

export const lbsjcItemsCall = defineCall({
  path: 'wddb/dealLbsjc',
  summary: '漏报检查结果：每条未申报或未缴款的申报（期间、金额、逾期天数）',
  access: 'declare:lbsjc:view',
  body: z.strictObject({ batchId: idSchema.optional(), kind: z.enum(LBSJC_KINDS), keyword, ...paging }),
  data: pageOf(lbsjcItemSchema).extend({ batchId: z.number().nullable() }),
});

/** Per client of a check: its outcome (failures: the check messages of tax-bureau.md §8). */
export const lbsjcClientSchema = z.object({
  id: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  msg_type: z.number().nullable(),
  msg: z.string(),
  foundNum: z.number(),
});
export const lbsjcClientsCall = defineCall({
  path: 'wddb/determineGs',
  summary: '漏报检查每户结果（成功/失败原因、发现条数）',
  access: 'declare:lbsjc:view',
  body: z.strictObject({ batchId: idSchema, failedOnly: z.boolean().default(false), keyword, ...paging }),
  data: pageOf(lbsjcClientSchema),
});

const dictData = z.object({
  types: z.array(z.object({ code: z.string(), name: z.string() })),
  states: z.array(z.object({ code: z.string(), name: z.string() })),
});
export const wsbDictCall = defineCall({
  path: 'user/ycs/Lbsjc/getWsbDictData',
  summary: '未申报字典（税种、状态）',
  access: 'declare:lbsjc:view',
  body: z.strictObject({}),
  data: dictData,
});
export const wjkDictCall = defineCall({
  path: 'user/ycs/Lbsjc/getWjkDictData',
  summary: '未缴款字典（税种、状态）',
  access: 'declare:lbsjc:view',
  body: z.strictObject({}),
  data: dictData,
});

/** The dictionaries the two dict calls answer (also what the page falls back to). */
export const LBSJC_DICT: Readonly<Record<LbsjcKind, z.infer<typeof dictData>>> = {
  wsb: {
    types: FILING_TAX_TYPES.map((t) => ({ code: t, name: FILING_TAX_TYPE_NAMES[t] })),
    states: (['wsb', 'yqwsb'] as FilingState[]).map((s) => ({ code: s, name: FILING_STATE_NAMES[s] })),
  },
  wjk: {
    types: FILING_TAX_TYPES.map((t) => ({ code: t, name: FILING_TAX_TYPE_NAMES[t] })),
    states: [
      { code: 'ysb', name: '已申报未缴款' },
      { code: 'qs', name: '欠税' },
    ],
  },
};

/** Which white lists the caller's agency is on (the page shows or hides what they switch). */
export const lbsjcAccessCall = defineCall({
  path: 'user/ycs/Lbsjc/access',
  summary: '本机构漏报检查与未申报查询是否开通（白名单 lbsjc、wsbsdt）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({ lbsjc: z.boolean(), wsbsdt: z.boolean() }),
});

// 申报设置

export const filingSettingRowSchema = z.object({
  id: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  qyxz: z.string(),
  allocateUserName: z.string(),
  ignoredTypes: z.array(typeSchema),
  sfxy: z.boolean(),
  /** 信息补全: what the client lacks for filing. */
  lacks: z.array(z.enum(XXBQ_ITEMS)),
});
export type FilingSettingRow = z.infer<typeof filingSettingRowSchema>;

/**
 * The agency's 客户确认 and 申报计划 settings: the total tax from which a client is asked to confirm
 * (yuan text; default 0.01 = any tax), whether filing waits for the confirmation, the link's days, and
 * the change from the previous period (percent) above which a plan row is highlighted.
 */
const confirmSettingFields = {
  confirmThreshold: z.string(),
  confirmRequired: z.boolean(),
  confirmDays: z.number(),
  diffPercent: z.number(),
};
export const confirmSettingSchema = z.object(confirmSettingFields);
export type ConfirmSetting = z.infer<typeof confirmSettingSchema>;

export const filingSettingListCall = defineCall({
  path: 'user/ycs/SbqcSzSetting/selectYcsSbqcSzSetting',
  summary: '申报设置：每户忽略的税种，及本机构提醒天数',
  access: 'declare:setting:view',
  body: z.strictObject({ keyword, ignoredOnly: z.boolean().default(false), ...paging }),
  data: pageOf(filingSettingRowSchema).extend({ remindDays: z.number() }).extend(confirmSettingFields),
});

export const saveRemindDaysCall = defineCall({
  path: 'user/ycs/SbqcSzSetting/saveYcsSbqcSzSetting',
  summary: '申报设置：征期提醒提前天数（管理员）',
  access: 'declare:setting:edit',
  body: z.strictObject({
    remindDays: z
      .number({ error: FILING_SETTING_MSG.remindDays })
      .int(FILING_SETTING_MSG.remindDays)
      .min(1, FILING_SETTING_MSG.remindDays)
      .max(REMIND_DAYS_MAX, FILING_SETTING_MSG.remindDays),
  }),
  data: z.object({ remindDays: z.number() }),
});

export const saveConfirmSettingCall = defineCall({
  path: 'user/ycs/SbqcSzSetting/saveConfirmSetting',
  summary: '申报设置：客户确认金额、申报前须客户确认、确认链接有效天数、变动提示比例（管理员）',
  access: 'declare:setting:edit',
  body: z.strictObject({
    confirmThreshold: z
      .string({ error: FILING_SETTING_MSG.confirmThreshold })
      .trim()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, FILING_SETTING_MSG.confirmThreshold)
      .refine((v) => {
        const fen = Math.round(Number(v) * 100);
        return fen >= 1 && fen <= CONFIRM_THRESHOLD_MAX_FEN;
      }, FILING_SETTING_MSG.confirmThreshold),
    confirmRequired: z.boolean({ error: FILING_SETTING_MSG.confirmRequired }),
    confirmDays: z
      .number({ error: FILING_SETTING_MSG.confirmDays })
      .int(FILING_SETTING_MSG.confirmDays)
      .min(1, FILING_SETTING_MSG.confirmDays)
      .max(CONFIRM_DAYS_MAX, FILING_SETTING_MSG.confirmDays),
    diffPercent: z
      .number({ error: FILING_SETTING_MSG.diffPercent })
      .int(FILING_SETTING_MSG.diffPercent)
      .min(1, FILING_SETTING_MSG.diffPercent)
      .max(DIFF_PERCENT_MAX, FILING_SETTING_MSG.diffPercent),
  }),
  data: confirmSettingSchema,
});

export const saveIgnoredTypesCall = defineCall({
  path: 'user/ycs/SbqcSzSetting/optAgencyEnterpriseInfoIgnoreSz',
  summary: '申报设置：为所选企业设置忽略的税种（忽略的税种不进入申报清册与漏报检查）',
  access: 'declare:setting:edit',
  body: z.strictObject({
    aeiIds: z
      .array(idSchema)
      .min(1, FILING_SETTING_MSG.chooseEnterprise)
      .max(LBSJC_SELECT_MAX, `一次最多设置${LBSJC_SELECT_MAX}家企业`),
    ignoredTypes: z.array(typeSchema).max(FILING_TAX_TYPES.length),
  }),
  data: z.object({ updated: z.number() }),
});

export const xxbqListCall = defineCall({
  path: 'user/ycs/bs/xxbq/selectXxbq',
  summary: '信息补全：申报所缺信息（电子税务局账号密码、个税密码、三方协议、税号）',
  access: 'declare:setting:view',
  body: z.strictObject({ keyword, item: z.enum(XXBQ_ITEMS).optional(), ...paging }),
  data: pageOf(filingSettingRowSchema),
});

export const xxbqSaveCall = defineCall({
  path: 'user/ycs/bs/xxbq/addXxbq',
  summary: '信息补全：登记三方协议（缴款）已签/未签',
  access: 'declare:setting:edit',
  body: z.strictObject({ aeiId: idSchema, sfxy: z.boolean() }),
  data: z.object({ aeiId: z.number(), sfxy: z.boolean() }),
});

export const filingLogSchema = z.object({
  id: z.number(),
  userName: z.string(),
  action: z.string(),
  actionName: z.string(),
  aeiId: z.number().nullable(),
  qymc: z.string(),
  detail: z.string(),
  createdAt: z.string(),
});
export type FilingLog = z.infer<typeof filingLogSchema>;

export const filingLogListCall = defineCall({
  path: 'user/ycs/bs/selectLog',
  summary: '申报设置日志：谁在何时修改了哪项设置',
  access: 'declare:setting:view',
  body: z.strictObject({ ...paging }),
  data: pageOf(filingLogSchema),
});

export const FILING_CHECK_CALLS = [
  calendarCall,
  calendarDayCall,
  checkUnDeclaredCall,
  checkUnPaidCall,
  lbsjcRateCall,
  lbsjcLogListCall,
  lbsjcItemsCall,
  lbsjcClientsCall,
  wsbDictCall,
  wjkDictCall,
  lbsjcAccessCall,
  filingSettingListCall,
  saveRemindDaysCall,
  saveConfirmSettingCall,
  saveIgnoredTypesCall,
  xxbqListCall,
  xxbqSaveCall,
  filingLogListCall,
] as const;
