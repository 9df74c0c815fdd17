import {
  CODE,
  changePasswordCall,
  changePhoneCall,
  getProfileCall,
  maskStaffPhone,
  PHONE_SAME_MSG,
  PHONE_TAKEN_MSG,
  SMS_RESEND_SECONDS,
  sendChangePhoneCodeCall,
  updateProfileCall,
} from '@dzy/shared';
import { and, eq, ne } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { hashPassword, verifyPassword } from '../../plugins/password.js';
import type { SessionCtx } from '../../plugins/session.js';
import { endUserSessions } from '../../plugins/session.js';
import { consumeCode, issueCode } from '../auth/sms-code.js';
import { avatarRoutes } from './avatar.routes.js';

async function profile(tx: Queryable, userId: number) {
  const [u] = await tx.select().from(users).where(eq(users.id, userId));
  if (!u) throw new AppError(CODE.NOT_FOUND, '用户不存在');
  return { id: u.id, hymc: u.hymc, zw: u.zw, phone: u.phone, headimg: u.headimg, hasPassword: u.passwordHash !== null };
}

/** A new phone must differ from the current one and belong to no other account. */
async function checkNewPhone(tx: Queryable, session: SessionCtx, phone: string) {
  if (phone === session.phone) throw new AppError(CODE.BAD_REQUEST, PHONE_SAME_MSG);
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, phone), ne(users.id, session.userId)))
    .limit(1);
  if (other) throw new AppError(CODE.CONFLICT, PHONE_TAKEN_MSG);
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

export const accountModule: ServerModule = {
  name: 'account',
  routes: avatarRoutes,
  calls: [
    serve(getProfileCall, async ({ session, tx }) => profile(tx, session.userId)),

    serve(updateProfileCall, async ({ body, session, tx, req }) => {
      await tx.update(users).set({ hymc: body.hymc, zw: body.zw }).where(eq(users.id, session.userId));
      await audit(tx, req, session, 'account.profile_update', '', { hymc: body.hymc, zw: body.zw });
      return profile(tx, session.userId);
    }),

    serve(changePasswordCall, async ({ body, session, tx, req }) => {
      const [u] = await tx.select().from(users).where(eq(users.id, session.userId));
      if (!u) throw new AppError(CODE.NOT_FOUND, '用户不存在');
      if (u.passwordHash !== null && !(await verifyPassword(body.oldPassword ?? '', u.passwordHash))) {
        throw new AppError(CODE.BAD_REQUEST, '原密码错误');
      }
      await tx
        .update(users)
        .set({ passwordHash: await hashPassword(body.password) })
        .where(eq(users.id, session.userId));
      await endUserSessions(tx, session.userId, session.sessionId);
      await audit(tx, req, session, 'account.password_change');
      return null;
    }),

    // The auth module's send call serves sign-in and reset only; a code for a new phone is asked for here.
    serve(sendChangePhoneCodeCall, async ({ body, session, tx, deps }) => {
      await checkNewPhone(tx, session, body.phone);
      await issueCode(tx, deps.sms, deps.config.secretKey, body.phone, 'changePhone');
      return { resendAfter: SMS_RESEND_SECONDS };
    }),

    serve(changePhoneCall, async ({ body, session, tx, req, deps }) => {
      await checkNewPhone(tx, session, body.phone);
      const wrong = await consumeCode(tx, deps.config.secretKey, body.phone, 'changePhone', body.code);
      if (wrong) return wrong;
      try {
        await tx.update(users).set({ phone: body.phone }).where(eq(users.id, session.userId));
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, PHONE_TAKEN_MSG);
        throw err;
      }
      await audit(tx, req, session, 'account.phone_change', '', {
        from: maskStaffPhone(session.phone),
        to: maskStaffPhone(body.phone),
      });
      // The old number hears of it, in case the change was not its owner's doing.
      await deps.sms.send(
        tx,
        session.phone,
        `【代账云】您的账号手机号已更换为${maskStaffPhone(body.phone)}。如非本人操作，请立即联系代理机构管理员。`,
      );
      return profile(tx, session.userId);
    }),
  ],
};
