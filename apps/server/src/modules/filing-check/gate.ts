import { CODE, LBSJC_MSG, LBSJC_WHITELIST, provinceOf, WSB_WHITELIST } from '@dzy/shared';
import { eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { organisations, whitelistOrders } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';

/**
 * The white-list order types the agency is on: orders naming the agency's id or its province
 * (docs/decisions.md, white-list orders). An agency on none switches nothing on.
 */
export async function whitelistsOf(tx: Queryable, agencyId: number | null): Promise<Set<string>> {
  if (agencyId === null) return new Set();
  const [org] = await tx.select({ sssf: organisations.sssf }).from(organisations).where(eq(organisations.id, agencyId));
  const vals = [String(agencyId), provinceOf(org?.sssf)].filter((v): v is string => Boolean(v));
  const rows = await tx
    .select({ type: whitelistOrders.type })
    .from(whitelistOrders)
    .where(inArray(whitelistOrders.busiVal, vals));
  return new Set(rows.map((r) => r.type));
}

/** Refuses every 漏报检查 call of an agency not on the lbsjc white list, with the reason. */
export async function requireLbsjc(tx: Queryable, agencyId: number | null) {
  const lists = await whitelistsOf(tx, agencyId);
  if (!lists.has(LBSJC_WHITELIST)) throw new AppError(CODE.NO_PERMISSION, LBSJC_MSG.notOpen);
  return lists;
}

/** The unfiled-return view needs wsbsdt besides lbsjc. */
export async function requireWsb(tx: Queryable, agencyId: number | null) {
  const lists = await requireLbsjc(tx, agencyId);
  if (!lists.has(WSB_WHITELIST)) throw new AppError(CODE.NO_PERMISSION, LBSJC_MSG.wsbNotOpen);
}
