import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Versioned by a content hash in the name: a file there never changes, so a browser may keep it for good. */
const HASHED_DIR = 'assets';
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, favicon.svg): kept, but asked for again each time (a 304 when unchanged). */
export const REVALIDATE = 'no-cache';

/**
 * The built web client (apps/web's Vite build) at /. The build writes a brotli `.br` and a gzip `.gz` beside
 * each text file (apps/web/precompress.ts): the server sends the one the browser accepts, as it is, with
 * Vary: Accept-Encoding, and falls back to the plain file. ETag and Last-Modified come from the file sent.
 */
export async function registerWebStatic(app: FastifyInstance, webDist: string): Promise<void> {
  if (!existsSync(webDist)) {
    app.log.warn({ webDist }, 'web client not built: run npm run build -w @dzy/web');
    return;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    preCompressed: true,
    // send's own header would say max-age=0 and override ours.
    cacheControl: false,
    setHeaders(res, path) {
      const inDist = relative(webDist, path);
      res.setHeader('cache-control', inDist.startsWith(HASHED_DIR + sep) ? IMMUTABLE : REVALIDATE);
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
}
