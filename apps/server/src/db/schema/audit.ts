import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgPolicy, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { appRole, currentAgency, currentUser } from './tenancy.js';

/**
 * Append-only: the app role may insert and read its tenant's rows, never update or delete; old rows go
 * only through purge_audit_log() (migration 0032: never younger than 180 days).
 */
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
    /**
     * The client a row is about, derived by the database from an `enterprise:<id>` target or detail.enterpriseId
     * (migration 0042), so that the viewer's filter by client reaches an index instead of scanning the agency's log.
     */
    enterpriseId: integer('enterprise_id').generatedAlwaysAs(
      sql`(case when target ~ '^enterprise:[0-9]{1,9}$' then substr(target, 12)::int when detail->>'enterpriseId' ~ '^[0-9]{1,9}$' then (detail->>'enterpriseId')::int end)`,
    ),
  },
  (t) => [
    index('audit_log_agency_at_idx').on(t.agencyId, t.at),
    // The viewer's paging index (issue 18 point 6): newest first by id within the agency.
    index('audit_log_agency_id_idx').on(t.agencyId, t.id),
    index('audit_log_agency_user_idx').on(t.agencyId, t.userId, t.id),
    index('audit_log_agency_enterprise_idx').on(t.agencyId, t.enterpriseId, t.id),
    pgPolicy('audit_log_read', { to: appRole, for: 'select', using: sql`${t.agencyId} = ${currentAgency}` }),
    pgPolicy('audit_log_write', {
      to: appRole,
      for: 'insert',
      withCheck: sql`${t.agencyId} is null or ${t.agencyId} = ${currentAgency}`,
    }),
    // Platform events (no agency) are the platform operator's to read.
    pgPolicy('audit_log_platform_read', {
      to: appRole,
      for: 'select',
      using: sql`${t.agencyId} is null and exists (select 1 from users u where u.id = ${currentUser} and u.is_operator)`,
    }),
  ],
).enableRLS();
