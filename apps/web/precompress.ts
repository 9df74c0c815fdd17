import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; smaller ones fit in a packet anyway. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside each text file of the build,
 * once, so the server sends them as they are (apps/server/src/plugins/web-static.ts) instead of compressing
 * on every request. A variant that would not be smaller is left out.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'dzy-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (file) => {
          const raw = await readFile(file);
          if (raw.length < MIN_BYTES) return;
          const [br, gzipped] = await Promise.all([
            brotli(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gz(raw, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < raw.length) await writeFile(`${file}.br`, br);
          if (gzipped.length < raw.length) await writeFile(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}
