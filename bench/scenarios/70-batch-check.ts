import { type CheckRate, CODE, checkCountCall, checkRateCall, checkStartCall, defaultSsq } from '@dzy/shared';
import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { inScope } from '../../apps/server/src/db/client.js';
import { checkBatches, enterprises } from '../../apps/server/src/db/schema/index.js';
import { encrypt } from '../../apps/server/src/lib/crypto.js';
import { defineScenario, expectThat } from '../scenario.js';

/** Enterprises in the batch, and the cap C (the runner reads CHECK_CONCURRENCY when the server starts). */
const N = 2000;
process.env.CHECK_CONCURRENCY ??= '40';
const C = Number(process.env.CHECK_CONCURRENCY);
/**
 * Bureau calls per enterprise that passes, one after another (check.service.ts): e-tax login,
 * personal-tax login, taxpayer info, registrations, to-dos, unfiled, arrears, filed this period.
 */
const CALLS_PER_ENTERPRISE = 8;

const s1 = (ms: number) => (ms / 1000).toFixed(1);

// A batch check of 2,000 of the bench agency's clients against the simulated bureau at 200 ms per call
// (BENCH_TAX_LATENCY_MS), measured once; then getRate of that batch is measured as API and SQL.
export default defineScenario({
  name: 'batch check 2k',
  title: `POST /api/${checkStartCall.path} of ${N} enterprises, once (cap C=${C}) | API and SQL: getRate`,
  async prepare(env) {
    const { agencyId, adminId, adminPhone } = env.data;
    const scope = { agencyId, userId: adminId, kjgcId: null };
    const latencyMs = Number(process.env.BENCH_TAX_LATENCY_MS ?? 200);
    const cookie = await env.login(adminPhone);

    // 2,000 clients with e-tax and personal-tax credentials and a membership in force.
    const ids = await inScope(env.db.app, scope, async (tx) => {
      const rows = await tx
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt), ne(enterprises.qysh, '')))
        .orderBy(asc(enterprises.id))
        .limit(N);
      const list = rows.map((r) => r.id);
      const key = env.config.secretKey;
      await tx
        .update(enterprises)
        .set({
          xdzswjDlzh: 'bsy01',
          xdzswjPassEnc: encrypt(key, 'Etax@2026'),
          xdzswjSfbm: '1',
          loginType: '0',
          dlfs: '1',
          reportPasswordEnc: encrypt(key, 'Gs@2026'),
          hydqsj: null,
          qyzt: '1',
          serviceStatus: '1',
        })
        .where(inArray(enterprises.id, list));
      return list;
    });
    expectThat(ids.length === N, `the bench agency has ${ids.length} clients with a tax number`);

    const t0 = performance.now();
    const started = await env.call<CheckRate>(
      checkStartCall.path,
      { ssq: defaultSsq(), scope: 'selected', aeiIds: ids },
      cookie,
    );
    expectThat(started.code === CODE.OK, `check answered ${started.code} ${started.msg}`);
    const startMs = performance.now() - t0;
    const batchId = started.data.batchId;
    let rate = started.data;
    while (rate.isChecks !== 2) {
      await new Promise((res) => setTimeout(res, 200));
      const r = await env.call<CheckRate>(checkRateCall.path, { batchId }, cookie);
      expectThat(r.code === CODE.OK, `getRate answered ${r.code}`);
      rate = r.data;
    }
    const wallMs = performance.now() - t0;
    const counts = await env.call<{ byType: Record<string, number> }>(checkCountCall.path, { batchId }, cookie);
    expectThat(rate.completeNum === N, `${rate.completeNum} of ${N} checked`);
    expectThat(counts.data.byType['1'] === N, `outcomes ${JSON.stringify(counts.data.byType)}`);

    const nominalMs = (N * latencyMs) / C;
    const callsMs = (N * CALLS_PER_ENTERPRISE * latencyMs) / C;
    return {
      api: { method: 'POST', path: `/api/${checkRateCall.path}`, headers: { cookie }, body: { batchId } },
      sql: () =>
        inScope(env.db.app, scope, async (tx) => {
          const [b] = await tx.select().from(checkBatches).where(eq(checkBatches.id, batchId));
          if (b?.successNum !== N) throw new Error(`batch shows ${b?.successNum}`);
        }),
      notes: [
        `C = ${C} (CHECK_CONCURRENCY), ${N} enterprises, simulator ${latencyMs} ms per call, all ${N} passed (msg_type 1)`,
        `wall ${s1(wallMs)} s (the start call itself ${s1(startMs)} s: batch, ${N} result rows and ${N} jobs)`,
        `bound ${N} × ${latencyMs / 1000} s / C = ${s1(nominalMs)} s → ratio ${(wallMs / nominalMs).toFixed(2)} ` +
          `(one call per enterprise; a check makes ${CALLS_PER_ENTERPRISE} calls one after another)`,
        `bound ${N} × ${CALLS_PER_ENTERPRISE} calls × ${latencyMs / 1000} s / C = ${s1(callsMs)} s → ratio ` +
          `${(wallMs / callsMs).toFixed(2)} (goal ≤ 1.1)`,
      ],
    };
  },
});
