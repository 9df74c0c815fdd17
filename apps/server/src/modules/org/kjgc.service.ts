import { CODE, hasPerm, KJGC_MSG, MSG } from '@dzy/shared';
import { and, asc, eq } from 'drizzle-orm';
import { type Queryable, setScope, type Tx } from '../../db/client.js';
import { kjgcBindings, organisations } from '../../db/schema/index.js';
import { requireWhitelist } from '../../lib/whitelist.js';
import { AppError } from '../../plugins/errors.js';
import { type SessionCtx, scopeOf } from '../../plugins/session.js';

/** The caller's factory id; refused when the current organisation is not a factory. */
export function factoryOf(session: SessionCtx): number {
  if (session.orgType !== 'kjgc' || session.orgId === null) throw new AppError(CODE.NO_PERMISSION, KJGC_MSG.notFactory);
  return session.orgId;
}

/**
 * The caller's agency for the agency side of 会计工厂管理: an agency (dls, kd) on the dljghdkjgcmenu
 * white list, for a holder of kjgc:manage; a factory is refused.
 */
export async function agencySideOf(tx: Queryable, session: SessionCtx): Promise<number> {
  if (session.orgType === 'kjgc' || session.agencyId === null)
    throw new AppError(CODE.NO_PERMISSION, KJGC_MSG.notAgency);
  // Lists are read by any caller's handler: the agency side is the administrator's (kjgc:manage).
  if (!hasPerm(session.perms, 'kjgc:manage')) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  await requireWhitelist(tx, session.agencyId, 'dljghdkjgcmenu');
  return session.agencyId;
}

/** The agencies a factory is bound to now (status 1), oldest binding first. */
export function boundAgencies(tx: Queryable, kjgcId: number) {
  return tx
    .select({
      bindingId: kjgcBindings.id,
      agencyId: organisations.id,
      agencyName: organisations.name,
      agencyTax: organisations.taxNo,
    })
    .from(kjgcBindings)
    .innerJoin(organisations, eq(organisations.id, kjgcBindings.agencyId))
    .where(and(eq(kjgcBindings.kjgcId, kjgcId), eq(kjgcBindings.status, 1)))
    .orderBy(asc(kjgcBindings.id));
}

/**
 * After a binding ends: the factory's default (organisations.kjgc_dls_id, what a session acts for until it
 * chooses) moves to another agency it is still bound to, or to none. Sessions check their agency against
 * the live bindings at every request (buildCtx), so the ended agency is out of reach at once either way.
 */
export async function reselectAgency(tx: Queryable, kjgcId: number, endedAgencyId: number) {
  const [org] = await tx
    .select({ current: organisations.kjgcDlsId })
    .from(organisations)
    .where(eq(organisations.id, kjgcId));
  if (org?.current !== endedAgencyId) return;
  const [next] = (await boundAgencies(tx, kjgcId)).filter((a) => a.agencyId !== endedAgencyId);
  await tx
    .update(organisations)
    .set({ kjgcDlsId: next?.agencyId ?? null })
    .where(eq(organisations.id, kjgcId));
}

/** Runs `fn` scoped to another agency the caller may read, then puts the caller's scope back. */
export async function inAgency<T>(tx: Tx, session: SessionCtx, agencyId: number, fn: () => Promise<T>): Promise<T> {
  if (agencyId === session.agencyId) return fn();
  await setScope(tx, { ...scopeOf(session), agencyId });
  try {
    return await fn();
  } finally {
    await setScope(tx, scopeOf(session));
  }
}
