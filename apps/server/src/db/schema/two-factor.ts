import { sql } from 'drizzle-orm';
import { check, index, integer, pgPolicy, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organisations } from './org.js';
import { appRole, currentAgency, currentUser } from './tenancy.js';
import { users } from './user.js';

/**
 * A user's second factor (TOTP). Per user, not per tenant, like sessions: read and written only by the
 * sign-in and account code on the user's own id. The secret is encrypted like client credentials
 * (lib/crypto.ts); `enabledAt` is null while an enrolment waits for its first code.
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  secretEnc: text('secret_enc').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The last step whose code was accepted: that step and earlier ones are refused (no replay). */
  lastStep: integer('last_step'),
  failedCount: integer('failed_count').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Recovery codes: the SHA-256 of each, single-use. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('two_factor_recovery_user_idx').on(t.userId)],
);

/** Devices remembered for 30 days ("在此设备上 30 天内不再询问"): the SHA-256 of the cookie's token. */
export const twoFactorDevices = pgTable(
  'two_factor_devices',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text().notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [
    uniqueIndex('two_factor_devices_token_uq').on(t.tokenHash),
    index('two_factor_devices_user_idx').on(t.userId),
  ],
);

export const TWO_FACTOR_REQUIRE = ['none', 'admins', 'all'] as const;

/**
 * An agency's security settings: who must sign in with two factors, and how long its audit log is kept
 * (never under 180 days). A member reads the settings of every agency they belong to (the sign-in
 * decides from them before any agency is chosen); only the agency itself writes them.
 */
export const agencySecurity = pgTable(
  'agency_security',
  {
    agencyId: integer('agency_id')
      .primaryKey()
      .references(() => organisations.id),
    requireTwoFactor: text('require_two_factor').notNull().default('none'),
    auditRetentionDays: integer('audit_retention_days').notNull().default(180),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('agency_security_require_valid', sql`${t.requireTwoFactor} in ('none', 'admins', 'all')`),
    check('agency_security_retention_min', sql`${t.auditRetentionDays} >= 180`),
    pgPolicy('agency_security_tenant', {
      to: appRole,
      for: 'all',
      using: sql`${t.agencyId} = ${currentAgency}`,
      withCheck: sql`${t.agencyId} = ${currentAgency}`,
    }),
    pgPolicy('agency_security_member_read', {
      to: appRole,
      for: 'select',
      using: sql`exists (select 1 from memberships m where m.agency_id = ${t.agencyId} and m.user_id = ${currentUser})`,
    }),
  ],
).enableRLS();
