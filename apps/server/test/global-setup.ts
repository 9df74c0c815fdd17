import { ensureTemplate } from './template.js';

/**
 * Vitest's global setup (vitest.config.ts, both projects): builds or finds the run's prepared database
 * once, before any worker starts, and pins it in the environment the workers inherit.
 */
export default async function setup() {
  if (process.env.DZY_TEST_NO_TEMPLATE === '1') return;
  const started = Date.now();
  const t = await ensureTemplate();
  const fresh = t.builtAt >= started;
  console.log(
    `test database template ${t.key} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): ${
      fresh ? `built in ${((Date.now() - started) / 1000).toFixed(1)} s` : 'reused'
    }`,
  );
}
