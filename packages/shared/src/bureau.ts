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

/** The invoices issued in a period (发票汇总), amounts before tax. */
export interface InvoiceTotals {
  skssqq: string;
  skssqz: string;
  /** 增值税专用发票 and 普通发票 (incl. 电子发票) amounts */
  zpje: string;
  ppje: string;
}

/** 个人所得税 扣缴申报: per employee the month's wages; deductions default to what the bureau holds. */
export interface IitFigures {
  ry: { zjhm: string; sre: string; sxyj?: string; zxfjkc?: string; qtkc?: string }[];
}
/** 增值税 小规模: sales at 1% and 5%, on 普票 (or no invoice) and 专票. */
export interface SmallScaleVatFigures {
  ppxse?: string;
  zpxse?: string;
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
/** 企业所得税 quarterly prepayment: cumulative this year; cyrs 从业人数 and zcze 资产总额 for 小型微利. */
export interface CitFigures {
  yysr: string;
  yycb: string;
  lrze: string;
  cyrs?: number;
  zcze?: string;
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
  /** The invoices issued in a period (the figures a VAT return starts from). */
  invoiceTotals(session: string, skssqq: string, skssqz: string): Promise<InvoiceTotals>;
  /** Files one return; a second submission of the same return answers alreadyFiled with the first receipt. */
  submitReturn(session: string, input: ReturnSubmission): Promise<SubmitResult>;
  /** Pays a filed return's tax by 三方协议 deduction. */
  payReturn(session: string, input: { type: FilingTaxType; skssqq: string }): Promise<PayResult>;
  /** The 申报回执 PDF of a filed return. */
  receiptUrl(qysh: string, pzxh: string): string;
}
