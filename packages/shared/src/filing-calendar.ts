/**
 * The filing calendar (申报征期): which returns a taxpayer owes in a filing month, for which 所属期, by
 * which day. One truth for the simulated bureau (which decides what it expects) and the product (which
 * shows the roster, the calendar and the reminders). Dates are China dates, `YYYY-MM-DD`; a filing month
 * is `YYYY-MM`, the month in which the returns are filed (所属期 = the month or quarter before it).
 */

import { type HolidayCalendar, SEED_HOLIDAYS, statutoryDeadline, workingDayFrom } from './filing-holidays.js';

// --- tax types -------------------------------------------------------------------------------------

/** Roster tax types (申报项目), in column order. The first five recur; the last three are annual. */
export const FILING_TAX_TYPES = ['zzs', 'qysds', 'grsds', 'cwbb', 'yhs', 'qysdsnd', 'gsnb', 'cbj'] as const;
export type FilingTaxType = (typeof FILING_TAX_TYPES)[number];
/** The annual items: due once a year, in their deadline month. */
export const ANNUAL_FILING_TYPES: readonly FilingTaxType[] = ['qysdsnd', 'gsnb', 'cbj'];
export const isFilingTaxType = (v: unknown): v is FilingTaxType =>
  typeof v === 'string' && (FILING_TAX_TYPES as readonly string[]).includes(v);

export const FILING_TAX_TYPE_NAMES: Readonly<Record<FilingTaxType, string>> = {
  zzs: '增值税及附加税费',
  qysds: '企业所得税月(季)度预缴',
  grsds: '个人所得税扣缴',
  cwbb: '财务报表',
  yhs: '财产和行为税（印花税）',
  qysdsnd: '企业所得税年度汇算',
  gsnb: '工商年报',
  cbj: '残保金',
};
/** Short column titles for the roster. */
export const FILING_TAX_TYPE_SHORT: Readonly<Record<FilingTaxType, string>> = {
  zzs: '增值税',
  qysds: '企业所得税',
  grsds: '个税',
  cwbb: '财务报表',
  yhs: '印花税',
  qysdsnd: '所得税汇算',
  gsnb: '工商年报',
  cbj: '残保金',
};

/** How often a registered type is filed (纳税期限): the bureau's nsqx '06' monthly, '08' quarterly, '10' yearly. */
export type FilingCycle = 'month' | 'quarter' | 'year';
export const FILING_CYCLE_NAMES: Readonly<Record<FilingCycle, string>> = { month: '月', quarter: '季', year: '年' };
export const NSQX_OF_CYCLE: Readonly<Record<FilingCycle, string>> = { month: '06', quarter: '08', year: '10' };

/** 纳税人类型: '0' 一般纳税人, '1' 小规模纳税人 (the bureau's qyxz). */
export type TaxpayerKind = '0' | '1';
export const TAXPAYER_KIND_NAMES: Readonly<Record<TaxpayerKind, string>> = { '0': '一般纳税人', '1': '小规模纳税人' };

/** A registered tax type (税费种认定) with its cycle. */
export interface FilingRegistration {
  type: FilingTaxType;
  cycle: FilingCycle;
}

/**
 * The registrations a taxpayer of this kind has: VAT and surtaxes monthly for general taxpayers,
 * quarterly for small-scale ones; financial statements with VAT (小企业会计准则: quarterly for small-scale);
 * corporate income tax prepaid quarterly; stamp duty quarterly; IIT withholding monthly where there are
 * employees; the three annual items. Sole traders (个体工商户) have no corporate income tax.
 */
export function registrationsOf(kind: TaxpayerKind, opts: { employees: boolean; soleTrader?: boolean }) {
  const vat: FilingCycle = kind === '0' ? 'month' : 'quarter';
  const out: FilingRegistration[] = [{ type: 'zzs', cycle: vat }];
  if (!opts.soleTrader) out.push({ type: 'qysds', cycle: 'quarter' });
  if (opts.employees) out.push({ type: 'grsds', cycle: 'month' });
  out.push({ type: 'cwbb', cycle: vat }, { type: 'yhs', cycle: 'quarter' });
  if (!opts.soleTrader) out.push({ type: 'qysdsnd', cycle: 'year' });
  out.push({ type: 'gsnb', cycle: 'year' });
  if (opts.employees) out.push({ type: 'cbj', cycle: 'year' });
  return out;
}

// --- states ----------------------------------------------------------------------------------------

/**
 * A return's state on the roster: 未申报 (due, deadline not passed), 已申报 (filed, tax still to pay),
 * 已缴款 (filed and settled: paid, or nothing to pay), 逾期未申报 (deadline passed, not filed),
 * 无需申报 (registered, but nothing due in this filing month).
 */
export const FILING_STATES = ['wsb', 'ysb', 'yjk', 'yqwsb', 'wxsb'] as const;
export type FilingState = (typeof FILING_STATES)[number];
export const FILING_STATE_NAMES: Readonly<Record<FilingState, string>> = {
  wsb: '未申报',
  ysb: '已申报',
  yjk: '已缴款',
  yqwsb: '逾期未申报',
  wxsb: '无需申报',
};
/** Tag colours (antd preset names) per state. */
export const FILING_STATE_COLORS: Readonly<Record<FilingState, string>> = {
  wsb: 'blue',
  ysb: 'orange',
  yjk: 'green',
  yqwsb: 'red',
  wxsb: 'default',
};

// --- dates -----------------------------------------------------------------------------------------

const pad2 = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad2(m)}-${pad2(d)}`;
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Today in China (UTC+8), `YYYY-MM-DD`. */
export const chinaToday = (now = Date.now()) => new Date(now + 8 * 3_600_000).toISOString().slice(0, 10);

/** The month `n` months after `month` (`YYYY-MM`; n may be negative). */
export function addMonths(month: string, n: number): string {
  const idx = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(idx / 12)}-${pad2((idx % 12) + 1)}`;
}

/**
 * Published monthly deadlines (申报纳税期限), by filing month. 2026: 税总办征科函〔2025〕64号. The product
 * may pass its own table (a later year's notice) to the functions below; months not in it follow the rule.
 */
export const FILING_DEADLINES_2026: Readonly<Record<string, string>> = {
  '2026-01': '2026-01-20',
  '2026-02': '2026-02-24',
  '2026-03': '2026-03-16',
  '2026-04': '2026-04-20',
  '2026-05': '2026-05-22',
  '2026-06': '2026-06-15',
  '2026-07': '2026-07-15',
  '2026-08': '2026-08-17',
  '2026-09': '2026-09-15',
  '2026-10': '2026-10-26',
  '2026-11': '2026-11-16',
  '2026-12': '2026-12-15',
};
export type DeadlineTable = Readonly<Record<string, string>>;

/**
 * The monthly deadline of a filing month: the published table's (国家税务总局's annual notice), else the
 * statutory rule over the year's holiday arrangement (statutoryDeadline, filing-holidays.ts: the 15th extended
 * by the holidays in the first 15 days, moved past weekends and holidays; 调休 weekends are working days).
 * A year without an arrangement moves past weekends only.
 */
export function filingDeadline(
  filingMonth: string,
  table: DeadlineTable = FILING_DEADLINES_2026,
  holidays: HolidayCalendar = SEED_HOLIDAYS,
): string {
  const published = table[filingMonth];
  if (published) return published;
  return statutoryDeadline(filingMonth, holidays);
}

/**
 * Annual items: the filing month and day of their deadline, for last year. 企业所得税汇算: 5-31 (企业所得税法
 * 第五十四条), moved to the next working day (实施细则第一百零九条); 残保金: 6-30 likewise; 工商年报: the window
 * 1-1 to 6-30 (企业信息公示暂行条例 第八条) ends on 6-30 whatever the weekday (fixed).
 */
const ANNUAL: Readonly<Partial<Record<FilingTaxType, { month: number; day: number; fixed?: boolean }>>> = {
  qysdsnd: { month: 5, day: 31 },
  gsnb: { month: 6, day: 30, fixed: true },
  cbj: { month: 6, day: 30 },
};

/** One return due: its 所属期 and deadline. */
export interface DuePeriod {
  skssqq: string;
  skssqz: string;
  /** 申报期限 */
  sbqx: string;
}

/**
 * What a registration owes in a filing month, or null (无需申报). Monthly: last month. Quarterly: the last
 * quarter, in January, April, July and October. Yearly: last year, in the item's deadline month.
 */
export function duePeriod(
  reg: FilingRegistration,
  filingMonth: string,
  table: DeadlineTable = FILING_DEADLINES_2026,
  holidays: HolidayCalendar = SEED_HOLIDAYS,
): DuePeriod | null {
  const y = Number(filingMonth.slice(0, 4));
  const m = Number(filingMonth.slice(5, 7));
  if (reg.cycle === 'year') {
    const a = ANNUAL[reg.type];
    if (!a || a.month !== m) return null;
    const last = iso(y, a.month, a.day);
    return {
      skssqq: iso(y - 1, 1, 1),
      skssqz: iso(y - 1, 12, 31),
      sbqx: a.fixed ? last : workingDayFrom(last, holidays),
    };
  }
  const prev = addMonths(filingMonth, -1);
  const py = Number(prev.slice(0, 4));
  const pm = Number(prev.slice(5, 7));
  if (reg.cycle === 'quarter' && pm % 3 !== 0) return null;
  const startM = reg.cycle === 'quarter' ? pm - 2 : pm;
  return {
    skssqq: iso(py, startM, 1),
    skssqz: iso(py, pm, lastDay(py, pm)),
    sbqx: filingDeadline(filingMonth, table, holidays),
  };
}

/** The filing month of a 所属期 end date (`skssqz`): the month after it, or for annual items their deadline month. */
export function filingMonthOf(reg: FilingRegistration, skssqz: string): string {
  if (reg.cycle === 'year') return `${Number(skssqz.slice(0, 4)) + 1}-${pad2(ANNUAL[reg.type]?.month ?? 5)}`;
  return addMonths(skssqz.slice(0, 7), 1);
}

/** The state of a return not filed: 未申报 until its deadline, 逾期未申报 the day after. */
export const unfiledState = (sbqx: string, today: string): FilingState => (today > sbqx ? 'yqwsb' : 'wsb');

/** Whole days from a deadline to today (0 when not overdue). */
export function daysOverdue(sbqx: string, today: string): number {
  const d = Math.round((Date.parse(today) - Date.parse(sbqx)) / 86_400_000);
  return d > 0 ? d : 0;
}

/** The current filing month: this month (the returns of last month and, in Jan/Apr/Jul/Oct, last quarter). */
export const currentFilingMonth = (today = chinaToday()) => today.slice(0, 7);

/** The earliest filing month the product offers (tax-bureau.md §9: the month picker starts at 2019-08). */
export const FILING_MONTH_MIN = '2019-09';
