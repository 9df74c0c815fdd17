import { CODE, CUSTOMER_FILES, IMPORT_MSG } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { inScope } from '../../apps/server/src/db/client.js';
import { zipBomb } from '../../apps/server/test/zip-helpers.js';
import { type BenchEnv, defineScenario, expectThat } from '../scenario.js';

const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;

async function upload(env: BenchEnv, cookie: string, file: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'bomb.xlsx');
  const res = await fetch(`${env.baseUrl}/api/${CUSTOMER_FILES.importUpload}`, {
    method: 'POST',
    headers: { cookie, 'sec-fetch-site': 'same-origin' },
    body: form,
  });
  return (await res.json()) as { code: number; msg: string };
}

// Zip bombs (under 200 KB, 60 MB inflated) uploaded as a client import: two at once from one agency and
// one from another, while the process's peak memory is sampled. Each must be refused with the message,
// and the server's memory must stay within +150 MB. API and SQL: /api/health and `select 1`, for the table.
export default defineScenario({
  name: 'zip bomb',
  title: `3 zip bombs to ${CUSTOMER_FILES.importUpload} at once, peak RSS | API: GET /api/health, SQL: select 1`,
  async prepare(env) {
    const [admin, other] = [
      await env.login(env.data.adminPhone),
      await env.login(env.data.adminPhone), // one agency, two sessions: the per-agency rule applies
    ];
    const bomb = zipBomb();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const t0 = performance.now();
    const replies = await Promise.all([upload(env, admin, bomb), upload(env, other, bomb)]);
    replies.push(await upload(env, admin, bomb));
    const ms = performance.now() - t0;
    clearInterval(sampler);
    const msgs = replies.map((r) => r.msg);
    expectThat(
      replies.every((r) => r.code === CODE.BAD_REQUEST) && msgs.filter((m) => m === IMPORT_MSG.tooBig).length >= 2,
      `bombs answered ${msgs.join(' / ')}`,
    );
    return {
      api: { method: 'GET', path: '/api/health' },
      sql: () => inScope(env.db.app, { agencyId: null, userId: null, kjgcId: null }, (tx) => tx.execute(sql`select 1`)),
      notes: [
        `${(bomb.length / 1024).toFixed(0)} KB bomb (60 MB inflated) ×3 in ${ms.toFixed(0)} ms: ${msgs.join(' / ')}`,
        `peak RSS ${mb(peak)} (+${mb(peak - before)} over ${mb(before)})`,
      ],
    };
  },
});
