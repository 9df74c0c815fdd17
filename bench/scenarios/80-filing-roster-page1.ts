import { CODE, filingRosterCall } from '@dzy/shared';
import { defineScenario, expectThat } from '../scenario.js';
import { ROSTER_CELLS, ROSTER_CLIENTS, ROSTER_MONTH, rosterPageSql, seedRoster } from './filing-bench.js';

// 申报清册 page 1 (20 clients by name, each with its returns) for the bench agency in a month with
// 2,000 clients × 6 tax types synced; the agency's whole book (every client in service) is listed.
export default defineScenario({
  name: 'roster page 1',
  title: `POST /api/${filingRosterCall.path} page 1 (${ROSTER_CLIENTS} clients × 6 types = ${ROSTER_CELLS} returns)`,
  seed: seedRoster,
  async prepare(env) {
    const cookie = await env.login(env.data.adminPhone);
    const body = { filingMonth: ROSTER_MONTH, pageNum: 1, pageSize: 20 };
    const r = await env.call<{ list: { cells: object }[]; total: number }>(filingRosterCall.path, body, cookie);
    expectThat(r.code === CODE.OK, `roster answered ${r.code} ${r.msg}`);
    expectThat(r.data.list.length === 20, `page 1 has ${r.data.list.length} rows`);
    const direct = await rosterPageSql(env);
    expectThat(direct.total === r.data.total, `API total ${r.data.total}, SQL ${direct.total}`);
    return {
      api: { method: 'POST', path: `/api/${filingRosterCall.path}`, headers: { cookie }, body },
      sql: async () => {
        const p = await rosterPageSql(env);
        if (p.list.length !== 20) throw new Error(`page has ${p.list.length}`);
      },
      notes: [`${r.data.total} clients in the book, ${ROSTER_CLIENTS} with returns this month; 20 a page`],
    };
  },
});
