import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgPolicy,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { appRole, currentAgency, currentUser } from './tenancy.js';
import { users } from './user.js';

/** Organisations are the tenants: agencies (dls, kd) and accounting factories (kjgc) bound to one. */
export const organisations = pgTable(
  'organisations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgType: text('org_type').$type<'dls' | 'kd' | 'kjgc'>().notNull(),
    name: text().notNull(),
    taxNo: text('tax_no').notNull(),
    sssf: text().notNull().default(''),
    ssds: text().notNull().default(''),
    ssqx: text().notNull().default(''),
    address: text().notNull().default(''),
    /** For kjgc: the agency it works for; it acts with this agency's id. */
    kjgcDlsId: integer('kjgc_dls_id').references((): AnyPgColumn => organisations.id),
    /** Licensed customers and ledgers; null is unlimited. */
    licenceCustomers: integer('licence_customers'),
    licenceLedgers: integer('licence_ledgers'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('org_type_valid', sql`${t.orgType} in ('dls', 'kd', 'kjgc')`),
    uniqueIndex('organisations_name_uq').on(t.name),
  ],
);

/** A user's place in an organisation. agency_id is the tenant (for a kjgc, its bound agency). */
export const memberships = pgTable(
  'memberships',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    orgId: integer('org_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** 0 部门员工, 1 代理所管理员, 2 部门负责人. */
    role: smallint().notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('memberships_org_user_uq').on(t.orgId, t.userId),
    index('memberships_user_idx').on(t.userId),
    index('memberships_agency_idx').on(t.agencyId),
    check('membership_role_valid', sql`${t.role} in (0, 1, 2)`),
    // A user sees their own memberships in any tenant (to list and switch organisations).
    pgPolicy('memberships_tenant', {
      to: appRole,
      for: 'all',
      using: sql`${t.agencyId} = ${currentAgency} or ${t.userId} = ${currentUser}`,
      withCheck: sql`${t.agencyId} = ${currentAgency}`,
    }),
  ],
).enableRLS();
