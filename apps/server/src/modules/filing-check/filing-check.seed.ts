import { and, eq, isNotNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { enterpriseFilingInfo, enterprises } from '../../db/schema/index.js';

/**
 * Demo 三方协议: most clients with a tax number have signed one (tax is paid by deduction), every seventh
 * has not, so 信息补全 lists a realistic few instead of every client.
 */
export async function seedFilingDemo(db: Db, agencyIds: readonly number[]) {
  for (const agencyId of agencyIds) {
    const list = await db
      .select({ id: enterprises.id })
      .from(enterprises)
      .where(and(eq(enterprises.agencyId, agencyId), isNotNull(enterprises.qysh), ne(enterprises.qysh, '')))
      .orderBy(enterprises.id);
    const signed = list.filter((_, i) => i % 7 !== 3);
    if (signed.length === 0) continue;
    await db
      .insert(enterpriseFilingInfo)
      .values(signed.map((e) => ({ agencyId, enterpriseId: e.id, sfxy: true })))
      .onConflictDoNothing();
  }
}
