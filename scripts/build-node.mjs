// Builds the server and the simulated bureau to plain JavaScript once (`npm start` runs these, not tsx):
// one ES module per program with the workspace's TypeScript bundled in and the npm packages left as
// imports. Each bundle sits at the depth of its src/ folder (apps/<app>/build/), so paths the code takes
// from import.meta (the repository root, migrations, the spreadsheet worker) resolve the same way.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  // Workspace packages are TypeScript sources: bundle them rather than leave them as imports.
  alias: {
    '@dzy/shared': resolve(root, 'packages/shared/src/index.ts'),
    '@dzy/pdf': resolve(root, 'packages/pdf/src/index.ts'),
  },
  sourcemap: 'linked',
  logLevel: 'warning',
  // A CommonJS dependency's require() inside the ES module bundle.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
};

async function program(app, entries, copy = []) {
  const out = resolve(root, 'apps', app, 'build');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const entryPoints = Object.fromEntries(
    Object.entries(entries).map(([name, src]) => [name, resolve(root, 'apps', app, src)]),
  );
  await build({ ...common, entryPoints, outdir: out, outExtension: { '.js': '.mjs' } });
  for (const [from, to] of copy) cpSync(resolve(root, 'apps', app, from), resolve(out, to), { recursive: true });
}

await program('server', { main: 'src/main.ts', seed: 'src/db/seed/cli.ts' }, [
  ['src/db/migrations', 'migrations'],
  ['src/modules/customer/xlsx-worker.mjs', 'xlsx-worker.mjs'],
]);
await program('tax-sim', { main: 'src/main.ts' });
console.log('built apps/server/build and apps/tax-sim/build');
