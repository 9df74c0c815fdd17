import { FILING_STATES, type FilingFilter } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { type Db, inScope } from '../../apps/server/src/db/client.js';
import { listPage } from '../../apps/server/src/db/paging.js';
import {
  ROSTER_SORT,
  rosterFrom,
  rosterWhere,
  rowsFor,
  stateCounts,
} from '../../apps/server/src/modules/filing/filing.repo.js';
import type { BenchEnv } from '../scenario.js';
import { expectThat } from '../scenario.js';
import type { BenchData } from '../setup.js';
import { adminCtx } from './customer-bench.js';

/** The roster of the bench: 2,000 of the bench agency's clients × 6 tax types for one filing month. */
export const ROSTER_CLIENTS = 2000;
export const ROSTER_TYPES = ['zzs', 'qysds', 'grsds', 'cwbb', 'yhs', 'qysdsnd'] as const;
export const ROSTER_MONTH = '2026-05';
export const ROSTER_CELLS = ROSTER_CLIENTS * ROSTER_TYPES.length;

/**
 * 12,000 returns and 2,000 sync rows, set-based, as the owner before the set-up's VACUUM ANALYZE. The state
 * of each return cycles through the five states by (client, type); amounts in fen. Idempotent: the
 * scenarios that read it share it.
 */
export async function seedRoster(owner: Db, data: BenchData) {
  const states = `{${FILING_STATES.join(',')}}`;
  const types = `{${ROSTER_TYPES.join(',')}}`;
  await owner.transaction(async (tx) => {
    await tx.execute(sql`
      insert into filing_cells (agency_id, enterprise_id, filing_month, tax_type, cycle, skssqq, skssqz, state,
                                srze, ybtse, sbqx, sbrq, pzxh)
      select ${data.agencyId}, e.id, ${ROSTER_MONTH}, t.type,
             case when t.type = 'qysdsnd' then 'year' else 'quarter' end,
             case when t.type = 'qysdsnd' then '2025-01-01' else '2026-01-01' end,
             case when t.type = 'qysdsnd' then '2025-12-31' else '2026-03-31' end,
             s.state, (e.n * 997) % 10000000, (e.n * 31) % 500000, '2026-05-22',
             case when s.state in ('ysb', 'yjk') then '2026-05-10' else '' end,
             case when s.state in ('ysb', 'yjk') then '1' || lpad(e.n::text, 17, '0') else '' end
      from (select id, row_number() over (order by id) as n from enterprises
            where agency_id = ${data.agencyId} and deleted_at is null and qysh <> '' order by id limit ${ROSTER_CLIENTS}) e
      cross join unnest(${types}::text[]) with ordinality as t(type, k)
      cross join lateral (select (${states}::text[])[((e.n + t.k) % 5) + 1] as state) s
      on conflict do nothing`);
    await tx.execute(sql`
      insert into filing_syncs (agency_id, enterprise_id, filing_month, nsrlx, synced_at)
      select c.agency_id, c.enterprise_id, c.filing_month, '1', now()
      from filing_cells c where c.agency_id = ${data.agencyId} and c.filing_month = ${ROSTER_MONTH}
      group by c.agency_id, c.enterprise_id, c.filing_month
      on conflict do nothing`);
  });
  const [row] = (
    (await owner.execute(
      sql`select count(*)::int as n from filing_cells where agency_id = ${data.agencyId} and filing_month = ${ROSTER_MONTH}`,
    )) as unknown as { rows: { n: number }[] }
  ).rows;
  expectThat(row?.n === ROSTER_CELLS, `seeded ${row?.n} roster cells, expected ${ROSTER_CELLS}`);
}

const FILTER: FilingFilter = { filingMonth: ROSTER_MONTH, keyword: '', failedOnly: false };

/** Page 1 of the roster as the call runs it (total, page ids, rows with their cells). */
export function rosterPageSql(env: BenchEnv) {
  const session = adminCtx(env);
  return inScope(env.db.app, { agencyId: env.data.agencyId, userId: env.data.adminId, kjgcId: null }, (tx) =>
    listPage(
      tx,
      {
        from: rosterFrom(ROSTER_MONTH, FILTER),
        where: rosterWhere(session, FILTER, ROSTER_MONTH),
        sort: ROSTER_SORT,
        ask: { pageNo: 1, pageSize: 20 },
        filter: FILTER,
      },
      async (ids) => (await rowsFor(tx, env.data.agencyId, ids, ROSTER_MONTH)).map((r) => ({ ...r, id: r.aeiId })),
    ),
  );
}

/** The per-state counts as the call runs them (the aggregate over the month's returns). */
export function rosterCountsSql(env: BenchEnv) {
  return inScope(env.db.app, { agencyId: env.data.agencyId, userId: env.data.adminId, kjgcId: null }, (tx) =>
    stateCounts(tx, adminCtx(env), FILTER, ROSTER_MONTH),
  );
}
