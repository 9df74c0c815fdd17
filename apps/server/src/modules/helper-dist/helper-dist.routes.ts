import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CODE,
  HELPER_DOWNLOAD_PREFIX,
  HELPER_MIN_VERSION,
  HELPER_VERSION,
  type HelperManifest,
  helperManifestSchema,
  helperVersionCall,
} from '@dzy/shared';
import { helperDistDir } from '../../helper-dist-dir.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';

export const HELPER_DIST_MSG = {
  noBuild: '该安装文件不存在，请联系管理员执行 npm run helper:dist 生成',
} as const;

/** The manifest `npm run helper:dist` wrote, or null when nothing was built (or it does not parse). */
export function readManifest(dir = helperDistDir()): HelperManifest | null {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) return null;
  try {
    const parsed = helperManifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The helper's upgrade path (issue 18 point 3): helper/version tells the helper and the 相关下载 page the
 * latest build, the oldest version accepted (older: the helper answers 900, the page shows 立即更新) and
 * each build's size and sha256; GET /api/helper/download/<file> serves a build named in the manifest
 * (nothing else in the folder). Both public: the helper asks without a session, and the builds are the
 * same for everyone.
 */
export const helperDistModule: ServerModule = {
  name: 'helper-dist',
  calls: [
    serve(helperVersionCall, async () => {
      const m = readManifest();
      return {
        version: m?.version ?? HELPER_VERSION,
        minVersion: HELPER_MIN_VERSION,
        builtAt: m?.builtAt ?? null,
        builds: m?.builds ?? [],
      };
    }),
  ],
  routes(app) {
    app.get(`${HELPER_DOWNLOAD_PREFIX}:file`, async (req, reply) => {
      const name = String((req.params as { file?: string }).file ?? '');
      const dir = helperDistDir();
      const build = readManifest(dir)?.builds.find((b) => b.file === name);
      const path = build ? join(dir, build.file) : '';
      if (!build || !existsSync(path) || statSync(path).size !== build.size) {
        throw new AppError(CODE.NOT_FOUND, HELPER_DIST_MSG.noBuild);
      }
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(build.size))
        .header('content-disposition', `attachment; filename="${build.file}"`)
        .header('x-checksum-sha256', build.sha256)
        .header('cache-control', 'no-cache')
        .send(createReadStream(path));
    });
  },
};
