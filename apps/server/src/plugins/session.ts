import { createHash, randomBytes } from 'node:crypto';
import { ALL_PERMS, BIND_STATUS, GRANTABLE_PERMS, OPERATOR_PERMS, type OrgType, type SessionInfo } from '@dzy/shared';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Db, kjgcSetting, type Queryable, type Scope, setScope, type Tx } from '../db/client.js';
import {
  kjgcBindings,
  membershipRoles,
  memberships,
  organisations,
  roles,
  sessions,
  users,
} from '../db/schema/index.js';
import { apiKeyIn, bearerOf, isApiKeyToken } from './api-key.js';

export const SESSION_COOKIE = 'dzy_session';
/** A session ends after 30 minutes unused or 12 hours after sign-in, whichever is first. */
export const IDLE_MS = 30 * 60_000;
export const ABSOLUTE_MS = 12 * 3600_000;
const TOUCH_EVERY_MS = 60_000;

/** Who is calling, as the server knows it: all of it from the session, nothing from the body. */
export interface SessionCtx {
  sessionId: number;
  userId: number;
  phone: string;
  hymc: string;
  zw: string;
  headimg: string;
  hasPassword: boolean;
  orgId: number | null;
  orgType: OrgType | null;
  orgName: string | null;
  /** The tenant: the organisation's id, or for a bound kjgc its agency's id. */
  agencyId: number | null;
  kjgcDlsId: number | null;
  /** The factory (会计工厂) the caller belongs to, which limits it to the clients handed over; null for anyone else. */
  kjgcId: number | null;
  isAdmin: boolean;
  role: 0 | 1 | 2 | null;
  membershipId: number | null;
  departmentId: number | null;
  isOperator: boolean;
  perms: string[];
  /** Set when the caller is an API key (plugins/api-key.ts), not a person's session. */
  apiKeyId?: number;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function tokenFrom(req: FastifyRequest): string | null {
  if (req.headers.authorization?.startsWith('Bearer ')) return bearerOf(req);
  const cookie = req.cookies[SESSION_COOKIE] ?? null;
  // A key is taken only from the Authorization header: sent as the session cookie it is no caller at all.
  return cookie && !isApiKeyToken(cookie) ? cookie : null;
}

type SessionRow = typeof sessions.$inferSelect;
type UserRow = typeof users.$inferSelect;

/**
 * Starts a session with a fresh random token (a new one at every sign-in), sets the cookie, and
 * returns the caller as the next request will see them.
 */
export async function startSession(
  tx: Tx,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<SessionCtx> {
  const token = randomBytes(32).toString('base64url');
  await actAsUser(tx, user.id);
  const [row] = await tx
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      userId: user.id,
      orgId: await defaultOrg(tx, user.id),
      expiresAt: new Date(Date.now() + ABSOLUTE_MS),
      ip: req.ip,
      userAgent: (req.headers['user-agent'] ?? '').slice(0, 300),
    })
    .returning();
  if (!row) throw new Error('session insert returned nothing');
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: ABSOLUTE_MS / 1000,
  });
  const ctx = await buildCtx(tx, row, user);
  await setScope(tx, scopeOf(ctx));
  return ctx;
}

export async function endSession(tx: Queryable, reply: FastifyReply, sessionId: number) {
  await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Ends every session of a user but `keep` (after a password change or reset). */
export async function endUserSessions(tx: Queryable, userId: number, keep?: number) {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined));
}

/** Lets the transaction see the user's own memberships in every tenant (row-level security). */
const actAsUser = (tx: Tx, userId: number) => setScope(tx, { agencyId: null, userId, kjgcId: null });

/**
 * The whole scope of a caller, for every transaction opened on its behalf (staged calls, file routes,
 * the jobs it starts): the factory id travels with the agency and the user, so none can be left out.
 */
export function scopeOf(session: Pick<SessionCtx, 'agencyId' | 'userId' | 'kjgcId'> | null): Scope {
  return {
    agencyId: session?.agencyId ?? null,
    userId: session?.userId ?? null,
    kjgcId: session?.kjgcId ?? null,
  };
}

/**
 * Whose a file kept on disk for a caller or its job is (an import's failure file, found again by its key):
 * the agency, and the factory when the caller is one. An agency's failure file is not a factory's to read by
 * its key (it names clients the factory may not see), nor a factory's the agency's (issue 26 point 2).
 */
export const fileOwner = (scope: { agencyId: number | null; kjgcId: number | null }) =>
  scope.kjgcId === null ? String(scope.agencyId) : `${scope.agencyId}-kjgc${scope.kjgcId}`;

/** The first organisation the user belongs to (administrator places first), or null. */
async function defaultOrg(tx: Queryable, userId: number): Promise<number | null> {
  const [row] = await tx
    .select({ orgId: memberships.orgId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(sql`${memberships.isAdmin} desc`, asc(memberships.id))
    .limit(1);
  return row?.orgId ?? null;
}

/** Resolves the caller's session in a transaction of its own (plain routes: uploads, downloads, push). */
export function resolveSession(db: Db, req: FastifyRequest): Promise<SessionCtx | null> {
  if (!tokenFrom(req)) return Promise.resolve(null);
  return db.transaction((tx) => sessionIn(tx, req));
}

/**
 * Resolves the caller's session inside `tx` (a call's own transaction: one round of BEGIN/COMMIT per
 * call) and leaves the transaction scoped to the session's agency; null when there is none or it
 * expired. Read at every call, so a revoked session stops at once.
 */
export async function sessionIn(tx: Tx, req: FastifyRequest): Promise<SessionCtx | null> {
  const token = tokenFrom(req);
  if (!token) return null;
  if (isApiKeyToken(token)) return apiKeyIn(tx, req, token);
  const [row] = await tx
    .select({ s: sessions, u: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)))
    .limit(1);
  if (!row) return null;
  const now = Date.now();
  if (row.s.expiresAt.getTime() <= now || row.s.lastSeenAt.getTime() + IDLE_MS <= now) return null;
  if (now - row.s.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await tx
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, row.s.id));
  }
  await actAsUser(tx, row.u.id);
  return buildCtx(tx, row.s, row.u);
}

/**
 * The caller as of a session row: organisation, membership and permissions. The transaction must act
 * as the user; it is left scoped to the session's agency.
 */
export async function buildCtx(tx: Tx, s: SessionRow, u: UserRow): Promise<SessionCtx> {
  const orgId = s.orgId ?? (await defaultOrg(tx, u.id));
  const [place] =
    orgId === null
      ? []
      : await tx
          .select({ m: memberships, o: organisations })
          .from(memberships)
          .innerJoin(organisations, eq(organisations.id, memberships.orgId))
          .where(and(eq(memberships.userId, u.id), eq(memberships.orgId, orgId)))
          .limit(1);
  const isFactory = place?.o.orgType === 'kjgc';
  // A factory sees only the clients handed over to it (kjgc_handovers; policies of migrations 0033, 0039, 0041).
  const kjgcId = isFactory && place ? place.o.id : null;
  await setKjgcScope(tx, kjgcId);
  const kjgcDlsId = isFactory && place ? await actingAgency(tx, place.o.id, s.kjgcDlsId, place.o.kjgcDlsId) : null;
  const agencyId = place ? (kjgcDlsId ?? place.o.id) : null;
  // Roles are tenant rows: read them in the membership's agency (a factory's own, even while it acts for another).
  if (place) await setScope(tx, { agencyId: place.m.agencyId, userId: u.id, kjgcId });
  const actingForAgency = kjgcDlsId !== null;
  const held = place ? (place.m.isAdmin ? [ALL_PERMS] : await rolePerms(tx, place.m.id)) : [];
  const perms = [...(actingForAgency ? factoryPerms(held) : held), ...(u.isOperator ? OPERATOR_PERMS : [])];
  if (place) await setScope(tx, { agencyId, userId: u.id, kjgcId });
  return {
    sessionId: s.id,
    userId: u.id,
    phone: u.phone,
    hymc: u.hymc,
    zw: u.zw,
    headimg: u.headimg,
    hasPassword: u.passwordHash !== null,
    orgId: place?.o.id ?? null,
    orgType: place?.o.orgType ?? null,
    orgName: place?.o.name ?? null,
    agencyId,
    kjgcDlsId,
    kjgcId,
    isAdmin: place?.m.isAdmin ?? false,
    role: (place?.m.role as 0 | 1 | 2 | undefined) ?? null,
    membershipId: place?.m.id ?? null,
    departmentId: place?.m.departmentId ?? null,
    isOperator: u.isOperator,
    perms,
  };
}

/**
 * What a factory (kjgc) may do while it acts through its bound agency: the work on the clients handed over,
 * never the agency's own administration (its staff, roles, departments, settings, API keys, audit log) nor
 * removing clients. Its administrator holds every such permission, not '*:*:*'.
 */
const FACTORY_DENIED = /^(staff|role|station|org|agency):|^customer:(delete|purge|restore|recycle:view)$/;
function factoryPerms(held: readonly string[]): string[] {
  const base = held.includes(ALL_PERMS) ? [...GRANTABLE_PERMS, 'kjgc:manage', 'agency:info:view'] : held;
  return [...new Set(base)].filter((p) => p === 'agency:info:view' || !FACTORY_DENIED.test(p));
}

/**
 * The agency a factory acts for in this session: the session's own choice (switchAgency) while the binding
 * lives, else the factory's default, else its oldest binding; null when it is bound to none. Read from the
 * bindings at every request, so an ended binding stops at once. The transaction must act as the factory.
 */
async function actingAgency(tx: Tx, kjgcId: number, ...preferred: (number | null)[]): Promise<number | null> {
  const bound = await tx
    .select({ agencyId: kjgcBindings.agencyId })
    .from(kjgcBindings)
    .where(and(eq(kjgcBindings.kjgcId, kjgcId), eq(kjgcBindings.status, BIND_STATUS.bound)))
    .orderBy(asc(kjgcBindings.id));
  const pick = preferred.find((p) => p !== null && bound.some((b) => b.agencyId === p));
  return pick ?? bound[0]?.agencyId ?? null;
}

/** Sets the factory the rest of the transaction acts as (null: not a factory), read by app_kjgc() in policies. */
export async function setKjgcScope(tx: Tx, kjgcId: number | null) {
  await tx.execute(sql`select set_config('app.kjgc_id', ${kjgcSetting(kjgcId)}, true)`);
}

const GRANTABLE = new Set<string>(GRANTABLE_PERMS);

/** The union of the member's roles' permissions, limited to what a role may grant. */
async function rolePerms(tx: Tx, membershipId: number): Promise<string[]> {
  const rows = await tx
    .select({ perms: roles.perms })
    .from(membershipRoles)
    .innerJoin(roles, eq(roles.id, membershipRoles.roleId))
    .where(eq(membershipRoles.membershipId, membershipId));
  return [...new Set(rows.flatMap((r) => r.perms))].filter((p) => GRANTABLE.has(p)).sort();
}

/** What the client is told about its session (foundation.md §3). */
export function sessionInfo(s: SessionCtx): SessionInfo {
  return {
    token: { id: s.userId, hymc: s.hymc, zw: s.zw, headimg: s.headimg, hasPassword: s.hasPassword },
    isAdmin: s.isAdmin ? '1' : '0',
    isAgency: '1',
    phone: s.phone,
    orgType: s.orgType,
    orgId: s.orgId,
    orgName: s.orgName,
    role: s.role,
    kjgcDlsId: s.kjgcDlsId,
    perms: s.perms,
  };
}
