import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
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
import { agencyRef, enterpriseRef } from './refs.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/** 小企业会计准则 (2013) or 企业会计准则. */
export type AccountingStandard = 'small2013' | 'general';
/** The client's VAT kind as the book knows it: 小规模纳税人 or 一般纳税人. */
export type BookVatKind = 'small' | 'general';
/** 资产 负债 共同 所有者权益 成本 损益 (the chart's categories). */
export type AccountCategory = 'asset' | 'liability' | 'common' | 'equity' | 'cost' | 'profit';
export type BalanceDirection = 'debit' | 'credit';
/** Auxiliary dimensions (辅助核算): 客户 供应商 部门 项目. */
export type AuxKind = 'customer' | 'supplier' | 'dept' | 'project';
export type VoucherReview = 'unreviewed' | 'reviewed';
/** Where a voucher came from; 'close' ones are the period-end transfers (计提附加税, 结转损益). */
export type VoucherSource = 'manual' | 'copy' | 'template' | 'import' | 'invoice' | 'payroll' | 'close';

const fen = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/** 账套: one set of books per client (issue 16). Periods are months YYYY-MM. */
export const books = pgTable(
  'books',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    enterpriseId: enterpriseRef(),
    standard: text().$type<AccountingStandard>().notNull().default('small2013'),
    /** 启用期间: the first period of the books; opening balances are as at its start. */
    startPeriod: text('start_period').notNull(),
    vatKind: text('vat_kind').$type<BookVatKind>().notNull().default('small'),
    /** The first period not yet closed (结账); every earlier one is closed. */
    currentPeriod: text('current_period').notNull(),
    /** 期初试算平衡 passed (checked when the first voucher is saved and on demand). */
    openingBalanced: boolean('opening_balanced').notNull().default(false),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('books_enterprise_uq').on(t.agencyId, t.enterpriseId),
    index('books_agency_period_idx').on(t.agencyId, t.currentPeriod, t.id),
    tenantPolicy('books_tenant', t.agencyId),
  ],
).enableRLS();

/** 科目: the preset chart of the book's standard and the user's sub-accounts (明细科目). */
export const bookAccounts = pgTable(
  'book_accounts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    /** 4 digits at level 1, then 2 (or 3) more per level: 1002, 100201, 10020101. */
    code: text().notNull(),
    name: text().notNull(),
    parentId: integer('parent_id'),
    level: smallint().notNull(),
    category: text().$type<AccountCategory>().notNull(),
    direction: text().$type<BalanceDirection>().notNull(),
    /** The auxiliary dimensions lines on this account carry. */
    auxKinds: text('aux_kinds').array().$type<AuxKind[]>().notNull().default(sql`'{}'::text[]`),
    /** Only leaf accounts take lines; an account with sub-accounts sums them. */
    isLeaf: boolean('is_leaf').notNull().default(true),
    enabled: boolean().notNull().default(true),
    preset: boolean().notNull().default(false),
  },
  (t) => [uniqueIndex('book_accounts_code_uq').on(t.bookId, t.code), tenantPolicy('book_accounts_tenant', t.agencyId)],
).enableRLS();

/** 辅助核算项目: a book's customers, suppliers, departments and projects. */
export const bookAuxItems = pgTable(
  'book_aux_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    kind: text().$type<AuxKind>().notNull(),
    code: text().notNull(),
    name: text().notNull(),
    /** A customer's or supplier's tax number, when known (matching invoices to it). */
    taxNo: text('tax_no').notNull().default(''),
    enabled: boolean().notNull().default(true),
  },
  (t) => [
    uniqueIndex('book_aux_items_code_uq').on(t.bookId, t.kind, t.code),
    tenantPolicy('book_aux_items_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * 期初余额 of a leaf account (and auxiliary item; 0 = none) at the start period: the balance on the
 * account's own side (negative when on the other), and this year's debit and credit before the start period
 * when the books start mid-year (本年累计).
 */
export const bookOpenings = pgTable(
  'book_openings',
  {
    agencyId: agencyRef(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => bookAccounts.id, { onDelete: 'cascade' }),
    auxItemId: integer('aux_item_id').notNull().default(0),
    balance: fen('balance'),
    ytdDebit: fen('ytd_debit'),
    ytdCredit: fen('ytd_credit'),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.accountId, t.auxItemId] }),
    tenantPolicy('book_openings_tenant', t.agencyId),
  ],
).enableRLS();

/** 凭证: 记-type vouchers numbered per book and period without gaps. */
export const vouchers = pgTable(
  'vouchers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    period: text().notNull(),
    word: text().notNull().default('记'),
    number: integer().notNull(),
    /** 凭证日期 YYYY-MM-DD, inside the period. */
    vdate: text().notNull(),
    attachments: smallint().notNull().default(0),
    /** The debit (= credit) total, fen. */
    total: fen('total'),
    review: text().$type<VoucherReview>().notNull().default('unreviewed'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    source: text().$type<VoucherSource>().notNull().default('manual'),
    /** What it was made from (e.g. the period-end transfer's kind, an invoice batch's key): '' for none. */
    sourceRef: text('source_ref').notNull().default(''),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('vouchers_number_uq').on(t.bookId, t.period, t.word, t.number),
    // Made once from its source: a proposal accepted twice, or a transfer rerun, is not a second voucher.
    uniqueIndex('vouchers_source_uq').on(t.bookId, t.period, t.source, t.sourceRef).where(sql`${t.sourceRef} <> ''`),
    index('vouchers_list_idx').on(t.agencyId, t.bookId, t.period, t.number, t.id),
    tenantPolicy('vouchers_tenant', t.agencyId),
  ],
).enableRLS();

/** A voucher's lines (分录): one side each, amounts in fen on a leaf account. */
export const voucherLines = pgTable(
  'voucher_lines',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    voucherId: integer('voucher_id')
      .notNull()
      .references(() => vouchers.id, { onDelete: 'cascade' }),
    bookId: integer('book_id').notNull(),
    period: text().notNull(),
    seq: smallint().notNull(),
    summary: text().notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => bookAccounts.id),
    auxItemId: integer('aux_item_id').notNull().default(0),
    debit: fen('debit'),
    credit: fen('credit'),
  },
  (t) => [
    index('voucher_lines_voucher_idx').on(t.voucherId, t.seq),
    // 明细账: an account's lines over a period range in voucher order.
    index('voucher_lines_account_idx').on(t.bookId, t.accountId, t.period, t.voucherId),
    tenantPolicy('voucher_lines_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * A leaf account's (and auxiliary item's) debit and credit in a period: written only by the voucher store,
 * in the same transaction as the lines, so 科目余额表 and the statements read this and never the lines.
 */
export const bookBalances = pgTable(
  'book_balances',
  {
    agencyId: agencyRef(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => bookAccounts.id, { onDelete: 'cascade' }),
    auxItemId: integer('aux_item_id').notNull().default(0),
    period: text().notNull(),
    debit: fen('debit'),
    credit: fen('credit'),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.accountId, t.auxItemId, t.period] }),
    index('book_balances_period_idx').on(t.bookId, t.period),
    tenantPolicy('book_balances_tenant', t.agencyId),
  ],
).enableRLS();

/** A closed period (结账): rows exist for closed periods; 反结账 removes the latest. */
export const bookCloses = pgTable(
  'book_closes',
  {
    agencyId: agencyRef(),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    period: text().notNull(),
    closedBy: integer('closed_by')
      .notNull()
      .references(() => users.id),
    closedAt: timestamp('closed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.period] }),
    // The portal's 本月记账: books closed for a month, per agency.
    index('book_closes_agency_period_idx').on(t.agencyId, t.period),
    tenantPolicy('book_closes_tenant', t.agencyId),
  ],
).enableRLS();

/** A template line: the account by code (so one template serves every book of the standard). */
export interface TemplateLine {
  summary: string;
  code: string;
  debit: number;
  credit: number;
}

/** 常用凭证: the agency's voucher templates. */
export const voucherTemplates = pgTable(
  'voucher_templates',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    name: text().notNull(),
    lines: jsonb().$type<TemplateLine[]>().notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('voucher_templates_agency_idx').on(t.agencyId, t.id),
    tenantPolicy('voucher_templates_tenant', t.agencyId),
  ],
).enableRLS();

/** The agency's rules that turn documents into proposed vouchers ('sales', 'purchase', 'payroll'). */
export const voucherRules = pgTable(
  'voucher_rules',
  {
    agencyId: agencyRef(),
    kind: text().notNull(),
    /** The rule set of that kind (shape in packages/shared/src/books.ts). */
    rules: jsonb().$type<Record<string, unknown>>().notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agencyId, t.kind] }), tenantPolicy('voucher_rules_tenant', t.agencyId)],
).enableRLS();

export type BookRunKind = 'close' | 'print';
export type BookRunState = 'running' | 'done' | 'stopped';

/** A batch over books: 批量结账 (busi/qmJz) or 批量打印. */
export const bookRuns = pgTable(
  'book_runs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text().$type<BookRunKind>().notNull(),
    period: text().notNull(),
    /** A print run's choices (what, periods, layout), a close run's options. */
    options: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    state: text().$type<BookRunState>().notNull().default('running'),
    totalNum: integer('total_num').notNull(),
    /** A finished print run's file (PDF or zip), kept for download. */
    fileName: text('file_name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('book_runs_agency_idx').on(t.agencyId, t.kind, t.id), tenantPolicy('book_runs_tenant', t.agencyId)],
).enableRLS();

export type BookRunClientState = 'ok' | 'failed';

/** A run's books: state null while pending; the refusal's reason per client. */
export const bookRunClients = pgTable(
  'book_run_clients',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    runId: integer('run_id')
      .notNull()
      .references(() => bookRuns.id, { onDelete: 'cascade' }),
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    state: text().$type<BookRunClientState>(),
    msg: text().notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('book_run_clients_run_book_uq').on(t.runId, t.bookId),
    index('book_run_clients_pending_idx').on(t.runId).where(sql`${t.state} is null`),
    tenantPolicy('book_run_clients_tenant', t.agencyId),
  ],
).enableRLS();
