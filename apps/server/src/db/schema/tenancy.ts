import { sql } from 'drizzle-orm';
import { type AnyPgColumn, pgPolicy, pgRole } from 'drizzle-orm/pg-core';

/**
 * The role every request runs as: not superuser, no BYPASSRLS. Created by the first migration.
 * Tenant tables admit only rows of the agency set in `app.agency_id` for the transaction.
 */
export const appRole = pgRole('dzy_app').existing();

/** The agency of the current transaction (set by the data layer), null when none is set. */
export const currentAgency = sql`app_agency()`;
/** The signed-in user of the current transaction, null when none is set. */
export const currentUser = sql`app_user()`;

/** The usual policy of a tenant table: rows of the transaction's agency only, for reading and writing. */
export const tenantPolicy = (name: string, agencyId: AnyPgColumn) =>
  pgPolicy(name, {
    to: appRole,
    for: 'all',
    using: sql`${agencyId} = ${currentAgency}`,
    withCheck: sql`${agencyId} = ${currentAgency}`,
  });
