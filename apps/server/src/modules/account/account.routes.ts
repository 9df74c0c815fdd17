import { CODE, changePasswordCall, getProfileCall, updateProfileCall } from '@dzy/shared';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { AppError } from '../../plugins/errors.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { hashPassword, verifyPassword } from '../../plugins/password.js';

async function profile(tx: Queryable, userId: number) {
  const [u] = await tx.select().from(users).where(eq(users.id, userId));
  if (!u) throw new AppError(CODE.NOT_FOUND, '用户不存在');
  return { id: u.id, hymc: u.hymc, zw: u.zw, phone: u.phone, headimg: u.headimg, hasPassword: u.passwordHash !== null };
}

export const accountModule: ServerModule = {
  name: 'account',
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
      await audit(tx, req, session, 'account.password_change');
      return null;
    }),
  ],
};
