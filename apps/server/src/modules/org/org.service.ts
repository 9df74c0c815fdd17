import { CODE, isUnlinkedFactory, LINKED_AGENCY_MSG } from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { memberships, sessions, users } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import { buildCtx, type SessionCtx } from '../../plugins/session.js';

/**
 * Refuses a factory user whose factory is not bound to an agency (foundation.md §6): declaration and
 * account modules call this first.
 */
export function requireLinkedAgency(session: SessionCtx) {
  if (isUnlinkedFactory(session)) throw new AppError(CODE.NO_PERMISSION, LINKED_AGENCY_MSG);
}

/**
 * Moves the session into organisation `orgId` and returns the caller as the next request will see them,
 * or null when the user is not a member there. Leaves the transaction scoped to the new tenant.
 */
export async function switchSessionOrg(tx: Tx, s: SessionCtx, orgId: number): Promise<SessionCtx | null> {
  // The transaction acts as the user, so their memberships in every tenant are visible.
  const [member] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, s.userId), eq(memberships.orgId, orgId)))
    .limit(1);
  if (!member) return null;
  const [row] = await tx.update(sessions).set({ orgId }).where(eq(sessions.id, s.sessionId)).returning();
  const [user] = await tx.select().from(users).where(eq(users.id, s.userId));
  if (!row || !user) return null;
  return buildCtx(tx, row, user);
}
