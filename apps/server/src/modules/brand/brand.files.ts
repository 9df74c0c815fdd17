import { randomBytes } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  BRAND_FILE_URL_PREFIX,
  BRAND_LOGO_MAX_BYTES,
  BRAND_LOGO_NAME_RE,
  BRAND_LOGO_UPLOAD_PATH,
  BRAND_MSG,
  CODE,
  MSG,
} from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { inScope } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { resolveSession, scopeOf } from '../../plugins/session.js';
import { sniffImage } from '../account/avatar.routes.js';

const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };
const brandDir = (deps: Deps) => resolve(deps.config.dataDir, 'uploads', 'brand');

const tooLarge = (err: unknown) =>
  (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || (err as { code?: string }).code === 'FST_FILES_LIMIT';

/** Removes a stored logo (best effort): only names this server made. */
export async function removeBrandFile(deps: Deps, name: string) {
  if (BRAND_LOGO_NAME_RE.test(name)) await unlink(join(brandDir(deps), name)).catch(() => undefined);
}

/**
 * POST /api/brand/uploadLogo (multipart, field `file`; platform operator) stores a logo and answers its name,
 * which brand/save then names; GET /api/files/brand/<name> serves it to anyone (the sign-in page is public).
 */
export function brandFileRoutes(app: FastifyInstance, deps: Deps) {
  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: BRAND_LOGO_MAX_BYTES, files: 1, fields: 5, headerPairs: 50 },
    });
    scope.post(`/api/${BRAND_LOGO_UPLOAD_PATH}`, async (req, reply) => {
      const session = await resolveSession(deps.db.app, req);
      if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
      if (!session.isOperator) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
      if (!req.isMultipart()) throw new AppError(CODE.BAD_REQUEST, BRAND_MSG.logoMissing);
      let buf: Buffer;
      try {
        const part = await req.file();
        if (!part) throw new AppError(CODE.BAD_REQUEST, BRAND_MSG.logoMissing);
        if (part.fieldname !== 'file') throw new AppError(CODE.BAD_REQUEST, BRAND_MSG.logoMissing);
        buf = await part.toBuffer();
      } catch (err) {
        if (tooLarge(err)) throw new AppError(CODE.TOO_LARGE, BRAND_MSG.logoTooLarge);
        if (err instanceof AppError) throw err;
        throw new AppError(CODE.BAD_REQUEST, BRAND_MSG.logoMissing);
      }
      const kind = sniffImage(buf);
      if (!kind) throw new AppError(CODE.BAD_REQUEST, BRAND_MSG.logoType);
      const name = `${randomBytes(16).toString('hex')}.${kind}`;
      const dir = brandDir(deps);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), buf, { mode: 0o640 });
      await inScope(deps.db.app, scopeOf(session), (tx) =>
        audit(tx, req, session, 'brand.logo_upload', name, { bytes: buf.length, kind }),
      );
      return reply.send({ code: CODE.OK, msg: MSG.ok, data: { file: name, url: `${BRAND_FILE_URL_PREFIX}${name}` } });
    });
  });

  app.get<{ Params: { name: string } }>(`${BRAND_FILE_URL_PREFIX}:name`, async (req, reply) => {
    const name = req.params.name;
    const kind = BRAND_LOGO_NAME_RE.exec(name)?.[1];
    if (!kind) throw new AppError(CODE.NOT_FOUND, '图片不存在');
    const file = await readFile(join(brandDir(deps), name)).catch(() => null);
    if (!file) throw new AppError(CODE.NOT_FOUND, '图片不存在');
    return reply
      .header('content-type', MIME[kind] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=86400, immutable')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(file);
  });
}
