import { index, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { enterprises } from './customer.js';
import { organisations } from './org.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/**
 * One-time grants for a per-enterprise e-tax login through the local helper (user/etax/helperGrant).
 * Only the SHA-256 of the grant is stored; the helper redeems it once within 60 s (helper/redeem) and
 * reports the outcome with it (helper/result).
 */
export const etaxLoginGrants = pgTable(
  'etax_login_grants',
  {
    tokenHash: text('token_hash').primaryKey(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
    /** The reported outcome: 0 failed, 1 logged in; null until reported. */
    status: smallint(),
    msg: text().notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('etax_login_grants_agency_ent_idx').on(t.agencyId, t.enterpriseId),
    tenantPolicy('etax_login_grants_tenant', t.agencyId),
  ],
).enableRLS();
