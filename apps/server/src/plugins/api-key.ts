import { createHash } from 'node:crypto';
import {
  API_KEY_PREFIX,
  APIKEY_MSG,
  BOOK_FILES,
  BOOK_PRINT_FILES,
  BOOK_REPORT_FILES,
  type CallDef,
  CODE,
  CONTRACT_TEMPLATE_FILES,
  CUSTOMER_FILES,
  DATA_LIST_FILES,
  EVIDENCE_FILES,
  FEE_FILES,
  FILING_FILES,
  GRANTABLE_PERMS,
  INVITE_FILES,
  INVOICE_OUT_FILES,
  keyMayCall,
  MASTER_FILES,
  WO_FILES,
} from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setScope, type Tx } from '../db/client.js';
import { apiKeys, organisations, users } from '../db/schema/index.js';
import { audit } from '../lib/audit.js';
import { AppError } from './errors.js';
import type { SessionCtx } from './session.js';

/**
 * API keys as callers (issue 18 point 4, docs/decisions/auth.md): `Authorization: Bearer dzy_…`
 * acts for the key's agency, under the key's permissions (only ones a role may grant: never
 * administrator-only ones such as managing keys and webhooks, never the operator's), with the data
 * scope of the whole agency. Revoked, expired and unknown keys are no caller at all (登录超时).
 */

const LAST_USED_EVERY_MS = 60_000;
const GRANTABLE = new Set<string>(GRANTABLE_PERMS);

/** The length of a key's secret: the prefix and 32 random bytes in base64url (a session token is 43 long). */
export const API_KEY_LENGTH = API_KEY_PREFIX.length + 43;
export const isApiKeyToken = (token: string) => token.startsWith(API_KEY_PREFIX) && token.length === API_KEY_LENGTH;
export const hashApiKey = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A key is a program acting on its agency's business data, never a person (issue 26 point 1): it makes
 * only the calls `keyMayCall` (@dzy/shared) allows — guarded by a permission a key can hold, not about a
 * person — (plugins/calls.ts) and, besides the calls, only the plain routes below (plugins/session.ts).
 */
/**
 * The plain routes a key may use: the agency's business files (exports, downloads, uploads, import
 * templates and failure lists), each still behind its own permission. Not: the avatar, the third-party
 * callback, the push socket, 财税课堂 files, brand files, the helper download, the development outbox.
 * A new plain route is refused to keys until it is named here (fail closed).
 */
const KEY_FILE_PATHS = new Set<string>(
  [
    CUSTOMER_FILES,
    MASTER_FILES,
    INVITE_FILES,
    CONTRACT_TEMPLATE_FILES,
    FEE_FILES,
    WO_FILES,
    FILING_FILES,
    EVIDENCE_FILES,
    INVOICE_OUT_FILES,
    BOOK_FILES,
    BOOK_REPORT_FILES,
    BOOK_PRINT_FILES,
    DATA_LIST_FILES,
    // modules/audit-log's AUDIT_EXPORT_PATH (not imported: plugins come before modules)
    { auditExport: 'files/audit/export' },
  ].flatMap((o) => Object.values(o).map((p: string) => `/api/${p.replace(/^\//, '')}`)),
);

/** Whether a key may use the plain route registered at `url` (a Fastify pattern such as `/api/files/attachment/:id`). */
export const keyMayUseRoute = (url: string | undefined) =>
  url !== undefined && KEY_FILE_PATHS.has(url.replace(/\/:[^/]+$/, ''));

/** The bearer token of the Authorization header, or null: the only place a key is accepted. */
export function bearerOf(req: FastifyRequest): string | null {
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() || null : null;
}

/** Whether the request presents an API key (valid or not) as its caller. */
export const presentsApiKey = (req: FastifyRequest) => {
  const token = bearerOf(req);
  return token !== null && isApiKeyToken(token);
};

/**
 * The one gate for keys, before any handler, hook of a route or the session is read: a request that
 * presents a key reaches a call only if `keyMayCall` allows it, a plain route only if `keyMayUseRoute`
 * does, anything else (public calls, the push socket, the third-party callback...) is refused with 460.
 * The call pipeline checks calls again (plugins/calls.ts), as a second wall.
 */
export function registerKeyGate(app: FastifyInstance, calls: readonly { def: CallDef }[]) {
  const byUrl = new Map(calls.map(({ def }) => [`/api/${def.path}`, def]));
  app.addHook('onRequest', async (req) => {
    if (!presentsApiKey(req)) return;
    const url = req.routeOptions.url;
    if (url === undefined) return; // no such route: the 404 envelope
    const def = byUrl.get(url);
    if (def ? !keyMayCall(def) : !keyMayUseRoute(url)) throw new AppError(CODE.NO_PERMISSION, APIKEY_MSG.keyRefused);
  });
}

/**
 * The caller a key stands for, or null (unknown, revoked, expired). Leaves the transaction scoped to the
 * key's agency, acting as the key's creator (so that rows it writes name a person); the last-used time is
 * written at most once a minute, and that write is also the (sampled) audit of its use.
 */
export async function apiKeyIn(tx: Tx, req: FastifyRequest, token: string): Promise<SessionCtx | null> {
  const found = await tx.execute(sql`select id, agency_id from api_key_agency(${hashApiKey(token)})`);
  const hit = (found as unknown as { rows: { id: number; agency_id: number }[] }).rows[0];
  if (!hit) return null;
  const agencyId = Number(hit.agency_id);
  // Only the key's own rows are read before the scope below names the factory, if the key is one's.
  await setScope(tx, { agencyId, userId: null, kjgcId: null });
  const [row] = await tx
    .select({ k: apiKeys, u: users, o: organisations })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.createdBy))
    .innerJoin(organisations, eq(organisations.id, apiKeys.agencyId))
    .where(eq(apiKeys.id, Number(hit.id)))
    .limit(1);
  if (!row || row.k.revokedAt) return null;
  const now = Date.now();
  if (row.k.expiresAt && row.k.expiresAt.getTime() <= now) return null;
  // A factory's own key keeps the factory's limit to the clients handed over to it.
  const kjgcId = row.o.orgType === 'kjgc' ? row.o.id : null;
  await setScope(tx, { agencyId, userId: row.u.id, kjgcId });
  if (!row.k.lastUsedAt || now - row.k.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    await tx
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, row.k.id));
    await audit(tx, req, { agencyId, userId: row.u.id }, 'apikey.use', `apikey:${row.k.id}`, {
      name: row.k.name,
      path: req.url.slice(0, 200),
    });
  }
  return {
    sessionId: 0,
    apiKeyId: row.k.id,
    userId: row.u.id,
    phone: row.u.phone,
    hymc: `API 密钥「${row.k.name}」`,
    zw: '',
    headimg: '',
    hasPassword: false,
    orgId: row.o.id,
    orgType: row.o.orgType,
    orgName: row.o.name,
    agencyId,
    kjgcDlsId: null,
    kjgcId,
    isAdmin: false,
    // Role 1 (管理员) gives the whole agency's data scope (lib/data-scope.ts); permissions stay the key's.
    role: 1,
    membershipId: null,
    departmentId: null,
    isOperator: false,
    perms: row.k.perms.filter((p) => GRANTABLE.has(p)).sort(),
  };
}
