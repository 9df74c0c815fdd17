import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Config } from '../config.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything queries can run on: the database or a transaction. */
export type Queryable = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  /** Runs as the non-superuser app role: row-level security applies. */
  app: Db;
  close(): Promise<void>;
}

const MIGRATIONS = resolve(import.meta.dirname, 'migrations');
const APP_ROLE = 'dzy_app';
/** PGlite's contrib extensions the migrations create (keyword search: trigram indexes); both connections load them. */
const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * Opens the database: migrates as the owner, then (for PGlite) hands over to the app role, and
 * calls `prepare` with the owner connection in between (first-start demo data, benchmarks).
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'appDatabaseUrl' | 'dataDir'> & Partial<Pick<Config, 'dbPoolMax'>>,
  prepare?: (owner: Db, kind: Database['kind']) => Promise<void>,
): Promise<Database> {
  if (config.databaseUrl) {
    const ownerPool = new pg.Pool({ connectionString: config.databaseUrl, max: 2 });
    survivesLostConnections(ownerPool);
    try {
      const owner = drizzleNodePg(ownerPool, { schema }) as unknown as Db;
      await migrateNodePg(owner as never, { migrationsFolder: MIGRATIONS });
      await prepare?.(owner, 'postgres');
    } finally {
      await ownerPool.end();
    }
    const appUrl = config.appDatabaseUrl ?? withUser(config.databaseUrl, APP_ROLE);
    const appPool = new pg.Pool({ connectionString: appUrl, max: config.dbPoolMax ?? 10 });
    survivesLostConnections(appPool);
    const app = drizzleNodePg(appPool, { schema }) as unknown as Db;
    await app.execute(sql`select 1`);
    return { kind: 'postgres', app, close: () => endPool(appPool) };
  }

  const dir = resolve(config.dataDir, 'pgdata');
  const ownerClient = await PGlite.create(dir, { extensions: PGLITE_EXTENSIONS });
  try {
    const owner = drizzlePglite(ownerClient, { schema }) as unknown as Db;
    await migratePglite(owner as never, { migrationsFolder: MIGRATIONS });
    await prepare?.(owner, 'pglite');
    // PGlite has no autovacuum: without fresh statistics the planner keeps plans made for empty
    // tables (cross products on the tenant filter; see bench/README.md, fee list). Refreshed at each start.
    await owner.execute(sql`analyze`);
  } finally {
    await ownerClient.close();
  }
  // PGlite is one embedded connection: reopen it as the app role so RLS applies to every query.
  const appClient = await PGlite.create(dir, { username: APP_ROLE, extensions: PGLITE_EXTENSIONS });
  const app = drizzlePglite(appClient, { schema }) as unknown as Db;
  return { kind: 'pglite', app, close: () => appClient.close() };
}

/**
 * A connection the server ends (restart, failover, pg_terminate_backend) emits 'error'; without a
 * listener that kills the process. The pool listens only while a client is idle, so every client
 * also gets its own listener for the time it is checked out: the query in flight fails (one request
 * answers an error), the broken client is not queryable any more and the pool drops it on release.
 */
function survivesLostConnections(pool: pg.Pool) {
  const lost = (err: Error) => console.warn(`database connection lost: ${err.message}`);
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
}

function withUser(url: string, user: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = process.env.APP_DATABASE_PASSWORD ?? '';
  return u.toString();
}

/** Who a transaction acts for: row-level security reads these. */
export interface Scope {
  agencyId: number | null;
  userId: number | null;
  /**
   * The accounting factory (会计工厂) the caller acts as, null for anyone else (an agency's session or key,
   * the operator, a public call, an agency's job). Required, so no caller can leave it out: a factory's
   * scope comes from `scopeOf(session)` (plugins/session.ts) or, in a job, from the job row.
   */
  kjgcId: number | null;
}

/**
 * What app.kjgc_id holds for "not a factory". A transaction where it is unset or empty sees no client
 * row at all (app_kjgc(), migration 0041: fail closed), so every scope states it.
 */
export const NOT_A_FACTORY = 'none';

/** The scope of work done for an agency itself (its jobs, the operator acting on it, system work). */
export const agencyScope = (agencyId: number | null, userId: number | null = null): Scope => ({
  agencyId,
  userId,
  kjgcId: null,
});

/** Runs `fn` in one transaction scoped to a tenant and user; everything it wrote is undone if it throws. */
export function inScope<T>(db: Db, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await setScope(tx, scope);
    return fn(tx);
  });
}

/** Sets who the rest of the transaction acts for (sign-in moves a public call into the new session's scope). */
export async function setScope(tx: Tx, scope: Scope) {
  await tx.execute(
    sql`select set_config('app.agency_id', ${scope.agencyId?.toString() ?? ''}, true), set_config('app.user_id', ${scope.userId?.toString() ?? ''}, true), set_config('app.kjgc_id', ${kjgcSetting(scope.kjgcId)}, true)`,
  );
}

/** The app.kjgc_id value of a factory id, or of "not a factory". */
export const kjgcSetting = (kjgcId: number | null) => (kjgcId === null ? NOT_A_FACTORY : String(kjgcId));

/**
 * Ends the pool, waiting at most `ms` for clients still checked out. pg's end() waits for every client to
 * be released; a client whose connection was cut in the middle of a job's lease can stay checked out, and
 * shutting down must not hang on it. The server closing the connection does the rest.
 */
async function endPool(pool: pg.Pool, ms = 5_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'late'>((ok) => {
    timer = setTimeout(() => ok('late'), ms);
  });
  const ended = await Promise.race([pool.end().then(() => 'ended' as const), gaveUp]);
  clearTimeout(timer);
  if (ended === 'late') {
    console.warn(`database pool: ${pool.totalCount - pool.idleCount} connection(s) still in use at shutdown`);
  }
}
