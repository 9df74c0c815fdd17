import {
  billingSummaryCall,
  CODE,
  defKpTypeCall,
  INVOICE_BATCH_COLUMNS,
  INVOICE_OUT_FILES,
  INVOICE_OUT_MSG,
  issueCall,
  kpfsOneCall,
} from '@dzy/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from './customer-helpers.js';
import { buyerTaxNo, CODE_CATERING, issueForm, month } from './invoice-helpers.js';
import { credentialDemoClients, type ResumeServer, useResumeRig } from './resume-helpers.js';

/** 开具 reads the client's 开票方式 (kpfs: own, else the agency default); only 数电 is issued here. */
const rig = useResumeRig({ dirPrefix: 'dzy-invoice-kpfs-' });

let s: ResumeServer;
let admin: string;
let client: { id: number };
let nsrlx: '0' | '1' = '1';
const form = (over: Record<string, unknown> = {}) => issueForm(client.id, nsrlx, over);

type Summary = { kpfs: string; kpfsLabel: string; kpfsBlocked: string; nsrlx: '0' | '1' };
const summary = async () => {
  const r = await s.call<Summary>(billingSummaryCall.path, { aeiId: client.id, month: month(), live: false }, admin);
  expect(r.code, r.msg).toBe(CODE.OK);
  return r.data;
};
const requests = async (requestId: string) =>
  (await rig.owner(s.db, 'select 1 from invoice_requests where request_id = $1', [requestId])).length;

beforeAll(async () => {
  s = await rig.open(true);
  await credentialDemoClients(rig, s.db, 'clean');
  admin = await s.login('13800000000');
  const rows = await rig.owner<{ id: number }>(
    s.db,
    `select e.id from enterprises e
      where e.agency_id = (select m.agency_id from memberships m join users u on u.id = m.user_id
                            where u.phone = '13800000000' and m.is_admin limit 1)
        and e.deleted_at is null and e.qysh <> '' and e.service_status = '1' order by e.id limit 1`,
  );
  client = rows[0] as typeof client;
  nsrlx = (await summary()).nsrlx;
}, 300_000);
afterAll(async () => {
  await s?.close().catch(() => {});
});

describe('开具 follows the client’s 开票方式', () => {
  it('a client following an agency default of 数电 issues; the summary names the method', async () => {
    expect((await s.call(defKpTypeCall.path, { kpfs: '1' }, admin)).code).toBe(CODE.OK);
    expect((await s.call(kpfsOneCall.path, { id: client.id, kpfs: '' }, admin)).code).toBe(CODE.OK);
    expect(await summary()).toMatchObject({ kpfs: '1', kpfsLabel: '数电发票（乐企/电子税务局）', kpfsBlocked: '' });
    const r = await s.call<{ invoice: { jshj: string } }>(issueCall.path, form({ kpfs: '1' }), admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.invoice.jshj).toBe('1060.00');
  }, 60_000);

  it('税控盘 by the agency default: the summary says why, 开具 and 批量开票 are refused before the bureau', async () => {
    expect((await s.call(defKpTypeCall.path, { kpfs: '2' }, admin)).code).toBe(CODE.OK);
    const why = INVOICE_OUT_MSG.kpfsNotDigital('税控盘/金税盘');
    expect(await summary()).toMatchObject({ kpfs: '2', kpfsLabel: '税控盘/金税盘', kpfsBlocked: why });
    const f = form({ kpfs: '2' });
    const r = await s.call(issueCall.path, f, admin);
    expect([r.code, r.msg]).toEqual([CODE.BAD_REQUEST, why]);
    expect(await requests(f.requestId)).toBe(0);
    // A form opened while the client was 数电, sent after the change: refused, naming the new method.
    const stale = await s.call(issueCall.path, form({ kpfs: '1' }), admin);
    expect([stale.code, stale.msg]).toEqual([CODE.BAD_REQUEST, INVOICE_OUT_MSG.kpfsChanged('税控盘/金税盘')]);
    // Without the form's method (older callers) the client's still counts.
    const bare = await s.call(issueCall.path, form(), admin);
    expect([bare.code, bare.msg]).toEqual([CODE.BAD_REQUEST, why]);

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('批量开票');
    ws.addRow([...INVOICE_BATCH_COLUMNS]);
    ws.addRow(['1', '普票', '批量甲公司', buyerTaxNo, CODE_CATERING, '午餐', '', '', '', '', '100', '3%', '']);
    const body = multipart({ name: '批量开票.xlsx', data: Buffer.from(await wb.xlsx.writeBuffer()) });
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/${INVOICE_OUT_FILES.batchUpload}?aeiId=${client.id}`,
      headers: { ...body.headers, cookie: admin },
      payload: body.payload,
    });
    const up = res.json() as { code: number; msg: string };
    expect([up.code, up.msg]).toEqual([CODE.BAD_REQUEST, why]);
  }, 60_000);

  it('the client’s own 数电 overrides the default; its own 不开票 refuses with its own message', async () => {
    expect((await s.call(kpfsOneCall.path, { id: client.id, kpfs: '1' }, admin)).code).toBe(CODE.OK);
    expect((await summary()).kpfsBlocked).toBe('');
    const ok = await s.call(issueCall.path, form({ kpfs: '1' }), admin);
    expect(ok.code, ok.msg).toBe(CODE.OK);

    expect((await s.call(kpfsOneCall.path, { id: client.id, kpfs: '0' }, admin)).code).toBe(CODE.OK);
    expect(await summary()).toMatchObject({ kpfs: '0', kpfsLabel: '不开票', kpfsBlocked: INVOICE_OUT_MSG.kpfsNone });
    const r = await s.call(issueCall.path, form({ kpfs: '0' }), admin);
    expect([r.code, r.msg]).toEqual([CODE.BAD_REQUEST, INVOICE_OUT_MSG.kpfsNone]);
  }, 60_000);

  it('a method the product does not know is refused by the body check', async () => {
    const r = await s.call(issueCall.path, form({ kpfs: '9' }), admin);
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toContain('开票方式有误');
  });
});
