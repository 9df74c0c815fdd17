import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { enterprises, kjgcBindings, kjgcHandovers, whitelistOrders } from '../../db/schema/index.js';

/**
 * Demo: the agency is on the dljghdkjgcmenu white list (its 会计工厂管理 page shows), the factory is bound
 * to it with its consent, and every client it has is handed over (what the demo factory saw before bindings).
 */
export async function seedKjgcDemo(db: Db, agencyId: number, kjgcId: number, factoryUserId: number, adminId: number) {
  await db
    .insert(whitelistOrders)
    .values({ type: 'dljghdkjgcmenu', busiVal: String(agencyId) })
    .onConflictDoNothing();
  const [binding] = await db
    .insert(kjgcBindings)
    .values({ kjgcId, agencyId, status: 1, requestedBy: factoryUserId, decidedBy: adminId, decidedAt: new Date() })
    .returning({ id: kjgcBindings.id });
  if (!binding) throw new Error('kjgc binding insert returned nothing');
  const clients = await db.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.agencyId, agencyId));
  if (clients.length) {
    await db.insert(kjgcHandovers).values(
      clients.map((c) => ({
        enterpriseId: c.id,
        agencyId,
        kjgcId,
        bindingId: binding.id,
        createdBy: adminId,
      })),
    );
  }
}
