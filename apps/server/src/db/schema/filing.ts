import type { FilingCycle, FilingState, FilingTaxType } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
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
 * 申报设置 per client (user/ycs/SbqcSzSetting): the tax types the agency does not handle for it. An ignored
 * type leaves the filing roster, the overview and the missed-filing checks. No row: every type handled.
 */
export const enterpriseFilingSettings = pgTable(
  'enterprise_filing_settings',
  {
    agencyId: agencyRef(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    ignoredTypes: text('ignored_types').array().$type<FilingTaxType[]>().notNull().default(sql`'{}'::text[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.enterpriseId] }),
    tenantPolicy('enterprise_filing_settings_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * 申报清册: one return per (client, filing month, tax type, 所属期 start), as the bureau's roster said at
 * the last sync. `carried`: a return of an earlier filing month the bureau still lists (逾期未申报 carried
 * into this month's roster); the row's cells are the others. Amounts in integer fen.
 */
export const filingCells = pgTable(
  'filing_cells',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    filingMonth: text('filing_month').notNull(),
    taxType: text('tax_type').$type<FilingTaxType>().notNull(),
    cycle: text().$type<FilingCycle>().notNull(),
    skssqq: text().notNull().default(''),
    skssqz: text().notNull().default(''),
    state: text().$type<FilingState>().notNull(),
    carried: boolean().notNull().default(false),
    srze: bigint({ mode: 'number' }).notNull().default(0),
    ybtse: bigint({ mode: 'number' }).notNull().default(0),
    sbqx: text().notNull().default(''),
    sbrq: text().notNull().default(''),
    pzxh: text().notNull().default(''),
    jkrq: text().notNull().default(''),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One return per key; also the read of a page's cells (agency, the page's clients, the month).
    uniqueIndex('filing_cells_key_uq').on(t.agencyId, t.enterpriseId, t.filingMonth, t.taxType, t.skssqq),
    // The counts per state and the tax type × state matrix of one agency and month: an index-only read.
    index('filing_cells_month_state_idx').on(t.agencyId, t.filingMonth, t.state, t.taxType, t.enterpriseId),
    tenantPolicy('filing_cells_tenant', t.agencyId),
  ],
).enableRLS();

/** Per client and filing month: the last successful sync, and the last failure (the check messages of §8). */
export const filingSyncs = pgTable(
  'filing_syncs',
  {
    agencyId: agencyRef(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    filingMonth: text('filing_month').notNull(),
    /** 纳税人类型 the bureau gave ('' before the first success). */
    nsrlx: text().notNull().default(''),
    syncedAt: timestamp('synced_at', { withTimezone: true }),
    failMsg: text('fail_msg').notNull().default(''),
    failMsgType: smallint('fail_msg_type'),
    failAt: timestamp('fail_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.filingMonth, t.enterpriseId] }),
    tenantPolicy('filing_syncs_tenant', t.agencyId),
  ],
).enableRLS();

/** One sync run (同步申报状态) of one user: its counts move as each client's job records its outcome. */
export const filingSyncBatches = pgTable(
  'filing_sync_batches',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    filingMonth: text('filing_month').notNull(),
    state: text().$type<'running' | 'done' | 'stopped'>().notNull().default('running'),
    totalNum: integer('total_num').notNull(),
    successNum: integer('success_num').notNull().default(0),
    failNum: integer('fail_num').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('filing_sync_batches_agency_user_idx').on(t.agencyId, t.userId, t.id),
    tenantPolicy('filing_sync_batches_tenant', t.agencyId),
  ],
).enableRLS();

/** One client's outcome in a sync (msg_type null: not done yet); unique per (batch, client): counted once. */
export const filingSyncResults = pgTable(
  'filing_sync_results',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => filingSyncBatches.id, { onDelete: 'cascade' }),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    msgType: smallint('msg_type'),
    msg: text().notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('filing_sync_results_batch_ent_uq').on(t.batchId, t.enterpriseId),
    // The clients of a run still to do: "none left?" after each client is an index probe, not a scan.
    index('filing_sync_results_pending_idx').on(t.batchId).where(sql`${t.msgType} is null`),
    tenantPolicy('filing_sync_results_tenant', t.agencyId),
  ],
).enableRLS();
