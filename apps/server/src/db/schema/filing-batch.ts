import type {
  FilingCycle,
  FilingTaxType,
  IitDiff,
  ItemSource,
  ItemState,
  PayState,
  PlanKind,
  PlanState,
  RunKind,
  RunState,
} from '@dzy/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { agencyRef, enterpriseRef } from './refs.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

type ItemConfirmState = 'none' | 'sent' | 'confirmed' | 'disputed';

/** 申报计划: the returns one user chose to file in a filing month (issue 14). */
export const filingPlans = pgTable(
  'filing_plans',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    filingMonth: text('filing_month').notNull(),
    kind: text().$type<PlanKind>().notNull(),
    state: text().$type<PlanState>().notNull().default('generating'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('filing_plans_agency_user_idx').on(t.agencyId, t.userId, t.id),
    index('filing_plans_agency_idx').on(t.agencyId, t.id),
    tenantPolicy('filing_plans_tenant', t.agencyId),
  ],
).enableRLS();

/** One run over a plan (generate, file, pay, update): one job per client; its id is the spec's redisKey. */
export const filingRuns = pgTable(
  'filing_runs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    planId: integer('plan_id')
      .notNull()
      .references(() => filingPlans.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text().$type<RunKind>().notNull(),
    state: text().$type<RunState>().notNull().default('running'),
    totalNum: integer('total_num').notNull(),
    /** A file run: the user confirmed the late notice (逾期申报告知). */
    lateNotice: boolean('late_notice').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('filing_runs_agency_plan_idx').on(t.agencyId, t.planId, t.id),
    tenantPolicy('filing_runs_tenant', t.agencyId),
  ],
).enableRLS();

/** One client's outcome in a run (state null: not done yet); unique per (run, client): counted once. */
export const filingRunClients = pgTable(
  'filing_run_clients',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    runId: integer('run_id')
      .notNull()
      .references(() => filingRuns.id, { onDelete: 'cascade' }),
    enterpriseId: enterpriseRef(),
    state: text().$type<'ok' | 'fail'>(),
    msg: text().notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('filing_run_clients_run_ent_uq').on(t.runId, t.enterpriseId),
    index('filing_run_clients_pending_idx').on(t.runId).where(sql`${t.state} is null`),
    tenantPolicy('filing_run_clients_tenant', t.agencyId),
  ],
).enableRLS();

/** One return of a plan: its figures, where they came from, and what became of it. Money in fen. */
export const filingPlanItems = pgTable(
  'filing_plan_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    planId: integer('plan_id')
      .notNull()
      .references(() => filingPlans.id, { onDelete: 'cascade' }),
    enterpriseId: enterpriseRef(),
    taxType: text('tax_type').$type<FilingTaxType>().notNull(),
    cycle: text().$type<FilingCycle>().notNull(),
    skssqq: text().notNull(),
    skssqz: text().notNull(),
    sbqx: text().notNull().default(''),
    overdue: boolean().notNull().default(false),
    /** 纳税人类型 at planning ('0' general, '1' small-scale). */
    nsrlx: text().$type<'0' | '1'>().notNull().default('1'),
    source: text().$type<ItemSource>().notNull().default('typed'),
    sbsj: jsonb().$type<Record<string, unknown>>(),
    srze: bigint({ mode: 'number' }).notNull().default(0),
    ybtse: bigint({ mode: 'number' }).notNull().default(0),
    estimate: boolean().notNull().default(false),
    prevSrze: bigint('prev_srze', { mode: 'number' }),
    prevYbtse: bigint('prev_ybtse', { mode: 'number' }),
    flagged: boolean().notNull().default(false),
    diff: jsonb().$type<IitDiff>(),
    state: text().$type<ItemState>().notNull().default('pending'),
    msg: text().notNull().default(''),
    pzxh: text().notNull().default(''),
    sbrq: text().notNull().default(''),
    payState: text('pay_state').$type<PayState>().notNull().default('none'),
    payMsg: text('pay_msg').notNull().default(''),
    jkrq: text().notNull().default(''),
    confirmState: text('confirm_state').$type<ItemConfirmState>().notNull().default('none'),
    /** The latest run that took the item (its job reads the items of its run). */
    runId: integer('run_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('filing_plan_items_key_uq').on(t.planId, t.enterpriseId, t.taxType, t.skssqq),
    index('filing_plan_items_agency_plan_idx').on(t.agencyId, t.planId, t.enterpriseId, t.id),
    index('filing_plan_items_run_idx').on(t.runId, t.enterpriseId),
    tenantPolicy('filing_plan_items_tenant', t.agencyId),
  ],
).enableRLS();

/** The agency's ledger of returns filed (and paid): one row per return, whatever plans or retries; the evidence. */
export const filedReturns = pgTable(
  'filed_returns',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    taxType: text('tax_type').$type<FilingTaxType>().notNull(),
    skssqq: text().notNull(),
    skssqz: text().notNull(),
    state: text().$type<'submitting' | 'filed'>().notNull(),
    planItemId: integer('plan_item_id'),
    pzxh: text().notNull().default(''),
    sbrq: text().notNull().default(''),
    srze: bigint({ mode: 'number' }).notNull().default(0),
    ybtse: bigint({ mode: 'number' }).notNull().default(0),
    lsb: boolean().notNull().default(false),
    yqsb: boolean().notNull().default(false),
    receipt: jsonb().$type<Record<string, unknown>>(),
    receiptPdf: bytea('receipt_pdf'),
    filedBy: integer('filed_by').references(() => users.id),
    filedAt: timestamp('filed_at', { withTimezone: true }),
    jkrq: text().notNull().default(''),
    dzsphm: text().notNull().default(''),
    sjje: bigint({ mode: 'number' }),
    znj: bigint({ mode: 'number' }),
    paidBy: integer('paid_by').references(() => users.id),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('filed_returns_key_uq').on(t.agencyId, t.enterpriseId, t.taxType, t.skssqq),
    tenantPolicy('filed_returns_tenant', t.agencyId),
  ],
).enableRLS();

/** 客户确认: a link sent to the client's phone for a plan's returns of one client. */
export const filingConfirmations = pgTable(
  'filing_confirmations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    planId: integer('plan_id')
      .notNull()
      .references(() => filingPlans.id, { onDelete: 'cascade' }),
    enterpriseId: enterpriseRef(),
    phone: text().notNull().default(''),
    nonce: text().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    state: text().$type<'sent' | 'confirmed' | 'disputed'>().notNull().default('sent'),
    comment: text().notNull().default(''),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('filing_confirmations_agency_plan_idx').on(t.agencyId, t.planId, t.enterpriseId),
    tenantPolicy('filing_confirmations_tenant', t.agencyId),
  ],
).enableRLS();
