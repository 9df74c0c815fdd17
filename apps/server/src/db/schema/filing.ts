import type { FilingTaxType } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { enterprises } from './customer.js';
import { organisations } from './org.js';
import { tenantPolicy } from './tenancy.js';

const agencyRef = () =>
  integer('agency_id')
    .notNull()
    .references(() => organisations.id);

/**
 * 申报设置 per client (user/ycs/SbqcSzSetting): the tax types the agency does not handle for it. An ignored
 * type leaves the filing roster, the overview and the missed-filing checks. No row: every type handled.
 */
export const enterpriseFilingSettings = pgTable(
  'enterprise_filing_settings',
  {
    agencyId: agencyRef(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id),
    ignoredTypes: text('ignored_types').array().$type<FilingTaxType[]>().notNull().default(sql`'{}'::text[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.enterpriseId] }),
    tenantPolicy('enterprise_filing_settings_tenant', t.agencyId),
  ],
).enableRLS();
