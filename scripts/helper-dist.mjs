// `npm run helper:dist`: the local helper 365基础服务 as a program to install (apps/helper/src/packaging/build.ts):
// the Linux single executable (Node SEA + postject), the Windows PowerShell installer carrying the one-file
// bundle, the install scripts registering dzyhelper://, and manifest.json (sizes, sha256) the server serves.
//   --out DIR        output (default apps/helper/dist, what the server offers; HELPER_DIST_DIR there too)
//   --origin URL,…   product origins the installed helper answers (default PUBLIC_URL or http://127.0.0.1:8080)
//   --bureau URL     e-tax bureau (default TAX_BUREAU_URL or http://127.0.0.1:8090)
//   --no-sea         skip the Linux single executable (quick; the bundle and Windows installer only)
//   --version X.Y.Z  version to stamp (default the helper's own)
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const { buildHelperDist } = await tsImport('../apps/helper/src/packaging/build.ts', import.meta.url);
const outDir = resolve(arg('out') ?? process.env.HELPER_DIST_DIR ?? resolve(root, 'apps/helper/dist'));
const origins = (arg('origin') ?? process.env.PUBLIC_URL ?? 'http://127.0.0.1:8080,http://localhost:8080')
  .split(',')
  .map((o) => o.trim())
  .filter(Boolean);
const manifest = await buildHelperDist({
  root,
  outDir,
  sea: !process.argv.includes('--no-sea'),
  origins,
  bureauUrl: arg('bureau') ?? process.env.TAX_BUREAU_URL ?? 'http://127.0.0.1:8090',
  ...(arg('version') ? { version: arg('version') } : {}),
});
console.log(`365基础服务 ${manifest.version} → ${outDir}`);
for (const b of manifest.builds)
  console.log(`  ${b.file}  ${(b.size / 1024 / 1024).toFixed(1)} MB  sha256 ${b.sha256}`);
