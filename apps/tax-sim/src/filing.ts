import {
  addMonths,
  currentFilingMonth,
  type DuePeriod,
  daysOverdue,
  duePeriod,
  FILING_TAX_TYPES,
  type FilingCycle,
  type FilingRegistration,
  type FilingRoster,
  type FilingRosterItem,
  type FilingTaxType,
  filingDeadline,
  NSQX_OF_CYCLE,
  registrationsOf,
  unfiledState,
} from '@dzy/shared';
import { iitHistory, staffOf } from './employees.js';
import { areaOf, hash, rng, seeded, socialInsurance, type Taxpayer, type TodoItem, yuan } from './taxpayers.js';

/**
 * One truth of a taxpayer's returns (docs/tax-bureau-protocol.md, "The filing model"): every return it
 * owed from its registration (or 2019) up to the current filing month, with its amounts, when it was filed
 * and when it was paid, as of one date. Every query (sbqc, cxsysb, wsb, jkxx, qsxx, qsmx, wddb, sfzhd) is a
 * view of this book, so they agree. Deterministic per taxpayer and date; built once per (taxpayer, date).
 */

/** One return in the book, as of the book's date. Money in integer fen. */
export interface SimReturn {
  type: FilingTaxType;
  cycle: FilingCycle;
  /** The month it is filed in (YYYY-MM). */
  filingMonth: string;
  skssqq: string;
  skssqz: string;
  sbqx: string;
  srze: number;
  ybtse: number;
  /** Filed by the book's date: the filing date. */
  sbrq?: string;
  /** Paid by the book's date (returns with tax only). */
  jkrq?: string;
}

export interface Book {
  seed: number;
  /** The region code of the tax number (in payment receipts). */
  area: string;
  today: string;
  /** The current filing month (the month of `today`). */
  current: string;
  kind: '0' | '1';
  djrq: string;
  registrations: FilingRegistration[];
  /** Oldest first. */
  returns: SimReturn[];
}

/** The bureau's 征收项目 code and name of each return in the legacy lists (cxsysb, wsb, jkxx, qsxx). */
export const ZSXM: Readonly<Record<FilingTaxType, { dm: string; mc: string }>> = {
  zzs: { dm: '10101', mc: '增值税' },
  qysds: { dm: '10104', mc: '企业所得税' },
  grsds: { dm: '10106', mc: '个人所得税' },
  cwbb: { dm: 'CWBB', mc: '财务报表' },
  yhs: { dm: '10111', mc: '印花税' },
  qysdsnd: { dm: '10104ND', mc: '企业所得税年度汇算' },
  gsnb: { dm: 'GSNB', mc: '工商年报' },
  cbj: { dm: '30218', mc: '残疾人就业保障金' },
};

/** The first period the bureau keeps. */
const FIRST_DAY = '2019-01-01';
const FIRST_MONTH = '2019-01';

const pad2 = (n: number) => String(n).padStart(2, '0');
const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

/** Whether the taxpayer has employees (and so withholds IIT and pays 残保金): about 80% of companies. */
export function hasEmployees(qysh: string): boolean {
  return rng(`employees:${qysh}`)() < (qysh.startsWith('92') ? 0.3 : 0.8);
}

export function registrationsOfTaxpayer(t: Taxpayer): FilingRegistration[] {
  return registrationsOf(t.info.qyxz, { employees: hasEmployees(t.qysh), soleTrader: t.qysh.startsWith('92') });
}

// --- amounts ----------------------------------------------------------------------------------------

export interface Scale {
  /** The taxpayer's seed (hash of the tax number), mixed with numbers for per-period draws. */
  seed: number;
  /** Monthly sales, fen. */
  sales: number;
  staff: number;
  wage: number;
}

export function scaleOf(t: Taxpayer): Scale {
  const r = rng(`scale:${t.qysh}`);
  const general = t.info.qyxz === '0';
  // Small-scale: 10 000 - 110 000 yuan a month, so a quarter is mostly under the 300 000 exemption; a
  // taxpayer in arrears sells more (its VAT is owed, so there is some).
  const sales = general
    ? int(r, 20_000_000, 300_000_000)
    : t.behaviour.flavour === 'arrears'
      ? int(r, 16_000_000, 35_000_000)
      : int(r, 1_000_000, 11_000_000);
  return {
    seed: hash(t.qysh),
    sales,
    staff: general ? int(r, 5, 60) : int(r, 1, 12),
    wage: int(r, 400_000, 1_500_000),
  };
}

/** Months since year 0 of a `YYYY-MM…` text. */
export const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

/** A seed for one draw: the taxpayer's seed mixed with a purpose and a number (murmur3 finaliser). */
export function mix(seed: number, purpose: number, n: number): number {
  let h = (seed ^ Math.imul(purpose, 0x9e3779b1) ^ Math.imul(n, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const MONTHS: Readonly<Record<FilingCycle, number>> = { month: 1, quarter: 3, year: 12 };

/** srze and ybtse of one return, fen: deterministic per taxpayer, type and period. */
function amounts(t: Taxpayer, s: Scale, type: FilingTaxType, cycle: FilingCycle, skssqq: string) {
  const r = seeded(mix(s.seed, 1, monthIndex(skssqq) * 16 + FILING_TAX_TYPES.indexOf(type)));
  const general = t.info.qyxz === '0';
  const sales = Math.floor((s.sales * MONTHS[cycle] * int(r, 70, 130)) / 100);
  switch (type) {
    case 'zzs': {
      // General: 1-4% of sales after input VAT, plus surtaxes 12%. Small-scale: exempt up to 300 000 a
      // quarter, else 1%, surtaxes halved (6%). Filed together (合并申报): ybtse includes the surtaxes.
      if (general) {
        const vat = Math.floor((sales * int(r, 10, 40)) / 1000);
        return { srze: sales, ybtse: vat + Math.floor((vat * 12) / 100) };
      }
      if (sales <= 30_000_000) return { srze: sales, ybtse: 0 };
      const vat = Math.floor(sales / 100);
      return { srze: sales, ybtse: vat + Math.floor((vat * 6) / 100) };
    }
    case 'qysds': {
      // Profit -5% .. 12% of revenue; 小型微利 effective rate 5%; a loss pays nothing.
      const profit = Math.floor((sales * int(r, -50, 120)) / 1000);
      return { srze: sales, ybtse: profit > 0 ? Math.floor((profit * 5) / 100) : 0 };
    }
    case 'grsds':
      // Computed from the employees' wages in buildBook.
      return { srze: 0, ybtse: 0 };
    case 'yhs':
      // 买卖合同 0.3‰ of sales; small-scale halved (六税两费).
      return { srze: sales, ybtse: Math.floor((sales * 3) / (general ? 10_000 : 20_000)) };
    case 'qysdsnd': {
      const profit = Math.floor((sales * int(r, -40, 100)) / 1000);
      return { srze: sales, ybtse: profit > 0 && r() < 0.5 ? Math.floor((profit * 5) / 1000) : 0 };
    }
    case 'cbj':
      // Employers of 30 or fewer are exempt; otherwise 1.5% of payroll less the disabled employed.
      return {
        srze: s.staff * s.wage * 12,
        ybtse: s.staff <= 30 ? 0 : Math.floor((s.staff * s.wage * 12 * int(r, 5, 15)) / 1000),
      };
    default:
      // 财务报表 (revenue of the period) and 工商年报 carry no tax.
      return { srze: type === 'cwbb' ? sales : 0, ybtse: 0 };
  }
}

/**
 * The VAT book's sales of one month (fen), the invoices' one truth: the month's VAT return's 销售额, or its
 * share of a quarterly return's (the three parts add up to it exactly); due says the period owes VAT.
 * null before the taxpayer's registration or without a VAT registration. Independent of the date.
 */
export function vatSalesOfMonth(t: Taxpayer, month: string): { sales: number; due: boolean } | null {
  const reg = registrationsOfTaxpayer(t).find((r) => r.type === 'zzs');
  if (!reg) return null;
  const m = Number(month.slice(5, 7));
  const first = reg.cycle === 'quarter' ? Math.floor((m - 1) / 3) * 3 + 1 : m;
  const months = reg.cycle === 'quarter' ? 3 : 1;
  const y = Number(month.slice(0, 4));
  const skssqq = `${y}-${pad2(first)}-01`;
  const last = new Date(Date.UTC(y, first - 1 + months, 0)).toISOString().slice(0, 10);
  if (last < t.info.djrq || last < FIRST_DAY) return null;
  const scale = scaleOf(t);
  const a = amounts(t, scale, 'zzs', reg.cycle, skssqq);
  if (months === 1) return { sales: a.srze, due: a.ybtse > 0 };
  const r = seeded(mix(scale.seed, 10, monthIndex(skssqq)));
  const w1 = int(r, 25, 40);
  const w2 = int(r, 25, 40);
  const w3 = int(r, 25, 40);
  const p1 = Math.floor((a.srze * w1) / (w1 + w2 + w3));
  const p2 = Math.floor((a.srze * w2) / (w1 + w2 + w3));
  const parts = [p1, p2, a.srze - p1 - p2];
  return { sales: parts[m - first] ?? 0, due: a.ybtse > 0 };
}

// --- behaviour over time --------------------------------------------------------------------------

type Outcome = 'ok' | 'unpaid' | 'miss';

// The calendar is the same for every taxpayer: computed once per month (the bench builds 2,000 books).
const deadlineDays = new Map<string, number>();
const deadlineDay = (month: string) => {
  let d = deadlineDays.get(month);
  if (d === undefined) {
    d = Number(filingDeadline(month).slice(8, 10));
    deadlineDays.set(month, d);
  }
  return d;
};
/** What a set of registrations owes, every filing month from 2019 up to `current`, oldest first. */
interface Due extends DuePeriod {
  reg: FilingRegistration;
  month: string;
}
const schedules = new Map<string, Due[]>();
function scheduleOf(regs: FilingRegistration[], current: string): Due[] {
  const key = `${regs.map((r) => `${r.type}${r.cycle}`).join()}|${current}`;
  let list = schedules.get(key);
  if (!list) {
    list = [];
    for (let m = FIRST_MONTH; m <= current; m = addMonths(m, 1)) {
      for (const reg of regs) {
        const p = duePeriod(reg, m);
        if (p && p.skssqz >= FIRST_DAY) list.push({ ...p, reg, month: m });
      }
    }
    if (schedules.size > 500) schedules.clear();
    schedules.set(key, list);
  }
  return list;
}
const nextMonths = new Map<string, string>();
const nextMonth = (month: string) => {
  let n = nextMonths.get(month);
  if (n === undefined) {
    n = addMonths(month, 1);
    nextMonths.set(month, n);
  }
  return n;
};

/** A taxpayer's filing day and outcome in one filing month (every return of the month alike). */
function monthDraw(seed: number, month: string): { day: string; outcome: Outcome } {
  const r = seeded(mix(seed, 2, monthIndex(month)));
  const last = deadlineDay(month);
  const day = `${month}-${pad2(int(r, 1, last))}`;
  const x = r();
  return { day, outcome: x < 0.05 ? 'miss' : x < 0.15 ? 'unpaid' : 'ok' };
}

/** 13 digits, deterministic per taxpayer, return and purpose (3 申报凭证, 4 电子税票). */
function digits(book: Book, r: SimReturn, purpose: number): string {
  const g = seeded(mix(book.seed, purpose, monthIndex(r.skssqq) * 16 + FILING_TAX_TYPES.indexOf(r.type)));
  return `${String(int(g, 0, 999_999_999)).padStart(9, '0')}${String(int(g, 0, 9999)).padStart(4, '0')}`;
}
/** 申报凭证序号 of a filed return: 20 digits. */
export const pzxhOf = (book: Book, r: SimReturn) =>
  `10${(r.sbrq ?? '').replace(/-/g, '')}${digits(book, r, 3).slice(0, 10)}`;
/** 电子税票号码 of a payment. */
export const dzsphmOf = (book: Book, r: SimReturn) => `3${book.area}${digits(book, r, 4)}`;

/** The IIT history of a taxpayer up to a year: the same for every date of that year (memoised). */
const payrolls = new Map<string, ReturnType<typeof iitHistory>>();
function payrollOf(t: Taxpayer, scale: Scale, current: string) {
  const key = `${t.qysh}|${t.info.djrq}|${current.slice(0, 4)}`;
  let p = payrolls.get(key);
  if (!p) {
    p = iitHistory(staffOf(t, scale), Math.max(2019, Number(t.info.djrq.slice(0, 4))), Number(current.slice(0, 4)));
    if (payrolls.size >= 5_000) payrolls.clear();
    payrolls.set(key, p);
  }
  return p;
}

const cache = new Map<string, Book>();
const CACHE_MAX = 1_000;

/** The book of a taxpayer as of a date (memoised per taxpayer, behaviour and date). */
export function bookOf(t: Taxpayer, today: string): Book {
  const key = `${t.qysh}|${t.info.qyxz}|${t.info.djrq}|${t.behaviour.flavour}|${today}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const book = buildBook(t, today);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, book);
  return book;
}

function buildBook(t: Taxpayer, today: string): Book {
  const current = currentFilingMonth(today);
  const regs = registrationsOfTaxpayer(t);
  const scale = scaleOf(t);
  const flavour = t.behaviour.flavour;
  const djrq = t.info.djrq;
  const draws = new Map<string, { day: string; outcome: Outcome }>();
  const draw = (month: string) => {
    let d = draws.get(month);
    if (!d) {
      d = monthDraw(scale.seed, month);
      // A clean taxpayer files and pays everything on time; this month by today at the latest.
      if (flavour === 'clean') d = { day: month === current && d.day > today ? today : d.day, outcome: 'ok' };
      draws.set(month, d);
    }
    return d;
  };

  // IIT: the wages of the taxpayer's employees and the tax withheld on them (累计预扣法), as ryxx shows them.
  const payroll = regs.some((r) => r.type === 'grsds') ? payrollOf(t, scale, current) : null;

  const returns: SimReturn[] = [];
  for (const d of scheduleOf(regs, current)) {
    if (d.skssqz < djrq) continue;
    const a =
      d.reg.type === 'grsds'
        ? (payroll?.get(d.skssqq.slice(0, 7)) ?? { srze: 0, ybtse: 0 })
        : amounts(t, scale, d.reg.type, d.reg.cycle, d.skssqq);
    returns.push({
      type: d.reg.type,
      cycle: d.reg.cycle,
      filingMonth: d.month,
      skssqq: d.skssqq,
      skssqz: d.skssqz,
      sbqx: d.sbqx,
      srze: a.srze,
      ybtse: a.ybtse,
    });
  }

  // The flavours: 'unfiled' never filed its last two VAT returns; 'arrears' never paid the VAT of one or
  // two periods before the current filing month.
  const vat = returns.filter((r) => r.type === 'zzs');
  const neverFiled = new Set(flavour === 'unfiled' ? vat.slice(-2) : []);
  const neverPaid = new Set(
    flavour === 'arrears'
      ? vat.filter((r) => r.filingMonth < current && r.ybtse > 0).slice(rng(`arrears:${t.qysh}`)() < 0.5 ? -1 : -2)
      : [],
  );

  for (const r of returns) {
    if (neverFiled.has(r)) continue;
    const d = draw(r.filingMonth);
    // A missed deadline is made good on the taxpayer's filing day of the next month; tax left unpaid
    // likewise is paid then.
    const sbrq = d.outcome === 'miss' ? draw(nextMonth(r.filingMonth)).day : d.day;
    if (sbrq > today) continue;
    r.sbrq = sbrq;
    if (r.ybtse === 0 || neverPaid.has(r)) continue;
    const jkrq = d.outcome === 'unpaid' ? draw(nextMonth(r.filingMonth)).day : sbrq;
    if (jkrq > today) continue;
    r.jkrq = jkrq;
  }
  return {
    seed: scale.seed,
    area: areaOf(t.qysh),
    today,
    current,
    kind: t.info.qyxz,
    djrq,
    registrations: regs,
    returns,
  };
}

// --- views --------------------------------------------------------------------------------------------

export const isFiled = (r: SimReturn) => r.sbrq !== undefined;
/** Filed and settled: paid, or nothing to pay. */
const isSettled = (r: SimReturn) => isFiled(r) && (r.ybtse === 0 || r.jkrq !== undefined);
/** Arrears: filed, tax unpaid, deadline passed. */
const isArrear = (r: SimReturn, today: string) => isFiled(r) && r.ybtse > 0 && !r.jkrq && today > r.sbqx;

function item(book: Book, r: SimReturn): FilingRosterItem {
  const today = book.today;
  const out: FilingRosterItem = {
    type: r.type,
    cycle: r.cycle,
    skssqq: r.skssqq,
    skssqz: r.skssqz,
    sbqx: r.sbqx,
    state: isFiled(r) ? (isSettled(r) ? 'yjk' : 'ysb') : unfiledState(r.sbqx, today),
    srze: yuan(r.srze),
    ybtse: yuan(r.ybtse),
  };
  if (r.sbrq) Object.assign(out, { sbrq: r.sbrq, pzxh: pzxhOf(book, r) });
  if (r.jkrq) out.jkrq = r.jkrq;
  return out;
}

/**
 * The 应申报清册 of a filing month: one item per registration (wxsb with an empty period when nothing is
 * due), then every return of an earlier month still unfiled. A month after the current one lists what
 * will be due (wsb, amounts not known yet).
 */
export function roster(book: Book, filingMonth: string): FilingRoster {
  const items: FilingRosterItem[] = [];
  const ofMonth = book.returns.filter((r) => r.filingMonth === filingMonth);
  for (const reg of book.registrations) {
    const r = ofMonth.find((x) => x.type === reg.type);
    if (r) {
      items.push(item(book, r));
      continue;
    }
    const p = filingMonth > book.current ? duePeriod(reg, filingMonth) : null;
    if (p && p.skssqz >= book.djrq) {
      items.push({ type: reg.type, cycle: reg.cycle, ...p, state: 'wsb', srze: '0.00', ybtse: '0.00' });
    } else {
      items.push({
        type: reg.type,
        cycle: reg.cycle,
        skssqq: '',
        skssqz: '',
        sbqx: '',
        state: 'wxsb',
        srze: '0.00',
        ybtse: '0.00',
      });
    }
  }
  for (const r of book.returns) {
    if (r.filingMonth < filingMonth && !isFiled(r)) items.push(item(book, r));
  }
  return { nsrlx: book.kind, registrations: book.registrations, items };
}

const legacy = (r: SimReturn) => ({
  zsxmDm: ZSXM[r.type].dm,
  zsxmMc: ZSXM[r.type].mc,
  skssqq: r.skssqq,
  skssqz: r.skssqz,
});

/** cxsysb: filed returns, newest first. */
export const filedReturns = (book: Book) =>
  book.returns
    .filter(isFiled)
    .map((r) => ({
      ...legacy(r),
      sbrq: r.sbrq ?? '',
      ybtse: yuan(r.ybtse),
      srze: yuan(r.srze),
      pzxh: pzxhOf(book, r),
    }))
    .sort((x, y) => y.sbrq.localeCompare(x.sbrq));

/** wsb: every return owed and not filed, with its deadline. */
export const unfiledReturns = (book: Book) =>
  book.returns.filter((r) => !isFiled(r)).map((r) => ({ ...legacy(r), ybtse: yuan(r.ybtse), sbqx: r.sbqx }));

/** jkxx: payments, newest first. */
export const payments = (book: Book) =>
  book.returns
    .filter((r) => r.jkrq)
    .map((r) => ({
      zsxmMc: ZSXM[r.type].mc,
      skssqq: r.skssqq,
      skssqz: r.skssqz,
      jkrq: r.jkrq ?? '',
      sjje: yuan(r.ybtse),
      dzsphm: dzsphmOf(book, r),
    }))
    .sort((x, y) => y.jkrq.localeCompare(x.jkrq));

/** qsxx: arrears (filed, unpaid, past the deadline) with the late fee, 0.05% a day in whole fen. */
export const arrears = (book: Book) =>
  book.returns
    .filter((r) => isArrear(r, book.today))
    .map((r) => ({
      id: `${ZSXM[r.type].dm}-${r.skssqz}`,
      zsxmMc: ZSXM[r.type].mc,
      skssqq: r.skssqq,
      skssqz: r.skssqz,
      qsje: yuan(r.ybtse),
      znj: yuan(Math.floor((r.ybtse * 5 * daysOverdue(r.sbqx, book.today)) / 10_000)),
      overdue: true,
    }));

/**
 * sfzhd: the registered 征收项目 of the registrations, with their period: VAT with its three surtaxes,
 * corporate income tax, IIT (with employees), stamp duty. 财务报表 and the annual items are not taxes the
 * bureau lists here (they are on the roster).
 */
export function taxRegistrations(book: Book) {
  const nsqxMc = { month: '月', quarter: '季', year: '年' } as const;
  const row = (zsxmDm: string, zsxmMc: string, cycle: FilingCycle) => ({
    zsxmDm,
    zsxmMc,
    nsqx: NSQX_OF_CYCLE[cycle],
    nsqxMc: nsqxMc[cycle],
  });
  const out: ReturnType<typeof row>[] = [];
  for (const reg of book.registrations) {
    if (reg.type === 'zzs') {
      out.push(
        row('10101', '增值税', reg.cycle),
        row('10109', '城市维护建设税', reg.cycle),
        row('30203', '教育费附加', reg.cycle),
        row('30216', '地方教育附加', reg.cycle),
      );
    } else if (reg.type === 'qysds' || reg.type === 'grsds' || reg.type === 'yhs') {
      out.push(row(ZSXM[reg.type].dm, ZSXM[reg.type].mc, reg.cycle));
    }
  }
  return out;
}

/**
 * wddb: a to-do per return not filed (33001, deadline its sbqx), per arrear (33002, due today), and the
 * month's unit social insurance (33015) where the unit has an account.
 */
export function todos(t: Taxpayer, book: Book): TodoItem[] {
  const out: TodoItem[] = book.returns
    .filter((r) => !isFiled(r))
    .map((r) => ({
      code: '33001',
      title: `${ZSXM[r.type].mc}申报（所属期 ${r.skssqq} 至 ${r.skssqz}）`,
      deadline: r.sbqx,
    }));
  for (const a of arrears(book)) {
    out.push({ code: '33002', title: `${a.zsxmMc}欠税 ${a.qsje} 元待缴纳`, deadline: book.today });
  }
  const y = Number(book.today.slice(0, 4));
  const m = Number(book.today.slice(5, 7));
  if (socialInsurance(t, book.today, book.today, book.today)) {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    out.push({ code: '33015', title: '单位社保费申报缴纳', deadline: `${book.current}-${pad2(last)}` });
  }
  return out;
}
