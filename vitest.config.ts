import { defineConfig } from 'vitest/config';

// `npm test` runs the unit/integration project, then the browser project against the built client.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file has its own database; on two cores the default would run one file at a time.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two files at once: each has its own server, database and browser; most of a journey is waiting.
          maxWorkers: 2,
        },
      },
    ],
  },
});
