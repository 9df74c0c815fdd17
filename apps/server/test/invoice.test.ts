import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  allowedRates,
  BENEFIT_MENU,
  batchRateCall,
  billingSummaryCall,
  CODE,
  CONTRACT_WARNING,
  EQUITY_MSG,
  equityCheckCall,
  INVOICE_BATCH_COLUMNS,
  INVOICE_ISSUE_QUEUE,
  INVOICE_MSG,
  INVOICE_OUT_FILES,
  INVOICE_OUT_MSG,
  inputConfirmV3Call,
  insertOrUpdateBatchFpJxfpZpCall,
  issueCall,
  outDetailCall,
  outListCall,
  redLetterCall,
  saveReminderSettingsCall,
  sendTaskToFpPoolCall,
} from '@dzy/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from './customer-helpers.js';
import { buyerTaxNo, CODE_CATERING, issueForm, month } from './invoice-helpers.js';
import { credentialDemoClients, type ResumeServer, useResumeRig } from './resume-helpers.js';

const rig = useResumeRig({ dirPrefix: 'dzy-invoice-out-' });

let s: ResumeServer;
let admin: string;
let client: { id: number; qysh: string; qymc: string; allocate_user: number | null };
let nsrlx: '0' | '1' = '1';
const form = (over: Record<string, unknown> = {}) => issueForm(client.id, nsrlx, over);

type Detail = { id: number; fphm: string; jshj: string; state: string; hzfphm: string; lzfphm: string; gfsh: string };

beforeAll(async () => {
  s = await rig.open(true);
  await credentialDemoClients(rig, s.db, 'clean');
  admin = await s.login('13800000000');
  const rows = await rig.owner<{ id: number; qysh: string; qymc: string; allocate_user: number | null }>(
    s.db,
    `select e.id, e.qysh, e.qymc, e.allocate_user from enterprises e
      where e.agency_id = (select m.agency_id from memberships m join users u on u.id = m.user_id
                            where u.phone = '13800000000' and m.is_admin limit 1)
        and e.deleted_at is null and e.qysh <> '' and e.service_status = '1' order by e.id limit 1`,
  );
  client = rows[0] as typeof client;
  const sum = await s.call<{ nsrlx: '0' | '1' }>(billingSummaryCall.path, { aeiId: client.id, month: month() }, admin);
  expect(sum.code, sum.msg).toBe(CODE.OK);
  nsrlx = sum.data.nsrlx;
}, 300_000);
afterAll(async () => {
  await s?.close().catch(() => {});
});

describe('销项发票', () => {
  let issued: Detail;

  it('issues an invoice: its number, the list, the buyer remembered, the audit, the PDF and the .xlsx', async () => {
    const f = form();
    const r = await s.call<{ invoice: Detail; again: boolean }>(issueCall.path, f, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    issued = r.data.invoice;
    expect(issued.fphm).toMatch(/^\d{20}$/);
    expect(issued.jshj).toBe('1060.00');
    expect(issued.gfsh).toBe(buyerTaxNo);
    const list = await s.call<{ list: Detail[]; sums: { jshj: string } }>(
      outListCall.path,
      { aeiId: client.id, month: month(), fphm: issued.fphm },
      admin,
    );
    expect(list.code, list.msg).toBe(CODE.OK);
    expect(list.data.list.map((x) => x.fphm)).toEqual([issued.fphm]);
    const audits = await rig.owner<{ detail: Record<string, unknown> }>(
      s.db,
      `select detail from audit_log where action = 'invoice.issue' and target = $1`,
      [issued.fphm],
    );
    expect(audits[0]?.detail.jshj).toBe('1060.00');
    const buyers = await rig.owner(s.db, 'select 1 from invoice_buyers where enterprise_id = $1 and tax_no = $2', [
      client.id,
      buyerTaxNo,
    ]);
    expect(buyers.length).toBe(1);
    const pdf = await s.app.inject({
      method: 'GET',
      url: `/api/${INVOICE_OUT_FILES.pdf}/${issued.id}`,
      headers: { cookie: admin },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const xlsx = await s.app.inject({
      method: 'POST',
      url: `/api/${INVOICE_OUT_FILES.export}`,
      headers: { cookie: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ aeiId: client.id, month: month() }),
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.readUInt32BE(0)).toBe(0x504b0304);
    // The same request id again answers the same invoice.
    const again = await s.call<{ invoice: Detail; again: boolean }>(issueCall.path, f, admin);
    expect(again.data.invoice.fphm).toBe(issued.fphm);
  }, 60_000);

  it('shows the bureau’s refusal: a buyer tax number failing its check digit', async () => {
    const bad = `${buyerTaxNo.slice(0, 17)}${buyerTaxNo.endsWith('1') ? '2' : '1'}`;
    const r = await s.call(issueCall.path, form({ buyer: { name: '某公司', taxNo: bad } }), admin);
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toContain(INVOICE_MSG.buyerTaxNo);
  });

  it('shows the bureau’s refusal when the month’s quota (授信额度) is not enough', async () => {
    const r = await s.call(
      issueCall.path,
      form({
        lines: [{ ssflbm: CODE_CATERING, spmc: '', je: '900000000.00', slv: allowedRates(CODE_CATERING, nsrlx)[0] }],
      }),
      admin,
    );
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toContain(INVOICE_MSG.quota);
  });

  it('refuses a rate the item does not allow before asking the bureau', async () => {
    const r = await s.call(
      issueCall.path,
      form({ lines: [{ ssflbm: CODE_CATERING, spmc: '', je: '100.00', slv: '0.13' }] }),
      admin,
    );
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toContain('第1行');
  });

  it('batch issuing from .xlsx: rows grouped by 发票序号, issued by a job, refusals in the failure file', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('批量开票');
    ws.addRow([...INVOICE_BATCH_COLUMNS]);
    const rate = allowedRates(CODE_CATERING, nsrlx)[0] === '0.06' ? '6%' : '3%';
    const badNo = `${buyerTaxNo.slice(0, 17)}${buyerTaxNo.endsWith('1') ? '2' : '1'}`;
    ws.addRow(['1', '普票', '批量甲公司', buyerTaxNo, CODE_CATERING, '午餐', '', '份', '2', '50', '100', rate, '']);
    ws.addRow(['1', '普票', '批量甲公司', buyerTaxNo, CODE_CATERING, '晚餐', '', '', '', '', '200', rate, '']);
    ws.addRow(['2', '普票', '批量乙公司', buyerTaxNo, CODE_CATERING, '午餐', '', '', '', '', '100', '7%', '']);
    ws.addRow(['3', '普票', '批量丙公司', badNo, CODE_CATERING, '午餐', '', '', '', '', '100', rate, '']);
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const body = multipart({ name: '批量开票.xlsx', data });
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/${INVOICE_OUT_FILES.batchUpload}?aeiId=${client.id}`,
      headers: { ...body.headers, cookie: admin },
      payload: body.payload,
    });
    const up = res.json() as { code: number; msg: string; data: { runId: number; total: number } };
    expect(up.code, up.msg).toBe(CODE.OK);
    expect(up.data.total).toBe(3);
    let rate_: { state: string; successNum: number; failNum: number; fphms: string[] } | null = null;
    for (let i = 0; i < 100; i++) {
      const r = await s.call<{ state: string; successNum: number; failNum: number; fphms: string[] }>(
        batchRateCall.path,
        { runId: up.data.runId },
        admin,
      );
      expect(r.code, r.msg).toBe(CODE.OK);
      rate_ = r.data;
      if (r.data.state !== 'running') break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    expect(rate_).toMatchObject({ state: 'done', successNum: 1, failNum: 2 });
    const one = await rig.owner<{ total: string }>(s.db, 'select total::text from invoices where fphm = $1', [
      rate_?.fphms[0],
    ]);
    expect(one[0]?.total).toBe('30000');
    const fail = await s.app.inject({
      method: 'GET',
      url: `/api/${INVOICE_OUT_FILES.batchFail}/${up.data.runId}`,
      headers: { cookie: admin },
    });
    expect(fail.statusCode).toBe(200);
    const back = new ExcelJS.Workbook();
    await back.xlsx.load(fail.rawPayload as unknown as ArrayBuffer);
    const sheet = back.worksheets[0];
    const reasons: string[] = [];
    sheet?.eachRow((row, n) => {
      if (n > 1) reasons.push(String(row.getCell(INVOICE_BATCH_COLUMNS.length + 2).value));
    });
    expect(reasons.length).toBe(2);
    expect(reasons.some((r) => r.includes('税率'))).toBe(true);
    expect(reasons.some((r) => r.includes(INVOICE_MSG.buyerTaxNo))).toBe(true);
    const other = await s.login('13900000000');
    const theirs = await s.call(batchRateCall.path, { runId: up.data.runId }, other);
    expect(theirs.code).toBe(CODE.NOT_FOUND);
  }, 180_000);

  it('a contract reminder at level 2 for 发票 blocks issuing for a client without a valid contract', async () => {
    const many = await rig.owner<{ id: number }>(
      s.db,
      `select e.id from enterprises e where e.agency_id = (select agency_id from enterprises where id = $1)
         and e.deleted_at is null and e.qysh <> '' order by e.id limit 40`,
      [client.id],
    );
    expect((await s.call(saveReminderSettingsCall.path, { fp_wyxht: 2 }, admin)).code).toBe(CODE.OK);
    try {
      let blocked: number | null = null;
      for (const e of many) {
        const r = await s.call<{ blocked: string }>(
          billingSummaryCall.path,
          { aeiId: e.id, month: month(), live: false },
          admin,
        );
        if (r.data.blocked) {
          expect(r.data.blocked).toBe(CONTRACT_WARNING.noContract);
          blocked = e.id;
          break;
        }
      }
      expect(blocked).not.toBeNull();
      const r = await s.call(issueCall.path, form({ aeiId: blocked }), admin);
      expect([r.code, r.msg]).toEqual([CODE.CONFLICT, CONTRACT_WARNING.noContract]);
    } finally {
      await s.call(saveReminderSettingsCall.path, { fp_wyxht: 0 }, admin);
    }
  }, 60_000);

  it('the level-2 block holds for every 发票 action: 批量开票, 红冲, 勾选, 用途确认 and 采集 of the blocked client', async () => {
    const many = await rig.owner<{ id: number; qylb: string }>(
      s.db,
      `select e.id, e.qylb from enterprises e where e.agency_id = (select agency_id from enterprises where id = $1)
         and e.deleted_at is null and e.qysh <> '' and e.service_status = '1' order by e.id limit 40`,
      [client.id],
    );
    const level = (n: 0 | 2) => s.call(saveReminderSettingsCall.path, { fp_wyxht: n }, admin);
    expect((await level(2)).code).toBe(CODE.OK);
    let blocked: { id: number; qylb: string } | null = null;
    try {
      for (const e of many) {
        const r = await s.call<{ blocked: string }>(
          billingSummaryCall.path,
          { aeiId: e.id, month: month(), live: false },
          admin,
        );
        if (r.data.blocked) {
          blocked = e;
          break;
        }
      }
    } finally {
      await level(0);
    }
    expect(blocked).not.toBeNull();
    const b = blocked as { id: number; qylb: string };
    // An invoice of that client issued while it was not blocked (and held the right), to try 红冲 on.
    await rig.owner(s.db, 'update enterprises set qylb = $2 where id = $1', [
      b.id,
      `,${BENEFIT_MENU.invoiceIssue},${BENEFIT_MENU.invoiceRed},${BENEFIT_MENU.invoiceInput},`,
    ]);
    try {
      const sum = await s.call<{ nsrlx: '0' | '1' }>(
        billingSummaryCall.path,
        { aeiId: b.id, month: month(), live: false },
        admin,
      );
      const slv = allowedRates(CODE_CATERING, sum.data.nsrlx)[0] ?? '';
      const blue = await s.call<{ invoice: Detail }>(
        issueCall.path,
        form({ aeiId: b.id, lines: [{ ssflbm: CODE_CATERING, spmc: '工作餐', je: '100.00', slv }] }),
        admin,
      );
      expect(blue.code, blue.msg).toBe(CODE.OK);
      expect((await level(2)).code).toBe(CODE.OK);
      const want = [CODE.CONFLICT, CONTRACT_WARNING.noContract];
      const batch = await upload(b.id, await batchFile(1, '阻断测试'));
      expect([batch.code, batch.msg]).toEqual(want);
      const red = await s.call(
        redLetterCall.path,
        { id: blue.data.invoice.id, reason: '开票有误', requestId: randomUUID() },
        admin,
      );
      expect([red.code, red.msg]).toEqual(want);
      const tick = await s.call(
        insertOrUpdateBatchFpJxfpZpCall.path,
        { aeiId: b.id, ssq: month(), gx: true, all: true },
        admin,
      );
      expect([tick.code, tick.msg]).toEqual(want);
      const confirm = await s.call(inputConfirmV3Call.path, { aeiIds: [b.id], ssq: month() }, admin);
      expect([confirm.code, confirm.msg]).toEqual(want);
      const collect = await s.call(
        sendTaskToFpPoolCall.path,
        { month: month(), scope: 'selected', aeiIds: [b.id] },
        admin,
      );
      expect([collect.code, collect.msg]).toEqual(want);
    } finally {
      await level(0);
      await rig.owner(s.db, 'update enterprises set qylb = $2 where id = $1', [b.id, b.qylb]);
    }
  }, 60_000);

  it('a lost reply leaves the request pending; the retry sends the same id and issues once', async () => {
    rig.sim.faults.set({ lostReply: 'always' }, client.qysh, 'fp/kp');
    const kpBefore = rig.sim.submissions(client.qysh).kp;
    const f = form({ buyer: { name: '丢失应答测试公司', taxNo: buyerTaxNo } });
    const first = await s.call(issueCall.path, f, admin);
    expect(first.code).toBe(CODE.CONFLICT);
    expect(first.msg).toBe(INVOICE_OUT_MSG.pending);
    const pending = await rig.owner<{ state: string }>(
      s.db,
      'select state from invoice_requests where request_id = $1',
      [f.requestId],
    );
    // Marked sending before fp/kp went out: unanswered, and it may have been issued.
    expect(pending[0]?.state).toBe('sending');
    rig.sim.faults.clear(client.qysh);
    const retry = await s.call<{ invoice: Detail; again: boolean }>(issueCall.path, f, admin);
    expect(retry.code, retry.msg).toBe(CODE.OK);
    expect(retry.data.again).toBe(true);
    // The retry asked for it by its request id (fp/kpcx) instead of sending fp/kp again.
    expect(rig.sim.submissions(client.qysh).kp - kpBefore).toBe(1);
    const stored = await rig.owner<{ n: number }>(
      s.db,
      `select count(*)::int as n from invoices where enterprise_id = $1 and cp_name = '丢失应答测试公司'`,
      [client.id],
    );
    expect(stored[0]?.n).toBe(1);
  }, 60_000);

  it('红冲: a 红字确认单 then the red invoice; the blue becomes 已红冲 and cannot be reversed again', async () => {
    const r = await s.call<{ red: Detail; blue: Detail; qrdbh: string }>(
      redLetterCall.path,
      { id: issued.id, reason: '开票有误', requestId: randomUUID() },
      admin,
    );
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.red.jshj).toBe('-1060.00');
    expect(r.data.red.lzfphm).toBe(issued.fphm);
    expect(r.data.blue.state).toBe('reversed');
    expect(r.data.blue.hzfphm).toBe(r.data.red.fphm);
    const twice = await s.call(
      redLetterCall.path,
      { id: issued.id, reason: '开票有误', requestId: randomUUID() },
      admin,
    );
    expect(twice.code).toBe(CODE.CONFLICT);
    expect(twice.msg).toBe(INVOICE_OUT_MSG.notBlue);
    const audits = await rig.owner(s.db, `select 1 from audit_log where action = 'invoice.red' and target = $1`, [
      issued.fphm,
    ]);
    expect(audits.length).toBe(1);
  }, 60_000);

  it('红冲 after lost replies: the retry asks the bureau for the 确认单 and the red invoice, and sends each once', async () => {
    const made = await s.call<{ invoice: Detail }>(
      issueCall.path,
      form({ buyer: { name: '红冲丢失应答公司', taxNo: buyerTaxNo } }),
      admin,
    );
    expect(made.code, made.msg).toBe(CODE.OK);
    const before = rig.sim.submissions(client.qysh);
    const body = { id: made.data.invoice.id, reason: '开票有误', requestId: randomUUID() };
    // The 确认单 is filled at the bureau, its reply lost; then the red invoice is issued, its reply lost.
    rig.sim.faults.set({ lostReply: 'always' }, client.qysh, 'fp/hzqrd');
    const lostConfirm = await s.call(redLetterCall.path, body, admin);
    expect([lostConfirm.code, lostConfirm.msg]).toEqual([CODE.CONFLICT, INVOICE_OUT_MSG.pending]);
    rig.sim.faults.clear(client.qysh);
    rig.sim.faults.set({ lostReply: 'always' }, client.qysh, 'fp/hckp');
    const lostRed = await s.call(redLetterCall.path, body, admin);
    expect([lostRed.code, lostRed.msg]).toEqual([CODE.CONFLICT, INVOICE_OUT_MSG.pending]);
    rig.sim.faults.clear(client.qysh);
    const done = await s.call<{ red: Detail; blue: Detail }>(redLetterCall.path, body, admin);
    expect(done.code, done.msg).toBe(CODE.OK);
    expect(done.data.blue.state).toBe('reversed');
    expect(done.data.red.lzfphm).toBe(made.data.invoice.fphm);
    // Each reached the bureau once: the retries asked (fp/hzqrdcx, fp/kpcx), they did not send again.
    const after = rig.sim.submissions(client.qysh);
    expect([after.hzqrd - before.hzqrd, after.hckp - before.hckp]).toEqual([1, 1]);
    const reds = await rig.owner<{ n: number }>(
      s.db,
      `select count(*)::int as n from invoices where enterprise_id = $1 and lzfphm = $2`,
      [client.id, made.data.invoice.fphm],
    );
    expect(reds[0]?.n).toBe(1);
  }, 60_000);

  it('another agency gets 404 and sees nothing; a staff member cannot reach a client outside their scope', async () => {
    const other = await s.login('13900000000');
    const d = await s.call(outDetailCall.path, { id: issued.id }, other);
    expect(d.code).toBe(CODE.NOT_FOUND);
    const l = await s.call(outListCall.path, { aeiId: client.id, month: month() }, other);
    expect(l.code).toBe(CODE.NOT_FOUND);
    const i = await s.call(issueCall.path, form(), other);
    expect(i.code).toBe(CODE.NOT_FOUND);

    const staff = await s.login('13800000002');
    const [me] = await rig.owner<{ id: number }>(s.db, "select id from users where phone = '13800000002'");
    const scope = await rig.owner<{ id: number; mine: boolean }>(
      s.db,
      `select e.id, (e.allocate_user = $2) as mine from enterprises e
        where e.agency_id = (select agency_id from enterprises where id = $1) and e.deleted_at is null and e.qysh <> ''
        order by e.id limit 60`,
      [client.id, me?.id],
    );
    const mine = scope.find((e) => e.mine);
    const notMine = scope.find((e) => !e.mine);
    expect(mine).toBeDefined();
    const own = await s.call(outListCall.path, { aeiId: mine?.id, month: month() }, staff);
    expect(own.code, own.msg).toBe(CODE.OK);
    const foreign = await s.call(outListCall.path, { aeiId: notMine?.id, month: month() }, staff);
    expect(foreign.code).toBe(CODE.NOT_FOUND);
    if (client.allocate_user !== me?.id) {
      const sd = await s.call(outDetailCall.path, { id: issued.id }, staff);
      expect(sd.code).toBe(CODE.NOT_FOUND);
    }
  });
});

/** A batch .xlsx of `n` valid invoices for the test client. */
async function batchFile(n: number, buyer: string) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('批量开票');
  ws.addRow([...INVOICE_BATCH_COLUMNS]);
  const rate = allowedRates(CODE_CATERING, nsrlx)[0] === '0.06' ? '6%' : '3%';
  for (let i = 1; i <= n; i++) {
    ws.addRow([String(i), '普票', `${buyer}${i}`, buyerTaxNo, CODE_CATERING, '午餐', '', '', '', '', '100', rate, '']);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(aeiId: number, data: Buffer, cookie = admin) {
  const body = multipart({ name: '批量开票.xlsx', data });
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/${INVOICE_OUT_FILES.batchUpload}?aeiId=${aeiId}`,
    headers: { ...body.headers, cookie },
    payload: body.payload,
  });
  return res.json() as { code: number; msg: string; data: { runId: number; total: number } };
}

type Rate = { state: string; successNum: number; failNum: number };
async function rateOf(runId: number) {
  const r = await s.call<Rate>(batchRateCall.path, { runId }, admin);
  expect(r.code, r.msg).toBe(CODE.OK);
  return r.data;
}

async function failReasons(runId: number) {
  const fail = await s.app.inject({
    method: 'GET',
    url: `/api/${INVOICE_OUT_FILES.batchFail}/${runId}`,
    headers: { cookie: admin },
  });
  expect(fail.statusCode).toBe(200);
  const back = new ExcelJS.Workbook();
  await back.xlsx.load(fail.rawPayload as unknown as ArrayBuffer);
  const reasons: string[] = [];
  back.worksheets[0]?.eachRow((row, n) => {
    if (n > 1) reasons.push(String(row.getCell(INVOICE_BATCH_COLUMNS.length + 2).value));
  });
  return reasons;
}

/** Waits until the run's job sits queued for a retry (after a lost reply), then changes it as `set` says. */
async function whenQueued(runId: number, set: string) {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const hit = await rig.owner(
      s.db,
      `update jobs set ${set} where queue = $1 and key = $2 and state = 'queued' and attempts >= 1 returning id`,
      [INVOICE_ISSUE_QUEUE, String(runId)],
    );
    if (hit.length === 1) return;
    await new Promise((ok) => setTimeout(ok, 20));
  }
  throw new Error('the batch job never waited for a retry');
}

describe('权益 (business.md §6) on the 发票 actions', () => {
  let bare: { id: number; qysh: string; qymc: string };

  beforeAll(async () => {
    const rows = await rig.owner<{ id: number; qysh: string; qymc: string }>(
      s.db,
      `select e.id, e.qysh, e.qymc from enterprises e
        where e.agency_id = (select agency_id from enterprises where id = $1) and e.deleted_at is null
          and e.qysh <> '' and e.service_status = '1' and e.qylb not like $2 order by e.id limit 1`,
      [client.id, `%,${BENEFIT_MENU.invoiceIssue},%`],
    );
    bare = rows[0] as typeof bare;
    expect(bare).toBeDefined();
    const sum = await s.call<{ nsrlx: '0' | '1' }>(
      billingSummaryCall.path,
      { aeiId: bare.id, month: month(), live: false },
      admin,
    );
    expect(sum.code, sum.msg).toBe(CODE.OK);
    bareRate = allowedRates(CODE_CATERING, sum.data.nsrlx)[0] ?? '';
  });
  let bareRate = '';
  const bareForm = () =>
    form({ aeiId: bare.id, lines: [{ ssflbm: CODE_CATERING, spmc: '工作餐', je: '1060.00', slv: bareRate }] });

  it('the 发票 entries are there: 开具/红冲/进项 paid, 采集 free; a covered client holds the paid ones', async () => {
    const menus = await rig.owner<{ menuid: number; iscontrol: string }>(
      s.db,
      'select menuid, iscontrol from equity_menus where menuid between 2131 and 2134 order by menuid',
    );
    expect(menus.map((m) => [m.menuid, m.iscontrol])).toEqual([
      [BENEFIT_MENU.invoiceIssue, 'Y'],
      [BENEFIT_MENU.invoiceRed, 'Y'],
      [BENEFIT_MENU.invoiceInput, 'Y'],
      [BENEFIT_MENU.invoiceCollect, 'N'],
    ]);
    const facts = await s.call<{ entitledIds: number[]; agencyQyzt: string }>(
      equityCheckCall.path,
      { menuid: BENEFIT_MENU.invoiceIssue, aeiIds: [client.id, bare.id] },
      admin,
    );
    expect(facts.code, facts.msg).toBe(CODE.OK);
    // The demo agency's own benefits have expired, so each client's rights decide.
    expect(facts.data.agencyQyzt).toBe('3');
    expect(facts.data.entitledIds).toEqual([client.id]);
  });

  it('migration 0026 gives an existing covered client the paid 发票 entries, once', async () => {
    const sqlText = readFileSync(resolve(import.meta.dirname, '../src/db/migrations/0026_invoice_equity.sql'), 'utf8');
    const [probe] = await rig.owner<{ id: number; qylb: string }>(
      s.db,
      `select id, qylb from enterprises where agency_id = (select agency_id from enterprises where id = $1)
         and qylb = '' order by id desc limit 1`,
      [client.id],
    );
    expect(probe).toBeDefined();
    await rig.owner(s.db, `update enterprises set qylb = ',2115,' where id = $1`, [probe?.id]);
    try {
      for (let round = 0; round < 2; round++) {
        for (const stmt of sqlText.split('--> statement-breakpoint')) await rig.owner(s.db, stmt);
      }
      const [after] = await rig.owner<{ qylb: string }>(s.db, 'select qylb from enterprises where id = $1', [
        probe?.id,
      ]);
      expect(after?.qylb).toBe(',2115,2131,2132,2133,');
    } finally {
      await rig.owner(s.db, `update enterprises set qylb = '' where id = $1`, [probe?.id]);
    }
  });

  it('a client without the right is refused 开具, 批量开票, 红冲, 勾选 and 用途确认 with the 权益 message', async () => {
    const refused = EQUITY_MSG.refused(1);
    const one = await s.call(issueCall.path, bareForm(), admin);
    expect([one.code, one.msg]).toEqual([CODE.NO_PERMISSION, refused]);
    const batch = await upload(bare.id, await batchFile(1, '权益测试'));
    expect([batch.code, batch.msg]).toEqual([CODE.NO_PERMISSION, refused]);
    const tick = await s.call(
      insertOrUpdateBatchFpJxfpZpCall.path,
      { aeiId: bare.id, ssq: month(), gx: true, all: true },
      admin,
    );
    expect([tick.code, tick.msg]).toEqual([CODE.NO_PERMISSION, refused]);
    const confirm = await s.call(inputConfirmV3Call.path, { aeiIds: [client.id, bare.id], ssq: month() }, admin);
    expect([confirm.code, confirm.msg]).toEqual([CODE.NO_PERMISSION, refused]);
    const runs = await rig.owner(s.db, `select 1 from invoice_runs where kind = 'confirm' and month = $1`, [month()]);
    expect(runs.length).toBe(0);

    // 红冲: an invoice issued while the client held the right, reversed after it lost it.
    const grant = `,${BENEFIT_MENU.invoiceIssue},`;
    await rig.owner(s.db, 'update enterprises set qylb = $2 where id = $1', [bare.id, grant]);
    let blueId = 0;
    try {
      const ok = await s.call<{ invoice: Detail }>(issueCall.path, bareForm(), admin);
      expect(ok.code, ok.msg).toBe(CODE.OK);
      blueId = ok.data.invoice.id;
    } finally {
      await rig.owner(s.db, `update enterprises set qylb = '' where id = $1`, [bare.id]);
    }
    const red = await s.call(redLetterCall.path, { id: blueId, reason: '开票有误', requestId: randomUUID() }, admin);
    expect([red.code, red.msg]).toEqual([CODE.NO_PERMISSION, refused]);
    const still = await rig.owner<{ state: string }>(s.db, 'select state from invoices where id = $1', [blueId]);
    expect(still[0]?.state).toBe('normal');
  }, 60_000);

  it('an agency whose benefits are active lets every client through (the reminder is the page’s)', async () => {
    const [agency] = await rig.owner<{ id: number }>(s.db, 'select agency_id as id from enterprises where id = $1', [
      client.id,
    ]);
    await rig.owner(s.db, `update organisations set qyzt = '1' where id = $1`, [agency?.id]);
    try {
      const r = await s.call(issueCall.path, bareForm(), admin);
      expect(r.code, r.msg).toBe(CODE.OK);
    } finally {
      await rig.owner(s.db, `update organisations set qyzt = '3' where id = $1`, [agency?.id]);
    }
  }, 60_000);
});

describe('批量开票 whose job gives up', () => {
  afterAll(() => rig.sim.faults.clear(client.qysh));

  it('the last attempt failing ends the run: every invoice failed with a reason, nothing left running', async () => {
    rig.sim.faults.set({ lostReply: 'always' }, client.qysh, 'fp/kp');
    // The query by request id (fp/kpcx) unreachable too: no attempt can learn whether the first was issued.
    rig.sim.faults.set({ error5xx: 'always' }, client.qysh, 'fp/kpcx');
    const up = await upload(client.id, await batchFile(3, '放弃测试'));
    expect(up.code, up.msg).toBe(CODE.OK);
    // Straight to the last of its attempts (8 retries of a lost reply take minutes of backoff).
    await whenQueued(up.data.runId, 'attempts = 7, run_after = now()');
    let r = await rateOf(up.data.runId);
    for (let i = 0; i < 300 && r.state === 'running'; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      r = await rateOf(up.data.runId);
    }
    expect(r).toMatchObject({ state: 'done', successNum: 0, failNum: 3 });
    const reasons = await failReasons(up.data.runId);
    expect(reasons.length).toBe(3);
    expect(reasons[0]).toMatch(/^开票结果未知（.+），请在发票列表中核对/);
    expect(reasons.slice(1).every((x) => x.startsWith('批量开票已中止'))).toBe(true);
    const [job] = await rig.owner<{ state: string }>(s.db, 'select state from jobs where queue = $1 and key = $2', [
      INVOICE_ISSUE_QUEUE,
      String(up.data.runId),
    ]);
    expect(job?.state).toBe('done');
  }, 120_000);

  it('a job that ended without ending its run (the runner gave up) has its run closed when its progress is read', async () => {
    rig.sim.faults.set({ lostReply: 'always' }, client.qysh, 'fp/kp');
    const up = await upload(client.id, await batchFile(2, '中断测试'));
    expect(up.code, up.msg).toBe(CODE.OK);
    await whenQueued(up.data.runId, `state = 'failed', error = '数据库连接中断', finished_at = now()`);
    const r = await rateOf(up.data.runId);
    expect(r).toMatchObject({ state: 'done', successNum: 0, failNum: 2 });
    const reasons = await failReasons(up.data.runId);
    expect(reasons).toEqual([
      INVOICE_OUT_MSG.batchUnknown('数据库连接中断'),
      INVOICE_OUT_MSG.batchStopped('数据库连接中断'),
    ]);
  }, 120_000);
});
