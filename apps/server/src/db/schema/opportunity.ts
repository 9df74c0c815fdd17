import { bigint, date, index, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { contracts } from './contract.js';
import { enterprises } from './customer.js';
import { agencyRef } from './refs.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** The agency's opportunity stages, in order. kind: 'open' pipeline, 'won' 签约 (convertible), 'lost' 输单. */
export const opportunityStages = pgTable(
  'opportunity_stages',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    name: text().notNull(),
    kind: text().$type<'open' | 'won' | 'lost'>().notNull(),
    sort: smallint().notNull(),
  },
  (t) => [
    uniqueIndex('opportunity_stages_agency_name_uq').on(t.agencyId, t.name),
    tenantPolicy('opportunity_stages_tenant', t.agencyId),
  ],
).enableRLS();

/** The agency's opportunity setting: automatic release after this many days without follow-up (0 off). */
export const opportunitySettings = pgTable(
  'opportunity_settings',
  {
    agencyId: agencyRef().primaryKey(),
    autoReleaseDays: smallint('auto_release_days').notNull().default(0),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [tenantPolicy('opportunity_settings_tenant', t.agencyId)],
).enableRLS();

/**
 * Opportunities (商机). owner_id null: in the public pool (公海). followed_at: the last follow-up, or when
 * the current owner got it (automatic release counts from it). enterprise_id/contract_id: set once by the
 * conversion, which makes it read-only.
 */
export const opportunities = pgTable(
  'opportunities',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    companyName: text('company_name').notNull(),
    contactName: text('contact_name').notNull(),
    phone: text().notNull(),
    source: text().notNull(),
    serviceIds: integer('service_ids').array().notNull().default([]),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull().default(0),
    stageId: integer('stage_id')
      .notNull()
      .references(() => opportunityStages.id),
    ownerId: integer('owner_id').references(() => users.id),
    remark: text().notNull().default(''),
    followedAt: at('followed_at').notNull().defaultNow(),
    nextFollowAt: at('next_follow_at'),
    /** The next_follow_at value whose reminder was sent (one reminder per appointment). */
    remindedFor: at('reminded_for'),
    /** The day the owner was told it would be released tomorrow. */
    releaseWarnedOn: date('release_warned_on', { mode: 'string' }),
    releasedAt: at('released_at'),
    enterpriseId: integer('enterprise_id').references(() => enterprises.id, { onDelete: 'set null' }),
    contractId: integer('contract_id').references(() => contracts.id, { onDelete: 'set null' }),
    convertedAt: at('converted_at'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('opportunities_agency_id_idx').on(t.agencyId, t.id),
    index('opportunities_agency_owner_idx').on(t.agencyId, t.ownerId, t.id),
    index('opportunities_agency_followed_idx').on(t.agencyId, t.followedAt, t.id),
    index('opportunities_agency_amount_idx').on(t.agencyId, t.amountFen, t.id),
    index('opportunities_agency_next_idx').on(t.agencyId, t.nextFollowAt),
    tenantPolicy('opportunities_tenant', t.agencyId),
  ],
).enableRLS();

export const opportunityFollowups = pgTable(
  'opportunity_followups',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    opportunityId: integer('opportunity_id')
      .notNull()
      .references(() => opportunities.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id),
    content: text().notNull(),
    way: text().notNull(),
    nextFollowAt: at('next_follow_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('opportunity_followups_opp_idx').on(t.opportunityId, t.id),
    tenantPolicy('opportunity_followups_tenant', t.agencyId),
  ],
).enableRLS();

/** Owner changes: create, transfer, release (by hand or automatic), claim, handover. */
export const opportunityTransfers = pgTable(
  'opportunity_transfers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    opportunityId: integer('opportunity_id')
      .notNull()
      .references(() => opportunities.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    fromUserId: integer('from_user_id').references(() => users.id),
    toUserId: integer('to_user_id').references(() => users.id),
    byUserId: integer('by_user_id').references(() => users.id),
    reason: text().notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('opportunity_transfers_opp_idx').on(t.opportunityId, t.id),
    tenantPolicy('opportunity_transfers_tenant', t.agencyId),
  ],
).enableRLS();
