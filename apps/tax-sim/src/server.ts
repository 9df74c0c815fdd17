import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FILING_MONTH_MIN, FILING_TAX_TYPE_NAMES } from '@dzy/shared';
import { createFaults, type Faults, parseFaultSpec } from './faults.js';
import {
  arrears,
  type Book,
  bookOf,
  filedReturns,
  payments,
  pzxhOf,
  roster,
  taxRegistrations,
  todos,
  unfiledReturns,
} from './filing.js';
import { createInvoiceDesk, type DeskContext, totalsReply } from './invoices.js';
import { createDevOAuth } from './oauth-dev.js';
import { hallPage, trustedLoginPage } from './pages.js';
import { receiptPdf } from './receipt-pdf.js';
import {
  defaultPayment,
  isPaymentBehaviour,
  type Ledger,
  ledgerList,
  type PaymentBehaviour,
  paymentStatus,
  payReturn,
  personnel,
  returnStatus,
  submitReturn,
  withLedger,
} from './returns.js';
import {
  type Behaviour,
  creditScores,
  defaultFlavour,
  isScenario,
  makeTaxpayer,
  responsiblePersons,
  SCENARIO_TAXPAYERS,
  SCENARIOS,
  type Scenario,
  SIM_ETAX_PASSWORD,
  SIM_PERSONAL_PASSWORD,
  socialInsurance,
  type Taxpayer,
  today,
  yuan,
} from './taxpayers.js';

export interface TaxSimOptions {
  /** Default 127.0.0.1: the simulator serves the loopback only unless told otherwise. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Delay added to every bureau call (the benchmark runs at 200 ms). */
  latencyMs?: number;
  /** How long a bureau session lasts; default 30 minutes. */
  sessionTtlMs?: number;
  /** How long an SMS login code is valid; default 5 minutes. */
  smsTtlMs?: number;
  /**
   * The bureau's date, `YYYY-MM-DD`, for every date-dependent answer (returns, roster, arrears, to-dos);
   * default env TAX_SIM_TODAY, else the real China date. Session and SMS expiry keep the real clock.
   */
  today?: string;
  /**
   * How many invoices every taxpayer issues and receives a month (docs: "Invoices (数电票)"); default env
   * TAX_SIM_INVOICES_PER_MONTH, else by the taxpayer's scale (0).
   */
  invoicesPerMonth?: number;
}

export interface SmsRecord {
  qysh: string;
  phone: string;
  code: string;
  expiresAt: number;
}

export interface TaxSim {
  url: string;
  faults: Faults;
  /** Gives a tax number a scenario (and optionally its name), as POST /admin/taxpayers does. */
  setScenario(qysh: string, scenario: Scenario, qymc?: string): void;
  /** The newest login code sent for a tax number (GET /admin/sms). */
  lastSms(qysh: string): SmsRecord | null;
  /** Ends the bureau sessions of one taxpayer, or all (POST /admin/sessions/expire). */
  expireSessions(qysh?: string): number;
  /** The bureau's date (fixed by the `today` option or TAX_SIM_TODAY, else the real China date). */
  today(): string;
  /** What was filed and paid through the bureau (GET /admin/filings), one row per return. */
  filings(qysh?: string): ReturnType<typeof ledgerList>;
  /** How a taxpayer's 三方协议 deduction goes (POST /admin/payment). */
  setPayment(qysh: string, payment: PaymentBehaviour): void;
  /** Invoices issued and received a month by every taxpayer; 0 by scale (POST /admin/invoices). */
  setInvoicesPerMonth(n: number): void;
  /**
   * Submissions received per kind (GET /admin/submissions): every call of sbtj, jk, fp/kp, fp/hzqrd and
   * fp/hckp that reached the bureau with a session, whatever its answer (refused duplicates included).
   */
  submissions(qysh?: string): SubmissionCounts;
  close(): Promise<void>;
}

/** The calls that change the bureau's books, counted as submissions (docs: "Submissions received"). */
const SUBMISSION_PATHS = {
  '/ShenBaoQG/sbtj': 'sbtj',
  '/ShenBaoQG/jk': 'jk',
  '/fp/kp': 'kp',
  '/fp/hzqrd': 'hzqrd',
  '/fp/hckp': 'hckp',
} as const;
export type SubmissionKind = (typeof SUBMISSION_PATHS)[keyof typeof SUBMISSION_PATHS];
export type SubmissionCounts = Record<SubmissionKind, number>;

/** The bureau's top-level codes and texts (docs/tax-bureau-protocol.md). */
const OK = '10000';
const SESSION_EXPIRED = '10010';
const BUSY_TEXT = '对不起，当前使用该功能的人数过多，请稍后再试[E20001]';
const TOO_FREQUENT_TEXT = '访问频繁，请稍后再试';
/** A query's parameters are wrong (e.g. sbqc's filingMonth). */
const BAD_PARAMS = '40001';

interface Session {
  qysh: string;
  kind: 'etax' | 'gs' | 'gsxt';
  expiresAt: number;
}
interface SmsTicket {
  qysh: string;
  loginType: '0' | '1';
  sent: SmsRecord | null;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Starts the simulated e-tax bureau. */
export async function startTaxSim(opts: TaxSimOptions = {}): Promise<TaxSim> {
  const latencyMs = opts.latencyMs ?? 0;
  const sessionTtlMs = opts.sessionTtlMs ?? 30 * 60_000;
  const smsTtlMs = opts.smsTtlMs ?? 5 * 60_000;
  const fixedToday = opts.today ?? (process.env.TAX_SIM_TODAY || undefined);
  if (fixedToday !== undefined && !isRealDate(fixedToday)) {
    throw new Error(`tax-sim: today must be a date YYYY-MM-DD, got ${JSON.stringify(fixedToday)}`);
  }
  const simToday = () => fixedToday ?? today();
  const faults = createFaults();
  const oauthDev = createDevOAuth();
  const behaviours = new Map<string, Behaviour>(SCENARIO_TAXPAYERS.map((s) => [s.qysh, SCENARIOS[s.scenario]]));
  const names = new Map<string, string>();
  const sessions = new Map<string, Session>();
  const tickets = new Map<string, SmsTicket>();
  const smsByQysh = new Map<string, SmsRecord>();
  const hanging = new Set<ServerResponse>();
  /** Returns filed and paid through the bureau, per taxpayer (docs: "Filing and paying"). */
  const ledger: Ledger = new Map();
  const paymentBehaviours = new Map<string, PaymentBehaviour>();
  /** `${kind}|${qysh}` → submissions received. */
  const submitted = new Map<string, number>();
  const submissions = (qysh?: string): SubmissionCounts => {
    const out: SubmissionCounts = { sbtj: 0, jk: 0, kp: 0, hzqrd: 0, hckp: 0 };
    for (const [k, n] of submitted) {
      const [kind, q] = k.split('|') as [SubmissionKind, string];
      if (!qysh || q === qysh) out[kind] += n;
    }
    return out;
  };
  const paymentOf = (qysh: string) => paymentBehaviours.get(qysh) ?? defaultPayment(qysh);
  /** The taxpayer's book as of the bureau's date, with what was filed and paid through it. */
  const bookFor = (t: Taxpayer, now = simToday()): Book => withLedger(bookOf(t, now), ledger, t.qysh);
  /** Invoices (docs: "Invoices (数电票)"): generated per taxpayer and month, and what the fp calls changed. */
  const envPerMonth = Number(process.env.TAX_SIM_INVOICES_PER_MONTH || 0);
  const desk = createInvoiceDesk({
    perMonth: opts.invoicesPerMonth ?? (Number.isInteger(envPerMonth) && envPerMonth > 0 ? envPerMonth : 0),
  });
  const deskContext = (t: Taxpayer, now = simToday()): DeskContext => ({
    t,
    today: now,
    book: () => bookFor(t, now),
    history: () => bookOf(t, now),
  });

  const taxpayer = (qysh: string): Taxpayer => {
    const behaviour = behaviours.get(qysh) ?? { ...SCENARIOS.clean, flavour: defaultFlavour(qysh) };
    return makeTaxpayer(qysh, behaviour, names.get(qysh));
  };
  const token = () => randomBytes(24).toString('base64url');
  const newSession = (qysh: string, kind: Session['kind']) => {
    const t = token();
    sessions.set(t, { qysh, kind, expiresAt: Date.now() + sessionTtlMs });
    return t;
  };
  const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;
  const reply = (data: unknown, msg = '成功') => ({ code: OK, msg, data });
  const paged = <T>(list: T[], body: Record<string, unknown>) => {
    const size = Math.min(Math.max(Number(body.pageSize) || 100, 1), 1000);
    const num = Math.max(Number(body.pageNum) || 1, 1);
    return reply({ total: list.length, pageNum: num, pageSize: size, list: list.slice((num - 1) * size, num * size) });
  };

  // --- login ------------------------------------------------------------------------------------

  function etaxLogin(b: Record<string, unknown>) {
    const qysh = str(b.qysh);
    const loginType = b.loginType === '1' ? '1' : '0';
    if (!qysh || !str(b.account)) return reply({ code: '2', msg: '用户名与密码不匹配[E1002]' });
    if (str(b.qymc) && !names.has(qysh)) names.set(qysh, str(b.qymc));
    const t = taxpayer(qysh);
    const password = str(b.password);
    const wrong = password === '' || (t.behaviour.login === 'mismatch' && password !== SIM_ETAX_PASSWORD);
    if (wrong) return reply({ code: '2', msg: '用户名与密码不匹配[E1002]' });
    if (b.sfbm === '97' && !str(b.agentQysh)) return reply({ code: '3', msg: '未查询到关联关系[E3001]' });
    const trusted: Partial<Record<Behaviour['login'], string>> = {
      noAssociation: '未查询到关联关系[E3001]',
      unconfirmed: '关联关系未确认[E3002]',
      codeMismatch: '统一社会信用代码或纳税人识别号不匹配[E3003]',
      notRegistered: '用户未注册[E3004]',
      accountError: '账号状态异常[E3099]',
    };
    // Trusted-login association failures belong to the national login (type '0') only.
    const failure = loginType === '0' ? trusted[t.behaviour.login] : undefined;
    if (failure) return reply({ code: '3', msg: failure });
    if (t.behaviour.login === 'sms') {
      const smsTicket = token();
      tickets.set(smsTicket, { qysh, loginType, sent: null });
      return { code: '30001', msg: '需要进行短信验证', data: { smsTicket, phone: masked(t.phone) } };
    }
    const session = newSession(qysh, 'etax');
    return reply({
      code: loginType === '1' ? '1' : '0',
      msg: '登录成功',
      session,
      expiresAt: Date.now() + sessionTtlMs,
    });
  }

  function sendSms(b: Record<string, unknown>) {
    const ticket = tickets.get(str(b.smsTicket));
    if (!ticket) return reply({ code: '6', msg: '验证码已失效，请重新获取验证码' });
    const t = taxpayer(ticket.qysh);
    ticket.sent = {
      qysh: ticket.qysh,
      phone: t.phone,
      code: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      expiresAt: Date.now() + smsTtlMs,
    };
    smsByQysh.set(ticket.qysh, ticket.sent);
    return reply({ code: '0', msg: '验证码已发送', phone: masked(t.phone) });
  }

  function smsLogin(b: Record<string, unknown>) {
    const ticket = tickets.get(str(b.smsTicket));
    if (!ticket?.sent || ticket.sent.expiresAt < Date.now()) {
      return reply({ code: '6', msg: '验证码已失效，请重新获取验证码[E3006]' });
    }
    if (str(b.code) !== ticket.sent.code) return reply({ code: '7', msg: '验证码错误[E3007]' });
    tickets.delete(str(b.smsTicket));
    const session = newSession(ticket.qysh, 'etax');
    return reply({ code: '0', msg: '登录成功', session, expiresAt: Date.now() + sessionTtlMs });
  }

  function personalLogin(b: Record<string, unknown>) {
    const qysh = str(b.qysh);
    const t = taxpayer(qysh);
    const password = str(b.password);
    switch (t.behaviour.personal) {
      case 'deregistered':
        return reply({ code: '9', msg: '企业已注销' });
      case 'notSet':
        return reply({ code: '2', msg: '未设置个税密码' });
      case 'locked':
        return reply({ code: '3', msg: '密码已锁定' });
      default:
    }
    if (!str(b.dlId) || password === '') return reply({ code: '1', msg: '密码错误' });
    if (t.behaviour.personal === 'wrong' && password !== SIM_PERSONAL_PASSWORD)
      return reply({ code: '1', msg: '密码错误' });
    const sflsmm = t.behaviour.personal === 'temporary' ? '1' : '0';
    return reply({ code: '0', msg: '登录成功', sflsmm, session: sflsmm === '0' ? newSession(qysh, 'gs') : '' });
  }

  // --- queries -------------------------------------------------------------------------------------

  function query(func: string, b: Record<string, unknown>, t: Taxpayer) {
    const now = simToday();
    const book = () => bookFor(t, now);
    const from = (k: string, fallback: string) => (isDate(b[k]) ? (b[k] as string) : fallback);
    switch (func) {
      case 'nsrjcxx':
        return reply(t.info);
      case 'sfxx':
        return paged(responsiblePersons(t), b);
      case 'sfzhd':
        return paged(taxRegistrations(book()), b);
      case 'sbqc': {
        const month = str(b.filingMonth);
        if (!isFilingMonth(month)) {
          return {
            code: BAD_PARAMS,
            msg: `所属月份有误：应为 YYYY-MM，且不早于 ${FILING_MONTH_MIN}[E40001]`,
            data: null,
          };
        }
        return reply(roster(book(), month));
      }
      case 'cxsysb': {
        const lo = from('sbrqq', `${now.slice(0, 4)}-01-01`);
        const hi = from('sbrqz', now);
        return paged(
          filedReturns(book()).filter((r) => r.sbrq >= lo && r.sbrq <= hi),
          b,
        );
      }
      case 'wsb':
        return paged(unfiledReturns(book()), b);
      case 'jkxx': {
        const lo = from('jkrqq', `${now.slice(0, 4)}-01-01`);
        const hi = from('jkrqz', now);
        return paged(
          payments(book()).filter((p) => p.jkrq >= lo && p.jkrq <= hi),
          b,
        );
      }
      case 'qsxx':
        return paged(arrears(book()), b);
      case 'qsmx': {
        // Arrears detail: the tax and the late fee, per arrear.
        const list = arrears(book())
          .filter((a) => !b.id || a.id === b.id)
          .flatMap((a) => [
            { id: a.id, xm: '税款', zsxmMc: a.zsxmMc, skssqq: a.skssqq, skssqz: a.skssqz, je: a.qsje },
            { id: a.id, xm: '滞纳金', zsxmMc: a.zsxmMc, skssqq: a.skssqq, skssqz: a.skssqz, je: a.znj },
          ]);
        return paged(list, b);
      }
      case 'dwsbf': {
        const lo = from('ssqq', `${now.slice(0, 4)}-01-01`);
        const hi = from('ssqz', now);
        const list = socialInsurance(t, lo, hi, now);
        if (!list) return { code: '20010', msg: '单位社保登录失败[E4001]', data: null };
        return paged(list, b);
      }
      case 'nsxypj': {
        const years = Array.isArray(b.PjndList) ? b.PjndList.map(String) : [String(Number(now.slice(0, 4)) - 1)];
        return paged(creditScores(t, years), b);
      }
      case 'wddb':
        return paged(todos(t, book()), b);
      case 'ryxx': {
        const ssq = str(b.ssq);
        if (ssq && !/^\d{4}-(0[1-9]|1[0-2])$/.test(ssq)) {
          return { code: BAD_PARAMS, msg: '所属月份有误：应为 YYYY-MM[E40001]', data: null };
        }
        const p = personnel(t, book(), ledger, ssq || undefined);
        const page = paged(p.list, b);
        return { ...page, data: { ...(page.data as object), ssq: p.ssq, ysb: p.ysb, sbrq: p.sbrq } };
      }
      case 'fpxx': {
        if (!isDate(b.skssqq) || !isDate(b.skssqz) || (b.skssqz as string) < (b.skssqq as string)) {
          return { code: BAD_PARAMS, msg: '所属期有误：需要 skssqq、skssqz[E40001]', data: null };
        }
        // The sums of the invoice detail (fp/cxfp): what was declared does not change them.
        const q = b.skssqq as string;
        const z = b.skssqz as string;
        return reply(totalsReply(q, z, desk.totals(deskContext(t, now), q, z)));
      }
      case 'sbtj':
        return submitReturn({ t, book: book(), ledger, today: now, invoices: invoicesFor(t, now) }, b);
      case 'sbztcx':
        return returnStatus({ t, book: book(), ledger }, b);
      case 'jkztcx':
        return paymentStatus({ t, book: book(), ledger }, b);
      case 'jk':
        return payReturn(
          { t, book: book(), ledger, today: now, payment: paymentOf(t.qysh), invoices: invoicesFor(t, now) },
          b,
        );
      default:
        throw new HttpError(404, `unknown query ${func}`);
    }
  }

  const invoicesFor = (t: Taxpayer, now: string) => (q: string, z: string) => desk.totals(deskContext(t, now), q, z);

  /** An invoice call, POST /fp/<func> (docs: "Invoices (数电票)"). */
  function invoiceCall(func: string, b: Record<string, unknown>, t: Taxpayer) {
    const ctx = deskContext(t);
    switch (func) {
      case 'cxfp':
        return desk.cxfp(ctx, b);
      case 'sxed':
        return desk.sxed(ctx, b);
      case 'kp':
        return desk.kp(ctx, b);
      case 'kpcx':
        return desk.kpcx(ctx, b);
      case 'hzqrdcx':
        return desk.hzqrdcx(ctx, b);
      case 'hzqrd':
        return desk.hzqrd(ctx, b);
      case 'hckp':
        return desk.hckp(ctx, b);
      case 'gx':
        return desk.gx(ctx, b);
      case 'qrtj':
        return desk.qrtj(ctx, b);
      default:
        throw new HttpError(404, `unknown invoice call ${func}`);
    }
  }

  function sessionOf(b: Record<string, unknown>): Session | null {
    const s = sessions.get(str(b.session));
    if (!s) return null;
    if (s.expiresAt < Date.now()) {
      sessions.delete(str(b.session));
      return null;
    }
    return s;
  }

  // --- admin ----------------------------------------------------------------------------------------

  function setScenario(qysh: string, scenario: Scenario, qymc?: string) {
    behaviours.set(qysh, SCENARIOS[scenario]);
    if (qymc) names.set(qysh, qymc);
  }

  function expireSessions(qysh?: string) {
    let n = 0;
    for (const [k, s] of sessions) {
      if (!qysh || s.qysh === qysh) {
        sessions.delete(k);
        n++;
      }
    }
    return n;
  }

  function admin(method: string, path: string, url: URL, b: Record<string, unknown>) {
    const qysh = str(b.qysh) || url.searchParams.get('qysh') || '';
    if (path === '/admin/sms' && method === 'GET') {
      const sms = smsByQysh.get(qysh);
      return sms ? reply(sms) : { code: '40400', msg: '没有发给该纳税人的验证码', data: null };
    }
    if (path === '/admin/faults' && method === 'GET') return reply(faults.list());
    if (path === '/admin/faults' && method === 'POST') {
      const spec = parseFaultSpec(b);
      if (!spec) throw new HttpError(400, 'bad fault spec');
      faults.set(spec, qysh || undefined, str(b.path) || undefined);
      return reply(faults.list());
    }
    if (path === '/admin/invoices' && method === 'POST') {
      const n = b.perMonth;
      if (!Number.isInteger(n) || (n as number) < 0 || (n as number) > 500) {
        throw new HttpError(400, 'perMonth must be an integer 0-500');
      }
      desk.perMonth = n as number;
      return reply({ perMonth: desk.perMonth });
    }
    if (path === '/admin/invoices' && method === 'GET') {
      const month = url.searchParams.get('month') ?? '';
      const direction = url.searchParams.get('direction') === 'jx' ? 'jx' : 'xx';
      if (!qysh || !/^\d{4}-\d{2}$/.test(month)) throw new HttpError(400, 'qysh and month are required');
      return reply({ list: desk.list(deskContext(taxpayer(qysh)), direction, month) });
    }
    if (path === '/admin/faults' && method === 'DELETE') {
      faults.clear(qysh || undefined);
      return reply(faults.list());
    }
    if (path === '/admin/sessions/expire' && method === 'POST')
      return reply({ expired: expireSessions(qysh || undefined) });
    if (path === '/admin/scenarios' && method === 'GET') {
      return reply({
        scenarios: SCENARIOS,
        taxpayers: SCENARIO_TAXPAYERS,
        etaxPassword: SIM_ETAX_PASSWORD,
        personalPassword: SIM_PERSONAL_PASSWORD,
      });
    }
    if (path === '/admin/taxpayers' && method === 'POST') {
      if (!qysh || !isScenario(b.scenario)) throw new HttpError(400, 'qysh and a known scenario are required');
      setScenario(qysh, b.scenario, str(b.qymc) || undefined);
      return reply({ qysh, scenario: b.scenario });
    }
    if (path === '/admin/submissions' && method === 'GET') return reply(submissions(qysh || undefined));
    if (path === '/admin/submissions' && method === 'DELETE') {
      submitted.clear();
      return reply(submissions());
    }
    if (path === '/admin/filings' && method === 'GET') {
      return reply({ list: ledgerList(ledger, (q) => bookFor(taxpayer(q)), qysh || undefined) });
    }
    if (path === '/admin/payment' && method === 'POST') {
      if (!qysh || !isPaymentBehaviour(b.payment))
        throw new HttpError(400, 'qysh and payment (ok, noAgreement, lowBalance) are required');
      paymentBehaviours.set(qysh, b.payment);
      return reply({ qysh, payment: b.payment });
    }
    if (path === '/admin/taxpayers' && method === 'GET') {
      if (!qysh) throw new HttpError(400, 'qysh is required');
      const t = taxpayer(qysh);
      return reply({ ...t, personalPassword: undefined, payment: paymentOf(qysh) });
    }
    throw new HttpError(404, 'not found');
  }

  // --- HTTP -----------------------------------------------------------------------------------------

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sim');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return send(res, 204, '');
    const b = method === 'POST' || method === 'DELETE' ? await readJson(req) : {};
    if (oauthDev.handle(req, res, url, b)) return;

    if (path.startsWith('/admin/')) return sendJson(res, admin(method, path, url, b));
    if (method === 'GET' && path === '/hall') {
      const s = sessionOf({ session: url.searchParams.get('session') ?? '' });
      const t = s ? taxpayer(s.qysh) : null;
      return send(
        res,
        s ? 200 : 401,
        hallPage(t ? { info: t.info, todos: todos(t, bookFor(t)) } : null),
        'text/html; charset=utf-8',
      );
    }
    if (method === 'GET' && path === '/receipt') {
      const qysh = url.searchParams.get('qysh') ?? '';
      const pzxh = url.searchParams.get('pzxh') ?? '';
      const t = qysh ? taxpayer(qysh) : null;
      const book = t ? bookFor(t) : null;
      const r = book?.returns.find((x) => x.sbrq && pzxhOf(book, x) === pzxh);
      if (!t || !book || !r)
        return send(res, 404, JSON.stringify({ code: '40400', msg: '未找到该申报回执', data: null }));
      const pdf = await receiptPdf(
        '申报回执',
        [
          ['纳税人识别号', t.qysh],
          ['纳税人名称', t.info.qymc],
          ['申报税种', FILING_TAX_TYPE_NAMES[r.type]],
          ['税款所属期', `${r.skssqq} 至 ${r.skssqz}`],
          ['申报日期', r.sbrq ?? ''],
          ['收入总额', `${yuan(r.srze)} 元`],
          ['应补(退)税额', `${yuan(r.ybtse)} 元`],
          ['申报凭证序号', pzxh],
          ['受理税务机关', t.info.swjgmc],
        ],
        '您的申报已受理。本回执由模拟电子税务局生成，仅用于测试与演示。',
      );
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="${pzxh}.pdf"`,
        'access-control-allow-origin': '*',
        'cache-control': 'no-store',
      });
      return res.end(pdf);
    }
    if (method === 'GET' && path === '/trusted-login') {
      return send(res, 200, trustedLoginPage(url.searchParams), 'text/html; charset=utf-8');
    }
    if (method === 'GET' && (path === '/' || path === '/health'))
      return sendJson(res, reply({ name: '模拟电子税务局', today: simToday() }));
    if (method !== 'POST') throw new HttpError(404, 'not found');

    // A bureau call: find whose it is (for the per-taxpayer faults), then play the faults.
    const session = path.startsWith('/ShenBaoQG/') || path.startsWith('/fp/') ? sessionOf(b) : null;
    const ticket = tickets.get(str(b.smsTicket));
    const qysh = session?.qysh ?? ticket?.qysh ?? (str(b.qysh) || null);
    const kind = SUBMISSION_PATHS[path as keyof typeof SUBMISSION_PATHS];
    if (kind && session) submitted.set(`${kind}|${session.qysh}`, (submitted.get(`${kind}|${session.qysh}`) ?? 0) + 1);
    const { fault, slowMs, msg: refuseMsg } = faults.take(qysh, path.slice(1));
    if (latencyMs + slowMs > 0) await sleep(latencyMs + slowMs);
    if (fault === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (fault === 'error5xx') return send(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html');
    if (fault === 'busy') return sendJson(res, { code: '20001', msg: BUSY_TEXT, data: null });
    if (fault === 'tooFrequent') return sendJson(res, { code: '20002', msg: TOO_FREQUENT_TEXT, data: null });
    if (fault === 'refuse') return sendJson(res, { code: '43999', msg: `${refuseMsg}[E43999]`, data: null });
    if (qysh && taxpayer(qysh).behaviour.login === 'busy')
      return sendJson(res, { code: '20001', msg: BUSY_TEXT, data: null });

    // lostReply: the bureau does the work (a login, a return filed, a tax paid) but the answer never arrives;
    // hangAfter: the work is done and the connection left open, as when the client dies while it waits.
    const answer = (body: unknown) => {
      if (fault === 'hangAfter') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      return fault === 'lostReply'
        ? send(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html')
        : sendJson(res, body);
    };
    switch (path) {
      case '/etax/login':
        return answer(etaxLogin(b));
      case '/etax/sms/send':
        return answer(sendSms(b));
      case '/etax/sms/login':
        return answer(smsLogin(b));
      case '/gs/login':
        return answer(personalLogin(b));
      // 国家企业信用信息公示系统 (the helper's /gsxt Login): the enterprise's liaison signs in with the
      // same password rule as the e-tax login; the session then reads the annual-report home.
      case '/gsxt/login': {
        const q = str(b.qysh);
        if (!q || !str(b.lxrxm)) return answer(reply({ code: '1', msg: '请输入统一社会信用代码与联络员姓名' }));
        if (str(b.qymc) && !names.has(q)) names.set(q, str(b.qymc));
        const t = taxpayer(q);
        const pw = str(b.password);
        if (pw === '' || (t.behaviour.login === 'mismatch' && pw !== SIM_ETAX_PASSWORD))
          return answer(reply({ code: '2', msg: '联络员信息或密码错误[G1002]' }));
        return answer(reply({ code: '0', msg: '登录成功', session: newSession(q, 'gsxt'), qymc: t.info.qymc }));
      }
      case '/gsxt/notice/report/home': {
        const s = sessionOf(b);
        if (s?.kind !== 'gsxt' || !s)
          return sendJson(res, { code: SESSION_EXPIRED, msg: '会话已失效，请重新登录', data: null });
        const t = taxpayer(s.qysh);
        const year = Number(simToday().slice(0, 4));
        const first = Math.max(Number(t.info.djrq.slice(0, 4)), year - 3);
        const years = [];
        for (let y = year - 1; y >= first; y--)
          years.push({
            year: String(y),
            status: y === year - 1 && simToday().slice(5) < '06-30' ? '未报送' : '已公示',
          });
        return answer(reply({ qysh: t.qysh, qymc: t.info.qymc, deadline: `${year}-06-30`, reports: years }));
      }
      default:
    }
    if (path.startsWith('/fp/')) {
      if (!session) return sendJson(res, { code: SESSION_EXPIRED, msg: '会话已失效，请重新登录', data: null });
      return answer(invoiceCall(path.slice('/fp/'.length), b, taxpayer(session.qysh)));
    }
    if (path.startsWith('/ShenBaoQG/')) {
      if (!session) return sendJson(res, { code: SESSION_EXPIRED, msg: '会话已失效，请重新登录', data: null });
      return answer(query(path.slice('/ShenBaoQG/'.length), b, taxpayer(session.qysh)));
    }
    throw new HttpError(404, 'not found');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) console.error('tax-sim:', err);
      if (!res.headersSent)
        sendJson(res, { code: String(status), msg: err instanceof Error ? err.message : 'error', data: null }, status);
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => ok());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;

  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${addr.port}`,
    faults,
    setScenario,
    lastSms: (qysh) => smsByQysh.get(qysh) ?? null,
    expireSessions,
    today: simToday,
    filings: (qysh) => ledgerList(ledger, (q) => bookFor(taxpayer(q)), qysh),
    setPayment: (qysh, payment) => {
      paymentBehaviours.set(qysh, payment);
    },
    setInvoicesPerMonth: (n) => {
      desk.perMonth = n;
    },
    submissions,
    close: () =>
      new Promise<void>((ok) => {
        for (const res of hanging) res.destroy();
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const isDate = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
/** A real calendar date YYYY-MM-DD. */
const isRealDate = (v: string) =>
  isDate(v) && !Number.isNaN(Date.parse(v)) && new Date(Date.parse(v)).toISOString().slice(0, 10) === v;
/** A filing month YYYY-MM, not before the first the bureau keeps. */
const isFilingMonth = (v: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(v) && v >= FILING_MONTH_MIN;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new HttpError(413, 'body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    throw new HttpError(400, 'body is not JSON');
  }
}

/** Every answer allows the product (another origin) to call and to frame the simulator's pages. */
function send(res: ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8') {
  res.writeHead(status, {
    'content-type': type,
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'content-type',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'cache-control': 'no-store',
  });
  res.end(body);
}

function sendJson(res: ServerResponse, body: unknown, status = 200) {
  send(res, status, JSON.stringify(body));
}
