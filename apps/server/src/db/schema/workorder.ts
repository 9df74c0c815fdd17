import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { contractLines, contracts, serviceItems } from './contract.js';
import { stations } from './org.js';
import { agencyRef, enterpriseRef } from './refs.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Work-order templates (工单模板): named, ordered steps; status '1' enabled, '0' disabled. */
export const workOrderTemplates = pgTable(
  'work_order_templates',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    name: text().notNull(),
    remark: text().notNull().default(''),
    status: text().$type<'0' | '1'>().notNull().default('1'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('work_order_templates_agency_name_uq').on(t.agencyId, t.name),
    tenantPolicy('work_order_templates_tenant', t.agencyId),
  ],
).enableRLS();

/** A template's steps in order: name, the station (岗位) whose member is the default assignee, expected days. */
export const workOrderTemplateSteps = pgTable(
  'work_order_template_steps',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    templateId: integer('template_id')
      .notNull()
      .references(() => workOrderTemplates.id, { onDelete: 'cascade' }),
    sort: integer().notNull(),
    name: text().notNull(),
    stationId: integer('station_id').references(() => stations.id, { onDelete: 'set null' }),
    days: integer().notNull(),
  },
  (t) => [
    index('work_order_template_steps_tpl_idx').on(t.templateId, t.sort),
    tenantPolicy('work_order_template_steps_tenant', t.agencyId),
  ],
).enableRLS();

/** Service items linked to a template: a contract line of the item starts a work order from it (one template per item). */
export const workOrderTemplateServices = pgTable(
  'work_order_template_services',
  {
    agencyId: agencyRef(),
    templateId: integer('template_id')
      .notNull()
      .references(() => workOrderTemplates.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => serviceItems.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.serviceId] }),
    uniqueIndex('work_order_template_services_service_uq').on(t.agencyId, t.serviceId),
    tenantPolicy('work_order_template_services_tenant', t.agencyId),
  ],
).enableRLS();

/** The last work-order number handed out per agency and day (GD + yyyyMMdd + 4 digits). */
export const workOrderNumbers = pgTable(
  'work_order_numbers',
  {
    agencyId: agencyRef(),
    day: text().notNull(),
    lastNo: integer('last_no').notNull(),
  },
  (t) => [primaryKey({ columns: [t.agencyId, t.day] }), tenantPolicy('work_order_numbers_tenant', t.agencyId)],
).enableRLS();

/** Work orders: state pending 待处理, doing 进行中, done 已完成, cancelled 已取消 (shared/workorder.ts). */
export const workOrders = pgTable(
  'work_orders',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    orderNo: text('order_no').notNull(),
    enterpriseId: enterpriseRef(),
    templateId: integer('template_id').references(() => workOrderTemplates.id, { onDelete: 'set null' }),
    /** The template's name when the order was made (kept when the template is renamed or deleted). */
    templateName: text('template_name').notNull(),
    contractId: integer('contract_id').references(() => contracts.id, { onDelete: 'set null' }),
    contractLineId: integer('contract_line_id').references(() => contractLines.id, { onDelete: 'set null' }),
    state: text().$type<'pending' | 'doing' | 'done' | 'cancelled'>().notNull().default('pending'),
    remark: text().notNull().default(''),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('work_orders_agency_no_uq').on(t.agencyId, t.orderNo),
    uniqueIndex('work_orders_line_uq').on(t.contractLineId).where(sql`${t.contractLineId} is not null`),
    index('work_orders_agency_id_idx').on(t.agencyId, t.id),
    index('work_orders_agency_state_idx').on(t.agencyId, t.state, t.id),
    index('work_orders_agency_ent_idx').on(t.agencyId, t.enterpriseId, t.id),
    tenantPolicy('work_orders_tenant', t.agencyId),
  ],
).enableRLS();

/** A work order's own copy of its steps: todo 未开始, doing 进行中 (the current one), done 已完成, cancelled 已取消. */
export const workOrderSteps = pgTable(
  'work_order_steps',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    workOrderId: integer('work_order_id')
      .notNull()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    sort: integer().notNull(),
    name: text().notNull(),
    stationName: text('station_name').notNull().default(''),
    assigneeId: integer('assignee_id').references(() => users.id),
    days: integer().notNull(),
    /** Set when the step becomes current: that day + days. */
    dueDate: date('due_date'),
    state: text().$type<'todo' | 'doing' | 'done' | 'cancelled'>().notNull().default('todo'),
    comment: text().notNull().default(''),
    doneBy: integer('done_by').references(() => users.id),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /** The overdue reminder went out (once per step). */
    overdueNotifiedAt: timestamp('overdue_notified_at', { withTimezone: true }),
  },
  (t) => [
    index('work_order_steps_order_idx').on(t.workOrderId, t.sort),
    index('work_order_steps_assignee_idx').on(t.agencyId, t.assigneeId, t.state),
    index('work_order_steps_due_idx').on(t.agencyId, t.dueDate).where(sql`${t.state} = 'doing'`),
    tenantPolicy('work_order_steps_tenant', t.agencyId),
  ],
).enableRLS();

/** Files attached to a step while it is handled (the customer attachments' kinds and storage). */
export const workOrderAttachments = pgTable(
  'work_order_attachments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    workOrderId: integer('work_order_id')
      .notNull()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    stepId: integer('step_id')
      .notNull()
      .references(() => workOrderSteps.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    storedName: text('stored_name').notNull(),
    mime: text().notNull(),
    size: integer().notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('work_order_attachments_step_idx').on(t.stepId),
    tenantPolicy('work_order_attachments_tenant', t.agencyId),
  ],
).enableRLS();
