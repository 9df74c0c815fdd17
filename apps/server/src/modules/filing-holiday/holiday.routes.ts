import {
  CODE,
  checkHolidayDays,
  FILING_DEADLINES_2026,
  filingDeadline,
  HOLIDAY_SEED_DAYS,
  type HolidayCalendar,
  type HolidayDay,
  holidayCalendar,
  listHolidaysCall,
  saveHolidaysCall,
} from '@dzy/shared';
import { asc, like } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { holidayDays } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';

/**
 * Issue 28 point 4: the national holiday arrangement as data (table holiday_days, migration 0043) that a
 * platform operator enters each November, and the calendar the filing deadlines are computed from.
 * docs/decisions/tax.md "Deadlines".
 */

/**
 * The holiday calendar: the table's days; a year the table has nothing for takes the seeded arrangement
 * (HOLIDAY_SEED_DAYS), so a connection that cannot read the table never loses 2025-2026.
 */
export async function loadHolidays(tx: Queryable): Promise<HolidayCalendar> {
  const rows = await tx
    .select({ day: holidayDays.day, kind: holidayDays.kind, name: holidayDays.name })
    .from(holidayDays)
    .orderBy(asc(holidayDays.day));
  const years = new Set(rows.map((r) => r.day.slice(0, 4)));
  const seed = HOLIDAY_SEED_DAYS.filter((d) => !years.has(d.day.slice(0, 4)));
  return holidayCalendar([...seed, ...(rows as HolidayDay[])]);
}

const monthsOf = (year: number) => Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`);

export const filingHolidayModule: ServerModule = {
  name: 'filing-holiday',
  calls: [
    serve(listHolidaysCall, async ({ body, tx }) => {
      const days = await tx
        .select({ day: holidayDays.day, kind: holidayDays.kind, name: holidayDays.name })
        .from(holidayDays)
        .where(like(holidayDays.day, `${body.year}-%`))
        .orderBy(asc(holidayDays.day));
      const cal = await loadHolidays(tx);
      return {
        year: body.year,
        days: days as HolidayDay[],
        deadlines: Object.fromEntries(
          monthsOf(body.year).map((m) => [m, filingDeadline(m, FILING_DEADLINES_2026, cal)]),
        ),
      };
    }),

    serve(saveHolidaysCall, async ({ body, session, tx, req }) => {
      const problem = checkHolidayDays(body.year, body.days);
      if (problem) throw new AppError(CODE.BAD_REQUEST, problem);
      await tx.delete(holidayDays).where(like(holidayDays.day, `${body.year}-%`));
      if (body.days.length > 0)
        await tx.insert(holidayDays).values(body.days.map((d) => ({ day: d.day, kind: d.kind, name: d.name })));
      await audit(
        tx,
        req,
        { agencyId: null, userId: session.userId },
        'platform.holiday_save',
        `holiday:${body.year}`,
        {
          count: body.days.length,
        },
      );
      return { year: body.year, count: body.days.length };
    }),
  ],
};
