import { z } from 'zod';
import { defineCall } from './call.js';

/**
 * The national holiday arrangement (国务院办公厅关于X年部分节假日安排的通知, published each November) as data, and
 * the statutory filing deadline computed from it (issue 28 point 4; docs/decisions/tax.md "Deadlines").
 * A day is 'off' (放假, weekends inside a holiday included) or 'work' (调休上班: a weekend that is a working day).
 * The operator enters a year's arrangement (平台运营, table holiday_days, migration 0043); the seed below holds
 * 2025 and 2026.
 */

export type HolidayKind = 'off' | 'work';
export interface HolidayDay {
  /** YYYY-MM-DD */
  day: string;
  kind: HolidayKind;
  /** The holiday's name (元旦, 春节 …). */
  name: string;
}
/** The arrangement days by date. */
export type HolidayCalendar = ReadonlyMap<string, HolidayDay>;

interface Arrangement {
  year: number;
  notice: string;
  off: readonly { name: string; from: string; to: string }[];
  work: readonly { name: string; day: string }[];
}

/**
 * 国务院办公厅关于2025年部分节假日安排的通知 (国办发明电〔2024〕12号, 2024-11-12) and 关于2026年部分节假日安排的通知
 * (2025-11-04), as published (新华社 text).
 */
export const HOLIDAY_ARRANGEMENTS: readonly Arrangement[] = [
  {
    year: 2025,
    notice: '国务院办公厅关于2025年部分节假日安排的通知（国办发明电〔2024〕12号）',
    off: [
      { name: '元旦', from: '2025-01-01', to: '2025-01-01' },
      { name: '春节', from: '2025-01-28', to: '2025-02-04' },
      { name: '清明节', from: '2025-04-04', to: '2025-04-06' },
      { name: '劳动节', from: '2025-05-01', to: '2025-05-05' },
      { name: '端午节', from: '2025-05-31', to: '2025-06-02' },
      { name: '国庆节、中秋节', from: '2025-10-01', to: '2025-10-08' },
    ],
    work: [
      { name: '春节', day: '2025-01-26' },
      { name: '春节', day: '2025-02-08' },
      { name: '劳动节', day: '2025-04-27' },
      { name: '国庆节、中秋节', day: '2025-09-28' },
      { name: '国庆节、中秋节', day: '2025-10-11' },
    ],
  },
  {
    year: 2026,
    notice: '国务院办公厅关于2026年部分节假日安排的通知（2025年11月4日）',
    off: [
      { name: '元旦', from: '2026-01-01', to: '2026-01-03' },
      { name: '春节', from: '2026-02-15', to: '2026-02-23' },
      { name: '清明节', from: '2026-04-04', to: '2026-04-06' },
      { name: '劳动节', from: '2026-05-01', to: '2026-05-05' },
      { name: '端午节', from: '2026-06-19', to: '2026-06-21' },
      { name: '中秋节', from: '2026-09-25', to: '2026-09-27' },
      { name: '国庆节', from: '2026-10-01', to: '2026-10-07' },
    ],
    work: [
      { name: '元旦', day: '2026-01-04' },
      { name: '春节', day: '2026-02-14' },
      { name: '春节', day: '2026-02-28' },
      { name: '劳动节', day: '2026-05-09' },
      { name: '国庆节', day: '2026-09-20' },
      { name: '国庆节', day: '2026-10-10' },
    ],
  },
];

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** An arrangement's days, one row a day. */
export function arrangementDays(a: Pick<Arrangement, 'off' | 'work'>): HolidayDay[] {
  const out: HolidayDay[] = [];
  for (const r of a.off)
    for (let d = r.from; d <= r.to; d = addDays(d, 1)) out.push({ day: d, kind: 'off', name: r.name });
  for (const w of a.work) out.push({ day: w.day, kind: 'work', name: w.name });
  return out.sort((x, y) => (x.day < y.day ? -1 : x.day > y.day ? 1 : 0));
}

/** The seeded days (2025, 2026): what migration 0043 inserts. */
export const HOLIDAY_SEED_DAYS: readonly HolidayDay[] = HOLIDAY_ARRANGEMENTS.flatMap((a) => arrangementDays(a));

export const holidayCalendar = (days: readonly HolidayDay[]): HolidayCalendar => new Map(days.map((d) => [d.day, d]));
/** The calendar of the seed, the default where no operator data is passed (the simulated bureau). */
export const SEED_HOLIDAYS: HolidayCalendar = holidayCalendar(HOLIDAY_SEED_DAYS);

/** Whether the calendar holds an arrangement for a year (any day of it). */
export const hasArrangement = (cal: HolidayCalendar, year: number) => {
  for (const k of cal.keys()) if (k.startsWith(`${year}-`)) return true;
  return false;
};

/** A working day: a 调休 working weekend, else Monday-Friday not in a holiday. */
export function isWorkingDay(day: string, cal: HolidayCalendar): boolean {
  const h = cal.get(day);
  if (h) return h.kind === 'work';
  const wd = new Date(`${day}T00:00:00Z`).getUTCDay();
  return wd !== 0 && wd !== 6;
}

/** The first working day on or after `day`. */
export function workingDayFrom(day: string, cal: HolidayCalendar): string {
  let d = day;
  while (!isWorkingDay(d, cal)) d = addDays(d, 1);
  return d;
}

/**
 * The monthly deadline by the statutory rule, for a filing month `YYYY-MM` (申报期 1st-15th):
 * 税收征收管理法实施细则 第一百零九条 — "期限的最后一日是法定休假日的，以休假日期满的次日为期限的最后一日；在期限内有
 * 连续3日以上法定休假日的，按休假日天数顺延" — as the 国家税务总局's annual tables apply it: the holiday days (of
 * the arrangement) inside the 1st-15th, in runs of 3 days or more, extend the 15th by that many working days
 * (调休 working weekends count as working days); with none, a 15th on a rest day moves to the next working day.
 * Checked against the published 2024 and 2026 tables (packages/shared/test/tax-deadlines.test.ts).
 */
export function statutoryDeadline(filingMonth: string, cal: HolidayCalendar): string {
  const fifteenth = `${filingMonth}-15`;
  let extend = 0;
  let run = 0;
  for (let d = 1; d <= 16; d++) {
    const day = `${filingMonth}-${String(d).padStart(2, '0')}`;
    if (d <= 15 && cal.get(day)?.kind === 'off') run++;
    else {
      if (run >= 3) extend += run;
      run = 0;
    }
  }
  if (extend === 0) return workingDayFrom(fifteenth, cal);
  let day = fifteenth;
  for (let n = 0; n < extend; ) {
    day = addDays(day, 1);
    if (isWorkingDay(day, cal)) n++;
  }
  return day;
}

// --- the operator's calls ----------------------------------------------------------------------------

const daySchema = z
  .string({ error: '请输入日期' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, '日期格式应为YYYY-MM-DD')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: '日期不存在',
    },
  );
const yearSchema = z.number({ error: '请选择年度' }).int().min(2019, '年度不能早于2019').max(2100, '年度不能晚于2100');

export const holidayDaySchema = z.strictObject({
  day: daySchema,
  kind: z.enum(['off', 'work'], { error: '类型须为放假或调休上班' }),
  name: z.string({ error: '请输入节日名称' }).trim().min(1, '请输入节日名称').max(20, '节日名称不能超过20个字符'),
});

export const HOLIDAY_MSG = {
  wrongYear: '日期{day}不在{year}年内',
  duplicate: '日期{day}重复',
  workNotWeekend: '调休上班日{day}不是周末',
} as const;

/** A year's arrangement and the monthly deadlines it gives (the published table where there is one). */
export const listHolidaysCall = defineCall({
  path: 'platform/holiday/list',
  summary: '平台运营：节假日安排（按年度）及其申报期限',
  access: 'platform:dict:edit',
  body: z.strictObject({ year: yearSchema }),
  data: z.object({
    year: z.number(),
    days: z.array(holidayDaySchema),
    /** filing month → deadline, for the 12 months of the year */
    deadlines: z.record(z.string(), z.string()),
  }),
});

/** Replaces a year's arrangement with the days given (an empty list removes it). */
export const saveHolidaysCall = defineCall({
  path: 'platform/holiday/save',
  summary: '平台运营：保存某年度节假日安排（整年替换）',
  access: 'platform:dict:edit',
  body: z.strictObject({ year: yearSchema, days: z.array(holidayDaySchema).max(120) }),
  data: z.object({ year: z.number(), count: z.number() }),
});

/** The first problem of a year's days (wrong year, duplicate, a 调休 day not on a weekend), or null. */
export function checkHolidayDays(year: number, days: readonly HolidayDay[]): string | null {
  const seen = new Set<string>();
  for (const d of days) {
    if (!d.day.startsWith(`${year}-`))
      return HOLIDAY_MSG.wrongYear.replace('{day}', d.day).replace('{year}', String(year));
    if (seen.has(d.day)) return HOLIDAY_MSG.duplicate.replace('{day}', d.day);
    seen.add(d.day);
    const wd = new Date(`${d.day}T00:00:00Z`).getUTCDay();
    if (d.kind === 'work' && wd !== 0 && wd !== 6) return HOLIDAY_MSG.workNotWeekend.replace('{day}', d.day);
  }
  return null;
}
