import { defineConfig } from 'vitest/config';

// One root config for every workspace: `npx vitest run <path>` from the repository root.
export default defineConfig({
  test: {},
});
