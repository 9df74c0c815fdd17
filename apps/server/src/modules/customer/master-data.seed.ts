import { and, eq, like } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { enterprises } from '../../db/schema/index.js';

/**
 * The demo agency's clients against the simulated bureau's registration (issue 19 point 1): the
 * generated book and the bureau agree on names and regions except where the demo means to show 需更新.
 * 纳税人类型 is left as generated: the simulator draws a taxpayer's kind differently depending on whether
 * a name was ever sent for it (makeTaxpayer), so no fixed table of kinds can agree with it; noted.
 * DEMO_DIFFERENCES: kept different from the bureau on purpose.
 */
export const DEMO_DIFFERENCES = [
  // 上海丰益企业管理咨询有限公司 in the book; the bureau registered 上海和诚食品有限公司.
  { qysh: '91310120MAQU6EHY9C', fields: ['qymc'] },
] as const;

/** Gives the clients that took a scenario tax number (91330108…, registered in 杭州市滨江区) that region. */
export async function seedMasterDataDemo(db: Db, agencyId: number) {
  await db
    .update(enterprises)
    .set({ sssf: '330000', ssds: '330100', ssqx: '330108' })
    .where(and(eq(enterprises.agencyId, agencyId), like(enterprises.qysh, '91330108MA2DY7%')));
}
