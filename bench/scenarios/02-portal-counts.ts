import { type bookCountSchema, CODE, getQyBookCountInfoCall } from '@dzy/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { inScope, type Tx } from '../../apps/server/src/db/client.js';
import { enterprises, memberships, organisations } from '../../apps/server/src/db/schema/index.js';
import { defineScenario, expectThat } from '../scenario.js';
import { BENCH_ENTERPRISES, BENCH_STAFF } from '../setup.js';

/** The portal's count query, as modules/dashboard/dashboard.routes.ts writes it (keep the two alike). */
const countsOf = (tx: Tx, agencyId: number) =>
  tx
    .select({
      qyxzsl: organisations.licenceCustomers,
      jzxzsl: organisations.licenceLedgers,
      curQyCount: sql<number>`(select count(*)::int from ${enterprises} where ${and(eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt))})`,
      staffCount: sql<number>`(select count(distinct ${memberships.userId})::int from ${memberships} where ${eq(memberships.orgId, agencyId)})`,
    })
    .from(organisations)
    .where(eq(organisations.id, agencyId));

// The portal's counts as the bench agency's administrator (20,000 clients).
export default defineScenario({
  name: 'portal counts',
  title: `POST /api/${getQyBookCountInfoCall.path} | SQL: the count query in the agency's scope`,
  async prepare(env) {
    const { agencyId, adminId, adminPhone } = env.data;
    const cookie = await env.login(adminPhone);
    const r = await env.call<z.infer<typeof bookCountSchema>>(getQyBookCountInfoCall.path, {}, cookie);
    expectThat(r.code === CODE.OK, `counts answered ${r.code} ${r.msg}`);
    expectThat(r.data.curQyCount === BENCH_ENTERPRISES, `API counts ${r.data.curQyCount} clients`);
    expectThat(r.data.staffCount === BENCH_STAFF, `API counts ${r.data.staffCount} staff`);

    const scope = { agencyId, userId: adminId, kjgcId: null };
    const [direct] = await inScope(env.db.app, scope, (tx) => countsOf(tx, agencyId));
    expectThat(
      direct?.curQyCount === r.data.curQyCount && direct.staffCount === r.data.staffCount,
      'SQL and API give the same counts',
    );

    return {
      api: { method: 'POST', path: `/api/${getQyBookCountInfoCall.path}`, headers: { cookie }, body: {} },
      sql: () =>
        inScope(env.db.app, scope, async (tx) => {
          const [row] = await countsOf(tx, agencyId);
          if (row?.curQyCount !== BENCH_ENTERPRISES) throw new Error(`counted ${row?.curQyCount}`);
        }),
    };
  },
});
