import { sql } from 'drizzle-orm';
import {
  bigint,
  date,
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

// Money is integer fen (1 yuan = 100 fen) everywhere: exact, and summed without floating point.
const fen = (name: string) => bigint(name, { mode: 'number' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Service items an agency sells (记账, 报税, 工资 ...), bundled into templates and contracts. */
export const serviceItems = pgTable(
  'service_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    serviceName: text('service_name').notNull(),
    serviceBriName: text('service_bri_name').notNull().default(''),
    /** The job type, which colours the item wherever it is shown (dictionary in shared/contract.ts). */
    jobType: text('job_type').notNull(),
    priceFen: fen('price_fen').notNull().default(0),
    /** service_static: '1' enabled, '0' disabled. */
    serviceStatic: text('service_static').$type<'0' | '1'>().notNull().default('1'),
    sort: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('service_items_agency_name_uq').on(t.agencyId, t.serviceName),
    tenantPolicy('service_items_tenant', t.agencyId),
  ],
).enableRLS();

/** Contract templates (business.md §3): lines of service items with price, discount and now price. */
export const contractTemplates = pgTable(
  'contract_templates',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    tempName: text('temp_name').notNull(),
    tempIllustration: text('temp_illustration').notNull().default(''),
    /** Sum of the lines' nowPrice, computed on the server. */
    tempTotalPriceFen: fen('temp_total_price_fen').notNull().default(0),
    /** tempStatic: '1' on, '0' off. */
    tempStatic: text('temp_static').$type<'0' | '1'>().notNull().default('1'),
    /** The template's own settings have been configured ('1') or not (''), shown by the settings icon. */
    isVerifySet: text('is_verify_set').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contract_templates_agency_name_uq').on(t.agencyId, t.tempName),
    index('contract_templates_agency_created_idx').on(t.agencyId, t.createdAt, t.id),
    tenantPolicy('contract_templates_tenant', t.agencyId),
  ],
).enableRLS();

export const contractTemplateLines = pgTable(
  'contract_template_lines',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    templateId: integer('template_id')
      .notNull()
      .references(() => contractTemplates.id, { onDelete: 'cascade' }),
    sort: integer().notNull(),
    serviceId: integer('service_id')
      .notNull()
      .references(() => serviceItems.id),
    isGive: smallint('is_give').notNull().default(0),
    priceFen: fen('price_fen').notNull(),
    discountFen: fen('discount_fen').notNull().default(0),
    nowPriceFen: fen('now_price_fen').notNull(),
  },
  (t) => [
    index('contract_template_lines_tpl_idx').on(t.templateId, t.sort),
    tenantPolicy('contract_template_lines_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * Contracts signed with a client for a service period. htzt: '1' draft (待提交), '2' in force (执行中),
 * '3' terminated (已终止), '0' deleted (recoverable). Expiry is derived from end_date, not stored.
 */
export const contracts = pgTable(
  'contracts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    contractNo: text('contract_no').notNull(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    templateId: integer('template_id').references(() => contractTemplates.id, { onDelete: 'set null' }),
    /** The staff member the contract belongs to (contractUserId): data scope and special permissions. */
    contractUserId: integer('contract_user_id')
      .notNull()
      .references(() => users.id),
    htzt: text().$type<'0' | '1' | '2' | '3'>().notNull().default('1'),
    signDate: date('sign_date').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    /** Billing cycle in months: 1 monthly, 3 quarterly, 6 half-yearly, 12 yearly; 0 once for the whole term. */
    payCycle: smallint('pay_cycle').notNull().default(12),
    totalPriceFen: fen('total_price_fen').notNull(),
    discountFen: fen('discount_fen').notNull().default(0),
    /** What the client owes for the whole term: total price minus discount. */
    amountFen: fen('amount_fen').notNull(),
    remark: text().notNull().default(''),
    /** A renewal points at the contract it extends. */
    renewedFromId: integer('renewed_from_id'),
    endReason: text('end_reason').notNull().default(''),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contracts_agency_no_uq').on(t.agencyId, t.contractNo),
    index('contracts_agency_id_idx').on(t.agencyId, t.id),
    index('contracts_agency_ent_idx').on(t.agencyId, t.enterpriseId),
    index('contracts_agency_user_idx').on(t.agencyId, t.contractUserId),
    index('contracts_agency_end_idx').on(t.agencyId, t.endDate).where(sql`${t.htzt} = '2'`),
    tenantPolicy('contracts_tenant', t.agencyId),
  ],
).enableRLS();

/** The contract's own copy of its service lines (a later template change does not touch it). */
export const contractLines = pgTable(
  'contract_lines',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    sort: integer().notNull(),
    serviceId: integer('service_id').references(() => serviceItems.id, { onDelete: 'set null' }),
    serviceName: text('service_name').notNull(),
    jobType: text('job_type').notNull(),
    isGive: smallint('is_give').notNull().default(0),
    priceFen: fen('price_fen').notNull(),
    discountFen: fen('discount_fen').notNull().default(0),
    nowPriceFen: fen('now_price_fen').notNull(),
  },
  (t) => [
    index('contract_lines_contract_idx').on(t.contractId, t.sort),
    tenantPolicy('contract_lines_tenant', t.agencyId),
  ],
).enableRLS();

/** The last contract number handed out per agency and year (createContractNoNew: HT2026000123). */
export const contractNumbers = pgTable(
  'contract_numbers',
  {
    agencyId: agencyRef(),
    year: smallint().notNull(),
    lastNo: integer('last_no').notNull(),
  },
  (t) => [primaryKey({ columns: [t.agencyId, t.year] }), tenantPolicy('contract_numbers_tenant', t.agencyId)],
).enableRLS();

/**
 * A contract's receivable schedule (应收): one row per billing period with what is due and what has been
 * paid so far (kept equal to the sum of the period's live charges in the same transaction).
 */
export const receivables = pgTable(
  'receivables',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    periodNo: smallint('period_no').notNull(),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    /** The day the period's fee is due (its first day). */
    dueDate: date('due_date').notNull(),
    amountFen: fen('amount_fen').notNull(),
    paidFen: fen('paid_fen').notNull().default(0),
  },
  (t) => [
    uniqueIndex('receivables_contract_period_uq').on(t.contractId, t.periodNo),
    index('receivables_agency_due_id_idx').on(t.agencyId, t.dueDate, t.id),
    // 应收's default order: still owed first, then by due date (contract-fee.repo.ts receivableSort).
    index('receivables_agency_collect_idx').on(
      t.agencyId,
      sql`(case when ${t.paidFen} < ${t.amountFen} then 0 else 1 end)`,
      t.dueDate,
      t.id,
    ),
    index('receivables_agency_amount_idx').on(t.agencyId, t.amountFen, t.id),
    index('receivables_agency_paid_idx').on(t.agencyId, t.paidFen, t.id),
    index('receivables_agency_ent_idx').on(t.agencyId, t.enterpriseId),
    tenantPolicy('receivables_tenant', t.agencyId),
  ],
).enableRLS();

/** Payments received (收款记录) against one receivable period; a revoked charge keeps its row. */
export const charges = pgTable(
  'charges',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    receivableId: integer('receivable_id')
      .notNull()
      .references(() => receivables.id, { onDelete: 'cascade' }),
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    amountFen: fen('amount_fen').notNull(),
    payDate: date('pay_date').notNull(),
    /** Payment method: see PAY_METHODS in shared/contract-fee.ts. */
    payMethod: text('pay_method').notNull(),
    payer: text().notNull().default(''),
    receiptNo: text('receipt_no').notNull().default(''),
    remark: text().notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: integer('revoked_by').references(() => users.id),
  },
  (t) => [
    index('charges_agency_date_id_idx').on(t.agencyId, t.payDate, t.id),
    index('charges_agency_amount_idx').on(t.agencyId, t.amountFen, t.id),
    index('charges_agency_id_idx').on(t.agencyId, t.id),
    index('charges_receivable_idx').on(t.receivableId),
    // A receipt number is used by one live charge of the agency; a revoked charge frees it (slice 6c).
    uniqueIndex('charges_agency_receipt_uq')
      .on(t.agencyId, t.receiptNo)
      .where(sql`${t.receiptNo} <> '' and ${t.revokedAt} is null`),
    tenantPolicy('charges_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * Contract reminder settings per source ly (business.md §3): qf arrears, dq expiry, wyxht no valid
 * contract, each a level 0 off / 1 warn / 2 warn and block; qfyf arrears months and dqts days to expiry
 * as thresholds.
 */
export const contractReminderSettings = pgTable(
  'contract_reminder_settings',
  {
    agencyId: agencyRef(),
    ly: text().notNull(),
    qf: smallint().notNull().default(0),
    dq: smallint().notNull().default(0),
    wyxht: smallint().notNull().default(0),
    qfyf: smallint().notNull().default(1),
    dqts: smallint().notNull().default(30),
  },
  (t) => [primaryKey({ columns: [t.agencyId, t.ly] }), tenantPolicy('contract_reminder_settings_tenant', t.agencyId)],
).enableRLS();

/**
 * Special permissions per area (business.md §6-§7: htsz contracts, khsz customers, htsf fees, general):
 * whether a staff member may see and edit records belonging to others beyond their data scope.
 */
export const specialPermissions = pgTable(
  'special_permissions',
  {
    agencyId: agencyRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    area: text().$type<'htsz' | 'khsz' | 'htsf' | 'general'>().notNull(),
    /** 'view' see others' records, 'edit' see and change them. */
    level: text().$type<'view' | 'edit'>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.userId, t.area] }),
    tenantPolicy('special_permissions_tenant', t.agencyId),
  ],
).enableRLS();
