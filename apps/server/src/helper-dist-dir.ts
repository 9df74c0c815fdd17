import { resolve } from 'node:path';

/**
 * Where `npm run helper:dist` writes the helper's builds and manifest, which the server offers for
 * download: HELPER_DIST_DIR, else apps/helper/dist. This file sits at src/ depth so the path resolves
 * alike from the sources and from the built bundle (apps/server/build, see scripts/build-node.mjs).
 */
export function helperDistDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.HELPER_DIST_DIR ?? resolve(import.meta.dirname, '../../helper/dist'));
}
