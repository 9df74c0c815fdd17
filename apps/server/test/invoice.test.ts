import { randomUUID } from 'node:crypto';
import {
  allowedRates,
  batchRateCall,
  billingSummaryCall,
  CODE,
  CONTRACT_WARNING,
  INVOICE_BATCH_COLUMNS,
  INVOICE_MSG,
  INVOICE_OUT_FILES,
  INVOICE_OUT_MSG,
  issueCall,
  outDetailCall,
  outListCall,
  redLetterCall,
  saveReminderSettingsCall,
  usccCheckChar,
} from '@dzy/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from './customer-helpers.js';
import { credentialDemoClients, type ResumeServer, useResumeRig } from './resume-helpers.js';

const rig = useResumeRig({ dirPrefix: 'dzy-invoice-out-' });

let s: ResumeServer;
let admin: string;
let client: { id: number; qysh: string; qymc: string; allocate_user: number | null };
let nsrlx: '0' | '1' = '1';
const CODE_CATERING = '3070401000000000000';
const month = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 7);
const buyerTaxNo = (() => {
  const first = '91330106MA2H3C0X1';
  return first + usccCheckChar(first);
})();

function form(over: Record<string, unknown> = {}) {
  return {
    aeiId: client.id,
    requestId: randomUUID(),
    fplx: 'pp',
    buyer: { name: '杭州示例贸易有限公司', taxNo: ` ${buyerTaxNo.toLowerCase()} ` },
    priceInclTax: true,
    lines: [{ ssflbm: CODE_CATERING, spmc: '工作餐', je: '1060.00', slv: allowedRates(CODE_CATERING, nsrlx)[0] }],
    bz: '测试备注',
    ...over,
  };
}

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

  it('a lost reply leaves the request pending; the retry sends the same id and issues once', async () => {
    rig.sim.faults.set({ lostReply: 'always' }, client.qysh, 'fp/kp');
    const f = form({ buyer: { name: '丢失应答测试公司', taxNo: buyerTaxNo } });
    const first = await s.call(issueCall.path, f, admin);
    expect(first.code).toBe(CODE.CONFLICT);
    expect(first.msg).toBe(INVOICE_OUT_MSG.pending);
    const pending = await rig.owner<{ state: string }>(
      s.db,
      'select state from invoice_requests where request_id = $1',
      [f.requestId],
    );
    expect(pending[0]?.state).toBe('pending');
    rig.sim.faults.clear(client.qysh);
    const retry = await s.call<{ invoice: Detail; again: boolean }>(issueCall.path, f, admin);
    expect(retry.code, retry.msg).toBe(CODE.OK);
    expect(retry.data.again).toBe(true);
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
