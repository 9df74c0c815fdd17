import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { agencyRef, enterpriseRef } from './refs.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/** 销项 (issued by the client) or 进项 (received by the client). */
export type InvoiceDirection = 'out' | 'in';
/** 专票 or 普票 (数电票 of either kind). */
export type InvoiceKind = 'zp' | 'pp';
/** normal; reversed (a blue one a red invoice reversed, 已红冲); void (作废, legacy paper only); red (a red invoice itself). */
export type InvoiceState = 'normal' | 'reversed' | 'void' | 'red';
/** Input only: not ticked, ticked for deduction (勾选) in deduct_period, confirmed (用途确认) for it. */
export type DeductState = 'none' | 'selected' | 'confirmed';
export type InvoiceSource = 'issued' | 'collected';

const fen = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/**
 * Every invoice the agency knows of a client, issued through the product or collected from the bureau: one
 * row per (client, direction, number), so collecting a month twice never counts an invoice twice.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    direction: text().$type<InvoiceDirection>().notNull(),
    /** 发票号码: 20 digits for 数电票. */
    fphm: text().notNull(),
    /** 开票日期 YYYY-MM-DD, and its month YYYY-MM (the list's and the rollups' period). */
    kprq: text().notNull(),
    month: text().notNull(),
    fplx: text().$type<InvoiceKind>().notNull(),
    state: text().$type<InvoiceState>().notNull().default('normal'),
    /** A red invoice: the number of the blue one it reverses. */
    lzfphm: text().notNull().default(''),
    /** The other party: the buyer of an issued invoice, the seller of a received one. */
    cpName: text('cp_name').notNull().default(''),
    cpTaxNo: text('cp_tax_no').notNull().default(''),
    /** 金额 (before tax), 税额 and 价税合计, fen; negative on a red invoice. */
    amount: fen('amount'),
    tax: fen('tax'),
    total: fen('total'),
    deductState: text('deduct_state').$type<DeductState>().notNull().default('none'),
    /** The tax period (YYYY-MM) it was ticked or confirmed for; '' otherwise. */
    deductPeriod: text('deduct_period').notNull().default(''),
    source: text().$type<InvoiceSource>().notNull(),
    issuedBy: integer('issued_by').references(() => users.id),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_key_uq').on(t.agencyId, t.enterpriseId, t.direction, t.fphm),
    index('invoices_client_month_idx').on(t.agencyId, t.enterpriseId, t.direction, t.month, t.id),
    index('invoices_agency_month_idx').on(t.agencyId, t.direction, t.month, t.id),
    tenantPolicy('invoices_tenant', t.agencyId),
  ],
).enableRLS();

/** An invoice's lines (货物或应税劳务、服务名称 with its 税收分类编码). */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    xh: smallint().notNull(),
    spmc: text().notNull(),
    ssflbm: text().notNull().default(''),
    ggxh: text().notNull().default(''),
    dw: text().notNull().default(''),
    /** Quantity and unit price as the bureau writes them (decimal strings, up to 8 places). */
    sl: text().notNull().default(''),
    dj: text().notNull().default(''),
    amount: fen('amount'),
    /** '0.13' … '0.01', '0' or 'mz' (免税). */
    rate: text().notNull(),
    tax: fen('tax'),
  },
  (t) => [index('invoice_lines_invoice_idx').on(t.invoiceId, t.xh), tenantPolicy('invoice_lines_tenant', t.agencyId)],
).enableRLS();

/**
 * A client-month's invoices summed by direction, kind and rate: statistics read this, never the invoices.
 * Rewritten for a client-month by the invoice store whenever that month's invoices change.
 */
export const invoiceMonthStats = pgTable(
  'invoice_month_stats',
  {
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    month: text().notNull(),
    direction: text().$type<InvoiceDirection>().notNull(),
    fplx: text().$type<InvoiceKind>().notNull(),
    rate: text().notNull(),
    /** Invoices (a red one counts as one) and their lines' sums at this rate, fen. */
    count: integer().notNull(),
    amount: fen('amount'),
    tax: fen('tax'),
    total: fen('total'),
    /** Input only: the tax confirmed for deduction (用途确认) among them. */
    deductTax: fen('deduct_tax'),
  },
  (t) => [
    uniqueIndex('invoice_month_stats_key_uq').on(t.agencyId, t.month, t.direction, t.enterpriseId, t.fplx, t.rate),
    index('invoice_month_stats_client_idx').on(t.agencyId, t.enterpriseId, t.month),
    tenantPolicy('invoice_month_stats_tenant', t.agencyId),
  ],
).enableRLS();

/** A client-month's invoices summed per other party (top buyers and sellers). */
export const invoiceMonthParties = pgTable(
  'invoice_month_parties',
  {
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    month: text().notNull(),
    direction: text().$type<InvoiceDirection>().notNull(),
    cpTaxNo: text('cp_tax_no').notNull(),
    cpName: text('cp_name').notNull(),
    count: integer().notNull(),
    total: fen('total'),
  },
  (t) => [
    uniqueIndex('invoice_month_parties_key_uq').on(t.agencyId, t.month, t.direction, t.enterpriseId, t.cpTaxNo),
    tenantPolicy('invoice_month_parties_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * A client-month's invoices counted once each, by direction and kind (the stats rollup counts an invoice once
 * per rate it has lines at): the trend's and the by-kind counts read this.
 */
export const invoiceMonthCounts = pgTable(
  'invoice_month_counts',
  {
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    month: text().notNull(),
    direction: text().$type<InvoiceDirection>().notNull(),
    fplx: text().$type<InvoiceKind>().notNull(),
    count: integer().notNull(),
  },
  (t) => [
    uniqueIndex('invoice_month_counts_key_uq').on(t.agencyId, t.month, t.direction, t.enterpriseId, t.fplx),
    tenantPolicy('invoice_month_counts_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * The agency's month by direction, kind and rate over all its clients: `invoice_month_stats` summed without the
 * client (the administrator's statistics read ~20 rows a month instead of ~12 per client). The store adds each
 * client's net change to it.
 */
export const invoiceAgencyStats = pgTable(
  'invoice_agency_stats',
  {
    agencyId: agencyRef(),
    month: text().notNull(),
    direction: text().$type<InvoiceDirection>().notNull(),
    fplx: text().$type<InvoiceKind>().notNull(),
    rate: text().notNull(),
    count: integer().notNull(),
    amount: fen('amount'),
    tax: fen('tax'),
    total: fen('total'),
    deductTax: fen('deduct_tax'),
  },
  (t) => [
    uniqueIndex('invoice_agency_stats_key_uq').on(t.agencyId, t.month, t.direction, t.fplx, t.rate),
    tenantPolicy('invoice_agency_stats_tenant', t.agencyId),
  ],
).enableRLS();

/** The agency's month's invoices counted once by direction and kind: `invoice_month_counts` without the client. */
export const invoiceAgencyCounts = pgTable(
  'invoice_agency_counts',
  {
    agencyId: agencyRef(),
    month: text().notNull(),
    direction: text().$type<InvoiceDirection>().notNull(),
    fplx: text().$type<InvoiceKind>().notNull(),
    count: integer().notNull(),
  },
  (t) => [
    uniqueIndex('invoice_agency_counts_key_uq').on(t.agencyId, t.month, t.direction, t.fplx),
    tenantPolicy('invoice_agency_counts_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * The agency's month per other party, over all its clients (the administrator's top buyers and sellers read
 * this instead of grouping every client's party rows). Equal to the sum of `invoice_month_parties` by
 * (agency, month, direction, party): the store adds each client's net change to it.
 */
export const invoiceAgencyParties = pgTable(
  'invoice_agency_parties',
  {
    agencyId: agencyRef(),
    month: text().notNull(),
    direction: text().$type<InvoiceDirection>().notNull(),
    cpTaxNo: text('cp_tax_no').notNull(),
    cpName: text('cp_name').notNull(),
    count: integer().notNull(),
    total: fen('total'),
  },
  (t) => [
    uniqueIndex('invoice_agency_parties_key_uq').on(t.agencyId, t.month, t.direction, t.cpTaxNo),
    index('invoice_agency_parties_top_idx').on(t.agencyId, t.month, t.direction, t.total.desc(), t.cpTaxNo),
    tenantPolicy('invoice_agency_parties_tenant', t.agencyId),
  ],
).enableRLS();

export type InvoiceRequestKind = 'blue' | 'redConfirm' | 'red';
/** sending: committed just before the bureau call — on a retry the bureau is asked for it first (fp/kpcx). */
export type InvoiceRequestState = 'pending' | 'sending' | 'done' | 'failed';

/**
 * One call that changes the bureau's books (开票, 红字确认单, 红字发票), committed with its request id BEFORE
 * the call: a retry after a crash or a lost reply sends the same id, so the bureau does it at most once.
 */
export const invoiceRequests = pgTable(
  'invoice_requests',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    requestId: uuid('request_id').notNull().defaultRandom(),
    kind: text().$type<InvoiceRequestKind>().notNull(),
    state: text().$type<InvoiceRequestState>().notNull().default('pending'),
    /** What was asked (the bureau call's body without the request id). */
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    /** The invoice it produced, the 红字确认单 number, or the bureau's refusal. */
    invoiceId: integer('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    qrdbh: text().notNull().default(''),
    msg: text().notNull().default(''),
    /** A batch issue's run, when it came from one. */
    runId: integer('run_id'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoice_requests_request_uq').on(t.requestId),
    index('invoice_requests_client_idx').on(t.agencyId, t.enterpriseId, t.id),
    index('invoice_requests_run_idx').on(t.runId, t.id),
    tenantPolicy('invoice_requests_tenant', t.agencyId),
  ],
).enableRLS();

/** A client's own customers, remembered as buyers when it issues (the 开票 form's buyer list). */
export const invoiceBuyers = pgTable(
  'invoice_buyers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    name: text().notNull(),
    taxNo: text('tax_no').notNull(),
    addressPhone: text('address_phone').notNull().default(''),
    bankAccount: text('bank_account').notNull().default(''),
    email: text().notNull().default(''),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoice_buyers_key_uq').on(t.agencyId, t.enterpriseId, t.taxNo),
    index('invoice_buyers_recent_idx').on(t.agencyId, t.enterpriseId, t.lastUsedAt, t.id),
    tenantPolicy('invoice_buyers_tenant', t.agencyId),
  ],
).enableRLS();

export type InvoiceRunKind = 'collect' | 'confirm' | 'issue';
export type InvoiceRunState = 'running' | 'done' | 'stopped';

/** A batch over clients: collecting a month (发票池采集), confirming input (用途确认), or issuing from .xlsx. */
export const invoiceRuns = pgTable(
  'invoice_runs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text().$type<InvoiceRunKind>().notNull(),
    /** The month collected, or the tax period confirmed (YYYY-MM); '' for an issue run. */
    month: text().notNull().default(''),
    state: text().$type<InvoiceRunState>().notNull().default('running'),
    totalNum: integer('total_num').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('invoice_runs_agency_idx').on(t.agencyId, t.kind, t.id),
    tenantPolicy('invoice_runs_tenant', t.agencyId),
  ],
).enableRLS();

export type InvoiceRunClientState = 'ok' | 'failed';

/** A run's clients: state null while pending; the failure's reason for the tax-retrieval error dialog. */
export const invoiceRunClients = pgTable(
  'invoice_run_clients',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    runId: integer('run_id')
      .notNull()
      .references(() => invoiceRuns.id, { onDelete: 'cascade' }),
    enterpriseId: enterpriseRef(),
    state: text().$type<InvoiceRunClientState>(),
    msg: text().notNull().default(''),
    /** Invoices collected or confirmed for this client (a re-collection counts each invoice once). */
    invoiceNum: integer('invoice_num').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoice_run_clients_run_ent_uq').on(t.runId, t.enterpriseId),
    index('invoice_run_clients_pending_idx').on(t.runId).where(sql`${t.state} is null`),
    tenantPolicy('invoice_run_clients_tenant', t.agencyId),
  ],
).enableRLS();
