import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** People who sign in. Global, not tenant-owned: one person may belong to several organisations. */
export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    phone: text().notNull(),
    /** Optional account name for signing in besides the phone. */
    account: text(),
    hymc: text().notNull().default(''),
    zw: text().notNull().default(''),
    headimg: text().notNull().default(''),
    passwordHash: text('password_hash'),
    /** A platform operator (reviews agency applications); not a member of any agency by this. */
    isOperator: boolean('is_operator').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Sign-in matches the account name case-insensitively: the unique index is on lower(account).
  (t) => [uniqueIndex('users_phone_uq').on(t.phone), uniqueIndex('users_account_uq').on(sql`lower(${t.account})`)],
);

/** Server-side sessions: only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Organisation the session acts in; null until the user has one. */
    orgId: integer('org_id'),
    /** For a factory (kjgc): the bound agency this session acts for (migration 0039); null is the default. */
    kjgcDlsId: integer('kjgc_dls_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text().notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/** Password sign-in attempts per account string, for the 5-in-15-minutes lock. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    account: text().notNull(),
    ok: boolean().notNull(),
    ip: text().notNull().default(''),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_account_at_idx').on(t.account, t.at),
    index('login_attempts_account_ip_at_idx').on(t.account, t.ip, t.at),
  ],
);

/** Accounts locked from password sign-in after 5 failures in 15 minutes. */
export const loginLocks = pgTable(
  'login_locks',
  {
    account: text().notNull(),
    /** The address the failures came from: a lock holds for that address only. */
    ip: text().notNull().default(''),
    lockedUntil: timestamp('locked_until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'login_locks_account_ip_pk', columns: [t.account, t.ip] })],
);

/** Fixed-window counters of the abuse limits (plugins/rate-limit.ts), shared by every server process. */
export const rateLimits = pgTable('rate_limits', {
  key: text().primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer().notNull(),
});

/** SMS verification codes; the code itself is stored hashed. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    phone: text().notNull(),
    purpose: text().notNull(),
    codeHash: text('code_hash').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer().notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('sms_codes_phone_idx').on(t.phone, t.purpose, t.sentAt)],
);

/** Every SMS the platform sends. In development it is the outbox staff read codes from. */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    phone: text().notNull(),
    content: text().notNull(),
    /** The agency the text was sent for (invitations); null for the platform's own (sign-in codes). */
    agencyId: integer('agency_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sms_outbox_created_at_idx').on(t.createdAt),
    index('sms_outbox_agency_created_at_idx').on(t.agencyId, t.createdAt).where(sql`${t.agencyId} is not null`),
  ],
);
