import {
  CODE,
  forgetPasswordCall,
  getUserCall,
  loginCall,
  logoutCall,
  SMS_RESEND_SECONDS,
  saveUserCall,
  sendSmsCall,
  sessionCall,
} from '@dzy/shared';
import { and, eq, or } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.js';
import { loginLocks, memberships, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve, serveStaged } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import { hashPassword, verifyPassword } from '../../plugins/password.js';
import { endSession, endUserSessions, sessionInfo, startSession } from '../../plugins/session.js';
import { secondStep } from '../two-factor/two-factor.service.js';
import {
  findUserByAccount,
  findUserByPhone,
  lockedAnswer,
  normaliseAccount,
  recordAttempt,
  registerTicket,
  ticketValid,
  WRONG_CREDENTIALS,
} from './auth.service.js';
import { consumeCode, issueCode } from './sms-code.js';

/**
 * Signs the user in and answers with the session as the next request will see it; or, when a second
 * factor is due (enabled, or required by an agency and not enrolled yet), with the pending second step
 * and no session (modules/two-factor).
 */
async function signIn(tx: Tx, req: FastifyRequest, reply: FastifyReply, user: typeof users.$inferSelect, key: Buffer) {
  const pending = await secondStep(tx, req, key, user.id);
  if (pending) return pending;
  const session = await startSession(tx, req, reply, user);
  await audit(tx, req, { agencyId: session.agencyId, userId: user.id }, 'auth.login');
  return sessionInfo(session);
}

export const authModule: ServerModule = {
  name: 'auth',
  calls: [
    // Staged: the password is checked between two short transactions, never while holding the database.
    serveStaged(loginCall, async ({ body, inTx, req, reply, deps }) => {
      if (body.type === '1') {
        const account = normaliseAccount(body.account);
        const found = await inTx(async (tx) => ({
          locked: await lockedAnswer(tx, account, req.ip),
          user: await findUserByAccount(tx, account),
        }));
        if (found.locked) return found.locked;
        const ok = await verifyPassword(body.password, found.user?.passwordHash ?? null);
        return inTx(async (tx) => {
          // Another attempt may have locked the account meanwhile.
          const locked = await lockedAnswer(tx, account, req.ip);
          if (locked) return locked;
          const refusal = await recordAttempt(tx, account, ok, req.ip);
          const { user } = found;
          if (refusal || !user) {
            await audit(tx, req, { agencyId: null, userId: user?.id ?? null }, 'auth.login_failed', account);
            return refusal ?? new Answer(CODE.BAD_REQUEST, WRONG_CREDENTIALS);
          }
          return signIn(tx, req, reply, user, deps.config.secretKey);
        });
      }
      return inTx(async (tx) => {
        const wrong = await consumeCode(tx, deps.config.secretKey, body.account, 'login', body.code);
        if (wrong) return wrong;
        const user = await findUserByPhone(tx, body.account);
        if (!user) {
          return new Answer(CODE.EMPTY, '该手机号尚未注册，将为您注册为代理机构用户', {
            registerTicket: registerTicket(deps.config.secretKey, body.account),
          });
        }
        return signIn(tx, req, reply, user, deps.config.secretKey);
      });
    }),

    serve(sendSmsCall, async ({ body, tx, deps }) => {
      if (body.dictLabel === 'reset' && !(await findUserByPhone(tx, body.phone))) {
        throw new AppError(CODE.NOT_FOUND, '该手机号尚未注册');
      }
      await issueCode(tx, deps.sms, deps.config.secretKey, body.phone, body.dictLabel);
      return { resendAfter: SMS_RESEND_SECONDS };
    }),

    serve(saveUserCall, async ({ body, tx, req, reply, deps }) => {
      if (!ticketValid(deps.config.secretKey, body.phone, body.registerTicket)) {
        throw new AppError(CODE.BAD_REQUEST, '注册凭证已失效，请重新获取验证码登录');
      }
      const existing = await findUserByPhone(tx, body.phone);
      const user = existing ?? (await tx.insert(users).values({ phone: body.phone }).returning())[0];
      if (!user) throw new AppError(CODE.ERROR, '注册失败，请稍后再试');
      if (!existing) await audit(tx, req, { agencyId: null, userId: user.id }, 'auth.register', body.phone);
      return signIn(tx, req, reply, user, deps.config.secretKey);
    }),

    serve(forgetPasswordCall, async ({ body, tx, req, deps }) => {
      const wrong = await consumeCode(tx, deps.config.secretKey, body.phone, 'reset', body.code);
      if (wrong) return wrong;
      const user = await findUserByPhone(tx, body.phone);
      if (!user) throw new AppError(CODE.NOT_FOUND, '该手机号尚未注册');
      await tx
        .update(users)
        .set({ passwordHash: await hashPassword(body.password) })
        .where(eq(users.id, user.id));
      // A reset lifts the lock and starts the count of wrong passwords again, for the phone and the
      // account name; and it ends every session signed in with the old password.
      for (const account of [user.phone, user.account].filter((a): a is string => !!a).map(normaliseAccount)) {
        await tx.delete(loginLocks).where(eq(loginLocks.account, account));
        await recordAttempt(tx, account, true, req.ip);
      }
      await endUserSessions(tx, user.id);
      await audit(tx, req, { agencyId: null, userId: user.id }, 'auth.password_reset');
      return null;
    }),

    serve(logoutCall, async ({ session, tx, req, reply }) => {
      await endSession(tx, reply, session.sessionId);
      await audit(tx, req, session, 'auth.logout');
      return null;
    }),

    serve(sessionCall, async ({ session }) => (session ? sessionInfo(session) : null)),

    serve(getUserCall, async ({ body, session, tx }) => {
      if (body.id === undefined && body.phone === undefined) {
        const { userId: id, hymc, phone, headimg } = session;
        return { id, hymc, phone, headimg };
      }
      // Another user is visible only as a member of the caller's agency (memberships are tenant-scoped).
      const [row] = await tx
        .select({ id: users.id, hymc: users.hymc, phone: users.phone, headimg: users.headimg })
        .from(users)
        .innerJoin(memberships, eq(memberships.userId, users.id))
        .where(
          and(
            eq(memberships.agencyId, session.agencyId ?? -1),
            or(
              body.id !== undefined ? eq(users.id, body.id) : undefined,
              body.phone !== undefined ? eq(users.phone, body.phone) : undefined,
            ),
          ),
        )
        .limit(1);
      if (!row) throw new AppError(CODE.NOT_FOUND, '用户不存在或不属于本机构');
      return row;
    }),
  ],
};
