import { sql } from 'drizzle-orm';
import type { Database } from './client.js';

/**
 * Loads what a fresh database connection reads on its first use of each table, before the server listens
 * (issue 30 point 4). A new PostgreSQL backend — and PGlite's app connection, a new embedded backend at
 * every start — builds each table's relation cache entry (columns, indexes, row-level security policies,
 * constraints) the first time a query names it, and reads the catalogue pages for it from disk; on PGlite
 * this runs in WebAssembly on the server's own thread. Measured with bench/first-calls.ts: see
 * docs/decisions/database-scale.md. One `select … limit 1` per table the app role may read: the policies
 * see no agency (no scope is set), so each is an empty index probe that returns nothing.
 */
export async function warmUp(db: Database): Promise<{ tables: number; ms: number }> {
  const t0 = performance.now();
  const res = (await db.app.execute(sql`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and has_table_privilege(c.oid, 'select')
    order by c.relname`)) as unknown as { rows: { name: string }[] };
  let tables = 0;
  // PostgreSQL: a few connections of the pool at once (each backend has its own caches); PGlite has one.
  const lanes = db.kind === 'postgres' ? 3 : 1;
  const names = res.rows.map((r) => r.name);
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (const name of names) {
        try {
          await db.app.execute(sql`select 1 from ${sql.identifier(name)} limit 1`);
          tables++;
        } catch {
          // A table whose policies refuse a caller without scope outright: nothing to warm, nothing lost.
        }
      }
    }),
  );
  return { tables: tables / lanes, ms: performance.now() - t0 };
}
