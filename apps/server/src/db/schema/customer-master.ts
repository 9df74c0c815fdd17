import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { enterprises } from './customer.js';
import { organisations } from './org.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/**
 * What the book records of a client beside the enterprise row (migration 0034, docs/decisions/customer.md):
 * the legal representative and the registered tax types (compared with the bureau when filled in), the
 * invoicing method kpfs (read by the invoices module) and the institution type jglx.
 */
export const enterpriseProfiles = pgTable(
  'enterprise_profiles',
  {
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    fddbrxm: text().notNull().default(''),
    taxTypes: text('tax_types').notNull().default(''),
    kpfs: text().notNull().default(''),
    jglx: text().notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'enterprise_profiles_pk', columns: [t.agencyId, t.enterpriseId] }),
    tenantPolicy('enterprise_profiles_tenant', t.agencyId),
  ],
).enableRLS();

/** One difference between the book and the bureau's registration. */
export interface BureauDiffRow {
  field: 'qymc' | 'qyxz' | 'region' | 'fddbrxm' | 'taxTypes';
  book: string;
  bureau: string;
}
export interface BureauSnapshot {
  qymc: string;
  qyxz: string;
  fddbrxm: string;
  region: string;
  taxTypes: string;
}

/**
 * The bureau's registered data last seen for a client and where the book differs. Written only by the
 * database triggers of migration 0034 when tax data is collected (enterprise_tax_data, the 纳税人信息 tab's
 * live query) and recomputed when the book changes.
 */
export const enterpriseBureauDiffs = pgTable(
  'enterprise_bureau_diffs',
  {
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    bureau: jsonb().$type<BureauSnapshot>().notNull(),
    diffs: jsonb().$type<BureauDiffRow[]>().notNull().default([]),
    needUpdate: boolean('need_update').notNull().default(false),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'enterprise_bureau_diffs_pk', columns: [t.agencyId, t.enterpriseId] }),
    index('enterprise_bureau_diffs_need_idx').on(t.agencyId, t.enterpriseId).where(sql`${t.needUpdate}`),
    tenantPolicy('enterprise_bureau_diffs_tenant', t.agencyId),
  ],
).enableRLS();

/** Per agency: the default invoicing method of clients without their own, and the print settings. */
export const agencyClientSettings = pgTable(
  'agency_client_settings',
  {
    agencyId: integer('agency_id')
      .primaryKey()
      .references(() => organisations.id),
    defKpfs: text('def_kpfs').notNull().default(''),
    printSettings: jsonb('print_settings').$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [tenantPolicy('agency_client_settings_tenant', t.agencyId)],
).enableRLS();

/** A member's half-written note on a client (user/note/staging), gone once the note is saved. */
export const noteDrafts = pgTable(
  'note_drafts',
  {
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    content: text().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'note_drafts_pk', columns: [t.agencyId, t.userId, t.enterpriseId] }),
    tenantPolicy('note_drafts_tenant', t.agencyId),
  ],
).enableRLS();
