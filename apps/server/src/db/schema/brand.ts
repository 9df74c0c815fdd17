import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  pgPolicy,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { organisations } from './org.js';
import { appRole, currentAgency, currentUser } from './tenancy.js';
import { users } from './user.js';

/**
 * Issue 19 points 4-6 (migration 0036_branding_status_third.sql): service providers (fwsid branding), the
 * agency's account (plan, expiry, authorised clients, 365 service, provider) and third-party sign-in bindings.
 */
const isOperator = sql`exists (select 1 from users u where u.id = app_user() and u.is_operator)`;

/** A service provider's brand: its own sign-in address /login/{fwsid}, logo, name, colour and hotline. */
export const serviceProviders = pgTable(
  'service_providers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    fwsid: text().notNull(),
    name: text().notNull(),
    /** Stored name under uploads/brand ('' for none). */
    logoFile: text('logo_file').notNull().default(''),
    primaryColor: text('primary_color').notNull().default('#1677ff'),
    loginTitle: text('login_title').notNull().default(''),
    hotline: text().notNull().default(''),
    enabled: boolean().notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('service_providers_fwsid_uq').on(t.fwsid),
    check('service_providers_fwsid_valid', sql`${t.fwsid} ~ '^[a-z0-9][a-z0-9-]{1,31}$'`),
    check('service_providers_color_valid', sql`${t.primaryColor} ~ '^#[0-9a-f]{6}$'`),
    pgPolicy('service_providers_read', { to: appRole, for: 'select', using: sql`true` }),
    pgPolicy('service_providers_write', { to: appRole, for: 'all', using: isOperator, withCheck: isOperator }),
  ],
).enableRLS();

/** One agency's account as the operator keeps it: plan, expiry, authorised clients, 365 service, provider. */
export const agencyAccounts = pgTable(
  'agency_accounts',
  {
    agencyId: integer('agency_id')
      .primaryKey()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    plan: text().$type<'' | 'trial' | 'standard' | 'pro' | 'flagship'>().notNull().default(''),
    startsOn: date('starts_on'),
    expiresOn: date('expires_on'),
    /** Authorised clients (mirrored to organisations.licence_customers); null is unlimited. */
    clientCount: integer('client_count'),
    /** Days before expiry from which the status is '2' (about to expire). */
    remindDays: integer('remind_days').notNull().default(30),
    /** 365基础服务 (the desktop helper): '1' on, '0' switched off by the operator, '' never set (not enforced). */
    service365: text('service365').$type<'' | '0' | '1'>().notNull().default(''),
    service365ExpiresOn: date('service365_expires_on'),
    providerId: integer('provider_id').references((): AnyPgColumn => serviceProviders.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('agency_accounts_provider_idx').on(t.providerId),
    pgPolicy('agency_accounts_tenant', {
      to: appRole,
      for: 'all',
      using: sql`${t.agencyId} = ${currentAgency} or ${isOperator}`,
      withCheck: sql`${t.agencyId} = ${currentAgency} or ${isOperator}`,
    }),
  ],
).enableRLS();

/** Every plan granted or extended by the operator. */
export const benefitGrants = pgTable(
  'benefit_grants',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    plan: text().notNull(),
    startsOn: date('starts_on').notNull(),
    expiresOn: date('expires_on').notNull(),
    clientCount: integer('client_count'),
    remark: text().notNull().default(''),
    grantedBy: integer('granted_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('benefit_grants_agency_idx').on(t.agencyId, t.id),
    pgPolicy('benefit_grants_tenant', {
      to: appRole,
      for: 'all',
      using: sql`${t.agencyId} = ${currentAgency} or ${isOperator}`,
      withCheck: isOperator,
    }),
  ],
).enableRLS();

/** A user's accounts at third-party sign-in providers; sign-in reads them through third_binding_user(). */
export const thirdBindings = pgTable(
  'third_bindings',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    openid: text().notNull(),
    nickname: text().notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('third_bindings_account_uq').on(t.provider, t.openid),
    uniqueIndex('third_bindings_user_provider_uq').on(t.userId, t.provider),
    pgPolicy('third_bindings_own', {
      to: appRole,
      for: 'all',
      using: sql`${t.userId} = ${currentUser}`,
      withCheck: sql`${t.userId} = ${currentUser}`,
    }),
  ],
).enableRLS();
