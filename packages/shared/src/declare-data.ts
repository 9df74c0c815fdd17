import { z } from 'zod';
import { defineCall } from './call.js';

/**
 * 税务数据 /declare/sjcx (tax-bureau.md §1 "query tax data", §3 collected data and tax-bureau query
 * parameters, §5 money display and masking, §7 /ShenBaoQG queries with their page sizes): per
 * enterprise, what the last batch check collected and live queries at the bureau.
 *
 * Money crosses the wire as yuan strings with two decimals ("1234.50"), as the bureau gives it;
 * sums are computed in integer fen. A failed live query is not an error reply: the call answers with
 * `failure` (the spec's msg_type and message, and what to do) beside whatever stored data there is,
 * so the tab can keep showing the last collected data.
 */

// --- constants ---------------------------------------------------------------------------------

/** The bureau's page sizes for these queries (tax-bureau.md §7, §9). */
export const TAX_DATA_PAGE_SIZES = {
  responsiblePersons: 100,
  filed: 100,
  unfiled: 1000,
  arrearsDetail: 200,
  creditScore: 10,
} as const;

/** Date ranges a live query may span: the bureau answers at most a few years at a time. */
export const TAX_DATA_MAX_RANGE_DAYS = 3 * 366;
/** The earliest credit-rating year the bureau publishes (the national rating started with 2014). */
export const CREDIT_FIRST_YEAR = 2014;

export const TAX_DATA_TABS = [
  { key: 'nsrxx', label: '纳税人信息' },
  { key: 'fzr', label: '负责人' },
  { key: 'ysb', label: '已申报' },
  { key: 'wsb', label: '未申报' },
  { key: 'jk', label: '缴款记录' },
  { key: 'qs', label: '欠税' },
  { key: 'sb', label: '单位社保' },
  { key: 'xy', label: '纳税信用' },
] as const;
export type TaxDataTab = (typeof TAX_DATA_TABS)[number]['key'];

export const TAX_DATA_MSG = {
  chooseEnterprise: '请选择企业',
  noTaxNumber: '该企业没有税号，无法查询税务数据，请先在我的客户中补充税号',
  notCollected: '批量检查未采集该数据，请点击实时查询',
  neverChecked: '该企业尚未做过报税检查，请点击实时查询或到报税检查发起检查',
  rangeOrder: '开始日期不能晚于结束日期',
  rangeTooLong: '查询区间不能超过3年',
  yearsTooMany: `一次最多查询${10}个年度`,
  /** The unit social-insurance login failed: the spec answers an empty list (tax-bureau.md §8). */
  socialLoginFailed: '单位社保登录失败',
} as const;

/** What the user can do about a failed live query, by the spec's msg_type (tax-bureau.md §4). */
export const TAX_DATA_HINTS: Readonly<Record<number, string>> = {
  2: '请到我的客户中补全该企业的电子税务局账号和密码后再查询',
  3: '请到我的客户中补全该企业的个税账号和密码后再查询',
  4: '请到我的客户中修改该企业的电子税务局密码后再查询',
  5: '请确认办税人员的关联关系和验证码后再查询，或改用其他身份登录',
  6: '税务局当前繁忙，请稍候几分钟再点实时查询',
  7: '请核对该企业的个税密码后再查询',
  8: '请续费后再查询',
};
/** The bureau could not be reached at all (5xx, time-out): not one of the eight msg_types. */
export const TAX_DATA_UNREACHABLE_HINT = '税务局暂时无法访问，请稍后再试';

// --- shared pieces -----------------------------------------------------------------------------

const aeiId = z.number({ error: '请选择企业' }).int().positive('请选择企业');
const live = z.boolean().default(false);
const day = (label: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, `${label}须为YYYY-MM-DD格式的日期`);
const month = (label: string) => z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, `${label}须为YYYY-MM格式的月份`);

const dayCount = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/**
 * A date range field pair [from, to]: needed for a live query (stored data comes with its own
 * range), ordered, at most three years long.
 */
const rangeRefine =
  <K extends string>(from: K, to: K, missing: string) =>
  (v: { [P in K]?: string | undefined } & { live: boolean }, ctx: z.RefinementCtx) => {
    const a = v[from];
    const b = v[to];
    if (!a || !b) {
      if (v.live) ctx.addIssue({ code: 'custom', message: missing, path: [a ? to : from] });
      return;
    }
    if (a > b) ctx.addIssue({ code: 'custom', message: TAX_DATA_MSG.rangeOrder, path: [to] });
    else if (dayCount(a.length === 7 ? `${a}-01` : a, b.length === 7 ? `${b}-01` : b) > TAX_DATA_MAX_RANGE_DAYS) {
      ctx.addIssue({ code: 'custom', message: TAX_DATA_MSG.rangeTooLong, path: [to] });
    }
  };

/**
 * Where the shown data came from: the last batch check, a live query (this one or an earlier one,
 * whose result is kept per enterprise and tab), or nowhere yet.
 */
export const taxDataSourceSchema = z.enum(['check', 'query', 'none']);
export type TaxDataSource = z.infer<typeof taxDataSourceSchema>;

/** A live query that did not go through: msg_type 1-8 (0 when the bureau was unreachable) and the spec's text. */
export const taxDataFailureSchema = z.object({ msg_type: z.number(), msg: z.string(), hint: z.string() });
export type TaxDataFailure = z.infer<typeof taxDataFailureSchema>;

const headSchema = {
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  source: taxDataSourceSchema,
  /** When the shown data was collected (ISO time); null when there is none. */
  collectedAt: z.string().nullable(),
  failure: taxDataFailureSchema.nullable(),
};

// --- bureau records as shown ---------------------------------------------------------------------

export const taxpayerInfoSchema = z.object({
  qysh: z.string(),
  qymc: z.string(),
  djxh: z.string(),
  swjgdm: z.string(),
  swjgmc: z.string(),
  nsrzt: z.string(),
  qyxz: z.enum(['0', '1']),
  fddbrxm: z.string(),
  zcdz: z.string(),
  djrq: z.string(),
});
export const registrationSchema = z.object({
  zsxmDm: z.string(),
  zsxmMc: z.string(),
  nsqx: z.string(),
  nsqxMc: z.string(),
});
/** Responsible person; zjhm and lxdh are masked on the server (first 3, ****, last 4). */
export const responsiblePersonSchema = z.object({
  sfbm: z.string(),
  sfmc: z.string(),
  xm: z.string(),
  zjhm: z.string(),
  lxdh: z.string(),
});
export const taxReturnSchema = z.object({
  zsxmDm: z.string(),
  zsxmMc: z.string(),
  skssqq: z.string(),
  skssqz: z.string(),
  sbrq: z.string().optional(),
  ybtse: z.string(),
  sbqx: z.string().optional(),
});
export const paymentSchema = z.object({
  zsxmMc: z.string(),
  skssqq: z.string(),
  skssqz: z.string(),
  jkrq: z.string(),
  sjje: z.string(),
  dzsphm: z.string(),
});
export const arrearSchema = z.object({
  zsxmMc: z.string(),
  skssqq: z.string(),
  skssqz: z.string(),
  qsje: z.string(),
  znj: z.string(),
  overdue: z.boolean(),
});
export const socialInsuranceSchema = z.object({
  ssq: z.string(),
  xzmc: z.string(),
  jfjs: z.string(),
  dwjfje: z.string(),
  grjfje: z.string(),
});
export const creditScoreSchema = z.object({ pjnd: z.string(), pf: z.string(), jb: z.string() });

// --- calls -------------------------------------------------------------------------------------

export const taxpayerInfoCall = defineCall({
  path: 'user/ycs/sjcx/getNsrjcxx',
  summary: '税务数据：纳税人基础信息与税费种认定（上次检查采集或实时查询）',
  access: 'declare:data:view',
  body: z.strictObject({ aeiId, live }),
  data: z.object({ ...headSchema, info: taxpayerInfoSchema.nullable(), sfzhd: z.array(registrationSchema) }),
});

export const responsiblePersonsCall = defineCall({
  path: 'user/ycs/sjcx/getFzrxx',
  summary: '税务数据：负责人（实时查询，每页100）',
  access: 'declare:data:view',
  body: z.strictObject({ aeiId, live }),
  data: z.object({ ...headSchema, list: z.array(responsiblePersonSchema) }),
});

export const filedReturnsCall = defineCall({
  path: 'user/ycs/sjcx/getYsbList',
  summary: '税务数据：已申报（上次检查采集本期，或按申报日期实时查询，每页100）',
  access: 'declare:data:view',
  body: z
    .strictObject({ aeiId, live, sbrqq: day('申报日期起').optional(), sbrqz: day('申报日期止').optional() })
    .superRefine(rangeRefine('sbrqq', 'sbrqz', '请选择申报日期区间')),
  data: z.object({
    ...headSchema,
    list: z.array(taxReturnSchema),
    /** The filing-date range of the shown list; empty for the check's list of the period. */
    sbrqq: z.string(),
    sbrqz: z.string(),
  }),
});

export const unfiledReturnsCall = defineCall({
  path: 'user/ycs/sjcx/getWsbList',
  summary: '税务数据：未申报（上次检查采集或实时查询，每页1000）',
  access: 'declare:data:view',
  body: z.strictObject({ aeiId, live }),
  data: z.object({ ...headSchema, list: z.array(taxReturnSchema) }),
});

export const paymentsCall = defineCall({
  path: 'user/ycs/sjcx/getJkxxList',
  summary: '税务数据：缴款记录（按缴款日期区间实时查询）',
  access: 'declare:data:view',
  body: z
    .strictObject({ aeiId, live, jkrqq: day('缴款日期起').optional(), jkrqz: day('缴款日期止').optional() })
    .superRefine(rangeRefine('jkrqq', 'jkrqz', '请选择缴款日期区间')),
  data: z.object({
    ...headSchema,
    list: z.array(paymentSchema),
    hjje: z.string(),
    jkrqq: z.string(),
    jkrqz: z.string(),
  }),
});

export const arrearsCall = defineCall({
  path: 'user/ycs/sjcx/getQsxxList',
  summary: '税务数据：欠税及逾期（上次检查采集或实时查询；明细每页200）',
  access: 'declare:data:view',
  body: z.strictObject({ aeiId, live }),
  data: z.object({
    ...headSchema,
    list: z.array(arrearSchema),
    /** Sums over the list, yuan strings: arrears, late fees, both. */
    qsjeHj: z.string(),
    znjHj: z.string(),
    hj: z.string(),
  }),
});

export const socialInsuranceCall = defineCall({
  path: 'user/ycs/sjcx/getDwsbfList',
  summary: '税务数据：单位社保费缴费明细（按所属月份区间实时查询）',
  access: 'declare:data:view',
  body: z
    .strictObject({ aeiId, live, ssqq: month('所属月份起').optional(), ssqz: month('所属月份止').optional() })
    .superRefine(rangeRefine('ssqq', 'ssqz', '请选择所属月份区间')),
  data: z.object({
    ...headSchema,
    list: z.array(socialInsuranceSchema),
    dwjfjeHj: z.string(),
    grjfjeHj: z.string(),
    ssqq: z.string(),
    ssqz: z.string(),
  }),
});

export const creditScoresCall = defineCall({
  path: 'user/ycs/sjcx/getNsxyList',
  summary: '税务数据：纳税信用评价（按评价年度实时查询，每次至多10个年度）',
  access: 'declare:data:view',
  body: z
    .strictObject({
      aeiId,
      live,
      PjndList: z
        .array(z.string().regex(/^\d{4}$/, '评价年度须为4位年份'))
        .max(TAX_DATA_PAGE_SIZES.creditScore, TAX_DATA_MSG.yearsTooMany)
        .default([]),
    })
    .superRefine((v, ctx) => {
      if (v.live && v.PjndList.length === 0) {
        ctx.addIssue({ code: 'custom', message: '请选择评价年度', path: ['PjndList'] });
      }
      const now = new Date().getFullYear();
      if (v.PjndList.some((y) => Number(y) < CREDIT_FIRST_YEAR || Number(y) > now)) {
        ctx.addIssue({
          code: 'custom',
          message: `评价年度须在${CREDIT_FIRST_YEAR}至${now}年之间`,
          path: ['PjndList'],
        });
      }
    }),
  data: z.object({ ...headSchema, list: z.array(creditScoreSchema), PjndList: z.array(z.string()) }),
});

export const TAX_DATA_CALLS = [
  taxpayerInfoCall,
  responsiblePersonsCall,
  filedReturnsCall,
  unfiledReturnsCall,
  paymentsCall,
  arrearsCall,
  socialInsuranceCall,
  creditScoresCall,
] as const;

// --- money -------------------------------------------------------------------------------------

/** Bureau yuan text ("1234.5", "-12", "0.05") to integer fen, exactly; null when malformed. */
export function taxYuanToFen(yuan: string): number | null {
  const m = /^(-)?(\d{1,13})(?:\.(\d{1,2}))?$/.exec(yuan.trim().replace(/,/g, ''));
  if (!m) return null;
  const fen = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] && fen !== 0 ? -fen : fen;
}

/** Integer fen to yuan text with two decimals (123450 → "1234.50", -5 → "-0.05"). */
export function taxFenToYuan(fen: number): string {
  const abs = Math.abs(Math.trunc(fen));
  return `${fen < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Sum of yuan texts, in fen; a malformed amount counts as 0 (the bureau's data is shown as it came). */
export const sumYuan = (amounts: readonly string[]): string =>
  taxFenToYuan(amounts.reduce((s, a) => s + (taxYuanToFen(a) ?? 0), 0));
