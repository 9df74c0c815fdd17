import { CODE, CUSTOMER_FILES, customerListCall, IMPORT_COLUMNS, importProgressCall } from '@dzy/shared';
import { and, eq, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { inScope } from '../../apps/server/src/db/client.js';
import { enterprises } from '../../apps/server/src/db/schema/index.js';
import { type BenchEnv, defineScenario, expectThat } from '../scenario.js';
import { listSql } from './customer-bench.js';

const ROWS = 10_000;

/** A 10,000-row import file with unique tax numbers (prefix marks the run). */
async function importFile(prefix: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('客户导入');
  ws.addRow([...IMPORT_COLUMNS]);
  for (let i = 0; i < ROWS; i++) {
    ws.addRow([
      `基准导入${prefix}${i}号商贸有限公司`,
      `${prefix}${String(i).padStart(10, '0')}`,
      i % 3 === 0 ? '一般纳税人' : '小规模纳税人',
      '浙江省',
      '杭州市',
      '西湖区',
      `文三路${i}号`,
      '',
      '',
      '',
      '',
      `联系人${i}`,
      `139${String(i).padStart(8, '0')}`,
      '',
    ]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(env: BenchEnv, cookie: string, file: Buffer): Promise<{ jobId: number; uploadMs: number }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'bench.xlsx');
  const t0 = performance.now();
  const res = await fetch(`${env.baseUrl}/api/${CUSTOMER_FILES.importUpload}`, {
    method: 'POST',
    headers: { cookie, 'sec-fetch-site': 'same-origin' },
    body: form,
  });
  const json = (await res.json()) as { code: number; msg: string; data: { jobId: number } };
  expectThat(json.code === CODE.OK, `import upload answered ${json.code} ${json.msg}`);
  return { jobId: json.data.jobId, uploadMs: performance.now() - t0 };
}

async function waitDone(env: BenchEnv, cookie: string, jobId: number) {
  for (;;) {
    const r = await env.call<{ state: string; result: { successNum: number; failNum: number } | null }>(
      importProgressCall.path,
      { jobId },
      cookie,
    );
    expectThat(r.code === CODE.OK, `progress answered ${r.code}`);
    if (r.data.state === 'done' || r.data.state === 'failed') return r.data;
    await new Promise((res) => setTimeout(res, 100));
  }
}

const removeImported = (env: BenchEnv, prefix: string) =>
  inScope(env.db.app, { agencyId: env.data.agencyId, userId: env.data.adminId, kjgcId: null }, (tx) =>
    tx
      .delete(enterprises)
      .where(and(eq(enterprises.agencyId, env.data.agencyId), like(enterprises.qysh, `${prefix}%`))),
  );

/** Sends GET /api/health one after another until stopped; the latencies' p50, p99 and max. */
function sampleHealth(baseUrl: string) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${baseUrl}/api/health`);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
      return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN };
    },
  };
}

const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;

// One 10,000-row import measured once (seconds, peak memory); then the list is measured while a second
// 10,000-row import runs, to show an import does not hold up other requests.
export default defineScenario({
  name: 'customer import 10k',
  title: `upload ${CUSTOMER_FILES.importUpload} + job, once | API and SQL: list page 1 while another import runs`,
  async prepare(env) {
    const cookie = await env.login(env.data.adminPhone);
    const notes: string[] = [];
    const file = await importFile('IMPA');
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    const t0 = performance.now();
    const { jobId, uploadMs } = await upload(env, cookie, file);
    // The server's own responsiveness meanwhile: /api/health one after another until the import ends.
    const health = sampleHealth(env.baseUrl);
    const done = await waitDone(env, cookie, jobId);
    const totalMs = performance.now() - t0;
    const h = await health.stop();
    clearInterval(sampler);
    expectThat(done.state === 'done' && done.result?.successNum === ROWS, `import gave ${JSON.stringify(done)}`);
    notes.push(
      `import of ${ROWS.toLocaleString('en')} rows (${(file.length / 1024).toFixed(0)} KB): ` +
        `upload and checks ${(uploadMs / 1000).toFixed(1)} s, whole import ${(totalMs / 1000).toFixed(1)} s; ` +
        `peak RSS ${mb(peakRss)} (+${mb(peakRss - before.rss)}), main-thread heap peak ${mb(peakHeap)} (+${mb(peakHeap - before.heapUsed)})`,
      `/api/health during that import: ${h.count} requests, p50 ${h.p50.toFixed(1)} ms, p99 ${h.p99.toFixed(1)} ms, max ${h.max.toFixed(1)} ms`,
    );
    await removeImported(env, 'IMPA');

    // The second import runs while the list is measured; its figures are added when it finishes.
    const second = await importFile('IMPB');
    const s0 = performance.now();
    const { jobId: secondJob } = await upload(env, cookie, second);
    // Awaited by the runner (settle) before the next scenario, so no poll outlives the server.
    const secondDone = waitDone(env, cookie, secondJob).then(async (r) => {
      notes.push(
        `second import (running under the list load) finished in ${((performance.now() - s0) / 1000).toFixed(1)} s: ${r.result?.successNum ?? 0} rows`,
      );
      await removeImported(env, 'IMPB');
    });
    await listSql(env, 1);
    return {
      api: {
        method: 'POST',
        path: `/api/${customerListCall.path}`,
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
        body: { pageNo: 1, pageSize: 20 },
      },
      sql: () => listSql(env, 1),
      notes,
      settle: () => secondDone,
    };
  },
});
