import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  allowedRates,
  batchRateCall,
  billingSummaryCall,
  CODE,
  confirmPlanCall,
  type FilingRunRate,
  type FilingSyncRate,
  filingSyncRateCall,
  filingSyncStartCall,
  INVOICE_BATCH_COLUMNS,
  INVOICE_OUT_FILES,
  payPlanCall,
  runRateCall,
  type SaveSbqcReply,
  saveSbqcCall,
} from '@dzy/shared';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { multipart } from './customer-helpers.js';
import { buyerTaxNo, CODE_CATERING } from './invoice-helpers.js';
import { credentialDemoClients, type ResumeServer, useResumeRig, waitForFinish } from './resume-helpers.js';

// A small cap and a short lease: the jobs of a killed server are taken again within seconds.
process.env.FILING_CONCURRENCY = '3';
process.env.FILING_LEASE_SECONDS = '2';

/** October 2026: monthly and Q3 quarterly returns due. */
const TODAY = '2026-10-12';
const MONTH = '2026-10';
const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * Exactly once without leaning on the bureau (issue 26 point 6): the real server process is killed with
 * SIGKILL while the bureau has done the work (a return filed, a tax paid, an invoice issued) and its answer
 * has not come back (the simulator's hangAfter switch). A new server on the same database resumes; what may
 * have reached the bureau is asked for first (sbztcx, jkztcx, fp/kpcx) and sent only when the bureau does
 * not have it. The simulator counts every submission it received, refused duplicates included: after the
 * crash, submissions = returns (payments, invoices).
 */
const rig = useResumeRig({ dirPrefix: 'dzy-exactly-once-', today: TODAY });

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

/** The server as its own process (from the sources, tsx) on the rig's database and simulator. */
async function spawnServer(): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  // node itself with tsx's loader (not the tsx wrapper, whose SIGKILL would leave the server running).
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: rig.config.dataDir,
      DATABASE_URL: rig.config.databaseUrl ?? '',
      TAX_BUREAU_URL: rig.sim.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { base, child };
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function kill(child: ChildProcess) {
  const gone = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGKILL');
  await gone;
  expect(child.signalCode).toBe('SIGKILL');
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/userext/v1.0/common/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: '1', account: '13800000000', password: DEMO_PASSWORD }),
  });
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith('dzy_session='))
    ?.split(';')[0] as string;
}

async function post<T>(base: string, path: string, body: unknown, cookie: string) {
  const res = await fetch(`${base}/api/${path}`, {
    method: 'POST',
    // As the product's page sends it: a cookie state change names its origin (plugins/security.ts).
    headers: { 'content-type': 'application/json', cookie, origin: base },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: T };
}

/** Waits until `read` says so (every 100 ms, up to 120 s). */
async function until(read: () => boolean | Promise<boolean>, what: string) {
  const end = Date.now() + 120_000;
  while (!(await read())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('exactly once at the bureau after kill -9', () => {
  let planId = 0;
  let fileRun = '';

  it('filing: a return submitted before the crash is asked for, not submitted again', async () => {
    const first: ResumeServer = await rig.open(true);
    await credentialDemoClients(rig, first.db, 'unfiled');
    const admin = await first.login('13800000000');
    const sync = await first.call<FilingSyncRate>(filingSyncStartCall.path, { filingMonth: MONTH }, admin);
    expect(sync.code, sync.msg).toBe(CODE.OK);
    await waitForFinish(
      async () =>
        (await first.call<FilingSyncRate>(filingSyncRateCall.path, { batchId: sync.data.batchId }, admin)).data,
      (r) => r.state !== 'running',
    );
    const plan = await first.call<SaveSbqcReply>(
      saveSbqcCall.path,
      { filingMonth: MONTH, taxTypes: ['zzs', 'grsds', 'yhs'] },
      admin,
    );
    expect(plan.code, plan.msg).toBe(CODE.OK);
    planId = plan.data.planId;
    const gen = await waitForFinish(
      async () => (await first.call<FilingRunRate>(runRateCall.path, { redisKey: plan.data.redisKey }, admin)).data,
      (r) => r.state !== 'running',
    );
    expect(gen?.state).toBe('done');
    // Two clients whose first submission the bureau carries out and never answers.
    const hung = await rig.owner<{ qysh: string; n: number }>(
      first.db,
      `select e.qysh, count(*)::int as n from filing_plan_items i join enterprises e on e.id = i.enterprise_id
        where i.plan_id = $1 and i.state = 'planned' group by e.qysh having count(*) >= 2 order by e.qysh limit 2`,
      [planId],
    );
    expect(hung.length).toBe(2);
    await first.close();

    for (const h of hung) rig.sim.faults.set({ hangAfter: 'always' }, h.qysh, 'ShenBaoQG/sbtj');
    const before = rig.sim.submissions().sbtj;
    const { base, child } = await spawnServer();
    try {
      const cookie = await signIn(base);
      const confirm = await post<{ redisKey: string; total: number }>(
        base,
        confirmPlanCall.path,
        { planId, lateNotice: true },
        cookie,
      );
      expect(confirm.code, confirm.msg).toBe(CODE.OK);
      fileRun = confirm.data.redisKey;
      // Killed while both wait for the answer to a return the bureau has filed.
      await until(() => hung.every((h) => rig.sim.submissions(h.qysh).sbtj >= 1), 'the hung submissions');
    } finally {
      await kill(child);
      rig.sim.faults.clear();
    }
    for (const h of hung) expect(rig.sim.submissions(h.qysh).sbtj).toBe(1);

    const second = await rig.open(false);
    try {
      const admin2 = await second.login('13800000000');
      const rate = await waitForFinish(
        async () => (await second.call<FilingRunRate>(runRateCall.path, { redisKey: fileRun }, admin2)).data,
        (r) => r.state !== 'running',
      );
      expect(rate?.state).toBe('done');
      const items = await rig.owner<{ qysh: string; tax_type: string; skssqq: string; state: string; pzxh: string }>(
        second.db,
        `select e.qysh, i.tax_type, i.skssqq, i.state, i.pzxh from filing_plan_items i
           join enterprises e on e.id = i.enterprise_id where i.run_id = $1`,
        [Number(fileRun)],
      );
      expect(items.length).toBeGreaterThan(20);
      expect(items.filter((i) => i.state !== 'filed' && i.state !== 'rejected')).toEqual([]);
      // Submissions = returns: every return of the run reached the bureau once, none twice.
      expect(rig.sim.submissions().sbtj - before).toBe(items.length);
      const at = new Map(rig.sim.filings().map((f) => [`${f.qysh}|${f.type}|${f.skssqq}`, f]));
      for (const i of items.filter((x) => x.state === 'filed'))
        expect(at.get(`${i.qysh}|${i.tax_type}|${i.skssqq}`)?.submits).toBe(1);
      expect(rig.sim.filings().filter((f) => f.submits !== 1)).toEqual([]);
      // The hung clients' returns: filed, with the bureau's own receipt.
      const theirs = items.filter((i) => hung.some((h) => h.qysh === i.qysh));
      expect(theirs.length).toBe(hung.reduce((n, h) => n + h.n, 0));
      for (const i of theirs) {
        const f = at.get(`${i.qysh}|${i.tax_type}|${i.skssqq}`);
        if (i.state === 'filed') expect(i.pzxh).toBe(f?.pzxh);
        expect(f?.filed).toBe(i.state === 'filed' ? 1 : 0);
      }
      expect(theirs.filter((i) => i.state === 'filed').length).toBeGreaterThanOrEqual(2);
    } finally {
      await second.close();
    }
  }, 420_000);

  it('paying: a payment sent before the crash is asked for, not paid again', async () => {
    expect(planId).toBeGreaterThan(0);
    const s = await rig.open(false);
    const toPay = await rig.owner<{ qysh: string }>(
      s.db,
      `select distinct e.qysh from filing_plan_items i join enterprises e on e.id = i.enterprise_id
        where i.plan_id = $1 and i.state = 'filed' and i.ybtse > 0 and i.pay_state = 'none' order by e.qysh`,
      [planId],
    );
    await s.close();
    expect(toPay.length).toBeGreaterThan(2);
    const hung = toPay.slice(0, 2).map((r) => r.qysh);
    for (const q of hung) {
      rig.sim.setPayment(q, 'ok');
      rig.sim.faults.set({ hangAfter: 'always' }, q, 'ShenBaoQG/jk');
    }
    const before = rig.sim.submissions().jk;
    let payRun = '';
    let total = 0;
    const { base, child } = await spawnServer();
    try {
      const cookie = await signIn(base);
      const r = await post<{ redisKey: string; total: number }>(base, payPlanCall.path, { planId }, cookie);
      expect(r.code, r.msg).toBe(CODE.OK);
      payRun = r.data.redisKey;
      total = r.data.total;
      await until(() => hung.every((q) => rig.sim.submissions(q).jk >= 1), 'the hung payments');
    } finally {
      await kill(child);
      rig.sim.faults.clear();
    }

    const second = await rig.open(false);
    try {
      const admin2 = await second.login('13800000000');
      const rate = await waitForFinish(
        async () => (await second.call<FilingRunRate>(runRateCall.path, { redisKey: payRun }, admin2)).data,
        (r) => r.state !== 'running',
      );
      expect(rate?.state).toBe('done');
      const items = await rig.owner<{ qysh: string; tax_type: string; skssqq: string; pay_state: string }>(
        second.db,
        `select e.qysh, i.tax_type, i.skssqq, i.pay_state from filing_plan_items i
           join enterprises e on e.id = i.enterprise_id where i.run_id = $1`,
        [Number(payRun)],
      );
      expect(items.length).toBe(total);
      expect(items.filter((i) => i.pay_state === 'paying' || i.pay_state === 'none')).toEqual([]);
      // Submissions = payments: one 缴款 per return of the run, none twice.
      expect(rig.sim.submissions().jk - before).toBe(total);
      const at = new Map(rig.sim.filings().map((f) => [`${f.qysh}|${f.type}|${f.skssqq}`, f]));
      for (const i of items) expect(at.get(`${i.qysh}|${i.tax_type}|${i.skssqq}`)?.payCalls).toBe(1);
      for (const i of items.filter((x) => hung.includes(x.qysh))) {
        expect(i.pay_state).toBe('paid');
        expect(at.get(`${i.qysh}|${i.tax_type}|${i.skssqq}`)?.paid).toBe(1);
      }
      const ledger = await rig.owner<{ n: number }>(
        second.db,
        `select count(*)::int as n from filed_returns f join enterprises e on e.id = f.enterprise_id
          where e.qysh = any(string_to_array($1, ',')) and f.dzsphm <> ''`,
        [hung.join(',')],
      );
      expect(ledger[0]?.n).toBe(items.filter((x) => hung.includes(x.qysh)).length);
    } finally {
      await second.close();
    }
  }, 420_000);

  it('invoicing: an invoice issued before the crash is asked for by its request id, not issued again', async () => {
    const s = await rig.open(false);
    const [client] = await rig.owner<{ id: number; qysh: string }>(
      s.db,
      `select e.id, e.qysh from enterprises e
        where e.agency_id = (select m.agency_id from memberships m join users u on u.id = m.user_id
                              where u.phone = '13800000000' and m.is_admin limit 1)
          and e.deleted_at is null and e.qysh <> '' and e.service_status = '1' order by e.id limit 1`,
    );
    if (!client) throw new Error('no client');
    const admin = await s.login('13800000000');
    const sum = await s.call<{ nsrlx: '0' | '1' }>(billingSummaryCall.path, { aeiId: client.id, month: MONTH }, admin);
    expect(sum.code, sum.msg).toBe(CODE.OK);
    await s.close();
    const N = 3;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('批量开票');
    ws.addRow([...INVOICE_BATCH_COLUMNS]);
    const rate = allowedRates(CODE_CATERING, sum.data.nsrlx)[0] === '0.06' ? '6%' : '3%';
    for (let i = 1; i <= N; i++)
      ws.addRow([
        String(i),
        '普票',
        `断电测试${i}`,
        buyerTaxNo,
        CODE_CATERING,
        '午餐',
        '',
        '',
        '',
        '',
        '100',
        rate,
        '',
      ]);
    const file = Buffer.from(await wb.xlsx.writeBuffer());

    rig.sim.faults.set({ hangAfter: 'always' }, client.qysh, 'fp/kp');
    const before = rig.sim.submissions(client.qysh).kp;
    let runId = 0;
    const { base, child } = await spawnServer();
    try {
      const cookie = await signIn(base);
      const body = multipart({ name: '批量开票.xlsx', data: file });
      const res = await fetch(`${base}/api/${INVOICE_OUT_FILES.batchUpload}?aeiId=${client.id}`, {
        method: 'POST',
        headers: { ...body.headers, cookie, origin: base },
        body: body.payload,
      });
      const up = (await res.json()) as { code: number; msg: string; data: { runId: number; total: number } };
      expect(up.code, up.msg).toBe(CODE.OK);
      runId = up.data.runId;
      await until(() => rig.sim.submissions(client.qysh).kp > before, 'the hung invoice');
    } finally {
      await kill(child);
      rig.sim.faults.clear();
    }

    const second = await rig.open(false);
    try {
      const admin2 = await second.login('13800000000');
      const rate2 = await waitForFinish(
        async () =>
          (
            await second.call<{ state: string; successNum: number; failNum: number }>(
              batchRateCall.path,
              { runId },
              admin2,
            )
          ).data,
        (r) => r.state !== 'running',
      );
      expect(rate2).toMatchObject({ state: 'done', successNum: N, failNum: 0 });
      // Submissions = invoices: N calls of fp/kp, the one before the crash not sent again.
      expect(rig.sim.submissions(client.qysh).kp - before).toBe(N);
      const stored = await rig.owner<{ n: number }>(
        second.db,
        `select count(*)::int as n from invoices where enterprise_id = $1 and cp_name like '断电测试%'`,
        [client.id],
      );
      expect(stored[0]?.n).toBe(N);
      const reqs = await rig.owner<{ state: string; n: number }>(
        second.db,
        'select state, count(*)::int as n from invoice_requests where run_id = $1 group by state',
        [runId],
      );
      expect(reqs).toEqual([{ state: 'done', n: N }]);
    } finally {
      await second.close();
    }
  }, 420_000);
});
