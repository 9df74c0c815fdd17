import { createHash } from 'node:crypto';
import { API_KEY_PREFIX, type CallDef, GRANTABLE_PERMS } from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { setScope, type Tx } from '../db/client.js';
import { apiKeys, organisations, users } from '../db/schema/index.js';
import { audit } from '../lib/audit.js';
import type { SessionCtx } from './session.js';

/**
 * API keys as callers (issue 18 point 4, docs/decisions-18-apikeys.md): `Authorization: Bearer dzy_…`
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
 * Calls about a person's own account and session, which a key (a program, not a person) never makes,
 * whatever its permissions: sign-out, profile, password and phone, switching or joining organisations.
 */
const PERSONAL_CALL =
  /^(userext\/v1\.0\/common\/user\/logout|user\/v1\.0\/userinfo\/(?!getUser$).+|user\/v1\.0\/common\/user\/updateSessionUserInfo|user\/agency\/(acceptInvite|agencyApply|personalQuitAgency|saveUserQuitSetting|agencyUserRelation))$/;

/** Whether a key is refused this call even when it holds the call's permission. */
export const refusedToKeys = (def: CallDef) => PERSONAL_CALL.test(def.path);

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
  await setScope(tx, { agencyId, userId: null });
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
  await setScope(tx, { agencyId, userId: row.u.id });
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
    isAdmin: false,
    // Role 1 (管理员) gives the whole agency's data scope (lib/data-scope.ts); permissions stay the key's.
    role: 1,
    membershipId: null,
    departmentId: null,
    isOperator: false,
    perms: row.k.perms.filter((p) => GRANTABLE.has(p)).sort(),
  };
}
