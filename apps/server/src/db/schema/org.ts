import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgPolicy,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { appRole, currentAgency, currentUser, tenantPolicy } from './tenancy.js';
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
    /** Scale and accountant-count options 1-5 of the create-agency form. */
    scale: smallint(),
    staffNum: smallint('staff_num'),
    link: text().notNull().default(''),
    linkPhone: text('link_phone').notNull().default(''),
    /** quitSet: '1' members may leave by themselves, '0' only an administrator removes them. */
    quitSet: text('quit_set').$type<'0' | '1'>().notNull().default('1'),
    /** The agency's paid-benefit status qyzt: '0' none, '1' active, '2' about to expire, '3' expired. */
    qyzt: text().notNull().default('1'),
    /** sfgxbzts: '1' once the administrator chose not to be reminded of the benefit status again. */
    sfgxbzts: text().notNull().default('0'),
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
    departmentId: integer('department_id').references((): AnyPgColumn => departments.id, { onDelete: 'set null' }),
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

/** The department tree of an agency; a department head sees the clients of their department and below. */
export const departments = pgTable(
  'departments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    parentId: integer('parent_id').references((): AnyPgColumn => departments.id),
    name: text().notNull(),
    directorUserId: integer('director_user_id').references(() => users.id),
    sort: integer().notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('departments_agency_idx').on(t.agencyId), tenantPolicy('departments_tenant', t.agencyId)],
).enableRLS();

/** Agency roles: named sets of permission keys (the function-permission tree, gnqx). */
export const roles = pgTable(
  'roles',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    name: text().notNull(),
    remark: text().notNull().default(''),
    perms: text().array().notNull().default(sql`'{}'::text[]`),
    /** The role every new member gets; it cannot be deleted. */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_agency_name_uq').on(t.agencyId, t.name), tenantPolicy('roles_tenant', t.agencyId)],
).enableRLS();

/** Which roles a member holds; their permissions are the union. */
export const membershipRoles = pgTable(
  'membership_roles',
  {
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    membershipId: integer('membership_id')
      .notNull()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.membershipId, t.roleId] }), tenantPolicy('membership_roles_tenant', t.agencyId)],
).enableRLS();

/** Stations (岗位, job posts) such as 服务顾问; members are assigned to serve clients in a post. */
export const stations = pgTable(
  'stations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    name: text().notNull(),
    /** The post chosen for a new member (服务顾问). */
    isDefault: boolean('is_default').notNull().default(false),
    sort: integer().notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('stations_agency_name_uq').on(t.agencyId, t.name), tenantPolicy('stations_tenant', t.agencyId)],
).enableRLS();

export const stationMembers = pgTable(
  'station_members',
  {
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => stations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.stationId, t.userId] }), tenantPolicy('station_members_tenant', t.agencyId)],
).enableRLS();

/** Invitations to join an agency by phone. status: 0 待接受, 1 已接受, 2 已取消. */
export const invites = pgTable(
  'invites',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    phone: text().notNull(),
    hymc: text().notNull().default(''),
    inviterId: integer('inviter_id')
      .notNull()
      .references(() => users.id),
    role: smallint().notNull().default(0),
    departmentId: integer('department_id').references(() => departments.id, { onDelete: 'set null' }),
    status: smallint().notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [
    index('invites_agency_idx').on(t.agencyId, t.createdAt, t.id),
    index('invites_phone_idx').on(t.phone),
    // The invitee reads invitations to their own phone, from outside the agency.
    pgPolicy('invites_tenant', {
      to: appRole,
      for: 'all',
      using: sql`${t.agencyId} = ${currentAgency} or ${t.phone} = (select u.phone from users u where u.id = ${currentUser})`,
      withCheck: sql`${t.agencyId} = ${currentAgency}`,
    }),
  ],
).enableRLS();

/** Applications to open an agency, reviewed by a platform operator. status: 0 待审核, 1 已通过, 2 已驳回. */
export const agencyApplications = pgTable(
  'agency_applications',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    applicantId: integer('applicant_id')
      .notNull()
      .references(() => users.id),
    agencyName: text('agency_name').notNull(),
    agencyTax: text('agency_tax').notNull(),
    agencyType: text('agency_type').$type<'dls' | 'kd' | 'kjgc'>().notNull().default('dls'),
    sssf: text().notNull(),
    ssds: text().notNull(),
    ssqx: text().notNull(),
    address: text().notNull(),
    agencyScale: smallint('agency_scale').notNull(),
    staffNum: smallint('staff_num').notNull(),
    link: text().notNull().default(''),
    linkPhone: text('link_phone').notNull().default(''),
    status: smallint().notNull().default(0),
    reason: text().notNull().default(''),
    reviewerId: integer('reviewer_id').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    agencyId: integer('agency_id').references(() => organisations.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The review list's sorts (keyset paging): newest first, by status tab, by name.
    index('agency_applications_created_idx').on(t.createdAt, t.id),
    index('agency_applications_status_idx').on(t.status, t.createdAt, t.id),
    index('agency_applications_name_idx').on(t.agencyName, t.id),
  ],
);

/** Platform white-list orders switching features per agency or region (lbsjc, dljghdkjgcmenu, wsbsdt, kxdlmmjy). */
export const whitelistOrders = pgTable(
  'whitelist_orders',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    type: text().notNull(),
    busiVal: text('busi_val').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whitelist_orders_uq').on(t.type, t.busiVal),
    index('whitelist_orders_created_idx').on(t.createdAt, t.id),
  ],
);

/**
 * Paid features and how they are checked (business.md §6): iscontrol 'N' means free; with 'Y', an
 * agency in status 1 or 2 with anqyflag 'Y' may use it for every enterprise, otherwise only
 * enterprises whose qylb lists the menu id.
 */
export const equityMenus = pgTable('equity_menus', {
  menuid: integer().primaryKey(),
  title: text().notNull(),
  iscontrol: text().$type<'Y' | 'N'>().notNull().default('N'),
  anqyflag: text().$type<'Y' | 'N'>().notNull().default('Y'),
});
