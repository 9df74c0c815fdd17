import { CODE, type FilingSyncRate, filingSyncRateCall, filingSyncStartCall } from '@dzy/shared';
import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { inScope } from '../../apps/server/src/db/client.js';
import { enterprises, etaxSessions, filingSyncBatches } from '../../apps/server/src/db/schema/index.js';
import { encrypt } from '../../apps/server/src/lib/crypto.js';
import { defineScenario, expectThat } from '../scenario.js';

const N = 2000;
process.env.CHECK_CONCURRENCY ??= '40';
/** C: the sync's cap per agency (FILING_CONCURRENCY, else the batch check's CHECK_CONCURRENCY). */
const C = Number(process.env.FILING_CONCURRENCY ?? process.env.CHECK_CONCURRENCY);
/** Bureau calls per client, one after the other (filing.jobs.ts): e-tax login, then the roster (sbqc). */
const CALLS_PER_CLIENT = 2;
const MONTH = '2026-04';

const s1 = (ms: number) => (ms / 1000).toFixed(1);

// 同步申报状态 of 2,000 of the bench agency's clients against the simulated bureau at 200 ms per call
// (BENCH_TAX_LATENCY_MS), measured once, against the floor calls × N × latency / C; then getSbStatus of
// that sync is measured as API and SQL.
export default defineScenario({
  name: 'roster sync 2k',
  title: `POST /api/${filingSyncStartCall.path} of ${N} clients, once (cap C=${C}) | API and SQL: getSbStatus`,
  async prepare(env) {
    const { agencyId, adminId, adminPhone } = env.data;
    const scope = { agencyId, userId: adminId, kjgcId: null };
    const latencyMs = Number(process.env.BENCH_TAX_LATENCY_MS ?? 200);
    const cookie = await env.login(adminPhone);

    // 2,000 clients with e-tax credentials and a membership in force; no cached bureau session (2 calls each).
    const ids = await inScope(env.db.app, scope, async (tx) => {
      const rows = await tx
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt), ne(enterprises.qysh, '')))
        .orderBy(asc(enterprises.id))
        .limit(N);
      const list = rows.map((r) => r.id);
      await tx
        .update(enterprises)
        .set({
          xdzswjDlzh: 'bsy01',
          xdzswjPassEnc: encrypt(env.config.secretKey, 'Etax@2026'),
          xdzswjSfbm: '1',
          loginType: '0',
          hydqsj: null,
          qyzt: '1',
          serviceStatus: '1',
        })
        .where(inArray(enterprises.id, list));
      await tx.delete(etaxSessions).where(eq(etaxSessions.agencyId, agencyId));
      return list;
    });
    expectThat(ids.length === N, `the bench agency has ${ids.length} clients with a tax number`);

    const t0 = performance.now();
    const started = await env.call<FilingSyncRate>(
      filingSyncStartCall.path,
      { filingMonth: MONTH, scope: 'selected', aeiIds: ids },
      cookie,
    );
    expectThat(started.code === CODE.OK, `sync answered ${started.code} ${started.msg}`);
    const startMs = performance.now() - t0;
    const batchId = started.data.batchId;
    let rate = started.data;
    while (rate.state === 'running') {
      await new Promise((res) => setTimeout(res, 200));
      const r = await env.call<FilingSyncRate>(filingSyncRateCall.path, { batchId }, cookie);
      expectThat(r.code === CODE.OK, `getSbStatus answered ${r.code}`);
      rate = r.data;
    }
    const wallMs = performance.now() - t0;
    expectThat(rate.completeNum === N, `${rate.completeNum} of ${N} synced`);
    expectThat(rate.successNum === N, `${rate.failNum} of ${N} failed`);

    const floorMs = (CALLS_PER_CLIENT * N * latencyMs) / C;
    return {
      api: { method: 'POST', path: `/api/${filingSyncRateCall.path}`, headers: { cookie }, body: { batchId } },
      sql: () =>
        inScope(env.db.app, scope, async (tx) => {
          const [b] = await tx.select().from(filingSyncBatches).where(eq(filingSyncBatches.id, batchId));
          if (b?.successNum !== N) throw new Error(`sync shows ${b?.successNum}`);
        }),
      notes: [
        `C = ${C}, ${N} clients, simulator ${latencyMs} ms per call, all ${N} synced`,
        `wall ${s1(wallMs)} s (the start call itself ${s1(startMs)} s: batch, ${N} result rows and ${N} jobs)`,
        `floor ${CALLS_PER_CLIENT} calls × ${N} × ${latencyMs / 1000} s / C = ${s1(floorMs)} s → ratio ` +
          `${(wallMs / floorMs).toFixed(2)} (goal ≤ 1.2)`,
      ],
    };
  },
});
