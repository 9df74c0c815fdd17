import { defineConfig } from 'drizzle-kit';

// Migrations are generated as plain SQL, committed, forward-only, and applied the same on PGlite and PostgreSQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
  entities: { roles: { provider: '' } },
});
