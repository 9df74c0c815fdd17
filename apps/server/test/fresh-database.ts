import pg from 'pg';

/**
 * A new database on the PostgreSQL server of `adminUrl`, and the way to drop it again: empty, or a copy of
 * `template` (a prepared database of test/template.ts; the copy needs nobody connected to it, which the
 * template's ALLOW_CONNECTIONS false ensures).
 */
export async function freshDatabase(adminUrl: string, prefix: string, template?: string) {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
