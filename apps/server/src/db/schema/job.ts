import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organisations } from './org.js';
import { tenantPolicy } from './tenancy.js';

/**
 * Background jobs (imports, batch checks). One row per unit of work with an idempotency key, so a
 * batch resumes after a crash without duplicates. state: queued, running, done, failed, cancelled.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    /**
     * The factory (会计工厂) that started the job, which runs limited to the clients handed over to it; null
     * for the agency's own. Taken from the enqueuing transaction's scope (migration 0041), never passed.
     */
    kjgcId: integer('kjgc_id')
      .references(() => organisations.id)
      .default(sql`nullif(app_kjgc(), 0)`),
    queue: text().notNull(),
    /** Unique per queue: e.g. `${batchId}:${enterpriseId}`. */
    key: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    state: text().notNull().default('queued'),
    attempts: smallint().notNull().default(0),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    /** A running job whose lease ran out is taken again (its worker died). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    progress: jsonb().$type<Record<string, unknown>>(),
    result: jsonb().$type<Record<string, unknown>>(),
    error: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('jobs_queue_key_uq').on(t.queue, t.key),
    index('jobs_ready_idx').on(t.state, t.runAfter),
    index('jobs_agency_idx').on(t.agencyId, t.queue, t.state),
    tenantPolicy('jobs_tenant', t.agencyId),
  ],
).enableRLS();
