import type { FilingCycle, FilingRegistration, FilingState, FilingTaxType, TaxpayerKind } from './filing-calendar.js';

/**
 * The e-tax bureau as the product sees it (tax-bureau.md §3-§9): one client interface that the server
 * (batch inspection, tax data) and the helper (per-client work on the user's PC) both use. The
 * simulator in apps/tax-sim implements the bureau side of docs/tax-bureau-protocol.md; an HTTP
 * implementation of this interface lives in ./bureau-client.ts, so a real adapter can replace it.
 */

// --- the spec's words ----------------------------------------------------------------------------

/** Failure and busy texts (tax-bureau.md §8), verbatim. */
export const BUREAU_MSG = {
  busy: '对不起，当前使用该功能的人数过多，请稍候再试',
  tooFrequent: '访问频繁，请稍后再试',
  etaxIncomplete: '网上办税账号未补全',
  personalIncomplete: '个税账号密码未补全',
  mismatch: '用户名与密码不匹配，请修改',
  trustedSmsExpired: '可信登录失败: 验证码已失效，请重新获取验证码',
  personalDeregistered: '个税登录失败: 企业已注销',
  personalWrongPassword: '个税登录失败：个税密码错误',
  personalNotSet: '个税登录失败：未设置个税密码',
  personalLocked: '个税登录失败：个税密码已锁',
  personalTemporary: '个税登录失败：您的密码为临时密码，请修改密码',
  serviceExpired: '您的服务已到期，部分功能不可使用，续费后可恢复',
  smsLoginExpired: '短信登录验证失效',
  loginIdentityFailed: '登录身份获取失败',
  // §8 names the other 可信登录失败 variants in English only; these are the product's wording.
  trustedNoAssociation: '可信登录失败: 未查询到关联关系',
  trustedUnconfirmed: '可信登录失败: 关联关系未确认',
  trustedCodeMismatch: '可信登录失败: 统一社会信用代码或纳税人识别号不匹配',
  trustedNotRegistered: '可信登录失败: 用户未注册',
  trustedAccountError: '可信登录失败: 账号信息维护异常，请联系主管税务机关',
  trustedSmsWrong: '可信登录失败: 验证码错误，请重新输入',
  // Not in the spec: the bureau session ran out, the bureau did not answer (5xx, time-out).
  sessionExpired: '电子税务局登录已失效，请重新登录',
  unreachable: '电子税务局暂时无法访问，请稍后再试',
  timeout: '电子税务局响应超时，请稍后再试',
  /** §5: returned data must parse. */
  parseFailed: '返回结果解析失败',
} as const;

/** Batch check outcome per enterprise (tax-bureau.md §4). */
export const MSG_TYPE = {
  success: 1,
  etaxIncomplete: 2,
  personalIncomplete: 3,
  mismatch: 4,
  trustedLoginFailed: 5,
  busy: 6,
  personalLoginFailed: 7,
  serviceExpired: 8,
} as const;
export type MsgType = (typeof MSG_TYPE)[keyof typeof MSG_TYPE];

export const MSG_TYPE_NAMES: Readonly<Record<MsgType, string>> = {
  1: '检查成功',
  2: '网上办税账号未补全',
  3: '个税账号密码未补全',
  4: '用户名与密码不匹配',
  5: '可信登录失败',
  6: '使用人数过多',
  7: '个税登录失败',
  8: '服务已到期',
};

/** e-tax login identities sfbm (tax-bureau.md §9): 1 办税员, 2 法人, 3 财务负责人, 6 购票员, 97 agent. */
export type Sfbm = '1' | '2' | '3' | '6' | '97';

/** Square-bracketed text is stripped from tax-hall messages (tax-bureau.md §5). */
export const stripBrackets = (msg: string): string => msg.replace(/\[[^\]]*\]|【[^】]*】/g, '').trim();

// --- what crosses the interface ---------------------------------------------------------------

/** National e-tax login (loginType '0') or the other tax-bureau login ('1'). */
export interface EtaxLoginInput {
  qysh: string;
  account: string;
  password: string;
  sfbm: Sfbm;
  loginType: '0' | '1';
  /** Agent login (sfbm '97'): the agency's own tax number. */
  agentQysh?: string;
  /** The enterprise name (tax-bureau.md §3 enterprise login parameters); the bureau may ignore it. */
  qymc?: string;
}

/**
 * Helper login outcomes (tax-bureau.md §4): 0 failed, 1 logged in, 2 SMS verification needed
 * (bureau codes 30001 / 30002). A failure carries the spec's message.
 */
export type EtaxLoginResult =
  | {
      status: 0;
      msg: string;
      mismatch: boolean;
      /** The batch check outcome this failure stands for: 4 mismatch, 5 trusted-login failure. */
      msgType?: MsgType;
    }
  | { status: 1; session: string }
  | { status: 2; smsTicket: string; phoneMasked: string; code: '30001' | '30002' };

/** Personal-tax (natural person) login codes: '0' ok, '1' wrong password, '2' not set, '3' locked. */
export interface PersonalTaxLoginInput {
  qysh: string;
  dlfs: string;
  dlId: string;
  password: string;
}
export type PersonalTaxLoginResult = { ok: true; session: string } | { ok: false; msg: string };

export interface DateRange {
  from: string; // YYYY-MM-DD
  to: string;
}

export interface TaxpayerInfo {
  qysh: string;
  qymc: string;
  djxh: string;
  swjgdm: string;
  swjgmc: string;
  nsrzt: string; // e.g. 正常, 注销
  qyxz: '0' | '1';
  fddbrxm: string;
  zcdz: string;
  djrq: string;
}
export interface ResponsiblePerson {
  sfbm: Sfbm;
  sfmc: string;
  xm: string;
  zjhm: string;
  lxdh: string;
}
/** A registered tax type and its period (nsqx: '06' monthly, '08' quarterly). */
export interface TaxRegistration {
  zsxmDm: string;
  zsxmMc: string;
  nsqx: string;
  nsqxMc: string;
}
export interface TaxReturn {
  zsxmDm: string;
  zsxmMc: string;
  skssqq: string;
  skssqz: string;
  sbrq?: string; // filed returns only
  ybtse: string; // money as a decimal string, two places
  sbqx?: string; // deadline, unfiled returns only
}
export interface Payment {
  zsxmMc: string;
  skssqq: string;
  skssqz: string;
  jkrq: string;
  sjje: string;
  dzsphm: string;
}
export interface Arrear {
  zsxmMc: string;
  skssqq: string;
  skssqz: string;
  qsje: string;
  znj: string;
  overdue: boolean;
}
export interface SocialInsuranceMonth {
  ssq: string; // YYYY-MM
  xzmc: string;
  jfjs: string;
  dwjfje: string;
  grjfje: string;
}
export interface CreditScore {
  pjnd: string;
  pf: string;
  jb: string; // A B M C D
}
export interface TodoItem {
  code: string;
  title: string;
  deadline: string;
}

/**
 * One return on the bureau's 应申报清册 (filing roster) of a filing month (docs/tax-bureau-protocol.md
 * `sbqc`): every registered type once for the month (state wxsb when nothing is due), plus every return of
 * an earlier period still unfiled (yqwsb). Money as decimal strings, two places.
 */
export interface FilingRosterItem {
  type: FilingTaxType;
  cycle: FilingCycle;
  /** 所属期; empty strings for wxsb. */
  skssqq: string;
  skssqz: string;
  /** 申报期限; empty for wxsb. */
  sbqx: string;
  state: FilingState;
  /** 收入总额 (sales or revenue of the period) and 应补(退)税额; '0.00' when not known. */
  srze: string;
  ybtse: string;
  /** Filed returns: the filing date and the receipt id (申报凭证序号). */
  sbrq?: string;
  pzxh?: string;
  /** Paid returns: the payment date. */
  jkrq?: string;
}

export interface FilingRoster {
  /** 纳税人类型 (qyxz): '0' 一般纳税人, '1' 小规模纳税人. */
  nsrlx: TaxpayerKind;
  /** The taxpayer's registrations (税费种认定). */
  registrations: FilingRegistration[];
  items: FilingRosterItem[];
}

// --- filing and paying (docs/tax-bureau-protocol.md "Filing and paying") -------------------------------

/** One employee (人员信息) with one month's wages and deductions. Money as decimal strings, two places. */
export interface BureauEmployee {
  /** 证件号码 and 证件类型 */
  zjhm: string;
  zjlx: string;
  xm: string;
  /** 任职受雇日期 */
  rzrq: string;
  /** 人员状态 (正常) */
  ryzt: string;
  /** 本期收入 (工资薪金) of the month */
  sre: string;
  /** 专项扣除: 三险一金, the employee's part */
  sxyj: string;
  /** 专项附加扣除 a month, in all and by item */
  zxfjkc: string;
  zxfjkcmx: { xm: string; je: string }[];
  /** 其他扣除 */
  qtkc: string;
}

/** The employees and the wages of one month: by default the last month whose IIT report was filed. */
export interface Personnel {
  /** The month (YYYY-MM) the wages are of; empty when the taxpayer never filed an IIT report. */
  ssq: string;
  /** That month's report is filed, on sbrq. */
  ysb: boolean;
  sbrq: string;
  list: BureauEmployee[];
}

/**
 * The invoices of a period (发票汇总, docs/tax-bureau-protocol.md `fpxx`): the sums of the invoice detail
 * (`fp/cxfp`), red invoices subtracted. Issued amounts are before tax; yuan strings, two places.
 */
export interface InvoiceTotals {
  skssqq: string;
  skssqz: string;
  /** 增值税专用发票 and 普通发票 (incl. 电子发票) amounts */
  zpje: string;
  ppje: string;
  /** Sales by rate (金额, before tax): 13 %, 9 %, 6 %, 5 %, 3 %, 1 %, 0 % (零税率) and 免税 (msxse). */
  xse13: string;
  xse9: string;
  xse6: string;
  xse5: string;
  xse3: string;
  xse1: string;
  xse0: string;
  msxse: string;
  /** 销项税额 of the issued invoices. */
  xxse: string;
  /**
   * Input confirmed for deduction (用途确认, `fp/qrtj`) for the period's months: count, amount, tax. jxqr
   * says every month of the period is confirmed; until then jxse is what was confirmed so far (0 when none).
   */
  jxfs: number;
  jxje: string;
  jxse: string;
  jxqr: boolean;
  /**
   * 货物 only (税收分类编码 1…): sales issued and purchases received — the invoices that evidence a 买卖合同 for
   * 印花税 (services are not). Absent from a bureau that does not give them.
   */
  hwxse?: string;
  hwjxje?: string;
}

// --- invoices (docs/tax-bureau-protocol.md "Invoices (数电票)") ----------------------------------------------

/** 销项 (issued by the taxpayer) or 进项 (received by it). */
export type InvoiceDirection = 'xx' | 'jx';
/** 增值税专用发票 or 普通发票 (数电票 both). */
export type InvoiceKind = 'zp' | 'pp';
/** A line's rate: 13 %, 9 %, 6 %, 5 %, 3 %, 1 %, 0 % (零税率) or 免税 ('mz'). */
export type InvoiceRate = '0.13' | '0.09' | '0.06' | '0.05' | '0.03' | '0.01' | '0' | 'mz';
export const INVOICE_RATES: readonly InvoiceRate[] = ['0.13', '0.09', '0.06', '0.05', '0.03', '0.01', '0', 'mz'];
export const INVOICE_RATE_NAMES: Readonly<Record<InvoiceRate, string>> = {
  '0.13': '13%',
  '0.09': '9%',
  '0.06': '6%',
  '0.05': '5%',
  '0.03': '3%',
  '0.01': '1%',
  '0': '0%',
  mz: '免税',
};
/** 发票状态: '0' 正常, '1' 已红冲 (a blue invoice fully reversed), '2' 作废 (legacy, non-数电 only), '3' 红字发票. */
export type InvoiceStatus = '0' | '1' | '2' | '3';
export const INVOICE_STATUS_NAMES: Readonly<Record<InvoiceStatus, string>> = {
  '0': '正常',
  '1': '已红冲',
  '2': '作废',
  '3': '红字发票',
};
/** 勾选状态 of a received invoice: '0' 未勾选, '1' 已勾选 (for gxssq), '2' 已确认 (用途确认 of gxssq done). */
export type DeductionStatus = '0' | '1' | '2';
export const DEDUCTION_STATUS_NAMES: Readonly<Record<DeductionStatus, string>> = {
  '0': '未勾选',
  '1': '已勾选',
  '2': '已确认',
};

/** One line of an invoice. Money yuan strings (negative on a red invoice); sl and dj '' for a service without. */
export interface BureauInvoiceLine {
  xh: number;
  /** 项目名称 as printed: the code's 简称 and the item, e.g. "*信息技术服务*软件开发服务" */
  spmc: string;
  /** 税收分类编码, 19 digits (packages/shared/src/invoice-codes.ts) */
  ssflbm: string;
  ggxh: string;
  dw: string;
  sl: string;
  dj: string;
  je: string;
  slv: InvoiceRate;
  se: string;
}

/** A 数电票 as the bureau gives it (fp/cxfp, fp/kp, fp/hckp). */
export interface BureauInvoice {
  /** 20 digits: 2 year, 2 region, 1 channel, 15 sequence */
  fphm: string;
  /** 开票日期 YYYY-MM-DD */
  kprq: string;
  fplx: InvoiceKind;
  zt: InvoiceStatus;
  /** A red invoice: the blue invoice it reverses; '' otherwise. */
  lzfphm: string;
  /** 销售方 and 购买方 name and tax number */
  xfmc: string;
  xfsh: string;
  gfmc: string;
  gfsh: string;
  /** 合计金额, 合计税额, 价税合计 (yuan strings, negative on a red invoice) */
  hjje: string;
  hjse: string;
  jshj: string;
  /** 备注 */
  bz: string;
  /** 开票人 */
  kpr: string;
  lines: BureauInvoiceLine[];
  /** Received invoices only: 勾选状态 and the tax period it was ticked for ('' when not ticked). */
  gxzt?: DeductionStatus;
  gxssq?: string;
}

/** One page of a month's invoices (fp/cxfp), newest number last (kprq, then fphm). */
export interface InvoicePage {
  total: number;
  list: BureauInvoice[];
}

export interface InvoiceQuery {
  direction: InvoiceDirection;
  /** YYYY-MM of kprq */
  month: string;
  /** 1-based; pageSize at most 500 (default 100). */
  pageNo?: number;
  pageSize?: number;
}

/** 授信额度 of a month, yuan strings: used = the 价税合计 issued that month (red invoices give it back). */
export interface InvoiceQuota {
  month: string;
  total: string;
  used: string;
  remaining: string;
}

/** A line to issue: je before tax and se, yuan strings; sl and dj optional (both or neither). */
export interface IssueInvoiceLine {
  spmc: string;
  ssflbm: string;
  ggxh?: string;
  dw?: string;
  sl?: string;
  dj?: string;
  je: string;
  slv: InvoiceRate;
  se: string;
}

/** fp/kp: a blue invoice. requestId is the client's, unique per taxpayer: the same one never issues twice. */
export interface IssueInvoiceInput {
  requestId: string;
  fplx: InvoiceKind;
  gfmc: string;
  gfsh: string;
  /** 购买方地址电话, 开户行及账号 (optional, printed) */
  gfdz?: string;
  gfdh?: string;
  gfyh?: string;
  gfzh?: string;
  bz?: string;
  kpr?: string;
  lines: IssueInvoiceLine[];
}

/** 红字确认单 reasons (红冲原因). */
export type RedReason = '开票有误' | '销货退回' | '服务中止' | '销售折让';
export const RED_REASONS: readonly RedReason[] = ['开票有误', '销货退回', '服务中止', '销售折让'];

/** fp/hzqrd: a 红字确认单 for the whole of a blue invoice (full red only). */
export interface RedConfirmationInput {
  requestId: string;
  lzfphm: string;
  reason: RedReason;
}
/** 红字确认单: qrdbh 20 digits; zt '已确认' (the seller may issue the red invoice) or '待购方确认'. */
export interface RedConfirmation {
  qrdbh: string;
  lzfphm: string;
  reason: RedReason;
  zt: '已确认' | '待购方确认';
  /** The red invoice once issued; '' before. */
  hzfphm: string;
  /** Negative amounts of the red invoice to come, yuan strings. */
  hjje: string;
  hjse: string;
  jshj: string;
  lrrq: string;
}

/** fp/hckp: the red invoice of a confirmed 红字确认单. */
export interface RedInvoiceInput {
  requestId: string;
  qrdbh: string;
}

/** fp/gx: 勾选 (gx true) or 取消勾选 received 专票 for the tax period ssq (YYYY-MM). */
export interface SelectInvoicesInput {
  ssq: string;
  fphms: string[];
  gx: boolean;
}
/** Per invoice: done, or why not (the bureau's message). */
export interface SelectInvoicesResult {
  ssq: string;
  list: { fphm: string; ok: boolean; msg: string }[];
}

/** fp/qrtj: 用途确认 of a tax period: what was ticked for it becomes confirmed input tax (yuan strings). */
export interface DeductionConfirmation {
  ssq: string;
  fs: number;
  je: string;
  se: string;
  /** 确认日期 */
  qrrq: string;
}

/** Why the bureau refused an invoice call (codes in docs/tax-bureau-protocol.md "Invoices (数电票)"). */
export type InvoiceRefusal =
  | 'badParams'
  | 'buyerTaxNo'
  | 'unknownCode'
  | 'rateNotAllowed'
  | 'rateForKind'
  | 'taxMismatch'
  | 'amount'
  | 'quota'
  | 'notFound'
  | 'alreadyRed'
  | 'noConfirmation'
  | 'confirmationUsed'
  | 'notDeductible'
  | 'periodClosed'
  | 'periodConfirmed';

/** The bureau's reply codes of the invoice calls. */
export const INVOICE_CODE: Readonly<Record<InvoiceRefusal | 'repeated', string>> = {
  badParams: '40001',
  buyerTaxNo: '43001',
  unknownCode: '43002',
  rateNotAllowed: '43003',
  rateForKind: '43004',
  taxMismatch: '43005',
  amount: '43006',
  quota: '43007',
  notFound: '43101',
  alreadyRed: '43102',
  noConfirmation: '43103',
  confirmationUsed: '43104',
  notDeductible: '43201',
  periodClosed: '43202',
  periodConfirmed: '43203',
  /** Not a refusal: the requestId (or the period's confirmation) was seen before; data is the first answer. */
  repeated: '43000',
};

/** The start of each refusal's message (the bureau adds the particulars after '：'). */
export const INVOICE_MSG: Readonly<Record<InvoiceRefusal, string>> = {
  badParams: '开票参数有误',
  buyerTaxNo: '购买方纳税人识别号校验不通过',
  unknownCode: '税收分类编码不存在',
  rateNotAllowed: '税率与商品和服务税收分类编码不符',
  rateForKind: '纳税人不能使用该税率开具发票',
  taxMismatch: '税额与金额乘以税率之差超过允许误差',
  amount: '金额有误',
  quota: '剩余授信额度不足',
  notFound: '蓝字发票不存在',
  alreadyRed: '该发票已红冲',
  noConfirmation: '红字发票须先开具红字确认单',
  confirmationUsed: '该红字确认单已开具红字发票',
  notDeductible: '该发票不能勾选',
  periodClosed: '所属期不在可勾选期间',
  periodConfirmed: '该所属期已确认，不能再勾选',
};

/** An issuing call's outcome: issued now, issued before (same requestId: the first invoice), or refused. */
export type IssueResult =
  | { status: 'issued'; invoice: BureauInvoice }
  | { status: 'alreadyIssued'; invoice: BureauInvoice }
  | { status: 'refused'; reason: InvoiceRefusal; msg: string };
export type RedConfirmationResult =
  | { status: 'confirmed'; qrd: RedConfirmation }
  | { status: 'alreadyRequested'; qrd: RedConfirmation }
  | { status: 'refused'; reason: InvoiceRefusal; msg: string };
export type SelectResult =
  | { status: 'done'; result: SelectInvoicesResult }
  | { status: 'refused'; reason: InvoiceRefusal; msg: string };
export type ConfirmDeductionResult =
  | { status: 'confirmed'; confirmation: DeductionConfirmation }
  | { status: 'alreadyConfirmed'; confirmation: DeductionConfirmation }
  | { status: 'refused'; reason: InvoiceRefusal; msg: string };

/** 个人所得税 扣缴申报: per employee the month's wages; deductions default to what the bureau holds. */
/**
 * 个人所得税 扣缴: wages per person; kcfs the 累计减除费用 rule (公告2020年第13号 firstJob / 第19号 prior60k),
 * qnycxjj a 全年一次性奖金 taxed alone (公告2023年第30号); lw 劳务报酬 (预扣率表二).
 */
export interface IitFigures {
  ry: {
    zjhm: string;
    sre: string;
    sxyj?: string;
    zxfjkc?: string;
    qtkc?: string;
    kcfs?: 'standard' | 'firstJob' | 'prior60k';
    qnycxjj?: string;
  }[];
  lw?: { zjhm: string; xm?: string; sre: string }[];
  ybtse?: string;
}
/** 增值税 小规模: sales at 1%, 3% (放弃减税 or excluded from it) and 5%, on 普票 (or no invoice) and 专票. */
export interface SmallScaleVatFigures {
  ppxse?: string;
  zpxse?: string;
  ppxse3?: string;
  zpxse3?: string;
  ppxse5?: string;
  zpxse5?: string;
}
/** 增值税 一般纳税人: sales by rate and the period's input VAT; xwqy halves the surtaxes (小型微利企业). */
export interface GeneralVatFigures {
  xse13?: string;
  xse9?: string;
  xse6?: string;
  jxse?: string;
  xwqy?: boolean;
}
/**
 * 企业所得税 quarterly prepayment (A200000, 国家税务总局公告2021年第3号): cumulative this year. Lines 1-3 as on
 * the 利润表; 4-9 tdywynssde 特定业务, bzssr 不征税收入, mssr 免税收入/减计收入/加计扣除, jszjtje 加速折旧调减,
 * sdjm 所得减免, mbyqndks 弥补以前年度亏损; cyrs 从业人数 and zcze 资产总额 (季度平均值) for 小型微利. The
 * computed lines (sjlre 实际利润额, ynsdse, jmsdse, ybtse), when stated, must equal the bureau's (表间校验).
 */
export interface CitFigures {
  yysr: string;
  yycb: string;
  lrze: string;
  tdywynssde?: string;
  bzssr?: string;
  mssr?: string;
  jszjtje?: string;
  sdjm?: string;
  mbyqndks?: string;
  cyrs?: number;
  zcze?: string;
  sjlre?: string;
  ynsdse?: string;
  jmsdse?: string;
  ybtse?: string;
}
/** 财务报表: a few statement totals (资产总计 = 负债合计 + 所有者权益合计). */
export interface StatementFigures {
  zcze: string;
  fzze: string;
  syzqy: string;
  yysr: string;
  jlr: string;
}
/** 印花税: contract amounts by 税目 (htlx: mmht 买卖, jkht 借款, zlht 租赁, jsht 技术, … see tax-compute.ts). */
export interface StampFigures {
  ht: { htlx: string; je: string }[];
  xwqy?: boolean;
}
/** Items the bureau takes as given (年度汇算, 工商年报, 残保金). */
export interface PlainFigures {
  srze?: string;
  ybtse?: string;
}
export type ReturnFigures =
  | IitFigures
  | SmallScaleVatFigures
  | GeneralVatFigures
  | CitFigures
  | StatementFigures
  | StampFigures
  | PlainFigures;

/** One return to submit: type, 所属期, the figures; lsb a zero return (零申报), yqsb a late return (逾期申报). */
export interface ReturnSubmission {
  type: FilingTaxType;
  skssqq: string;
  skssqz: string;
  lsb?: boolean;
  yqsb?: boolean;
  sbsj?: ReturnFigures;
}

/** The bureau's receipt of a filed return. */
export interface ReturnReceipt {
  type: FilingTaxType;
  skssqq: string;
  skssqz: string;
  sbrq: string;
  /** 申报凭证序号 */
  pzxh: string;
  srze: string;
  ybtse: string;
  lsb: boolean;
  yqsb: boolean;
  /** The computed lines of the return (docs/tax-bureau-protocol.md), yuan strings. */
  mx: Record<string, string>;
  /** The 申报回执 PDF (absolute address). */
  hzdz: string;
  /** A late return's notice (逾期申报告知); empty otherwise. */
  tzs?: string;
}

/** Why the bureau refused a return. */
export type SubmitRefusal = 'validation' | 'notOpen' | 'overdue' | 'notRegistered' | 'badParams';

/**
 * A submission's outcome: filed now, or filed before (the same return submitted again: a success, with
 * the first receipt), or refused with the bureau's message (brackets stripped).
 */
export type SubmitResult =
  | { status: 'filed'; receipt: ReturnReceipt }
  | { status: 'alreadyFiled'; receipt: ReturnReceipt }
  | { status: 'rejected'; reason: SubmitRefusal; msg: string; sbqx?: string };

/** A 三方协议 deduction's receipt: jkrq, the tax and late fee, the 电子缴款凭证 (电子税票号码). */
export interface PaymentReceipt {
  type: FilingTaxType;
  skssqq: string;
  skssqz: string;
  jkrq: string;
  sjje: string;
  znj: string;
  dzsphm: string;
}
export type PayRefusal = 'noAgreement' | 'lowBalance' | 'nothingToPay';
export type PayResult =
  | { status: 'paid'; receipt: PaymentReceipt }
  | { status: 'alreadyPaid'; receipt: PaymentReceipt }
  | { status: 'refused'; reason: PayRefusal; msg: string };

/** What a batch check collects per enterprise (tax-bureau.md §3 collected data). */
export interface CollectedData {
  nsrjcxx: TaxpayerInfo;
  sfzhd: TaxRegistration[];
  wddb: TodoItem[];
  wsbList: TaxReturn[];
  qsxxList: Arrear[];
  cxsysbList: TaxReturn[];
}

/** Every bureau failure the client raises; msg is already the spec's text. */
export class BureauError extends Error {
  constructor(
    message: string,
    /** busy: the 'too many people' family after its retries; session: the bureau session expired. */
    readonly kind: 'busy' | 'session' | 'failed' | 'unreachable',
  ) {
    super(message);
    this.name = 'BureauError';
  }
}

/**
 * One client of the e-tax bureau. Every method either answers or throws BureauError with the
 * spec's message; 'too many people' is retried inside (10 tries, 1-100 ms apart) before it throws.
 */
export interface BureauClient {
  etaxLogin(input: EtaxLoginInput): Promise<EtaxLoginResult>;
  sendSms(smsTicket: string): Promise<void>;
  smsLogin(smsTicket: string, code: string): Promise<EtaxLoginResult>;
  personalTaxLogin(input: PersonalTaxLoginInput): Promise<PersonalTaxLoginResult>;
  taxpayerInfo(session: string): Promise<TaxpayerInfo>;
  responsiblePersons(session: string): Promise<ResponsiblePerson[]>;
  registrations(session: string): Promise<TaxRegistration[]>;
  filedReturns(session: string, range: DateRange): Promise<TaxReturn[]>;
  unfiledReturns(session: string): Promise<TaxReturn[]>;
  payments(session: string, range: DateRange): Promise<Payment[]>;
  arrears(session: string): Promise<Arrear[]>;
  socialInsurance(session: string, range: DateRange): Promise<SocialInsuranceMonth[]>;
  creditScores(session: string, years: string[]): Promise<CreditScore[]>;
  todos(session: string): Promise<TodoItem[]>;
  /** The 应申报清册 of a filing month (`YYYY-MM`). */
  filingRoster(session: string, filingMonth: string): Promise<FilingRoster>;
  /** Address of the e-tax hall page for a logged-in session (shown embedded, titled with qymc + qysh). */
  hallUrl(session: string): string;
  /** 人员信息 and the wages of a month (`YYYY-MM`; default the last month whose IIT report was filed). */
  personnel(session: string, ssq?: string): Promise<Personnel>;
  /** The invoices of a period (the figures a VAT return starts from: sales by rate, confirmed input). */
  invoiceTotals(session: string, skssqq: string, skssqz: string): Promise<InvoiceTotals>;
  /** One page of a month's issued (xx) or received (jx) invoices (fp/cxfp). */
  invoicePage(session: string, query: InvoiceQuery): Promise<InvoicePage>;
  /** Every invoice of a month and direction, page by page (500 a page). */
  invoices(session: string, direction: InvoiceDirection, month: string): Promise<BureauInvoice[]>;
  /** 授信额度 of a month (fp/sxed). */
  invoiceQuota(session: string, month: string): Promise<InvoiceQuota>;
  /** Issues a blue invoice (fp/kp); the same requestId answers alreadyIssued with the first invoice. */
  issueInvoice(session: string, input: IssueInvoiceInput): Promise<IssueResult>;
  /** Fills a 红字确认单 for a blue invoice (fp/hzqrd); the same requestId answers alreadyRequested. */
  requestRedConfirmation(session: string, input: RedConfirmationInput): Promise<RedConfirmationResult>;
  /** Issues the red invoice of a confirmed 红字确认单 (fp/hckp); the blue becomes 已红冲. */
  issueRedInvoice(session: string, input: RedInvoiceInput): Promise<IssueResult>;
  /** 勾选 / 取消勾选 received 专票 for a tax period (fp/gx). */
  selectInvoices(session: string, input: SelectInvoicesInput): Promise<SelectResult>;
  /** 用途确认 of a tax period (fp/qrtj); a second call answers alreadyConfirmed with the same figures. */
  confirmDeduction(session: string, ssq: string): Promise<ConfirmDeductionResult>;
  /** Files one return; a second submission of the same return answers alreadyFiled with the first receipt. */
  submitReturn(session: string, input: ReturnSubmission): Promise<SubmitResult>;
  /** Pays a filed return's tax by 三方协议 deduction. */
  payReturn(session: string, input: { type: FilingTaxType; skssqq: string }): Promise<PayResult>;
  /**
   * Whether a return (type × 所属期起) is filed, with its receipt (sbztcx): asked before a return whose
   * submission may have reached the bureau is submitted again. Not a submission.
   */
  returnStatus(session: string, input: { type: FilingTaxType; skssqq: string }): Promise<ReturnReceipt | null>;
  /** Whether a filed return's tax is paid, with the payment (jkztcx): asked before paying again. */
  paymentStatus(session: string, input: { type: FilingTaxType; skssqq: string }): Promise<PaymentReceipt | null>;
  /** The invoice (blue or red) issued for a requestId (the issuer's 流水号, fp/kpcx), or null: asked before issuing again. */
  issuedInvoice(session: string, requestId: string): Promise<BureauInvoice | null>;
  /** The 红字确认单 filled for a requestId as it stands now (fp/hzqrdcx), or null: asked before filling again. */
  redConfirmationFor(session: string, requestId: string): Promise<RedConfirmation | null>;
  /** The 申报回执 PDF of a filed return. */
  receiptUrl(qysh: string, pzxh: string): string;
}
