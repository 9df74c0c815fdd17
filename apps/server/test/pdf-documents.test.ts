import { randomUUID } from 'node:crypto';
import { readPdf } from '@dzy/pdf/read';
import {
  BOOK_PRINT_FILES,
  BOOK_REPORT_FILES,
  billingSummaryCall,
  CODE,
  type FilingSyncRate,
  type FilingSyncStartReply,
  filingSyncRateCall,
  filingSyncStartCall,
  INVOICE_OUT_FILES,
  issueCall,
  type PrintRun,
  printRunCall,
  printStartCall,
  redLetterCall,
  sbjtylUrl,
} from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { accountIdsByCode, createBook } from '../src/modules/books/books.service.js';
import { createVoucher, reviewVoucher } from '../src/modules/voucher-store/voucher-store.js';
import { ADMIN, ENT, ID } from './customer-helpers.js';
import { demoEnterprises, GOOD, setCredentials } from './declare-check-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { issueForm, month } from './invoice-helpers.js';
import { waitForFinish } from './resume-helpers.js';

/**
 * Every kind of document the product writes as PDF (issue 29 point 1) — the bureau's 申报回执 (written by the
 * simulator), a 数电票 and its red-letter invoice, a voucher print, a ledger, a statement and a print run — made
 * through the real routes and opened with PDF.js as a viewer would: the CJK font is embedded as a subset
 * (FontFile2, a ABCDEF+ name) and the Chinese text extracts. The red invoice prints the bureau's 备注
 * (issue 28 point 10). Runs on PGlite and on PostgreSQL (DATABASE_URL).
 */

const TODAY = '2026-11-10';

let sim: TaxSim;
let t: TestApp;
let admin = '';
let bookId = 0;

beforeAll(async () => {
  sim = await startTaxSim({ latencyMs: 2, today: TODAY });
  t = await startTestApp({ taxBureauUrl: sim.url });
  admin = await t.login(ADMIN);
  const ctx = { agencyId: 1, userId: ID.admin, kjgcId: null };
  await inScope(t.db.app, ctx, async (tx) => {
    const book = await createBook(tx, ctx, { enterpriseId: ENT.adminOwn, startPeriod: '2026-10', vatKind: 'small' });
    bookId = book.id;
    const ids = await accountIdsByCode(tx, book.id);
    const acct = (code: string) => ids.get(code) as number;
    const v = await createVoucher(tx, ctx, book.id, {
      vdate: '2026-10-08',
      attachments: 2,
      lines: [
        { summary: '销售商品', accountId: acct('1122'), debit: 103_000_00, credit: 0 },
        { summary: '销售商品', accountId: acct('5001'), debit: 0, credit: 100_000_00 },
        { summary: '销项税额', accountId: acct('222101'), debit: 0, credit: 3_000_00 },
      ],
    });
    await reviewVoucher(tx, ctx, v.id, true);
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

/** Opens a PDF and checks what every document must have: an embedded subset font, no unembedded one. */
async function open(bytes: Buffer) {
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const r = await readPdf(bytes);
  expect(r.embedded).toBe(true);
  expect(r.fonts.length).toBeGreaterThan(0);
  for (const f of r.fonts) expect(f).toMatch(/^[A-Z]{6}\+NotoSansSC/);
  expect(bytes.toString('latin1')).not.toContain('STSong');
  return r;
}

describe('PDF documents', () => {
  it('申报回执 from the simulator, through the product', async () => {
    const ents = (await demoEnterprises(t)).filter((e) => e.qysh && e.service_status === '1').slice(0, 2);
    for (const e of ents) await setCredentials(t, e.id, GOOD);
    const r = await t.call<FilingSyncStartReply>(
      filingSyncStartCall.path,
      { filingMonth: TODAY.slice(0, 7), scope: 'selected', aeiIds: ents.map((e) => e.id) },
      admin,
    );
    expect(r.code, r.msg).toBe(CODE.OK);
    await waitForFinish(
      async () => (await t.call<FilingSyncRate>(filingSyncRateCall.path, { batchId: r.data.batchId }, admin)).data,
      (s) => s?.state !== 'running',
    );
    const [c] = await t.ownerQuery<{
      enterprise_id: number;
      qysh: string;
      tax_type: string;
      skssqq: string;
      pzxh: string;
    }>(
      `select c.enterprise_id, e.qysh, c.tax_type, c.skssqq, c.pzxh from filing_cells c
         join enterprises e on e.id = c.enterprise_id where c.pzxh <> '' order by c.enterprise_id, c.tax_type, c.skssqq limit 1`,
    );
    expect(c).toBeDefined();
    if (!c) return;
    const res = await t.app.inject({
      method: 'GET',
      url: sbjtylUrl({ aeiId: c.enterprise_id, taxType: c.tax_type as never, skssqq: c.skssqq }),
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const pdf = await open(res.rawPayload);
    expect(pdf.pages[0]?.items[0]).toBe('申报回执');
    expect(pdf.pages[0]?.text).toContain('纳税人识别号');
    expect(pdf.pages[0]?.text).toContain(c.qysh);
    expect(pdf.pages[0]?.text).toContain(c.pzxh);
    expect(pdf.pages[0]?.text).toContain('您的申报已受理');
  }, 120_000);

  it('a 数电票 and its red-letter invoice, which prints the bureau’s 备注', async () => {
    const [e] = (await demoEnterprises(t)).filter((x) => x.qysh && x.service_status === '1');
    if (!e) throw new Error('no demo client');
    await setCredentials(t, e.id, GOOD);
    const sum = await t.call<{ nsrlx: '0' | '1' }>(billingSummaryCall.path, { aeiId: e.id, month: month() }, admin);
    expect(sum.code, sum.msg).toBe(CODE.OK);
    type Detail = { id: number; fphm: string; bz: string; lzfphm: string };
    const issued = await t.call<{ invoice: Detail }>(issueCall.path, issueForm(e.id, sum.data.nsrlx), admin);
    expect(issued.code, issued.msg).toBe(CODE.OK);
    const blue = issued.data.invoice;
    const pdfOf = async (id: number) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/${INVOICE_OUT_FILES.pdf}/${id}`,
        headers: { cookie: admin },
      });
      expect(res.statusCode).toBe(200);
      return open(res.rawPayload);
    };
    const b = await pdfOf(blue.id);
    expect(b.pages).toHaveLength(1);
    expect(b.pages[0]?.text).toContain('电子发票');
    expect(b.pages[0]?.text).toContain(blue.fphm);
    expect(b.pages[0]?.text).toContain('杭州示例贸易有限公司');
    expect(b.pages[0]?.text).toContain('工作餐');
    expect(b.pages[0]?.text).toContain('测试备注');
    expect(b.pages[0]?.text).toContain('价税合计（大写）');

    const red = await t.call<{ red: Detail; qrdbh: string }>(
      redLetterCall.path,
      { id: blue.id, reason: '开票有误', requestId: randomUUID() },
      admin,
    );
    expect(red.code, red.msg).toBe(CODE.OK);
    // The bureau's 备注, kept as it returned it, shown in the detail…
    const bz = `被红冲蓝字数电发票号码：${blue.fphm} 红字发票信息确认单编号：${red.data.qrdbh}`;
    expect(red.data.red.bz).toBe(bz);
    expect(red.data.qrdbh).toMatch(/^\d{20}$/);
    // …and printed.
    const r = await pdfOf(red.data.red.id);
    expect(r.pages[0]?.text).toContain('红字发票');
    expect(r.pages[0]?.text).toContain(`被红冲蓝字数电发票号码：${blue.fphm}`);
    expect(r.pages[0]?.text).toContain(`红字发票信息确认单编号：${red.data.qrdbh}`);
  }, 120_000);

  it('a statement and a ledger', async () => {
    const send = (path: string, body: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/${path}`, payload: body as object, headers: { cookie: admin } });
    const st = await send(BOOK_REPORT_FILES.statement, { bookId, period: '2026-10', kind: 'income', format: 'pdf' });
    expect(st.statusCode).toBe(200);
    const s = await open(st.rawPayload);
    expect(s.pages[0]?.items[0]).toBe('利润表（会小企02表）');
    expect(s.pages[0]?.text).toContain('营业收入');
    expect(s.pages[0]?.text).toContain('100,000.00');
    const lg = await send(BOOK_REPORT_FILES.ledger, {
      bookId,
      from: '2026-10',
      to: '2026-10',
      kind: 'balances',
      format: 'pdf',
    });
    expect(lg.statusCode).toBe(200);
    const l = await open(lg.rawPayload);
    expect(l.pages[0]?.items[0]).toBe('科目余额表');
    expect(l.pages[0]?.text).toContain('应收账款');
    expect(l.pages[0]?.text).toContain('103,000.00');
  }, 60_000);

  it('vouchers and a whole print run (vouchers, ledgers, statements) in one job', async () => {
    const start = await t.call<{ runId: string }>(
      printStartCall.path,
      {
        aeiIds: [ENT.adminOwn],
        from: '2026-10',
        to: '2026-10',
        items: ['vouchers', 'balances', 'general', 'balance', 'income', 'cashflow'],
        layout: 'a5',
      },
      admin,
    );
    expect(start.code, start.msg).toBe(CODE.OK);
    const run = await waitForFinish(
      async () => (await t.call<PrintRun>(printRunCall.path, { runId: start.data.runId }, admin)).data,
      (x) => x.state !== 'running',
    );
    expect(run?.state).toBe('done');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/${BOOK_PRINT_FILES.download}?runId=${start.data.runId}`,
      headers: { cookie: admin },
    });
    expect(res.headers['content-type']).toBe('application/pdf');
    const p = await open(res.rawPayload);
    const voucher = p.pages[0];
    expect(voucher?.size).toBe('595x421');
    expect(voucher?.items).toContain('记 账 凭 证');
    expect(voucher?.text).toContain('凭证字号：记-1');
    expect(voucher?.text).toContain('合计：人民币（大写）壹拾万叁仟元整');
    const titles = p.pages.map((x) => x.items[0]);
    for (const title of [
      '科目余额表',
      '总账',
      '资产负债表（会小企01表）',
      '利润表（会小企02表）',
      '现金流量表（会小企03表）',
    ])
      expect(titles).toContain(title);
    // A subset: the file holds the glyphs used, not the 10 MB font.
    expect(res.rawPayload.length).toBeLessThan(400_000);
  }, 120_000);
});
