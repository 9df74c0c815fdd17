import { CODE, type FilingCounts, filingCountsCall } from '@dzy/shared';
import { defineScenario, expectThat } from '../scenario.js';
import { ROSTER_CELLS, ROSTER_CLIENTS, ROSTER_MONTH, rosterCountsSql, seedRoster } from './filing-bench.js';

// The per-state counts at the top of 申报清册 (clients with a return in each state) over 12,000 returns.
export default defineScenario({
  name: 'roster counts',
  title: `POST /api/${filingCountsCall.path} (${ROSTER_CLIENTS} clients × 6 types = ${ROSTER_CELLS} returns)`,
  seed: seedRoster,
  async prepare(env) {
    const cookie = await env.login(env.data.adminPhone);
    const body = { filingMonth: ROSTER_MONTH };
    const r = await env.call<FilingCounts>(filingCountsCall.path, body, cookie);
    expectThat(r.code === CODE.OK, `counts answered ${r.code} ${r.msg}`);
    const direct = await rosterCountsSql(env);
    expectThat(
      JSON.stringify(direct) === JSON.stringify(r.data.byState),
      `API ${JSON.stringify(r.data.byState)}, SQL ${JSON.stringify(direct)}`,
    );
    expectThat(
      Object.values(direct).every((n) => n > 0 && n <= ROSTER_CLIENTS),
      `counts ${JSON.stringify(direct)}`,
    );
    return {
      api: { method: 'POST', path: `/api/${filingCountsCall.path}`, headers: { cookie }, body },
      sql: () => rosterCountsSql(env),
      notes: [
        `byState ${JSON.stringify(r.data.byState)}; the API also counts the clients (total, unsynced, failed): one more aggregate`,
      ],
    };
  },
});
