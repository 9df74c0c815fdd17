import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgPolicy, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organisations } from './org.js';
import { appRole, currentUser, tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/**
 * Issue 19 points 3, 7, 8 (migration 0035). Dictionaries and the AI addresses are platform-wide: every
 * signed-in user reads them, only a platform operator writes. Phone settings and the AI whitelist are
 * per agency.
 */
const isOperator = sql`exists (select 1 from users u where u.id = app_user() and u.is_operator)`;
const signedIn = sql`${currentUser} is not null`;

const platformPolicies = (name: string) => [
  pgPolicy(`${name}_read`, { to: appRole, for: 'select', using: signedIn }),
  pgPolicy(`${name}_insert`, { to: appRole, for: 'insert', withCheck: isOperator }),
  pgPolicy(`${name}_update`, { to: appRole, for: 'update', using: isOperator, withCheck: isOperator }),
  pgPolicy(`${name}_delete`, { to: appRole, for: 'delete', using: isOperator }),
];

/** One table for every dictionary: type, code, label, sort, enabled. */
export const dictData = pgTable(
  'dict_data',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    dictType: text('dict_type').notNull(),
    typeName: text('type_name').notNull(),
    code: text().notNull(),
    label: text().notNull(),
    sort: integer().notNull().default(0),
    enabled: boolean().notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dict_data_type_code_uq').on(t.dictType, t.code),
    index('dict_data_type_sort_idx').on(t.dictType, t.sort, t.id),
    ...platformPolicies('dict_data'),
  ],
).enableRLS();

/** The AI knowledge address per region code (province, city or county; '' = nationwide default). */
export const aqUrls = pgTable(
  'aq_urls',
  {
    regionCode: text('region_code').primaryKey(),
    url: text().notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  () => platformPolicies('aq_urls'),
).enableRLS();

/** Who sees full phone numbers in an agency (absent row: DEFAULT_PHONE_SETTING). */
export const phoneSettings = pgTable(
  'phone_settings',
  {
    agencyId: integer('agency_id')
      .primaryKey()
      .references(() => organisations.id),
    staffPhone: text('staff_phone').$type<'all' | 'admin'>().notNull().default('admin'),
    clientPhone: text('client_phone').$type<'all' | 'admin'>().notNull().default('all'),
    userIds: integer('user_ids').array().notNull().default(sql`'{}'::integer[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [tenantPolicy('phone_settings_tenant', t.agencyId)],
).enableRLS();

/** The AI knowledge service's whitelist: members of an agency enabled for it (user/whiteList/save). */
export const aiWhitelist = pgTable(
  'ai_whitelist',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    phone: text().notNull(),
    orderNo: text('order_no').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ai_whitelist_agency_user_uq').on(t.agencyId, t.userId),
    tenantPolicy('ai_whitelist_tenant', t.agencyId),
  ],
).enableRLS();
