import type { FilingTaxType } from '@dzy/shared';
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
import { agencyRef, enterpriseRef } from './refs.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/** 申报设置 of the agency: the filing reminder's days before a deadline (default 3), and the batch's settings. No row: the defaults. */
export const agencyFilingSettings = pgTable(
  'agency_filing_settings',
  {
    agencyId: agencyRef().primaryKey(),
    remindDays: smallint('remind_days').notNull().default(3),
    /** 客户确认 (issue 14): returns with tax ≥ this (fen) may be sent to the client; 1 = any non-zero tax. */
    confirmThreshold: bigint('confirm_threshold', { mode: 'number' }).notNull().default(1),
    /** 申报前须客户确认: such returns not confirmed are not filed. */
    confirmRequired: boolean('confirm_required').notNull().default(false),
    /** Days a confirmation link stays valid. */
    confirmDays: smallint('confirm_days').notNull().default(7),
    /** 申报计划 highlights a change from the previous period above this percent. */
    diffPercent: smallint('diff_percent').notNull().default(30),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [tenantPolicy('agency_filing_settings_tenant', t.agencyId)],
).enableRLS();

/** 信息补全 per client: what the book has no field for (the 三方协议 for paying tax). */
export const enterpriseFilingInfo = pgTable(
  'enterprise_filing_info',
  {
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    /** 三方协议 (bank, treasury and bureau) signed: the tax can be paid from the account. */
    sfxy: boolean().notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.enterpriseId] }),
    tenantPolicy('enterprise_filing_info_tenant', t.agencyId),
  ],
).enableRLS();

/** 申报设置 logs (selectLog): who changed which setting when. */
export const filingSettingLogs = pgTable(
  'filing_setting_logs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    action: text().notNull(),
    enterpriseId: integer('enterprise_id').references(() => enterprises.id, { onDelete: 'set null' }),
    detail: text().notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('filing_setting_logs_agency_idx').on(t.agencyId, t.id),
    tenantPolicy('filing_setting_logs_tenant', t.agencyId),
  ],
).enableRLS();

/** Filing reminders sent: one per (client, tax type, 所属期), whatever reruns or restarts. */
export const filingReminders = pgTable(
  'filing_reminders',
  {
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    taxType: text('tax_type').$type<FilingTaxType>().notNull(),
    skssqq: text().notNull(),
    sbqx: text().notNull(),
    userId: integer('user_id').references(() => users.id),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.enterpriseId, t.taxType, t.skssqq] }),
    tenantPolicy('filing_reminders_tenant', t.agencyId),
  ],
).enableRLS();

/** One 漏报检查 run (未申报 or 未缴款) of one user; counts move as each client's job records its outcome. */
export const lbsjcBatches = pgTable(
  'lbsjc_batches',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text().$type<'wsb' | 'wjk'>().notNull(),
    filingMonth: text('filing_month').notNull(),
    state: text().$type<'running' | 'done'>().notNull().default('running'),
    totalNum: integer('total_num').notNull(),
    successNum: integer('success_num').notNull().default(0),
    failNum: integer('fail_num').notNull().default(0),
    foundNum: integer('found_num').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('lbsjc_batches_agency_user_idx').on(t.agencyId, t.userId, t.id),
    index('lbsjc_batches_agency_idx').on(t.agencyId, t.id),
    tenantPolicy('lbsjc_batches_tenant', t.agencyId),
  ],
).enableRLS();

/** One client's outcome in a check (msg_type null: not done yet); unique per (batch, client): counted once. */
export const lbsjcResults = pgTable(
  'lbsjc_results',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => lbsjcBatches.id, { onDelete: 'cascade' }),
    enterpriseId: enterpriseRef(),
    msgType: smallint('msg_type'),
    msg: text().notNull().default(''),
    foundNum: integer('found_num').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lbsjc_results_batch_ent_uq').on(t.batchId, t.enterpriseId),
    index('lbsjc_results_agency_batch_idx').on(t.agencyId, t.batchId, t.id),
    tenantPolicy('lbsjc_results_tenant', t.agencyId),
  ],
).enableRLS();

/** A missed (未申报) or unpaid (未缴款) return a check found. Amounts in integer fen. */
export const lbsjcItems = pgTable(
  'lbsjc_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => lbsjcBatches.id, { onDelete: 'cascade' }),
    enterpriseId: enterpriseRef(),
    taxType: text('tax_type').$type<FilingTaxType>().notNull(),
    skssqq: text().notNull(),
    skssqz: text().notNull(),
    sbqx: text().notNull().default(''),
    state: text().notNull(),
    amount: bigint({ mode: 'number' }).notNull().default(0),
    znj: bigint({ mode: 'number' }).notNull().default(0),
    daysOverdue: integer('days_overdue').notNull().default(0),
  },
  (t) => [
    uniqueIndex('lbsjc_items_key_uq').on(t.batchId, t.enterpriseId, t.taxType, t.skssqq),
    index('lbsjc_items_agency_batch_idx').on(t.agencyId, t.batchId, t.id),
    tenantPolicy('lbsjc_items_tenant', t.agencyId),
  ],
).enableRLS();
