import {
  type BureauInvoice,
  CODE,
  fpPoolStatusCall,
  httpBureauClient,
  type InvoiceRunStatus,
  inputConfirmV3Call,
  insertOrUpdateBatchFpJxfpZpCall,
  queryFpJxfpCall,
  queryFpXxfpCall,
  queryStatisticFpXxfpByFppzCall,
  type SendTaskReply,
  searchJXxDataCall,
  searchJxppDataCall,
  selectFpJxfpZpDetailListCall,
  selectFpJxfpZpListCall,
  sendTaskToFpPoolCall,
  taxYuanToFen,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { fromBureau } from '../src/modules/invoice-pool/invoice-pool.repo.js';
import { saveInvoices } from '../src/modules/invoice-store/invoice-store.js';
import { credentialDemoClients, type ResumeServer, stopMidway, useResumeRig } from './resume-helpers.js';

// A small cap, a short lease and small pages: a job whose worker died is taken again within seconds, and a
// client's month takes several pages (a job killed between two pages leaves part of the month saved).
process.env.INVOICE_CONCURRENCY = '3';
process.env.INVOICE_LEASE_SECONDS = '2';
process.env.INVOICE_COLLECT_PAGE_SIZE = '100';

const TODAY = '2026-11-12';
const MONTH = '2026-10';
const QUEUE = 'invoice-run';

const rig = useResumeRig({ dirPrefix: 'dzy-invoice-pool-', today: TODAY });

let s: ResumeServer;
let admin: string;
let clients: { id: number; qysh: string; qymc: string; agency_id: number; allocate_user: number | null }[] = [];

const fen = (y: string) => taxYuanToFen(y) ?? 0;

/** The simulator's invoices of a client's month and direction, as the bureau gives them (every page). */
const sessions = new Map<string, string>();
async function simInvoices(qysh: string, direction: 'xx' | 'jx', month: string): Promise<BureauInvoice[]> {
  const bureau = httpBureauClient({ baseUrl: rig.sim.url });
  let session = sessions.get(qysh);
  if (!session) {
    const login = await bureau.etaxLogin({ qysh, account: 'bsy', password: 'Etax@2026', sfbm: '1', loginType: '0' });
    if (login.status !== 1) throw new Error(`no login for ${qysh}`);
    session = login.session;
    sessions.set(qysh, session);
  }
  return bureau.invoices(session, direction, month);
}

async function status(taskId: string, cookie = admin): Promise<InvoiceRunStatus> {
  const r = await s.call<{ list: InvoiceRunStatus[] }>(fpPoolStatusCall.path, { taskIds: [taskId] }, cookie);
  expect(r.code, r.msg).toBe(CODE.OK);
  return r.data.list[0] as InvoiceRunStatus;
}

async function finished(taskId: string, cookie = admin): Promise<InvoiceRunStatus> {
  // Longer than waitForFinish's 90 s: on the embedded database a month of 58 clients takes a while.
  const until = Date.now() + 240_000;
  let r = await status(taskId, cookie);
  while (r.state === 'running' && Date.now() < until) {
    await new Promise((res) => setTimeout(res, 200));
    r = await status(taskId, cookie);
  }
  expect(r.state).toBe('done');
  return r;
}

beforeAll(async () => {
  s = await rig.open(true);
  await credentialDemoClients(rig, s.db, 'clean');
  admin = await s.login('13800000000');
  clients = await rig.owner(
    s.db,
    `select e.id, e.qysh, e.qymc, e.agency_id, e.allocate_user from enterprises e
      where e.agency_id = (select m.agency_id from memberships m join users u on u.id = m.user_id
                            where u.phone = '13800000000' and m.is_admin limit 1)
        and e.deleted_at is null and e.qysh <> '' and e.service_status = '1' order by e.id`,
  );
}, 300_000);
afterAll(async () => {
  await s?.close().catch(() => {});
});

describe('the invoice pool', () => {
  let collectTask = '';
  let refused: (typeof clients)[number];

  it('collects a month for every client: the stored invoices are the simulator’s; a refused client fails with its reason', async () => {
    expect(clients.length).toBeGreaterThan(20);
    refused = clients[3] as (typeof clients)[number];
    rig.sim.faults.set({ refuse: 'always', refuseMsg: '发票服务暂不可用，请稍后再试' }, refused.qysh, 'fp/cxfp');
    const r = await s.call<SendTaskReply>(sendTaskToFpPoolCall.path, { month: MONTH }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.total).toBe(clients.length);
    collectTask = r.data.taskId;
    const done = await finished(collectTask);
    expect(done).toMatchObject({ totalNum: clients.length, completeNum: clients.length, failNum: 1, rate: 100 });
    expect(done.fail).toEqual([
      { aeiId: refused.id, qymc: refused.qymc, qysh: refused.qysh, msg: '发票服务暂不可用，请稍后再试' },
    ]);

    let simCount = 0;
    for (const c of clients.slice(0, 12)) {
      if (c.id === refused.id) continue;
      for (const [dir, direction] of [
        ['xx', 'out'],
        ['jx', 'in'],
      ] as const) {
        const sim = await simInvoices(c.qysh, dir, MONTH);
        simCount += sim.length;
        const stored = await rig.owner<{ fphm: string; amount: string; tax: string; total: string; state: string }>(
          s.db,
          `select fphm, amount::text, tax::text, total::text, state from invoices
            where enterprise_id = $1 and direction = $2 and month = $3 order by fphm`,
          [c.id, direction, MONTH],
        );
        expect(stored.map((x) => x.fphm)).toEqual(sim.map((x) => x.fphm).sort());
        const want = new Map(sim.map((b) => [b.fphm, fromBureau(b, direction)]));
        for (const x of stored) {
          const w = want.get(x.fphm);
          expect([Number(x.amount), Number(x.tax), Number(x.total), x.state]).toEqual([
            w?.amount,
            w?.tax,
            w?.total,
            w?.state,
          ]);
        }
      }
    }
    expect(simCount).toBeGreaterThan(50);
    // The refused client has nothing collected.
    const none = await rig.owner<{ n: number }>(
      s.db,
      'select count(*)::int as n from invoices where enterprise_id = $1',
      [refused.id],
    );
    expect(none[0]?.n).toBe(0);
  }, 240_000);

  it('statistics equal the sums of the stored invoices and of the simulator', async () => {
    const trend = await s.call<{
      months: {
        month: string;
        xxCount: number;
        xxAmount: number;
        xxTax: number;
        jxAmount: number;
        jxTax: number;
        jxCount: number;
      }[];
    }>(searchJXxDataCall.path, { month: MONTH }, admin);
    expect(trend.code, trend.msg).toBe(CODE.OK);
    expect(trend.data.months).toHaveLength(12);
    const oct = trend.data.months.at(-1);
    const sums = await rig.owner<{ direction: string; n: number; amount: string; tax: string }>(
      s.db,
      `select direction, count(*)::int as n, sum(amount)::text as amount, sum(tax)::text as tax from invoices
        where agency_id = $1 and month = $2 and state <> 'void' group by direction order by direction`,
      [clients[0]?.agency_id, MONTH],
    );
    const by = new Map(sums.map((x) => [x.direction, x]));
    expect(oct).toMatchObject({
      month: MONTH,
      xxCount: by.get('out')?.n,
      xxAmount: Number(by.get('out')?.amount),
      xxTax: Number(by.get('out')?.tax),
      jxCount: by.get('in')?.n,
      jxAmount: Number(by.get('in')?.amount),
      jxTax: Number(by.get('in')?.tax),
    });
    expect(trend.data.months.slice(0, 11).every((m) => m.xxAmount === 0 && m.jxAmount === 0)).toBe(true);

    // One client: the statistics against the simulator's own figures.
    const c = clients[0] as (typeof clients)[number];
    const sim = await simInvoices(c.qysh, 'xx', MONTH);
    const br = await s.call<{
      xxByRate: { key: string; amount: number; tax: number }[];
      xxByKind: { key: string; amount: number; tax: number; count: number }[];
      topBuyers: { taxNo: string; total: number; count: number }[];
    }>(searchJxppDataCall.path, { month: MONTH, aeiId: c.id }, admin);
    expect(br.code, br.msg).toBe(CODE.OK);
    const rateSums = new Map<string, { amount: number; tax: number }>();
    for (const inv of sim.filter((x) => x.zt !== '2'))
      for (const l of inv.lines) {
        const t = rateSums.get(l.slv) ?? { amount: 0, tax: 0 };
        t.amount += fen(l.je);
        t.tax += fen(l.se);
        rateSums.set(l.slv, t);
      }
    expect(Object.fromEntries(br.data.xxByRate.map((x) => [x.key, { amount: x.amount, tax: x.tax }]))).toEqual(
      Object.fromEntries(rateSums),
    );
    const kindAmount = br.data.xxByKind.reduce((a, x) => a + x.amount, 0);
    expect(kindAmount).toBe(sim.filter((x) => x.zt !== '2').reduce((a, x) => a + fen(x.hjje), 0));
    // 张数 by kind: each invoice once, however many rates its lines have.
    for (const k of ['zp', 'pp'])
      expect(br.data.xxByKind.find((x) => x.key === k)?.count ?? 0).toBe(
        sim.filter((x) => x.zt !== '2' && x.fplx === k).length,
      );
    const buyers = new Map<string, number>();
    for (const inv of sim) buyers.set(inv.gfsh, (buyers.get(inv.gfsh) ?? 0) + fen(inv.jshj));
    const top = [...buyers.values()].sort((a, b) => b - a)[0];
    expect(br.data.topBuyers[0]?.total).toBe(top);

    const kinds = await s.call<{ list: { aeiId: number; zpAmount: number; ppAmount: number }[]; total: number }>(
      queryStatisticFpXxfpByFppzCall.path,
      { month: MONTH, keyword: c.qysh },
      admin,
    );
    expect(kinds.code, kinds.msg).toBe(CODE.OK);
    expect(kinds.data.list).toHaveLength(1);
    expect((kinds.data.list[0]?.zpAmount ?? 0) + (kinds.data.list[0]?.ppAmount ?? 0)).toBe(kindAmount);

    // The agency's month (the administrator, no client chosen): kinds counted once each, and the top buyers and
    // sellers (from the agency's party rollup) equal to the stored invoices grouped by the other party.
    const whole = await s.call<{
      xxByRate: { key: string; amount: number; tax: number }[];
      jxByRate: { key: string; amount: number; tax: number }[];
      xxByKind: { key: string; count: number }[];
      jxByKind: { key: string; count: number }[];
      topBuyers: { taxNo: string; name: string; total: number; count: number }[];
      topSellers: { taxNo: string; name: string; total: number; count: number }[];
    }>(searchJxppDataCall.path, { month: MONTH }, admin);
    expect(whole.code, whole.msg).toBe(CODE.OK);
    const kindCounts = await rig.owner<{ direction: string; fplx: string; n: number }>(
      s.db,
      `select direction, fplx, count(*)::int as n from invoices where agency_id = $1 and month = $2 and state <> 'void'
        group by direction, fplx`,
      [c.agency_id, MONTH],
    );
    for (const k of kindCounts)
      expect(
        (k.direction === 'out' ? whole.data.xxByKind : whole.data.jxByKind).find((x) => x.key === k.fplx)?.count,
      ).toBe(k.n);
    const rateSumsAll = await rig.owner<{ direction: string; rate: string; amount: number; tax: number }>(
      s.db,
      `select i.direction, l.rate, sum(l.amount)::float8 as amount, sum(l.tax)::float8 as tax
         from invoices i join invoice_lines l on l.invoice_id = i.id
        where i.agency_id = $1 and i.month = $2 and i.state <> 'void' group by 1, 2`,
      [c.agency_id, MONTH],
    );
    for (const [direction, slices] of [
      ['out', whole.data.xxByRate],
      ['in', whole.data.jxByRate],
    ] as const)
      expect(Object.fromEntries(slices.map((x) => [x.key, { amount: x.amount, tax: x.tax }]))).toEqual(
        Object.fromEntries(
          rateSumsAll.filter((r) => r.direction === direction).map((r) => [r.rate, { amount: r.amount, tax: r.tax }]),
        ),
      );
    const topOf = (direction: string) =>
      rig.owner<{ taxNo: string; name: string; total: number; count: number }>(
        s.db,
        `select cp_tax_no as "taxNo", max(cp_name) as name, sum(total)::float8 as total, count(*)::int as count
           from invoices where agency_id = $1 and month = $2 and direction = $3 and state <> 'void'
          group by cp_tax_no order by sum(total) desc, cp_tax_no limit 10`,
        [c.agency_id, MONTH, direction],
      );
    expect(whole.data.topBuyers).toEqual(await topOf('out'));
    expect(whole.data.topSellers).toEqual(await topOf('in'));
  });

  it('lists the pool’s invoices by the one paging mechanism with filters and sums', async () => {
    const c = clients[1] as (typeof clients)[number];
    const all = await s.call<{ total: number; list: { fphm: string; aeiId: number }[]; sums: { total: number } }>(
      queryFpXxfpCall.path,
      { month: MONTH, pageSize: 20 },
      admin,
    );
    expect(all.code, all.msg).toBe(CODE.OK);
    const n = await rig.owner<{ n: number }>(
      s.db,
      "select count(*)::int as n from invoices where agency_id = $1 and month = $2 and direction = 'out'",
      [c.agency_id, MONTH],
    );
    expect(all.data.total).toBe(n[0]?.n);
    expect(all.data.list).toHaveLength(20);
    const one = await s.call<{ total: number; list: { aeiId: number; fphm: string }[] }>(
      queryFpJxfpCall.path,
      { month: MONTH, aeiId: c.id, pageSize: 500 },
      admin,
    );
    expect(one.code, one.msg).toBe(CODE.OK);
    expect(one.data.list.every((x) => x.aeiId === c.id)).toBe(true);
    expect(one.data.list.map((x) => x.fphm).sort()).toEqual(
      (await simInvoices(c.qysh, 'jx', MONTH)).map((x) => x.fphm).sort(),
    );
    const bad = await s.call(queryFpXxfpCall.path, { month: MONTH, pageSize: 30 }, admin);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
  });

  it('the retry: 请选择企业 without a selection; the failed client is taken again for the month after the selected one', async () => {
    const none = await s.call(
      sendTaskToFpPoolCall.path,
      { month: '2026-11', type: '1', isSave: 0, aeiIds: [], taskId: collectTask },
      admin,
    );
    expect(none.code).toBe(CODE.BAD_REQUEST);
    expect(none.msg).toBe('请选择企业');
    // A client that did not fail cannot be retried.
    const ok = await s.call(
      sendTaskToFpPoolCall.path,
      { month: '2026-11', type: '1', isSave: 0, aeiIds: [clients[0]?.id], taskId: collectTask },
      admin,
    );
    expect(ok.code).toBe(CODE.CONFLICT);
    rig.sim.faults.clear(refused.qysh);
    const r = await s.call<SendTaskReply>(
      sendTaskToFpPoolCall.path,
      { month: '2026-11', type: '1', isSave: 0, aeiIds: [refused.id], taskId: collectTask },
      admin,
    );
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data).toMatchObject({ taskId: collectTask, month: MONTH, total: 1 });
    const done = await finished(collectTask);
    expect(done).toMatchObject({ failNum: 0, successNum: clients.length, fail: [] });
    const stored = await rig.owner<{ n: number }>(
      s.db,
      "select count(*)::int as n from invoices where enterprise_id = $1 and month = $2 and direction = 'out'",
      [refused.id, MONTH],
    );
    expect(stored[0]?.n).toBe((await simInvoices(refused.qysh, 'xx', MONTH)).length);
  }, 120_000);

  it('勾选 and 用途确认 go through the bureau: the confirmed input tax is what fpxx reports as jxse', async () => {
    const SSQ = '2026-11';
    // A general taxpayer with received 专票 this month.
    let pick: (typeof clients)[number] | undefined;
    for (const c of clients) {
      if (c.id === refused.id) continue;
      const jx = await simInvoices(c.qysh, 'jx', SSQ);
      if (jx.filter((x) => x.fplx === 'zp' && x.zt === '0').length >= 2) {
        pick = c;
        break;
      }
    }
    expect(pick).toBeDefined();
    const c = pick as (typeof clients)[number];
    const col = await s.call<SendTaskReply>(
      sendTaskToFpPoolCall.path,
      { month: SSQ, scope: 'selected', aeiIds: [c.id] },
      admin,
    );
    expect(col.code, col.msg).toBe(CODE.OK);
    await finished(col.data.taskId);

    type ListReply = {
      list: { id: number; fphm: string; fplx: string; tax: number; deductState: string }[];
      total: number;
      sums: { selectedTax: number; confirmedTax: number; deductibleTax: number; selectedCount: number };
      confirmed: boolean;
    };
    const before = await s.call<ListReply>(
      selectFpJxfpZpListCall.path,
      { aeiId: c.id, ssq: SSQ, pageSize: 500 },
      admin,
    );
    expect(before.code, before.msg).toBe(CODE.OK);
    const zp = before.data.list.filter((x) => x.fplx === 'zp' && x.deductState === 'none');
    expect(zp.length).toBeGreaterThanOrEqual(2);
    // One by id, then the rest by filter.
    const one = await s.call<{ okNum: number }>(
      insertOrUpdateBatchFpJxfpZpCall.path,
      { aeiId: c.id, ssq: SSQ, gx: true, ids: [zp[0]?.id] },
      admin,
    );
    expect(one.code, one.msg).toBe(CODE.OK);
    expect(one.data.okNum).toBe(1);
    const rest = await s.call<{ okNum: number; failNum: number }>(
      insertOrUpdateBatchFpJxfpZpCall.path,
      { aeiId: c.id, ssq: SSQ, gx: true, all: true, fplx: 'zp', deductState: 'none' },
      admin,
    );
    expect(rest.code, rest.msg).toBe(CODE.OK);
    const ticked = await s.call<ListReply>(
      selectFpJxfpZpListCall.path,
      { aeiId: c.id, ssq: SSQ, pageSize: 500 },
      admin,
    );
    const wantTax = zp.reduce((a, x) => a + x.tax, 0);
    expect(ticked.data.sums.selectedTax).toBe(wantTax);
    expect(ticked.data.sums.deductibleTax).toBe(wantTax);
    // Untick one and tick it again: the bureau follows.
    const un = await s.call<{ okNum: number }>(
      insertOrUpdateBatchFpJxfpZpCall.path,
      { aeiId: c.id, ssq: SSQ, gx: false, ids: [zp[0]?.id] },
      admin,
    );
    expect(un.data.okNum).toBe(1);
    await s.call(insertOrUpdateBatchFpJxfpZpCall.path, { aeiId: c.id, ssq: SSQ, gx: true, ids: [zp[0]?.id] }, admin);

    const detail = await s.call<{ lines: { amount: number; tax: number }[]; invoice: { tax: number } }>(
      selectFpJxfpZpDetailListCall.path,
      { aeiId: c.id, id: zp[0]?.id },
      admin,
    );
    expect(detail.code, detail.msg).toBe(CODE.OK);
    expect(detail.data.lines.reduce((a, l) => a + l.tax, 0)).toBe(detail.data.invoice.tax);

    const conf = await s.call<{ taskId: string; total: number }>(
      inputConfirmV3Call.path,
      { aeiIds: [c.id], ssq: SSQ },
      admin,
    );
    expect(conf.code, conf.msg).toBe(CODE.OK);
    const cdone = await finished(conf.data.taskId);
    expect(cdone).toMatchObject({ kind: 'confirm', successNum: 1, failNum: 0 });
    const after = await s.call<ListReply>(selectFpJxfpZpListCall.path, { aeiId: c.id, ssq: SSQ, pageSize: 500 }, admin);
    expect(after.data.confirmed).toBe(true);
    expect(after.data.sums.confirmedTax).toBe(wantTax);
    expect(after.data.sums.selectedTax).toBe(0);
    // The bureau's fpxx says the same.
    const bureau = httpBureauClient({ baseUrl: rig.sim.url });
    const login = await bureau.etaxLogin({
      qysh: c.qysh,
      account: 'bsy',
      password: 'Etax@2026',
      sfbm: '1',
      loginType: '0',
    });
    if (login.status !== 1) throw new Error('no login');
    const totals = await bureau.invoiceTotals(login.session, '2026-11-01', '2026-11-30');
    expect(fen(totals.jxse)).toBe(wantTax);
    // The statistics' confirmed tax follows (rollups), and no more ticking for the period.
    const trend = await s.call<{ months: { month: string; deductTax: number }[] }>(
      searchJXxDataCall.path,
      { month: SSQ, aeiId: c.id },
      admin,
    );
    expect(trend.data.months.at(-1)?.deductTax).toBe(wantTax);
    const late = await s.call(
      insertOrUpdateBatchFpJxfpZpCall.path,
      { aeiId: c.id, ssq: SSQ, gx: false, all: true },
      admin,
    );
    expect(late.code).toBe(CODE.CONFLICT);
    expect(late.msg).toBe('该所属期已确认，不能再勾选');
    const audits = await rig.owner<{ action: string; detail: Record<string, unknown> }>(
      s.db,
      "select action, detail from audit_log where action like 'invoice.input.%' order by id",
    );
    const confirmAudit = audits.find((a) => a.action === 'invoice.input.confirm');
    expect(fen(String(confirmAudit?.detail.se))).toBe(wantTax);
    expect(audits.some((a) => a.action === 'invoice.input.select' && Number(a.detail.tax) > 0)).toBe(true);
  }, 180_000);

  it('another agency sees nothing; an ordinary staff member sees only their clients', async () => {
    const other = await s.login('13900000000');
    const list = await s.call<{ total: number }>(queryFpXxfpCall.path, { month: MONTH }, other);
    expect(list.code, list.msg).toBe(CODE.OK);
    expect(list.data.total).toBe(0);
    const trend = await s.call<{ months: { xxAmount: number }[] }>(searchJXxDataCall.path, { month: MONTH }, other);
    expect(trend.data.months.every((m) => m.xxAmount === 0)).toBe(true);
    const theirs = await s.call(selectFpJxfpZpListCall.path, { aeiId: clients[0]?.id, ssq: MONTH }, other);
    expect(theirs.code).toBe(CODE.NOT_FOUND);
    const st = await s.call(fpPoolStatusCall.path, { taskIds: [collectTask] }, other);
    expect(st.code).toBe(CODE.NOT_FOUND);

    const staff = await s.login('13800000002');
    const [me] = await rig.owner<{ id: number }>(s.db, "select id from users where phone = '13800000002'");
    const mine = clients.filter((c) => c.allocate_user === me?.id).map((c) => c.id);
    expect(mine.length).toBeGreaterThan(0);
    const seen = await s.call<{ total: number; list: { aeiId: number }[] }>(
      queryFpXxfpCall.path,
      { month: MONTH, pageSize: 500 },
      staff,
    );
    expect(seen.code, seen.msg).toBe(CODE.OK);
    expect(seen.data.list.every((x) => mine.includes(x.aeiId))).toBe(true);
    const want = await rig.owner<{ n: number; amount: string }>(
      s.db,
      `select count(*)::int as n, coalesce(sum(amount), 0)::text as amount from invoices
        where direction = 'out' and month = $1 and state <> 'void' and enterprise_id in (${mine.join(', ')})`,
      [MONTH],
    );
    expect(seen.data.total).toBe(want[0]?.n);
    const st2 = await s.call<{ months: { xxAmount: number; xxCount: number }[] }>(
      searchJXxDataCall.path,
      { month: MONTH },
      staff,
    );
    expect(st2.data.months.at(-1)?.xxAmount).toBe(Number(want[0]?.amount));
    expect(st2.data.months.at(-1)?.xxCount).toBe(want[0]?.n);
    // Their top buyers come from their own clients' rows, not the agency's.
    const st3 = await s.call<{ topBuyers: { taxNo: string; total: number }[] }>(
      searchJxppDataCall.path,
      { month: MONTH },
      staff,
    );
    const theirTop = await rig.owner<{ taxNo: string; total: number }>(
      s.db,
      `select cp_tax_no as "taxNo", sum(total)::float8 as total from invoices
        where direction = 'out' and month = $1 and state <> 'void' and enterprise_id in (${mine.join(', ')})
        group by cp_tax_no order by sum(total) desc, cp_tax_no limit 10`,
      [MONTH],
    );
    expect(st3.data.topBuyers.map((x) => ({ taxNo: x.taxNo, total: x.total }))).toEqual(theirTop);
    const notMine = clients.find((c) => !mine.includes(c.id));
    const refusedList = await s.call(selectFpJxfpZpListCall.path, { aeiId: notMine?.id, ssq: MONTH }, staff);
    expect(refusedList.code).toBe(CODE.NOT_FOUND);
    const refusedStats = await s.call(searchJxppDataCall.path, { month: MONTH, aeiId: notMine?.id }, staff);
    expect(refusedStats.code).toBe(CODE.NOT_FOUND);
    const refusedCollect = await s.call(
      sendTaskToFpPoolCall.path,
      { month: MONTH, scope: 'selected', aeiIds: [notMine?.id] },
      staff,
    );
    expect(refusedCollect.code).toBe(CODE.NOT_FOUND);
  }, 120_000);

  it('a collection killed mid-way resumes on a new server and counts no invoice twice', async () => {
    const M = '2026-09';
    // Small pages: a client's month takes several, so a job killed between two leaves part of it saved.
    process.env.INVOICE_COLLECT_PAGE_SIZE = '7';
    const r = await s.call<SendTaskReply>(sendTaskToFpPoolCall.path, { month: M }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    const runId = r.data.taskId;
    const total = r.data.total;
    await stopMidway(s, () => status(runId), 4);

    // The crash's leftovers: a job whose outcome was written but still says running, and a client killed
    // between two pages (its first page saved, its job still running with a lapsed lease).
    const { openDatabase } = await import('../src/db/client.js');
    const db = await openDatabase(rig.config);
    const [doneJob] = await rig.owner<{ id: number }>(
      db,
      `select id from jobs where queue = '${QUEUE}' and key like $1 and state = 'done' order by id limit 1`,
      [`${runId}:%`],
    );
    const [queuedJob] = await rig.owner<{ id: number; key: string }>(
      db,
      `select id, key from jobs where queue = '${QUEUE}' and key like $1 and state = 'queued' order by id limit 1`,
      [`${runId}:%`],
    );
    expect(doneJob && queuedJob).toBeTruthy();
    const entId = Number(queuedJob?.key.split(':')[1]);
    const ent = clients.find((c) => c.id === entId) as (typeof clients)[number];
    const part = (await simInvoices(ent.qysh, 'xx', M)).slice(0, 7);
    await inScope(db.app, { agencyId: ent.agency_id, userId: null, kjgcId: null }, (tx) =>
      saveInvoices(
        tx,
        { agencyId: ent.agency_id, enterpriseId: ent.id, direction: 'out', source: 'collected' },
        part.map((b) => fromBureau(b, 'out')),
      ),
    );
    await rig.owner(
      db,
      "update jobs set state = 'running', locked_until = now() - interval '1 second', finished_at = null where id in ($1, $2)",
      [doneJob?.id, queuedJob?.id],
    );
    await db.close();

    s = await rig.open(false);
    admin = await s.login('13800000000');
    const done = await finished(runId);
    expect(done).toMatchObject({ completeNum: total, totalNum: total, failNum: 0 });
    const counted = await rig.owner<{ n: number; distinct_n: number; nulls: number }>(
      s.db,
      `select count(*)::int as n, count(distinct enterprise_id)::int as distinct_n,
              count(*) filter (where state is null)::int as nulls from invoice_run_clients where run_id = $1`,
      [Number(runId)],
    );
    expect(counted[0]).toEqual({ n: total, distinct_n: total, nulls: 0 });
    // Every invoice once: the stored month equals the simulator's, number for number, for the killed client
    // and the rest; the rollups count each once.
    let simTotal = 0;
    for (const c of clients) {
      simTotal += (await simInvoices(c.qysh, 'xx', M)).length + (await simInvoices(c.qysh, 'jx', M)).length;
    }
    const stored = await rig.owner<{ n: number; distinct_n: number }>(
      s.db,
      `select count(*)::int as n, count(distinct (enterprise_id, direction, fphm))::int as distinct_n
         from invoices where agency_id = $1 and month = $2`,
      [ent.agency_id, M],
    );
    expect(stored[0]).toEqual({ n: simTotal, distinct_n: simTotal });
    const rolled = await rig.owner<{ n: number }>(
      s.db,
      'select coalesce(sum(count), 0)::int as n from invoice_month_parties where agency_id = $1 and month = $2',
      [ent.agency_id, M],
    );
    expect(rolled[0]?.n).toBe(simTotal);
    const rolledAgency = await rig.owner<{ n: number }>(
      s.db,
      'select coalesce(sum(count), 0)::int as n from invoice_agency_parties where agency_id = $1 and month = $2',
      [ent.agency_id, M],
    );
    expect(rolledAgency[0]?.n).toBe(simTotal);
    // The agency's rollups, written as net deltas by three workers at once, equal the clients' rows added up.
    const drift = await rig.owner<{ n: number }>(
      s.db,
      `select count(*)::int as n from (
         (select month, direction, fplx, rate, count, amount, tax, total, deduct_tax from invoice_agency_stats
           where agency_id = $1
          except
          select month, direction, fplx, rate, sum(count)::int, sum(amount), sum(tax), sum(total), sum(deduct_tax)
            from invoice_month_stats where agency_id = $1 group by 1, 2, 3, 4)
         union all
         (select month, direction, fplx, rate, sum(count)::int, sum(amount), sum(tax), sum(total), sum(deduct_tax)
            from invoice_month_stats where agency_id = $1 group by 1, 2, 3, 4
          except
          select month, direction, fplx, rate, count, amount, tax, total, deduct_tax from invoice_agency_stats
           where agency_id = $1)
         union all
         (select month, direction, fplx, null, count, 0, 0, 0, 0 from invoice_agency_counts where agency_id = $1
          except
          select month, direction, fplx, null, sum(count)::int, 0, 0, 0, 0 from invoice_month_counts
           where agency_id = $1 group by 1, 2, 3)
       ) x`,
      [ent.agency_id],
    );
    expect(drift[0]?.n).toBe(0);
    const counted2 = await rig.owner<{ n: number }>(
      s.db,
      'select coalesce(sum(count), 0)::int as n from invoice_month_counts where agency_id = $1 and month = $2',
      [ent.agency_id, M],
    );
    expect(counted2[0]?.n).toBe(simTotal);
    const killed = await rig.owner<{ n: number }>(
      s.db,
      "select count(*)::int as n from invoices where enterprise_id = $1 and month = $2 and direction = 'out'",
      [ent.id, M],
    );
    expect(killed[0]?.n).toBe((await simInvoices(ent.qysh, 'xx', M)).length);
  }, 600_000);
});
