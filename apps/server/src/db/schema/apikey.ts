import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { agencyRef } from './refs.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

const stamp = (name: string) => timestamp(name, { withTimezone: true });

/** API keys (issue 18 point 4): a program's bearer secret, stored as its SHA-256 only. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    name: text().notNull(),
    /** The secret's first characters, shown to tell keys apart. */
    prefix: text().notNull(),
    tokenHash: text('token_hash').notNull(),
    perms: text().array().notNull().default(sql`'{}'::text[]`),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
    expiresAt: stamp('expires_at'),
    /** Updated at most once a minute. */
    lastUsedAt: stamp('last_used_at'),
    revokedAt: stamp('revoked_at'),
    revokedBy: integer('revoked_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('api_keys_token_hash_uq').on(t.tokenHash),
    index('api_keys_agency_idx').on(t.agencyId, t.id),
    tenantPolicy('api_keys_tenant', t.agencyId),
  ],
).enableRLS();

/** Webhook endpoints: where an agency's events are sent, signed with `secret` (encrypted with SECRET_KEY). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    url: text().notNull(),
    events: text().array().notNull().default(sql`'{}'::text[]`),
    remark: text().notNull().default(''),
    secret: text().notNull(),
    enabled: boolean().notNull().default(true),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
    updatedAt: stamp('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_agency_idx').on(t.agencyId, t.id),
    tenantPolicy('webhook_endpoints_tenant', t.agencyId),
  ],
).enableRLS();

/**
 * The outbox and delivery log in one: a row per (event, endpoint), written in the transaction of the change,
 * sent by the job queue webhook.deliver. state: pending, retrying, success, failed.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: agencyRef(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    state: text().notNull().default('pending'),
    attempts: smallint().notNull().default(0),
    responseCode: integer('response_code'),
    durationMs: integer('duration_ms'),
    error: text().notNull().default(''),
    replayOf: integer('replay_of'),
    createdAt: stamp('created_at').notNull().defaultNow(),
    lastAttemptAt: stamp('last_attempt_at'),
    nextRetryAt: stamp('next_retry_at'),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_endpoint_state_idx').on(t.endpointId, t.state, t.id),
    index('webhook_deliveries_endpoint_agency_idx').on(t.endpointId, t.agencyId, t.id),
    tenantPolicy('webhook_deliveries_tenant', t.agencyId),
  ],
).enableRLS();
