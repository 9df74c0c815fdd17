import { sql } from 'drizzle-orm';
import { customType, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bookRuns, books } from './books.js';
import { agencyRef, enterpriseRef } from './refs.js';
import { tenantPolicy } from './tenancy.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export type BookPrintClientState = 'ok' | 'empty' | 'skipped' | 'failed';

/**
 * A print run's clients (book_runs kind 'print'): one row per client chosen, with or without a book, so that
 * every client gets its reason (未建账, 没有凭证, left out by the batch rule); state null while its job is
 * pending; the client's PDF kept until the run's download (the zip is built when downloaded, as the
 * receipts' zip is).
 */
export const bookPrintClients = pgTable(
  'book_print_clients',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    runId: integer('run_id')
      .notNull()
      .references(() => bookRuns.id, { onDelete: 'cascade' }),
    enterpriseId: enterpriseRef(),
    bookId: integer('book_id').references(() => books.id, { onDelete: 'set null' }),
    state: text().$type<BookPrintClientState>(),
    msg: text().notNull().default(''),
    pages: integer().notNull().default(0),
    pdf: bytea('pdf'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('book_print_clients_run_ent_uq').on(t.runId, t.enterpriseId),
    index('book_print_clients_pending_idx').on(t.runId).where(sql`${t.state} is null`),
    tenantPolicy('book_print_clients_tenant', t.agencyId),
  ],
).enableRLS();
