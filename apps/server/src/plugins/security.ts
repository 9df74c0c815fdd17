import { CODE, MSG } from '@dzy/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { SESSION_COOKIE } from './session.js';

/** The local helper (365基础服务) the browser calls on the user's own PC: first free of these ports. */
const HELPER_ORIGINS = [36501, 36502, 36503, 36504, 36505].map((p) => `http://127.0.0.1:${p}`).join(' ');

/**
 * The page may run only the product's own scripts (no inline script: index.html has none), talk to
 * this origin (calls, push) and the local helper, and frame the e-tax bureau's hall and trusted-login
 * pages (the configured bureau; the real one is served over https); antd writes inline styles, hence
 * 'unsafe-inline' for style only. Files the server sends set their own stricter policy.
 */
function contentSecurityPolicy(bureauOrigin: string) {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ws: wss: ${HELPER_ORIGINS}`,
    `frame-src 'self' https: ${bureauOrigin}`,
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A browser says where a request comes from: refuse a state-changing call sent by a page of another
 * site (cross-site request forgery; SameSite cookies are the first wall, this is the second). A request
 * without either header is judged by withoutProvenance.
 */
export function fromAnotherSite(req: FastifyRequest): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    // req.host is the Host header, or behind a trusted proxy the X-Forwarded-Host it passes on.
    return new URL(origin).host !== req.host;
  } catch {
    return true;
  }
}

/** A state-changing request riding on the session cookie that does not say where it comes from. */
export const ORIGIN_UNKNOWN_MSG = '无法确认请求来自本系统页面，已拒绝。请刷新页面后重试';

/**
 * A browser sends Origin on every POST/PUT/PATCH/DELETE (fetch and forms, same-origin included) and
 * Sec-Fetch-Site on every request: a state-changing request that carries the session cookie with neither
 * is not the product's page, so it is refused rather than trusted as same-site. A client with a bearer key
 * and no cookie is no browser and cannot be forged into sending one's cookie: it is not asked.
 */
export function withoutProvenance(req: FastifyRequest): boolean {
  if (!req.cookies[SESSION_COOKIE]) return false;
  return !req.headers.origin && !req.headers['sec-fetch-site'];
}

/** True when a string holds text no person typed: NUL, or half of a surrogate pair (broken emoji). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is this expression's purpose.
const INVALID_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether any string (or key) in a parsed JSON body holds invalid text. */
export function hasInvalidText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return INVALID_TEXT.test(value);
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => hasInvalidText(v, depth + 1));
  return Object.entries(value).some(([k, v]) => INVALID_TEXT.test(k) || hasInvalidText(v, depth + 1));
}

/** Security headers on every reply, and the two refusals every call shares, before any handler runs. */
export function registerSecurity(app: FastifyInstance, bureauUrl: string) {
  const csp = contentSecurityPolicy(new URL(bureauUrl).origin);
  app.addHook('onRequest', async (req) => {
    // Every state-changing request, whatever its URL: `/%61pi/…` reaches the same calls as `/api/…`.
    if (STATE_CHANGING.has(req.method)) {
      if (fromAnotherSite(req)) throw new AppError(CODE.NO_PERMISSION, MSG.crossSite);
      if (withoutProvenance(req)) throw new AppError(CODE.NO_PERMISSION, ORIGIN_UNKNOWN_MSG);
    }
    if (INVALID_TEXT.test(safeDecode(req.url))) throw new AppError(CODE.BAD_REQUEST, MSG.invalidText);
  });
  app.addHook('preHandler', async (req) => {
    if (hasInvalidText(req.body)) throw new AppError(CODE.BAD_REQUEST, MSG.invalidText);
  });
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    // Only over https (directly or, with TRUST_PROXY, as the proxy says): over plain http it would be ignored.
    if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
