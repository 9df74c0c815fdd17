import { CODE, chinaToday, SERVICE365_OFF_MSG, service365Active } from '@dzy/shared';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { agencyAccounts } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';

/**
 * The agency's 365基础服务 now: on (or never set by the operator) and unexpired on China's today. Read in the
 * agency's scope (its own account row). No agency (a user between agencies): nothing to refuse here.
 */
export async function service365Of(
  tx: Queryable,
  agencyId: number | null,
): Promise<{ active: boolean; expiresOn: string | null }> {
  if (agencyId === null) return { active: true, expiresOn: null };
  const [row] = await tx
    .select({ on: agencyAccounts.service365, expiresOn: agencyAccounts.service365ExpiresOn })
    .from(agencyAccounts)
    .where(eq(agencyAccounts.agencyId, agencyId));
  if (!row) return { active: true, expiresOn: null };
  return { active: service365Active(row.on, row.expiresOn, chinaToday()), expiresOn: row.expiresOn };
}

/** Refuses what needs the helper (e-tax login grants) for an agency whose 365基础服务 is off or expired. */
export async function requireService365(tx: Queryable, agencyId: number | null): Promise<void> {
  if (!(await service365Of(tx, agencyId)).active) throw new AppError(CODE.NO_PERMISSION, SERVICE365_OFF_MSG);
}
