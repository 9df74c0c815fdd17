import { randomBytes } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AVATAR_FIELD, AVATAR_MAX_BYTES, AVATAR_MSG, AVATAR_UPLOAD_PATH, CODE, MSG } from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { inScope } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { resolveSession, scopeOf } from '../../plugins/session.js';

/** Avatars are served from here and from nowhere else. */
export const AVATAR_URL_PREFIX = '/api/files/avatar/';
const NAME_RE = /^[0-9a-f]{32}\.(png|jpg|webp)$/;
const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/** The image kind by its first bytes (the name and the declared type are the sender's word, not the file's). */
export function sniffImage(buf: Buffer): 'png' | 'jpg' | 'webp' | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  return null;
}

const tooLarge = (err: unknown) =>
  (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || (err as { code?: string }).code === 'FST_FILES_LIMIT';

/**
 * POST /api/user/v1.0/userinfo/uploadIconInfo (multipart, field `file`) and GET /api/files/avatar/<name>.
 * Multipart parsing is registered only inside this plugin's scope: every other route still takes JSON only.
 */
export function avatarRoutes(app: FastifyInstance, deps: Deps) {
  const avatarDir = () => resolve(deps.config.dataDir, 'uploads', 'avatars');

  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5, headerPairs: 50 },
    });

    scope.post(`/api/${AVATAR_UPLOAD_PATH}`, async (req, reply) => {
      const session = await resolveSession(deps.db.app, req);
      if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
      if (!req.isMultipart()) throw new AppError(CODE.BAD_REQUEST, AVATAR_MSG.missing);
      let buf: Buffer;
      try {
        const part = await req.file();
        if (!part || part.fieldname !== AVATAR_FIELD) throw new AppError(CODE.BAD_REQUEST, AVATAR_MSG.missing);
        buf = await part.toBuffer();
      } catch (err) {
        if (tooLarge(err)) throw new AppError(CODE.TOO_LARGE, AVATAR_MSG.tooLarge);
        if (err instanceof AppError) throw err;
        throw new AppError(CODE.BAD_REQUEST, AVATAR_MSG.missing);
      }
      const kind = sniffImage(buf);
      if (!kind) throw new AppError(CODE.BAD_REQUEST, AVATAR_MSG.badType);

      const name = `${randomBytes(16).toString('hex')}.${kind}`;
      const dir = avatarDir();
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), buf, { mode: 0o640 });
      const url = `${AVATAR_URL_PREFIX}${name}`;
      let previous = '';
      try {
        previous = await inScope(deps.db.app, scopeOf(session), async (tx) => {
          const [before] = await tx.select({ headimg: users.headimg }).from(users).where(eq(users.id, session.userId));
          await tx.update(users).set({ headimg: url }).where(eq(users.id, session.userId));
          await audit(tx, req, session, 'account.avatar_upload', name, { bytes: buf.length, kind });
          return before?.headimg ?? '';
        });
      } catch (err) {
        await unlink(join(dir, name)).catch(() => undefined);
        throw err;
      }
      // The old picture is no longer anyone's: remove it (best effort).
      const old = previous.startsWith(AVATAR_URL_PREFIX) ? previous.slice(AVATAR_URL_PREFIX.length) : '';
      if (NAME_RE.test(old)) await unlink(join(dir, old)).catch(() => undefined);
      return reply.send({ code: CODE.OK, msg: MSG.ok, data: { headimg: url } });
    });
  });

  // Only names this server made are served, only from the avatar folder: no path can leave it.
  app.get<{ Params: { name: string } }>(`${AVATAR_URL_PREFIX}:name`, async (req, reply) => {
    const session = await resolveSession(deps.db.app, req);
    if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
    const name = req.params.name;
    const kind = NAME_RE.exec(name)?.[1];
    if (!kind) throw new AppError(CODE.NOT_FOUND, '图片不存在');
    const file = await readFile(join(avatarDir(), name)).catch(() => null);
    if (!file) throw new AppError(CODE.NOT_FOUND, '图片不存在');
    return reply
      .header('content-type', MIME[kind] ?? 'application/octet-stream')
      .header('cache-control', 'private, max-age=86400, immutable')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(file);
  });
}
