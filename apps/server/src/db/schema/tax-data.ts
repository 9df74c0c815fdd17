import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { enterprises } from './customer.js';
import { organisations } from './org.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/**
 * The last live query of each tax data tab per enterprise (/declare/sjcx): the tab shows it, with its
 * time and parameters, until the next live query or a newer batch check. `tab` is one of
 * TAX_DATA_TABS; `params` the query's range (jkrqq/jkrqz, ssqq/ssqz, sbrqq/sbrqz, PjndList).
 */
export const taxDataQueries = pgTable(
  'tax_data_queries',
  {
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    tab: text().notNull(),
    params: jsonb().$type<Record<string, unknown>>().notNull(),
    result: jsonb().$type<Record<string, unknown>>().notNull(),
    userId: integer('user_id').references(() => users.id),
    queriedAt: timestamp('queried_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.enterpriseId, t.tab] }),
    index('tax_data_queries_ent_idx').on(t.enterpriseId),
    tenantPolicy('tax_data_queries_tenant', t.agencyId),
  ],
).enableRLS();
