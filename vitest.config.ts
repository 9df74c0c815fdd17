import { defineConfig } from 'vitest/config';

// `npm test` runs the unit/integration project, then the browser project against the built client.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          // The run's prepared database (migrations + demo seed once), copied by every file: test/template.ts.
          globalSetup: ['apps/server/test/global-setup.ts'],
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
          globalSetup: ['apps/server/test/global-setup.ts'],
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One file at a time: two at once on two cores made journeys miss 3-second toasts.
          fileParallelism: false,
        },
      },
    ],
  },
});
