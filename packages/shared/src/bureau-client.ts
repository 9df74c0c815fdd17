import {
  type Arrear,
  BUREAU_MSG,
  type BureauClient,
  BureauError,
  type BureauInvoice,
  type ConfirmDeductionResult,
  type CreditScore,
  type DateRange,
  type EtaxLoginInput,
  type EtaxLoginResult,
  type FilingRoster,
  INVOICE_CODE,
  type InvoicePage,
  type InvoiceQuota,
  type InvoiceRefusal,
  type InvoiceTotals,
  type IssueResult,
  MSG_TYPE,
  type Payment,
  type PaymentReceipt,
  type PayRefusal,
  type PayResult,
  type PersonalTaxLoginResult,
  type Personnel,
  type RedConfirmation,
  type RedConfirmationResult,
  type ResponsiblePerson,
  type ReturnReceipt,
  type SelectInvoicesResult,
  type SelectResult,
  type SocialInsuranceMonth,
  type SubmitRefusal,
  type SubmitResult,
  stripBrackets,
  type TaxpayerInfo,
  type TaxRegistration,
  type TaxReturn,
  type TodoItem,
} from './bureau.js';

/**
 * The e-tax bureau over HTTP (docs/tax-bureau-protocol.md), with the spec's rules (tax-bureau.md §4,
 * §8): top-level code 10000 means the call went through; 'too many people' is tried 10 times, 1-100 ms
 * apart, then BUREAU_MSG.busy; 访问频繁 is the busy message at once; 5xx, network failures and time-outs
 * are kind 'unreachable' (callers back off and retry); an expired bureau session is kind 'session'.
 * Plain fetch only, so the server and the browser share it.
 */

/** Top-level codes of the bureau's replies (docs/tax-bureau-protocol.md). */
export const BUREAU_CODE = {
  ok: '10000',
  smsRequired: '30001',
  smsSent: '30002',
  sessionExpired: '10010',
} as const;

/** The filing and paying calls' own codes (docs/tax-bureau-protocol.md "Filing and paying"). */
const SUBMIT_REFUSALS: Readonly<Record<string, SubmitRefusal>> = {
  '40001': 'badParams',
  '41001': 'validation',
  '41003': 'notOpen',
  '41004': 'overdue',
  '41005': 'notRegistered',
};
const ALREADY_FILED = '41002';
const PAY_REFUSALS: Readonly<Record<string, PayRefusal>> = {
  '42001': 'noAgreement',
  '42002': 'lowBalance',
  '42004': 'nothingToPay',
};
const ALREADY_PAID = '42003';

/** The invoice calls' refusal codes (docs/tax-bureau-protocol.md "Invoices (数电票)"). */
const INVOICE_REFUSALS: Readonly<Record<string, InvoiceRefusal>> = Object.fromEntries(
  Object.entries(INVOICE_CODE)
    .filter(([k]) => k !== 'repeated')
    .map(([k, code]) => [code, k as InvoiceRefusal]),
);

/** Tries of a call the bureau answers with 'too many people' (tax-bureau.md §9: 10, 1-100 ms apart). */
export const BUSY_TRIES = 10;

/** The spec's helper timeout (tax-bureau.md §9: 120000 ms). */
const DEFAULT_TIMEOUT_MS = 120_000;

/** Page sizes of the bureau queries (tax-bureau.md §9). */
const PAGE = { filed: 100, unfiled: 1000, persons: 100, arrears: 200, credit: 10, other: 100 } as const;

/** What the bureau sends back on every call. */
interface BureauReply {
  code: string;
  msg: string;
  data: unknown;
}

interface Page<T> {
  total: number;
  list: T[];
}

/** The few globals the client needs, typed here so the shared package needs neither DOM nor Node types. */
interface FetchResponse {
  ok: boolean;
  status: number;
  text(): Promise<string>;
}
interface Runtime {
  fetch(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string; signal: unknown },
  ): Promise<FetchResponse>;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  AbortController: new () => { signal: unknown; abort(): void };
}
const runtime = globalThis as unknown as Runtime;

const isBusyText = (msg: string) => msg.includes('人数过多');
const isTooFrequent = (msg: string) => msg.includes('访问频繁');

/** Known 可信登录失败 causes the bureau names; anything else is an account maintenance error (§8). */
const TRUSTED_FAILURES: readonly [string, string][] = [
  ['未查询到关联关系', BUREAU_MSG.trustedNoAssociation],
  ['未找到关联关系', BUREAU_MSG.trustedNoAssociation],
  ['关联关系未确认', BUREAU_MSG.trustedUnconfirmed],
  ['不匹配', BUREAU_MSG.trustedCodeMismatch],
  ['未注册', BUREAU_MSG.trustedNotRegistered],
  ['验证码已失效', BUREAU_MSG.trustedSmsExpired],
  ['验证码错误', BUREAU_MSG.trustedSmsWrong],
];

function trustedFailure(msg: string): string {
  const clean = stripBrackets(msg);
  return TRUSTED_FAILURES.find(([needle]) => clean.includes(needle))?.[1] ?? BUREAU_MSG.trustedAccountError;
}

/** Personal-tax login codes (§4): '0' ok, 1 wrong password, 2 not set, 3 locked; 9 the enterprise is deregistered. */
const PERSONAL_FAILURES: Readonly<Record<string, string>> = {
  '1': BUREAU_MSG.personalWrongPassword,
  '2': BUREAU_MSG.personalNotSet,
  '3': BUREAU_MSG.personalLocked,
  '9': BUREAU_MSG.personalDeregistered,
};

export interface HttpBureauClientOptions {
  /** The bureau's address, e.g. http://127.0.0.1:8090 */
  baseUrl: string;
  /** Per request; default 120000 ms (tax-bureau.md §9). */
  timeoutMs?: number;
  /** Delay between 'too many people' tries; default random 1-100 ms (tests may pass 0). */
  busyDelayMs?: () => number;
}

export function httpBureauClient(opts: HttpBureauClientOptions): BureauClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const busyDelay = opts.busyDelayMs ?? (() => 1 + Math.floor(Math.random() * 100));

  /** One HTTP exchange: the parsed reply, or BureauError for the transport failures. */
  async function once(path: string, body: unknown): Promise<BureauReply> {
    const ctl = new runtime.AbortController();
    const timer = runtime.setTimeout(() => ctl.abort(), timeoutMs);
    let res: FetchResponse;
    let text: string;
    try {
      res = await runtime.fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: ctl.signal,
      });
      text = await res.text();
    } catch {
      // An abort (our time-out) and a refused or reset connection both mean the bureau did not answer.
      throw new BureauError(timedOut(ctl) ? BUREAU_MSG.timeout : BUREAU_MSG.unreachable, 'unreachable');
    } finally {
      runtime.clearTimeout(timer);
    }
    if (!res.ok) throw new BureauError(BUREAU_MSG.unreachable, 'unreachable');
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch {
      throw new BureauError(BUREAU_MSG.parseFailed, 'failed');
    }
    if (!reply || typeof reply !== 'object' || !('code' in reply)) {
      throw new BureauError(BUREAU_MSG.parseFailed, 'failed');
    }
    const r = reply as { code: unknown; msg?: unknown; data?: unknown };
    return { code: String(r.code), msg: typeof r.msg === 'string' ? r.msg : '', data: r.data ?? null };
  }

  /**
   * A call with the busy rules: 'too many people' is tried again (BUSY_TRIES in all), 访问频繁 and an
   * expired session throw at once. Any other reply goes back to the caller, which decides what a
   * non-10000 code means for it.
   */
  async function send(path: string, body: unknown): Promise<BureauReply> {
    for (let attempt = 1; ; attempt++) {
      const reply = await once(path, body);
      if (reply.code === BUREAU_CODE.ok) return reply;
      if (reply.code === BUREAU_CODE.sessionExpired) throw new BureauError(BUREAU_MSG.sessionExpired, 'session');
      if (isTooFrequent(reply.msg)) throw new BureauError(BUREAU_MSG.busy, 'busy');
      if (!isBusyText(reply.msg)) return reply;
      if (attempt >= BUSY_TRIES) throw new BureauError(BUREAU_MSG.busy, 'busy');
      await new Promise<void>((ok) => runtime.setTimeout(ok, busyDelay()));
    }
  }

  /** A query: anything but 10000 is the busy message (§8). */
  async function query<T>(func: string, session: string, params: Record<string, unknown> = {}): Promise<T> {
    const reply = await send(`/ShenBaoQG/${func}`, { session, ...params });
    if (reply.code !== BUREAU_CODE.ok) throw new BureauError(BUREAU_MSG.busy, 'busy');
    return reply.data as T;
  }

  /** An invoice call (POST /fp/<func>): ok, repeated (the first answer again) or refused with a reason. */
  async function fpCall(
    func: string,
    session: string,
    params: Record<string, unknown>,
  ): Promise<{ kind: 'ok' | 'repeated'; data: unknown } | { kind: 'refused'; reason: InvoiceRefusal; msg: string }> {
    const reply = await send(`/fp/${func}`, { session, ...params });
    if (reply.code === BUREAU_CODE.ok) return { kind: 'ok', data: reply.data };
    if (reply.code === INVOICE_CODE.repeated) return { kind: 'repeated', data: reply.data };
    const reason = INVOICE_REFUSALS[reply.code];
    // Any other answer is a failure with the bureau's own words (the invoice service may be down).
    if (!reason) throw new BureauError(stripBrackets(reply.msg) || BUREAU_MSG.busy, 'failed');
    return { kind: 'refused', reason, msg: stripBrackets(reply.msg) };
  }

  /** An invoice query: anything but 10000 is a failure with the bureau's message. */
  async function fp<T>(func: string, session: string, params: Record<string, unknown>): Promise<T> {
    const r = await fpCall(func, session, params);
    if (r.kind === 'refused') throw new BureauError(r.msg, 'failed');
    return r.data as T;
  }

  /** Every page of a paged query. */
  async function all<T>(func: string, session: string, pageSize: number, params: Record<string, unknown> = {}) {
    const out: T[] = [];
    for (let pageNum = 1; ; pageNum++) {
      const page = await query<Page<T>>(func, session, { ...params, pageNum, pageSize });
      out.push(...page.list);
      if (page.list.length === 0 || out.length >= page.total) return out;
    }
  }

  /** Reads a login reply (§4 tax login result), for the password and the SMS logins alike. */
  function loginResult(reply: BureauReply, loginType: '0' | '1'): EtaxLoginResult {
    if (reply.code === BUREAU_CODE.smsRequired || reply.code === BUREAU_CODE.smsSent) {
      const d = (reply.data ?? {}) as { smsTicket?: string; phone?: string };
      return { status: 2, smsTicket: String(d.smsTicket ?? ''), phoneMasked: String(d.phone ?? ''), code: reply.code };
    }
    if (reply.code !== BUREAU_CODE.ok) throw new BureauError(BUREAU_MSG.busy, 'busy');
    const inner = (reply.data ?? {}) as { code?: unknown; msg?: unknown; session?: unknown };
    const code = String(inner.code ?? '');
    const msg = stripBrackets(typeof inner.msg === 'string' ? inner.msg : '');
    const session = typeof inner.session === 'string' ? inner.session : '';
    if (code === '2' || msg.includes('用户名与密码不匹配')) {
      return { status: 0, msg: BUREAU_MSG.mismatch, mismatch: true, msgType: MSG_TYPE.mismatch };
    }
    const loggedIn = code === '0' || code === '4' || loginType === '1';
    if (loggedIn && session) return { status: 1, session };
    if (loggedIn) return { status: 0, msg: BUREAU_MSG.loginIdentityFailed, mismatch: false };
    return { status: 0, msg: trustedFailure(msg), mismatch: false, msgType: MSG_TYPE.trustedLoginFailed };
  }

  return {
    async etaxLogin(input: EtaxLoginInput) {
      return loginResult(await send('/etax/login', input), input.loginType);
    },

    async sendSms(smsTicket: string) {
      const reply = await send('/etax/sms/send', { smsTicket });
      if (reply.code !== BUREAU_CODE.ok) throw new BureauError(BUREAU_MSG.busy, 'busy');
      const inner = (reply.data ?? {}) as { code?: unknown; msg?: unknown };
      if (String(inner.code ?? '0') !== '0') {
        throw new BureauError(trustedFailure(String(inner.msg ?? '')), 'failed');
      }
    },

    async smsLogin(smsTicket: string, code: string) {
      return loginResult(await send('/etax/sms/login', { smsTicket, code }), '0');
    },

    async personalTaxLogin(input): Promise<PersonalTaxLoginResult> {
      const reply = await send('/gs/login', input);
      if (reply.code !== BUREAU_CODE.ok) throw new BureauError(BUREAU_MSG.busy, 'busy');
      const inner = (reply.data ?? {}) as { code?: unknown; sflsmm?: unknown; session?: unknown };
      const code = String(inner.code ?? '');
      if (code === '0') {
        // A temporary password (sflsmm other than '0') is refused (§4).
        if (String(inner.sflsmm ?? '0') !== '0') return { ok: false, msg: BUREAU_MSG.personalTemporary };
        if (typeof inner.session === 'string' && inner.session) return { ok: true, session: inner.session };
        return { ok: false, msg: BUREAU_MSG.loginIdentityFailed };
      }
      return { ok: false, msg: PERSONAL_FAILURES[code] ?? BUREAU_MSG.personalWrongPassword };
    },

    taxpayerInfo: (session) => query<TaxpayerInfo>('nsrjcxx', session),
    responsiblePersons: (session) => all<ResponsiblePerson>('sfxx', session, PAGE.persons),
    registrations: (session) => all<TaxRegistration>('sfzhd', session, PAGE.other),
    filedReturns: (session, range: DateRange) =>
      all<TaxReturn>('cxsysb', session, PAGE.filed, { sbrqq: range.from, sbrqz: range.to }),
    unfiledReturns: (session) => all<TaxReturn>('wsb', session, PAGE.unfiled, { hjbz: 'ALL' }),
    payments: (session, range: DateRange) =>
      all<Payment>('jkxx', session, PAGE.other, { jkrqq: range.from, jkrqz: range.to }),
    arrears: (session) => all<Arrear>('qsxx', session, PAGE.arrears),

    async socialInsurance(session, range: DateRange): Promise<SocialInsuranceMonth[]> {
      const out: SocialInsuranceMonth[] = [];
      for (let pageNum = 1; ; pageNum++) {
        const reply = await send('/ShenBaoQG/dwsbf', {
          session,
          ssqq: range.from,
          ssqz: range.to,
          pageNum,
          pageSize: 100,
        });
        if (reply.code !== BUREAU_CODE.ok) {
          // The one failure that is not 'busy' (§8): no unit social-insurance account means no rows.
          if (stripBrackets(reply.msg).includes('单位社保登录失败')) return [];
          throw new BureauError(BUREAU_MSG.busy, 'busy');
        }
        const page = reply.data as Page<SocialInsuranceMonth>;
        out.push(...page.list);
        if (page.list.length === 0 || out.length >= page.total) return out;
      }
    },

    creditScores: (session, years: string[]) => all<CreditScore>('nsxypj', session, PAGE.credit, { PjndList: years }),
    todos: (session) => all<TodoItem>('wddb', session, PAGE.other),
    filingRoster: (session, filingMonth: string) => query<FilingRoster>('sbqc', session, { filingMonth }),
    hallUrl: (session) => `${base}/hall?session=${encodeURIComponent(session)}`,

    async personnel(session, ssq?: string): Promise<Personnel> {
      const out: Personnel = { ssq: '', ysb: false, sbrq: '', list: [] };
      for (let pageNum = 1; ; pageNum++) {
        const page = await query<Page<Personnel['list'][number]> & Omit<Personnel, 'list'>>('ryxx', session, {
          ...(ssq ? { ssq } : {}),
          pageNum,
          pageSize: PAGE.other,
        });
        Object.assign(out, { ssq: page.ssq, ysb: page.ysb, sbrq: page.sbrq });
        out.list.push(...page.list);
        if (page.list.length === 0 || out.list.length >= page.total) return out;
      }
    },

    invoiceTotals: (session, skssqq: string, skssqz: string) =>
      query<InvoiceTotals>('fpxx', session, { skssqq, skssqz }),

    invoicePage: (session, q) => fp<InvoicePage>('cxfp', session, { ...q }),

    async invoices(session, direction, month): Promise<BureauInvoice[]> {
      const out: BureauInvoice[] = [];
      for (let pageNo = 1; ; pageNo++) {
        const page = await fp<InvoicePage>('cxfp', session, { direction, month, pageNo, pageSize: 500 });
        out.push(...page.list);
        if (page.list.length === 0 || out.length >= page.total) return out;
      }
    },

    invoiceQuota: (session, month) => fp<InvoiceQuota>('sxed', session, { month }),

    async issueInvoice(session, input): Promise<IssueResult> {
      const r = await fpCall('kp', session, { ...input });
      if (r.kind === 'refused') return { status: 'refused', reason: r.reason, msg: r.msg };
      return { status: r.kind === 'ok' ? 'issued' : 'alreadyIssued', invoice: r.data as BureauInvoice };
    },

    async requestRedConfirmation(session, input): Promise<RedConfirmationResult> {
      const r = await fpCall('hzqrd', session, { ...input });
      if (r.kind === 'refused') return { status: 'refused', reason: r.reason, msg: r.msg };
      return { status: r.kind === 'ok' ? 'confirmed' : 'alreadyRequested', qrd: r.data as RedConfirmation };
    },

    async issueRedInvoice(session, input): Promise<IssueResult> {
      const r = await fpCall('hckp', session, { ...input });
      if (r.kind === 'refused') return { status: 'refused', reason: r.reason, msg: r.msg };
      return { status: r.kind === 'ok' ? 'issued' : 'alreadyIssued', invoice: r.data as BureauInvoice };
    },

    async selectInvoices(session, input): Promise<SelectResult> {
      const r = await fpCall('gx', session, { ...input });
      if (r.kind === 'refused') return { status: 'refused', reason: r.reason, msg: r.msg };
      return { status: 'done', result: r.data as SelectInvoicesResult };
    },

    async confirmDeduction(session, ssq): Promise<ConfirmDeductionResult> {
      const r = await fpCall('qrtj', session, { ssq });
      if (r.kind === 'refused') return { status: 'refused', reason: r.reason, msg: r.msg };
      return {
        status: r.kind === 'ok' ? 'confirmed' : 'alreadyConfirmed',
        confirmation: r.data as Extract<ConfirmDeductionResult, { status: 'confirmed' }>['confirmation'],
      };
    },

    async submitReturn(session, input): Promise<SubmitResult> {
      const reply = await send('/ShenBaoQG/sbtj', { session, ...input });
      const receipt = () => {
        const r = reply.data as ReturnReceipt;
        return { ...r, hzdz: `${base}${r.hzdz}` };
      };
      if (reply.code === BUREAU_CODE.ok) return { status: 'filed', receipt: receipt() };
      if (reply.code === ALREADY_FILED) return { status: 'alreadyFiled', receipt: receipt() };
      const reason = SUBMIT_REFUSALS[reply.code];
      if (!reason) throw new BureauError(BUREAU_MSG.busy, 'busy');
      const sbqx = (reply.data as { sbqx?: unknown } | null)?.sbqx;
      return {
        status: 'rejected',
        reason,
        msg: stripBrackets(reply.msg),
        ...(typeof sbqx === 'string' ? { sbqx } : {}),
      };
    },

    async payReturn(session, input): Promise<PayResult> {
      const reply = await send('/ShenBaoQG/jk', { session, type: input.type, skssqq: input.skssqq });
      if (reply.code === BUREAU_CODE.ok) return { status: 'paid', receipt: reply.data as PaymentReceipt };
      if (reply.code === ALREADY_PAID) return { status: 'alreadyPaid', receipt: reply.data as PaymentReceipt };
      const reason = PAY_REFUSALS[reply.code];
      if (!reason) throw new BureauError(BUREAU_MSG.busy, 'busy');
      return { status: 'refused', reason, msg: stripBrackets(reply.msg) };
    },

    async returnStatus(session, input) {
      const d = await query<{ filed?: boolean; receipt?: ReturnReceipt | null }>('sbztcx', session, {
        type: input.type,
        skssqq: input.skssqq,
      });
      const r = d?.filed ? d.receipt : null;
      return r ? { ...r, hzdz: `${base}${r.hzdz}` } : null;
    },

    async paymentStatus(session, input) {
      const d = await query<{ paid?: boolean; payment?: PaymentReceipt | null }>('jkztcx', session, {
        type: input.type,
        skssqq: input.skssqq,
      });
      return d?.paid ? (d.payment ?? null) : null;
    },

    async issuedInvoice(session, requestId) {
      const d = await fp<{ found?: boolean; invoice?: BureauInvoice | null }>('kpcx', session, { requestId });
      return d?.found ? (d.invoice ?? null) : null;
    },

    async redConfirmationFor(session, requestId) {
      const d = await fp<{ found?: boolean; qrd?: RedConfirmation | null }>('hzqrdcx', session, { requestId });
      return d?.found ? (d.qrd ?? null) : null;
    },

    receiptUrl: (qysh: string, pzxh: string) =>
      `${base}/receipt?qysh=${encodeURIComponent(qysh)}&pzxh=${encodeURIComponent(pzxh)}`,
  };
}

function timedOut(ctl: { signal: unknown }): boolean {
  return Boolean((ctl.signal as { aborted?: boolean }).aborted);
}
