import { integer } from 'drizzle-orm/pg-core';
import { enterprises } from './customer.js';
import { organisations } from './org.js';

/** The owning agency of a tenant row (the column its tenant policy reads). */
export const agencyRef = () =>
  integer('agency_id')
    .notNull()
    .references(() => organisations.id);

/** The client a row belongs to; the row goes with the client. */
export const enterpriseRef = () =>
  integer('enterprise_id')
    .notNull()
    .references(() => enterprises.id, { onDelete: 'cascade' });
