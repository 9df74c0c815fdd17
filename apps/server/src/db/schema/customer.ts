import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { organisations } from './org.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/** Customer grades of an agency (a dictionary the agency edits). */
export const grades = pgTable(
  'grades',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    name: text().notNull(),
    sort: integer().notNull().default(0),
  },
  (t) => [uniqueIndex('grades_agency_name_uq').on(t.agencyId, t.name), tenantPolicy('grades_tenant', t.agencyId)],
).enableRLS();

/**
 * Client enterprises in an agency's book (business.md §3 Enterprise). Credentials are stored
 * encrypted (AES-256-GCM, columns ending _enc) and only ever sent back masked.
 */
export const enterprises = pgTable(
  'enterprises',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    qymc: text().notNull(),
    qysh: text().notNull().default(''),
    qybm: text().notNull().default(''),
    qyxz: text().$type<'0' | '1'>().notNull().default('1'),
    fjh: text().notNull().default(''),
    sssf: text().notNull().default(''),
    ssds: text().notNull().default(''),
    ssqx: text().notNull().default(''),
    address: text().notNull().default(''),
    remark: text().notNull().default(''),
    gradeId: integer('grade_id').references(() => grades.id, { onDelete: 'set null' }),
    allocateUser: integer('allocate_user').references(() => users.id),
    /** '1' in service, '0' service stopped. */
    serviceStatus: text('service_status').$type<'0' | '1'>().notNull().default('1'),
    /** Membership grade hydj_real (1, 2, 3, 8, 41) and its expiry hydqsj. */
    hydjReal: smallint('hydj_real'),
    hydqsj: date(),
    /** Benefit status qyzt: '0' none, '1' active, '2' about to expire, '3' expired. */
    qyzt: text().notNull().default('0'),
    /** Menu ids the enterprise has rights to, as ',id,id,'. */
    qylb: text().notNull().default(''),
    xdzswjDlzh: text('xdzswj_dlzh').notNull().default(''),
    xdzswjPassEnc: text('xdzswj_pass_enc').notNull().default(''),
    xdzswjSfbm: text('xdzswj_sfbm').notNull().default(''),
    dlfs: text().notNull().default(''),
    dlId: text('dl_id').notNull().default(''),
    dlPasswordEnc: text('dl_password_enc').notNull().default(''),
    reportPasswordEnc: text('report_password_enc').notNull().default(''),
    agentLoginAccount: text('agent_login_account').notNull().default(''),
    agentLoginPasswordEnc: text('agent_login_password_enc').notNull().default(''),
    agentLoginQysh: text('agent_login_qysh').notNull().default(''),
    loginType: text('login_type').notNull().default(''),
    /** The stored tax-bureau verification status ('4' after a name/password mismatch). */
    isVerifySet: text('is_verify_set').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** In the recycle bin since; null when in the book. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('enterprises_agency_idx').on(t.agencyId, t.id),
    // The book lists the agency's active enterprises: this index holds just those, in id order.
    index('enterprises_agency_active_idx').on(t.agencyId, t.id).where(sql`${t.deletedAt} is null`),
    index('enterprises_agency_user_idx').on(t.agencyId, t.allocateUser, t.id),
    index('enterprises_agency_name_id_idx').on(t.agencyId, t.qymc, t.id).where(sql`${t.deletedAt} is null`),
    index('enterprises_agency_deleted_idx').on(t.agencyId, t.deletedAt, t.id).where(sql`${t.deletedAt} is not null`),
    // The keyword search (`ilike '%…%'` on name or tax number, any part): trigram indexes (pg_trgm).
    index('enterprises_qymc_trgm_idx').using('gin', t.qymc.op('gin_trgm_ops')),
    index('enterprises_qysh_trgm_idx').using('gin', t.qysh.op('gin_trgm_ops')),
    uniqueIndex('enterprises_agency_qysh_uq').on(t.agencyId, t.qysh).where(sql`${t.qysh} <> ''`),
    tenantPolicy('enterprises_tenant', t.agencyId),
  ],
).enableRLS();

export const enterpriseContacts = pgTable(
  'enterprise_contacts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    position: text().notNull().default(''),
    mobile: text().notNull().default(''),
    landline: text().notNull().default(''),
    email: text().notNull().default(''),
    isPrimary: boolean('is_primary').notNull().default(false),
  },
  (t) => [
    index('enterprise_contacts_ent_idx').on(t.enterpriseId),
    tenantPolicy('enterprise_contacts_tenant', t.agencyId),
  ],
).enableRLS();

export const enterpriseShareholders = pgTable(
  'enterprise_shareholders',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** Share in percent, exact (numeric 5,2). */
    share: numeric({ precision: 5, scale: 2 }).notNull(),
  },
  (t) => [
    index('enterprise_shareholders_ent_idx').on(t.enterpriseId),
    tenantPolicy('enterprise_shareholders_tenant', t.agencyId),
  ],
).enableRLS();

/** Files attached to an enterprise; stored on disk under DATA_DIR by default. */
export const enterpriseAttachments = pgTable(
  'enterprise_attachments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    storedName: text('stored_name').notNull(),
    mime: text().notNull(),
    size: integer().notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('enterprise_attachments_ent_idx').on(t.enterpriseId),
    tenantPolicy('enterprise_attachments_tenant', t.agencyId),
  ],
).enableRLS();

export const labels = pgTable(
  'labels',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    name: text().notNull(),
    color: text().notNull().default('blue'),
  },
  (t) => [uniqueIndex('labels_agency_name_uq').on(t.agencyId, t.name), tenantPolicy('labels_tenant', t.agencyId)],
).enableRLS();

export const enterpriseLabels = pgTable(
  'enterprise_labels',
  {
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    labelId: integer('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.enterpriseId, t.labelId] }),
    index('enterprise_labels_label_idx').on(t.labelId),
    tenantPolicy('enterprise_labels_tenant', t.agencyId),
  ],
).enableRLS();

/** Notes on an enterprise (user/note/*); `concern` marks one the author follows. */
export const notes = pgTable(
  'notes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    content: text().notNull(),
    concern: boolean().notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The list's order: concerned first, newest first (keyset paging).
    index('notes_ent_concern_idx').on(t.enterpriseId, t.concern, t.createdAt, t.id),
    tenantPolicy('notes_tenant', t.agencyId),
  ],
).enableRLS();

/** Access tracking (esLog): who opened which enterprise in which product area (cpbm). */
export const accessLog = pgTable(
  'access_log',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    enterpriseId: integer('enterprise_id').references(() => enterprises.id, { onDelete: 'set null' }),
    cpbm: text().notNull(),
    qysh: text().notNull().default(''),
    qymc: text().notNull().default(''),
    sssf: text().notNull().default(''),
    ssds: text().notNull().default(''),
    ssqx: text().notNull().default(''),
    qyxz: text().notNull().default(''),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('access_log_agency_at_idx').on(t.agencyId, t.at), tenantPolicy('access_log_tenant', t.agencyId)],
).enableRLS();

/** A user's remembered last query per page (user/userLastQuery/getMemory, updateMemory). */
export const userLastQuery = pgTable(
  'user_last_query',
  {
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    pageKey: text('page_key').notNull(),
    query: jsonb().$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.userId, t.pageKey] }),
    tenantPolicy('user_last_query_tenant', t.agencyId),
  ],
).enableRLS();
