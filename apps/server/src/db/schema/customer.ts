import { sql } from 'drizzle-orm';
import { index, integer, pgPolicy, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organisations } from './org.js';
import { appRole, currentAgency } from './tenancy.js';
import { users } from './user.js';

/** Client enterprises in an agency's book (the client-book module extends this table). */
export const enterprises = pgTable(
  'enterprises',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    qymc: text().notNull(),
    qysh: text().notNull().default(''),
    qyxz: text().$type<'0' | '1'>().notNull().default('1'),
    sssf: text().notNull().default(''),
    ssds: text().notNull().default(''),
    ssqx: text().notNull().default(''),
    address: text().notNull().default(''),
    allocateUser: integer('allocate_user').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('enterprises_agency_idx').on(t.agencyId, t.id),
    uniqueIndex('enterprises_agency_qysh_uq').on(t.agencyId, t.qysh).where(sql`${t.qysh} <> ''`),
    pgPolicy('enterprises_tenant', {
      to: appRole,
      for: 'all',
      using: sql`${t.agencyId} = ${currentAgency}`,
      withCheck: sql`${t.agencyId} = ${currentAgency}`,
    }),
  ],
).enableRLS();
