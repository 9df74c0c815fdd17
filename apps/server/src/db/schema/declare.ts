import type { CollectedData } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { enterprises } from './customer.js';
import { agencyRef } from './refs.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/**
 * A batch inspection (/declare/bssz, user/lbs/check) and, once finished, its summary log
 * (tax-bureau.md §3: ssq, checkNum, successNum, failNum). state: running, done, stopped.
 */
export const checkBatches = pgTable(
  'check_batches',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The tax period checked, YYYY-MM. */
    ssq: text().notNull(),
    state: text().$type<'running' | 'done' | 'stopped'>().notNull().default('running'),
    totalNum: integer('total_num').notNull(),
    successNum: integer('success_num').notNull().default(0),
    failNum: integer('fail_num').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('check_batches_agency_user_idx').on(t.agencyId, t.userId, t.id),
    index('check_batches_agency_id_idx').on(t.agencyId, t.id),
    tenantPolicy('check_batches_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * One enterprise's outcome in a batch (the saved check log: msg_type 1-8 and msg). Upserted under
 * (batch, enterprise), so a resumed batch never counts an enterprise twice. msg_type null: not done yet.
 */
export const checkResults = pgTable(
  'check_results',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => checkBatches.id, { onDelete: 'cascade' }),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    qysh: text().notNull(),
    qymc: text().notNull(),
    msgType: smallint('msg_type'),
    msg: text().notNull().default(''),
    /** geshui_type: the personal-tax part's outcome where it was checked. */
    geshuiType: text('geshui_type').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('check_results_batch_ent_uq').on(t.batchId, t.enterpriseId),
    index('check_results_batch_order_idx').on(
      t.batchId,
      sql`(case when ${t.msgType} is null then 0 else 1 end)`,
      t.updatedAt,
      t.id,
    ),
    index('check_results_agency_ent_idx').on(t.agencyId, t.enterpriseId),
    tenantPolicy('check_results_tenant', t.agencyId),
  ],
).enableRLS();

/** The latest data a check collected per enterprise (nsrjcxx, wsbList, qsxxList ...), for the tax data pages. */
export const enterpriseTaxData = pgTable(
  'enterprise_tax_data',
  {
    agencyId: agencyRef(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    collected: jsonb().$type<CollectedData>().notNull(),
    batchId: integer('batch_id'),
    collectedAt: timestamp('collected_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.enterpriseId] }),
    tenantPolicy('enterprise_tax_data_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * A live e-tax bureau session for an enterprise after an interactive login (encrypted: it is a bearer
 * credential at the bureau), reused by the tax data pages until it expires.
 */
export const etaxSessions = pgTable(
  'etax_sessions',
  {
    agencyId: agencyRef(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    /** 'etax' the e-tax hall, 'gs' personal tax. */
    kind: text().$type<'etax' | 'gs'>().notNull(),
    sessionEnc: text('session_enc').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.enterpriseId, t.kind] }),
    tenantPolicy('etax_sessions_tenant', t.agencyId),
  ],
).enableRLS();
