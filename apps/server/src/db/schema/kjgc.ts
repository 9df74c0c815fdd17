import { sql } from 'drizzle-orm';
import { check, index, integer, pgPolicy, pgTable, smallint, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { enterprises } from './customer.js';
import { organisations } from './org.js';
import { appRole, currentAgency } from './tenancy.js';
import { users } from './user.js';

/** The factory of the current transaction (set from the session), null when the caller is not in one. */
export const currentKjgc = sql`app_kjgc()`;

/**
 * A factory's relation to an agency (migration 0033): 0 待同意 (the factory asked), 1 已绑定 (the agency's
 * administrator accepted), 2 已拒绝, 3 已解除 (either side ended it). Seen by both parties.
 */
export const kjgcBindings = pgTable(
  'kjgc_bindings',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kjgcId: integer('kjgc_id')
      .notNull()
      .references(() => organisations.id),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    status: smallint().notNull().default(0),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id),
    decidedBy: integer('decided_by').references(() => users.id),
    endedBy: integer('ended_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    check('kjgc_binding_status_valid', sql`${t.status} in (0, 1, 2, 3)`),
    uniqueIndex('kjgc_bindings_live_uq').on(t.kjgcId, t.agencyId).where(sql`${t.status} in (0, 1)`),
    index('kjgc_bindings_agency_idx').on(t.agencyId, t.createdAt, t.id),
    index('kjgc_bindings_kjgc_idx').on(t.kjgcId, t.createdAt, t.id),
    pgPolicy('kjgc_bindings_parties', {
      to: appRole,
      for: 'all',
      using: sql`${t.agencyId} = ${currentAgency} or ${t.kjgcId} = ${currentKjgc}`,
      withCheck: sql`${t.agencyId} = ${currentAgency} or ${t.kjgcId} = ${currentKjgc}`,
    }),
  ],
).enableRLS();

/** Clients (tgkh) an agency handed over to a bound factory; a client is with one factory at most. */
export const kjgcHandovers = pgTable(
  'kjgc_handovers',
  {
    enterpriseId: integer('enterprise_id')
      .primaryKey()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    kjgcId: integer('kjgc_id')
      .notNull()
      .references(() => organisations.id),
    bindingId: integer('binding_id')
      .notNull()
      .references(() => kjgcBindings.id),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('kjgc_handovers_kjgc_idx').on(t.kjgcId, t.agencyId, t.createdAt, t.enterpriseId),
    index('kjgc_handovers_agency_idx').on(t.agencyId, t.createdAt, t.enterpriseId),
    index('kjgc_handovers_binding_idx').on(t.bindingId, t.enterpriseId),
    pgPolicy('kjgc_handovers_parties', {
      to: appRole,
      for: 'all',
      using: sql`${t.agencyId} = ${currentAgency} or ${t.kjgcId} = ${currentKjgc}`,
      withCheck: sql`${t.agencyId} = ${currentAgency}`,
    }),
  ],
).enableRLS();
