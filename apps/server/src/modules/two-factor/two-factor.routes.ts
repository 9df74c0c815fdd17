import {
  CODE,
  securitySettingsGetCall,
  securitySettingsSaveCall,
  TWO_FACTOR_MSG,
  twoFactorDisableCall,
  twoFactorEnrolConfirmCall,
  twoFactorEnrolStartCall,
  twoFactorRegenerateRecoveryCall,
  twoFactorResetCall,
  twoFactorStatusCall,
  twoFactorVerifyCall,
} from '@dzy/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setScope, type Tx } from '../../db/client.js';
import { agencySecurity, memberships, users, userTwoFactor } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { encrypt } from '../../lib/crypto.js';
import { newTotpSecret, otpauthUri } from '../../lib/totp.js';
import { type Deps, type ServerModule, serve } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import { verifyPassword } from '../../plugins/password.js';
import { type SessionCtx, sessionInfo, startSession } from '../../plugins/session.js';
import {
  checkCode,
  factorOf,
  issueRecoveryCodes,
  readTicket,
  refuseSpentTicket,
  rememberDevice,
  removeFactor,
  requiredFor,
  spendTicket,
  statusOf,
  type TicketPurpose,
} from './two-factor.service.js';

/** The user a call is about: the ticket's (a sign-in half done) or the session's. */
async function subject(
  tx: Tx,
  deps: Deps,
  ticket: string | undefined,
  session: SessionCtx | null,
  purpose: TicketPurpose,
): Promise<number> {
  if (ticket !== undefined) {
    const t = readTicket(deps.config.secretKey, ticket);
    if (t?.purpose !== purpose) throw new AppError(CODE.BAD_REQUEST, TWO_FACTOR_MSG.ticketExpired);
    await refuseSpentTicket(tx, ticket);
    await setScope(tx, { agencyId: null, userId: t.userId, kjgcId: null });
    return t.userId;
  }
  if (!session) throw new AppError(CODE.SESSION_EXPIRED, '登录超时，请重新登陆');
  return session.userId;
}

/** Completes a sign-in after its second step: the session, and the login in the audit log. */
async function finishSignIn(tx: Tx, req: FastifyRequest, reply: FastifyReply, userId: number, how: string) {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError(CODE.BAD_REQUEST, TWO_FACTOR_MSG.ticketExpired);
  const session = await startSession(tx, req, reply, user);
  await audit(tx, req, { agencyId: session.agencyId, userId }, 'auth.login', '', { twoFactor: how });
  return session;
}

export const twoFactorModule: ServerModule = {
  name: 'two-factor',
  calls: [
    serve(twoFactorVerifyCall, async ({ body, tx, req, reply, deps }) => {
      const t = readTicket(deps.config.secretKey, body.ticket);
      if (t?.purpose !== 'verify') throw new AppError(CODE.BAD_REQUEST, TWO_FACTOR_MSG.ticketExpired);
      await refuseSpentTicket(tx, body.ticket);
      await setScope(tx, { agencyId: null, userId: t.userId, kjgcId: null });
      const refused = await checkCode(tx, req, deps.config.secretKey, t.userId, body, null);
      if (refused) return refused;
      // Single use: a replay of this ticket, even with a fresh code, starts no second session.
      await spendTicket(tx, body.ticket);
      const session = await finishSignIn(tx, req, reply, t.userId, body.code !== undefined ? 'totp' : 'recovery');
      if (body.remember) {
        await rememberDevice(tx, req, reply, t.userId);
        await audit(tx, req, session, 'two_factor.device_remember');
      }
      return sessionInfo(session);
    }),

    serve(twoFactorEnrolStartCall, async ({ body, tx, session, deps }) => {
      const userId = await subject(tx, deps, body.ticket, session, 'enrol');
      const existing = await factorOf(tx, userId);
      if (existing?.enabledAt) throw new AppError(CODE.CONFLICT, TWO_FACTOR_MSG.alreadyEnabled);
      const [user] = await tx.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
      const secret = newTotpSecret();
      const secretEnc = encrypt(deps.config.secretKey, secret);
      await tx
        .insert(userTwoFactor)
        .values({ userId, secretEnc })
        .onConflictDoUpdate({
          target: userTwoFactor.userId,
          set: { secretEnc, enabledAt: null, lastStep: null, updatedAt: new Date() },
        });
      return { secret, otpauth: otpauthUri(secret, user?.phone ?? String(userId)) };
    }),

    serve(twoFactorEnrolConfirmCall, async ({ body, tx, session, req, reply, deps }) => {
      const userId = await subject(tx, deps, body.ticket, session, 'enrol');
      const factor = await factorOf(tx, userId);
      if (factor?.enabledAt) throw new AppError(CODE.CONFLICT, TWO_FACTOR_MSG.alreadyEnabled);
      if (!factor) throw new AppError(CODE.BAD_REQUEST, TWO_FACTOR_MSG.noPending);
      const refused = await checkCode(
        tx,
        req,
        deps.config.secretKey,
        userId,
        { code: body.code },
        session?.agencyId ?? null,
      );
      if (refused) return refused;
      if (body.ticket !== undefined) await spendTicket(tx, body.ticket);
      await tx.update(userTwoFactor).set({ enabledAt: new Date() }).where(eq(userTwoFactor.userId, userId));
      const recoveryCodes = await issueRecoveryCodes(tx, userId);
      if (body.ticket !== undefined) {
        const started = await finishSignIn(tx, req, reply, userId, 'enrol');
        await audit(tx, req, started, 'two_factor.enrol', `user:${userId}`);
        return { recoveryCodes, session: sessionInfo(started) };
      }
      await audit(tx, req, session ?? { agencyId: null, userId }, 'two_factor.enrol', `user:${userId}`);
      return { recoveryCodes, session: null };
    }),

    serve(twoFactorStatusCall, async ({ tx, session }) => statusOf(tx, session.userId)),

    serve(twoFactorDisableCall, async ({ body, tx, session, req, deps }) => {
      const factor = await factorOf(tx, session.userId);
      if (!factor?.enabledAt) throw new AppError(CODE.BAD_REQUEST, TWO_FACTOR_MSG.notEnrolled);
      if (await requiredFor(tx, session.userId)) throw new AppError(CODE.BAD_REQUEST, TWO_FACTOR_MSG.requiredByAgency);
      const refused = await checkCode(tx, req, deps.config.secretKey, session.userId, body, session.agencyId);
      if (refused) return refused;
      await removeFactor(tx, session.userId);
      await audit(tx, req, session, 'two_factor.disable', `user:${session.userId}`);
      return null;
    }),

    serve(twoFactorRegenerateRecoveryCall, async ({ body, tx, session, req, deps }) => {
      const factor = await factorOf(tx, session.userId);
      if (!factor?.enabledAt) throw new AppError(CODE.BAD_REQUEST, TWO_FACTOR_MSG.notEnrolled);
      if (body.code !== undefined) {
        // The same check as the sign-in: a used step is refused, five wrong codes lock for 15 minutes.
        const refused = await checkCode(tx, req, deps.config.secretKey, session.userId, body, session.agencyId);
        if (refused) return refused;
      } else {
        const [u] = await tx.select({ hash: users.passwordHash }).from(users).where(eq(users.id, session.userId));
        if (!u?.hash) return new Answer(CODE.BAD_REQUEST, TWO_FACTOR_MSG.noPassword);
        if (!(await verifyPassword(body.password ?? '', u.hash))) {
          await audit(tx, req, session, 'two_factor.recovery_refused', `user:${session.userId}`, { how: 'password' });
          return new Answer(CODE.BAD_REQUEST, TWO_FACTOR_MSG.wrongPassword);
        }
      }
      // issueRecoveryCodes deletes the old ones first: they stop working with this transaction.
      const recoveryCodes = await issueRecoveryCodes(tx, session.userId);
      await audit(tx, req, session, 'two_factor.recovery_regenerate', `user:${session.userId}`, {
        how: body.code !== undefined ? 'totp' : 'password',
        count: recoveryCodes.length,
      });
      return { recoveryCodes };
    }),

    serve(twoFactorResetCall, async ({ body, tx, session, req }) => {
      const [member] = await tx
        .select({ id: memberships.id })
        .from(memberships)
        .where(and(eq(memberships.agencyId, session.agencyId ?? -1), eq(memberships.userId, body.userId)))
        .limit(1);
      if (!member) throw new AppError(CODE.NOT_FOUND, TWO_FACTOR_MSG.memberNotFound);
      const had = !!(await factorOf(tx, body.userId))?.enabledAt;
      await removeFactor(tx, body.userId);
      await audit(tx, req, session, 'two_factor.reset', `user:${body.userId}`, {
        before: had ? '已开启' : '未开启',
        after: '未开启',
      });
      return null;
    }),

    serve(securitySettingsGetCall, async ({ tx, session }) => {
      const agencyId = session.agencyId ?? -1;
      const [row] = await tx.select().from(agencySecurity).where(eq(agencySecurity.agencyId, agencyId));
      const members = await tx
        .select({
          userId: users.id,
          hymc: users.hymc,
          phone: users.phone,
          isAdmin: memberships.isAdmin,
          enabled: sql<boolean>`${userTwoFactor.enabledAt} is not null`,
        })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .leftJoin(userTwoFactor, eq(userTwoFactor.userId, memberships.userId))
        .where(eq(memberships.agencyId, agencyId))
        .orderBy(sql`${memberships.isAdmin} desc`, asc(memberships.id))
        .limit(2000);
      return {
        requireTwoFactor: (row?.requireTwoFactor ?? 'none') as 'none' | 'admins' | 'all',
        auditRetentionDays: row?.auditRetentionDays ?? 180,
        members: members.map((m) => ({ ...m, enabled: m.enabled === true })),
      };
    }),

    serve(securitySettingsSaveCall, async ({ body, tx, session, req }) => {
      const agencyId = session.agencyId;
      if (agencyId === null) throw new AppError(CODE.NOT_FOUND, '请先加入代理机构');
      const [before] = await tx.select().from(agencySecurity).where(eq(agencySecurity.agencyId, agencyId));
      await tx
        .insert(agencySecurity)
        .values({ agencyId, ...body })
        .onConflictDoUpdate({ target: agencySecurity.agencyId, set: { ...body, updatedAt: new Date() } });
      await audit(tx, req, session, 'security.settings', `agency:${agencyId}`, {
        before: {
          requireTwoFactor: before?.requireTwoFactor ?? 'none',
          auditRetentionDays: before?.auditRetentionDays ?? 180,
        },
        after: body,
      });
      return null;
    }),
  ],
};
