import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgPolicy, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { appRole, currentAgency } from './tenancy.js';

/** Append-only: the app role may insert and read its tenant's rows, never update or delete. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** Null for events outside any tenant (e.g. a failed sign-in). */
    agencyId: integer('agency_id'),
    userId: integer('user_id'),
    action: text().notNull(),
    target: text().notNull().default(''),
    detail: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    ip: text().notNull().default(''),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_agency_at_idx').on(t.agencyId, t.at),
    pgPolicy('audit_log_read', { to: appRole, for: 'select', using: sql`${t.agencyId} = ${currentAgency}` }),
    pgPolicy('audit_log_write', {
      to: appRole,
      for: 'insert',
      withCheck: sql`${t.agencyId} is null or ${t.agencyId} = ${currentAgency}`,
    }),
  ],
).enableRLS();
