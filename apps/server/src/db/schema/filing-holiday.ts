import { sql } from 'drizzle-orm';
import { pgPolicy, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { appRole } from './tenancy.js';

/**
 * Issue 28 point 4 (migration 0043): the national holiday arrangement, one row a day ('off' 放假, 'work' 调休上班),
 * the data the statutory filing deadline is computed from. Platform-wide reference data: everyone reads
 * (jobs included), only a platform operator writes.
 */
const isOperator = sql`exists (select 1 from users u where u.id = app_user() and u.is_operator)`;

export const holidayDays = pgTable(
  'holiday_days',
  {
    day: text().primaryKey(),
    kind: text().$type<'off' | 'work'>().notNull(),
    name: text().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  () => [
    pgPolicy('holiday_days_read', { to: appRole, for: 'select', using: sql`true` }),
    pgPolicy('holiday_days_insert', { to: appRole, for: 'insert', withCheck: isOperator }),
    pgPolicy('holiday_days_update', { to: appRole, for: 'update', using: isOperator, withCheck: isOperator }),
    pgPolicy('holiday_days_delete', { to: appRole, for: 'delete', using: isOperator }),
  ],
).enableRLS();
