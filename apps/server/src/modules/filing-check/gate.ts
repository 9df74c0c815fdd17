import { LBSJC_MSG } from '@dzy/shared';
import type { Queryable } from '../../db/client.js';
import { requireWhitelist } from '../../lib/whitelist.js';

/** The white-list helper lives in lib/whitelist.ts (one gate for every list); re-exported for this module. */
export { whitelistsOf } from '../../lib/whitelist.js';

/** Refuses every 漏报检查 call of an agency not on the lbsjc white list, with the reason. */
export const requireLbsjc = (tx: Queryable, agencyId: number | null) =>
  requireWhitelist(tx, agencyId, 'lbsjc', LBSJC_MSG.notOpen);

/** The unfiled-return view needs wsbsdt besides lbsjc. */
export async function requireWsb(tx: Queryable, agencyId: number | null) {
  const lists = await requireLbsjc(tx, agencyId);
  if (!lists.has('wsbsdt')) await requireWhitelist(tx, agencyId, 'wsbsdt', LBSJC_MSG.wsbNotOpen);
}
