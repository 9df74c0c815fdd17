import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  CODE,
  CONTENT_COVER_MAX_BYTES,
  CONTENT_FILES,
  CONTENT_MSG,
  CONTENT_STORED_RE,
  CONTENT_VIDEO_MAX_BYTES,
  contentFileUrl,
  hasPerm,
  MSG,
} from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import { eq, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inScope } from '../../db/client.js';
import { contentItems } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';

/** Content files live beside the product's other uploads: <dataDir>/uploads/content/<32 hex>.<ext>. */
const contentDir = (deps: Pick<Deps, 'config'>) => resolve(deps.config.dataDir, 'uploads', 'content');

export const fileUrl = contentFileUrl;

const MIME: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  jpg: 'image/jpeg',
  png: 'image/png',
};

/** Removes stored content files (after their rows changed or went). */
export async function removeContentFiles(deps: Pick<Deps, 'config'>, names: readonly string[]) {
  for (const n of names) if (CONTENT_STORED_RE.test(n)) await unlink(join(contentDir(deps), n)).catch(() => undefined);
}

/** The kind of a file by its first bytes: mp4 ('ftyp' box), webm (EBML), jpg, png. */
export function sniffContent(head: Buffer): 'mp4' | 'webm' | 'jpg' | 'png' | null {
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') return 'mp4';
  if (head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) return 'webm';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  return null;
}

async function signedIn(deps: Deps, req: FastifyRequest): Promise<SessionCtx> {
  const session = await resolveSession(deps.db.app, req);
  if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
  return session;
}

/** Parses `Range: bytes=a-b` for a file of `size` bytes: null for the whole file, 'bad' when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'bad';
  let start: number;
  let end: number;
  if (m[1] === '') {
    // The last N bytes.
    const n = Number(m[2]);
    if (n === 0) return 'bad';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'bad';
  return { start, end };
}

/**
 * The operator's upload (a video or a cover, field `file`, query kind=video|cover), streamed to disk within
 * its size limit and checked by its bytes; and the download every signed-in user plays from, with HTTP
 * ranges so that a browser's <video> can seek.
 */
export function contentFileRoutes(app: FastifyInstance, deps: Deps) {
  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: CONTENT_VIDEO_MAX_BYTES, files: 1, fields: 2, headerPairs: 50, parts: 3 },
    });

    scope.post<{ Querystring: { kind?: string } }>(`/api/${CONTENT_FILES.upload}`, async (req) => {
      const session = await signedIn(deps, req);
      if (!hasPerm(session.perms, 'platform:content:edit') || !session.isOperator) {
        throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
      }
      const kind = req.query.kind === 'cover' ? 'cover' : 'video';
      const max = kind === 'cover' ? CONTENT_COVER_MAX_BYTES : CONTENT_VIDEO_MAX_BYTES;
      const tooLarge = kind === 'cover' ? CONTENT_MSG.coverTooLarge : CONTENT_MSG.videoTooLarge;
      if (!req.isMultipart()) throw new AppError(CODE.BAD_REQUEST, CONTENT_MSG.noFile);
      const dir = contentDir(deps);
      await mkdir(dir, { recursive: true });
      const tmp = join(dir, `${randomBytes(16).toString('hex')}.part`);
      let bytes = 0;
      try {
        const part = await req.file({ limits: { fileSize: max, files: 1 } });
        if (part?.fieldname !== 'file') throw new AppError(CODE.BAD_REQUEST, CONTENT_MSG.noFile);
        await pipeline(part.file, createWriteStream(tmp, { mode: 0o640 }));
        if (part.file.truncated) throw new AppError(CODE.TOO_LARGE, tooLarge);
        const fh = await open(tmp, 'r');
        const head = Buffer.alloc(16);
        try {
          ({ bytesRead: bytes } = await fh.read(head, 0, 16, 0));
        } finally {
          await fh.close();
        }
        const ext = sniffContent(head.subarray(0, bytes));
        const ok = kind === 'cover' ? ext === 'jpg' || ext === 'png' : ext === 'mp4' || ext === 'webm';
        if (!ext || !ok)
          throw new AppError(CODE.BAD_REQUEST, kind === 'cover' ? CONTENT_MSG.badCover : CONTENT_MSG.badVideo);
        const stored = `${randomBytes(16).toString('hex')}.${ext}`;
        await rename(tmp, join(dir, stored));
        const size = (await stat(join(dir, stored))).size;
        await inScope(deps.db.app, scopeOf(session), (tx) =>
          audit(tx, req, { agencyId: null, userId: session.userId }, 'content.upload', stored, {
            kind,
            fileName: part.filename.slice(-120),
            bytes: size,
          }),
        );
        return { code: CODE.OK, msg: MSG.ok, data: { file: stored, url: contentFileUrl(stored), size } };
      } catch (err) {
        await unlink(tmp).catch(() => undefined);
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
          throw new AppError(CODE.TOO_LARGE, tooLarge);
        }
        if (err instanceof AppError) throw err;
        throw new AppError(CODE.BAD_REQUEST, CONTENT_MSG.noFile);
      }
    });
  });

  app.get<{ Params: { name: string } }>(`/api/${CONTENT_FILES.file}/:name`, async (req, reply) => {
    const session = await signedIn(deps, req);
    const name = req.params.name;
    if (!CONTENT_STORED_RE.test(name)) throw new AppError(CODE.NOT_FOUND, CONTENT_MSG.notFound);
    // A reader gets the files of the items they can see (published); the operator any (a form's preview).
    if (!session.isOperator) {
      const [row] = await inScope(deps.db.app, scopeOf(session), (tx) =>
        tx
          .select({ id: contentItems.id })
          .from(contentItems)
          .where(or(eq(contentItems.videoFile, name), eq(contentItems.coverFile, name)))
          .limit(1),
      );
      if (!row) throw new AppError(CODE.NOT_FOUND, CONTENT_MSG.notFound);
    }
    const path = join(contentDir(deps), name);
    const st = await stat(path).catch(() => null);
    if (!st) throw new AppError(CODE.NOT_FOUND, CONTENT_MSG.notFound);
    const ext = name.slice(name.lastIndexOf('.') + 1);
    reply
      .header('content-type', MIME[ext] ?? 'application/octet-stream')
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'private, max-age=3600')
      .header('content-security-policy', "default-src 'none'; sandbox");
    const range = parseRange(req.headers.range, st.size);
    if (range === 'bad') {
      return reply.code(416).header('content-range', `bytes */${st.size}`).send();
    }
    if (range === null) {
      return reply.header('content-length', String(st.size)).send(createReadStream(path));
    }
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${st.size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(createReadStream(path, { start: range.start, end: range.end }));
  });
}
