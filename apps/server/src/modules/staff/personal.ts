import { CODE, DELETE_PERSONAL_MSG, deletePersonalCall } from '@dzy/shared';
import { eq } from 'drizzle-orm';
import { setScope } from '../../db/client.js';
import { memberships, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Served, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { endSession, endUserSessions } from '../../plugins/session.js';
import { releaseOpportunitiesOf } from '../opportunity/opportunity.service.js';
import { ownedBy, removeMembership } from './staff.service.js';

/**
 * deletePersonal (issue 19 point 3): a user deletes their own account. Refused while they administer any
 * organisation (transfer first) or hold clients or department director posts in any (handover first).
 * Otherwise they leave every organisation, their sign-in data is erased (phone, account, password, name)
 * so the phone may register again, and every session ends. Audit rows keep their user id.
 */
export const personalCalls: Served[] = [
  serve(deletePersonalCall, async ({ session, tx, req, reply }) => {
    const mine = await tx
      .select({
        id: memberships.id,
        agencyId: memberships.agencyId,
        orgId: memberships.orgId,
        isAdmin: memberships.isAdmin,
      })
      .from(memberships)
      .where(eq(memberships.userId, session.userId));
    if (mine.some((m) => m.isAdmin)) throw new AppError(CODE.CONFLICT, DELETE_PERSONAL_MSG.admin);
    for (const m of mine) {
      await setScope(tx, { agencyId: m.agencyId, userId: session.userId, kjgcId: null });
      const owned = await ownedBy(tx, m.agencyId, session.userId);
      if (owned.clientCount > 0 || owned.directorPosts > 0)
        throw new AppError(CODE.CONFLICT, DELETE_PERSONAL_MSG.handover);
    }
    for (const m of mine) {
      await setScope(tx, { agencyId: m.agencyId, userId: session.userId, kjgcId: null });
      await audit(
        tx,
        req,
        { agencyId: m.agencyId, userId: session.userId },
        'staff.delete_personal',
        `user:${session.userId}`,
        {
          orgId: m.orgId,
        },
      );
      await releaseOpportunitiesOf(tx, m.agencyId, session.userId, session.userId);
      await removeMembership(tx, { agencyId: m.agencyId, orgId: m.orgId }, m.id, session.userId);
    }
    await setScope(tx, { agencyId: null, userId: session.userId, kjgcId: null });
    await tx
      .update(users)
      .set({ phone: `deleted:${session.userId}`, account: null, passwordHash: null, hymc: '', zw: '', headimg: '' })
      .where(eq(users.id, session.userId));
    await audit(tx, req, { agencyId: null, userId: session.userId }, 'user.delete_personal', `user:${session.userId}`, {
      organisations: mine.length,
    });
    await endUserSessions(tx, session.userId);
    await endSession(tx, reply, session.sessionId);
    return null;
  }),
];
