import { CODE, CUSTOMER_FILES, importProgressCall, PWD_IMPORT_COLUMNS } from '@dzy/shared';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { decrypt } from '../src/lib/crypto.js';
import { saveRows } from '../src/modules/customer/customer.jobs.js';
import { multipart, readSheet, xlsx } from './customer-helpers.js';
import { useResumeRig } from './resume-helpers.js';

const rig = useResumeRig({ dirPrefix: 'dzy-pwd-import-resume-' });
type Progress = {
  state: string;
  done: number;
  result: { successNum: number; failNum: number; redisKey: string } | null;
};

/**
 * 导入账号密码 as a job, killed between two batches (the first committed with its progress, the process
 * gone, the job still running with a lapsed lease and its rows on disk): a new server goes on after the
 * committed batch, so every row is counted once and the failure file lists each refused row once.
 */
describe('a password import survives its server', () => {
  it('goes on after the last committed batch on a new server', async () => {
    const first = await rig.open(true);
    const admin = await first.login('13800000000');
    const ents = await rig.owner<{ id: number; qysh: string }>(
      first.db,
      "select id, qysh from enterprises where agency_id = 1 and deleted_at is null and qysh <> '' order by id limit 2",
    );
    const total = 250;
    const rows = Array.from({ length: total }, (_, i) =>
      PWD_IMPORT_COLUMNS.map((_c, j) => {
        if (j === 0) return i < 2 ? (ents[i]?.qysh ?? '') : `NOSUCH${String(i).padStart(6, '0')}`;
        return j === 2 ? `Resume#${i}` : '';
      }),
    );
    const body = multipart({ name: '账号密码.xlsx', data: await xlsx(PWD_IMPORT_COLUMNS, rows) });
    const res = await first.app.inject({
      method: 'POST',
      url: `/api/${CUSTOMER_FILES.pwdUpload}`,
      headers: { ...body.headers, cookie: admin },
      payload: body.payload,
    });
    const started = res.json() as { code: number; data: { jobId: number } };
    expect(started.code).toBe(CODE.OK);
    const jobId = started.data.jobId;
    for (let i = 0; i < 600; i++) {
      const p = await first.call<Progress>(importProgressCall.path, { jobId }, admin);
      if (p.data.state === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await first.close();

    // What kill -9 after the first batch leaves: its rows and progress committed, the job running, lease lapsed.
    const db = await openDatabase(rig.config);
    const sheetRows = rows.map((cells, i) => ({ line: i + 2, cells }));
    const firstBatch = 100;
    const failed = sheetRows.slice(2, firstBatch).map((r) => ({
      line: r.line,
      qysh: r.cells[0],
      reason: '未找到该税号的客户，或您无权访问',
    }));
    await rig.owner(
      db,
      `update jobs set state = 'running', locked_until = now() - interval '1 second', finished_at = null,
         result = null, progress = $2::jsonb where id = $1`,
      [jobId, JSON.stringify({ phase: 'insert', total, done: firstBatch, successNum: 2, failed })],
    );
    await db.close();
    const key = (
      await (async () => {
        const d = await openDatabase(rig.config);
        const [j] = await rig.owner<{ key: string }>(d, 'select key from jobs where id = $1', [jobId]);
        await d.close();
        return j;
      })()
    )?.key;
    await saveRows({ config: rig.config }, 1, key ?? '', sheetRows, true);

    const second = await rig.open(false);
    const admin2 = await second.login('13800000000');
    let last: Progress | null = null;
    for (let i = 0; i < 900; i++) {
      last = (await second.call<Progress>(importProgressCall.path, { jobId }, admin2)).data;
      if (last.state === 'done' && last.result) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(last?.state).toBe('done');
    expect([last?.result?.successNum, last?.result?.failNum]).toEqual([2, total - 2]);
    const fail = await second.app.inject({
      method: 'GET',
      url: `/api/${CUSTOMER_FILES.pwdFailList}?redisKey=${last?.result?.redisKey}`,
      headers: { cookie: admin2 },
    });
    const lines = (await readSheet(fail.rawPayload)).slice(1).map((r) => Number(r[0]));
    expect(lines.length).toBe(total - 2);
    expect(new Set(lines).size).toBe(total - 2);
    const [stored] = await rig.owner<{ enc: string }>(
      second.db,
      'select xdzswj_pass_enc as enc from enterprises where id = $1',
      [ents[0]?.id],
    );
    expect(decrypt(rig.config.secretKey, stored?.enc ?? '')).toBe('Resume#0');
    await second.close();
  }, 600_000);
});
