import { writeFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { readPdf } from '@dzy/pdf/read';
import {
  BOOK_PRINT_FILES,
  BOOK_PRINT_QUEUE,
  CODE,
  type PrintClient,
  type PrintRun,
  printClientsCall,
  printRunCall,
  printRunsCall,
  printStartCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope, type Tx } from '../src/db/client.js';
import { createBook } from '../src/modules/books/books.service.js';
import { postVoucher } from './book-helpers.js';
import { ADMIN, ENT, ID, OTHER_ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { useResumeRig, waitForFinish } from './resume-helpers.js';

process.env.BOOK_PRINT_LEASE_SECONDS = '2';

/** The files of a zip (central directory → local entries, inflated). */
function unzip(buf: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(-1);
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    expect(buf.readUInt32LE(p)).toBe(0x02014b50);
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const lName = buf.readUInt16LE(local + 26);
    const data = buf.subarray(local + 30 + lName, local + 30 + lName + size);
    out.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    p += 46 + nameLen;
  }
  return out;
}

/** A PDF's pages as the text drawn on each, read by PDF.js; the CJK font must be embedded. */
async function pdfPages(pdf: Buffer): Promise<{ size: string; text: string[] }[]> {
  const r = await readPdf(pdf);
  expect(r.embedded).toBe(true);
  return r.pages.map((p) => ({ size: p.size, text: p.items }));
}

type Line = [code: string, debit: number, credit: number, summary?: string];

const post = (tx: Tx, ctx: { agencyId: number; userId: number }, bookId: number, vdate: string, lines: Line[]) =>
  postVoucher(tx, ctx, bookId, vdate, lines, { attachments: 2 });

describe('批量打印', () => {
  let t: TestApp;
  let admin = '';
  let other = '';
  const ctx = { agencyId: 1, userId: ID.admin, kjgcId: null };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.login(ADMIN);
    other = await t.login(OTHER_ADMIN);
    await inScope(t.db.app, ctx, async (tx) => {
      // 客户1: a month of vouchers, one with eight lines (two sheets).
      const a = await createBook(tx, ctx, { enterpriseId: ENT.adminOwn, startPeriod: '2026-10', vatKind: 'small' });
      await post(tx, ctx, a.id, '2026-10-08', [
        ['1122', 103_000_00, 0, '销售商品'],
        ['5001', 0, 100_000_00, '销售商品'],
        ['222101', 0, 3_000_00, '销项税额'],
      ]);
      await post(tx, ctx, a.id, '2026-10-20', [
        ['560202', 100_00, 0, '办公用品'],
        ['560202', 200_00, 0, '快递费'],
        ['560202', 300_00, 0, '打印纸'],
        ['560202', 400_00, 0, '水费'],
        ['560202', 500_00, 0, '电费'],
        ['560202', 600_00, 0, '网费'],
        ['560202', 700_00, 0, '话费'],
        ['1001', 0, 2_800_00, '现金支付'],
      ]);
      // 客户3: books but no vouchers.
      await createBook(tx, ctx, { enterpriseId: ENT.zhangOwn, startPeriod: '2026-10', vatKind: 'general' });
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const rate = (runId: string, cookie = admin) => t.call<PrintRun>(printRunCall.path, { runId }, cookie);
  const finish = async (runId: string) =>
    waitForFinish(
      async () => (await rate(runId)).data,
      (r) => r.state !== 'running',
    );
  const clientsOf = async (runId: string) =>
    (await t.call<{ list: PrintClient[] }>(printClientsCall.path, { runId, pageSize: 50 }, admin)).data.list;
  const download = (runId: string, cookie = admin) =>
    t.app.inject({ method: 'GET', url: `/api/${BOOK_PRINT_FILES.download}?runId=${runId}`, headers: { cookie } });

  it('prints vouchers, ledgers and statements of many clients into a zip with one PDF per client', async () => {
    const start = await t.call<{ runId: string; total: number; noQysh: { aeiId: number }[] }>(
      printStartCall.path,
      {
        scope: 'selected',
        aeiIds: [ENT.adminOwn, ENT.zhangOwn, ENT.liOwn, ENT.liNoTax],
        from: '2026-10',
        to: '2026-10',
        items: ['vouchers', 'balances', 'general', 'detail', 'balance', 'income', 'cashflow'],
        layout: 'a4',
      },
      admin,
    );
    expect(start.code, start.msg).toBe(CODE.OK);
    // 客户5 has no tax number: the batch rule leaves it out, with its reason in the run.
    expect(start.data.total).toBe(3);
    expect(start.data.noQysh.map((c) => c.aeiId)).toEqual([ENT.liNoTax]);
    const done = await finish(start.data.runId);
    expect(done).toMatchObject({ state: 'done', totalNum: 4, okNum: 2, emptyNum: 2, failNum: 0, rate: 100 });
    expect(done?.fileName).toBe('账务打印_2026-10_2户.zip');

    const byClient = new Map((await clientsOf(start.data.runId)).map((c) => [c.aeiId, c]));
    expect(byClient.get(ENT.adminOwn)).toMatchObject({ state: 'ok' });
    expect(byClient.get(ENT.zhangOwn)).toMatchObject({ state: 'ok' });
    expect(byClient.get(ENT.zhangOwn)?.msg).toContain('所选期间没有凭证，已打印账簿和报表');
    expect(byClient.get(ENT.liOwn)).toMatchObject({ state: 'empty', msg: '该客户未建账', pages: 0 });
    expect(byClient.get(ENT.liNoTax)?.state).toBe('skipped');

    const res = await download(start.data.runId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = unzip(res.rawPayload);
    expect(files.size).toBe(2);
    const [nameA, pdfA] = [...files.entries()].find(([n]) => n.includes('_2026-10.pdf') && files.size) ?? ['', null];
    expect(nameA).toMatch(/\.pdf$/);
    expect(pdfA).not.toBeNull();
    const parsed = await Promise.all([...files.entries()].map(async ([n, d]) => [n, d, await pdfPages(d)] as const));
    const a = parsed.find(([, , ps]) => ps.some((p) => p.text.includes('记 账 凭 证')));
    expect(a).toBeDefined();
    const pages = a?.[2] ?? [];
    expect(byClient.get(ENT.adminOwn)?.pages).toBe(pages.length);
    // A4 portrait: two sheets a page — voucher 1, then voucher 2's two sheets (eight lines, six a sheet).
    const voucherPagesA = pages.filter((p) => p.text.includes('记 账 凭 证'));
    expect(voucherPagesA.map((p) => p.size)).toEqual(['595x842', '595x842']);
    const first = voucherPagesA[0]?.text ?? [];
    expect(first).toContain('凭证字号：记-1');
    expect(first).toContain('日期：2026年10月08日');
    expect(first).toContain('凭证字号：记-2（1/2）');
    expect(first).toContain('103,000.00');
    expect(first).toContain('合计：人民币（大写）壹拾万叁仟元整');
    expect(first).toContain('过次页');
    expect(first.filter((s) => s === '附')).toHaveLength(2);
    expect(first.some((s) => s.startsWith('审核：'))).toBe(true);
    expect(first.some((s) => s.startsWith('制单：'))).toBe(true);
    const second = voucherPagesA[1]?.text ?? [];
    expect(second).toContain('凭证字号：记-2（2/2）');
    expect(second).toContain('合计：人民币（大写）贰仟捌佰元整');
    // Then the ledgers and the statements.
    const titles = pages.map((p) => p.text[0]);
    for (const title of [
      '科目余额表',
      '总账',
      '明细账',
      '资产负债表（会小企01表）',
      '利润表（会小企02表）',
      '现金流量表（会小企03表）',
    ])
      expect(titles).toContain(title);
    if (process.env.BOOK_PRINT_SAMPLE) writeFileSync(process.env.BOOK_PRINT_SAMPLE, a?.[1] ?? Buffer.alloc(0));
  });

  it('gives one PDF for one client, A5 one voucher a page, and says when there is nothing to print', async () => {
    const one = await t.call<{ runId: string }>(
      printStartCall.path,
      { aeiIds: [ENT.adminOwn], from: '2026-10', to: '2026-10', items: ['vouchers'], layout: 'a5' },
      admin,
    );
    expect(one.code, one.msg).toBe(CODE.OK);
    expect((await finish(one.data.runId))?.fileName).toMatch(/_账务打印_2026-10\.pdf$/);
    const res = await download(one.data.runId);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pages = await pdfPages(res.rawPayload);
    // Three sheets (voucher 2 takes two), one a page, A5 landscape.
    expect(pages.map((p) => p.size)).toEqual(['595x421', '595x421', '595x421']);
    if (process.env.BOOK_PRINT_SAMPLE_A5) writeFileSync(process.env.BOOK_PRINT_SAMPLE_A5, res.rawPayload);

    const none = await t.call<{ runId: string }>(
      printStartCall.path,
      { aeiIds: [ENT.zhangOwn], from: '2026-10', to: '2026-11', items: ['vouchers'], layout: 'a4' },
      admin,
    );
    const r = await finish(none.data.runId);
    expect(r).toMatchObject({ state: 'done', okNum: 0, emptyNum: 1, fileName: '' });
    expect((await clientsOf(none.data.runId))[0]).toMatchObject({ state: 'empty', msg: '所选期间没有凭证' });
    const nothing = await download(none.data.runId);
    expect(JSON.parse(nothing.body)).toMatchObject({
      code: CODE.EMPTY,
      msg: '没有生成任何文件：所选客户均无可打印内容',
    });

    const runs = await t.call<{ list: PrintRun[]; total: number }>(printRunsCall.path, { pageSize: 10 }, admin);
    expect(runs.data.list.map((x) => x.runId)).toEqual([none.data.runId, one.data.runId, expect.any(String)]);
  });

  it('checks the form with clear messages', async () => {
    const bad = async (body: Record<string, unknown>) => (await t.call(printStartCall.path, body, admin)).msg;
    expect(await bad({ aeiIds: [], from: '2026-10', to: '2026-10', items: ['vouchers'] })).toContain('请选择客户');
    expect(await bad({ aeiIds: [1], from: '2026-10', to: '2026-10', items: [] })).toContain('请至少选择一项打印内容');
    expect(await bad({ aeiIds: [1], from: '2026-11', to: '2026-10', items: ['vouchers'] })).toContain(
      '结束期间不能早于开始期间',
    );
    expect(await bad({ aeiIds: [1], from: '2024-01', to: '2026-10', items: ['vouchers'] })).toContain('期间最长24个月');
  });

  it('shows another agency nothing', async () => {
    const mine = await t.call<{ list: PrintRun[] }>(printRunsCall.path, { pageSize: 10 }, admin);
    const runId = mine.data.list[0]?.runId ?? '';
    expect(runId).not.toBe('');
    expect((await rate(runId, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(printClientsCall.path, { runId }, other)).code).toBe(CODE.NOT_FOUND);
    expect(JSON.parse((await download(runId, other)).body).code).toBe(CODE.NOT_FOUND);
    const theirs = await t.call<{ list: PrintRun[]; total: number }>(printRunsCall.path, { pageSize: 10 }, other);
    expect(theirs.data.total).toBe(0);
    // Printing agency 1's client from agency 2: refused, nothing starts.
    const start = await t.call(
      printStartCall.path,
      { aeiIds: [ENT.adminOwn], from: '2026-10', to: '2026-10', items: ['vouchers'] },
      other,
    );
    expect(start.code).toBe(CODE.NOT_FOUND);
    const after = await t.call<{ total: number }>(printRunsCall.path, { pageSize: 10 }, other);
    expect(after.data.total).toBe(0);
  });

  it('needs a session and the print permission for the download', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/${BOOK_PRINT_FILES.download}?runId=1` });
    expect(JSON.parse(res.body).code).toBe(CODE.SESSION_EXPIRED);
  });
});

const RESUME_CLIENTS = [7, 8, 9, 10, 11, 12, 13, 14];
process.env.BOOK_PRINT_CONCURRENCY = '1';

/**
 * A print run killed mid-way: the server goes away with some clients printed; one client's work never
 * committed (no outcome, its job running with a lapsed lease), another's committed but its job still said
 * running. A new server on the same database finishes the run: every client printed once, one file each.
 */
describe('a print run survives its server', () => {
  const rig = useResumeRig({ dirPrefix: 'dzy-book-print-resume-' });
  it('finishes on a new server with every client printed once', async () => {
    const first = await rig.open(true);
    const ctx = { agencyId: 1, userId: 1, kjgcId: null };
    await inScope(first.db.app, ctx, async (tx) => {
      for (const ent of RESUME_CLIENTS) {
        const b = await createBook(tx, ctx, { enterpriseId: ent, startPeriod: '2026-10', vatKind: 'small' });
        for (let i = 1; i <= 20; i++)
          await post(tx, ctx, b.id, '2026-10-10', [
            ['1122', 1_030_00 * i, 0, '销售'],
            ['5001', 0, 1_000_00 * i, '销售'],
            ['222101', 0, 30_00 * i, '销售'],
          ]);
      }
    });
    const admin = await first.login(ADMIN);
    const start = await first.call<{ runId: string; total: number }>(
      printStartCall.path,
      { aeiIds: RESUME_CLIENTS, from: '2026-10', to: '2026-10', items: ['vouchers', 'balances', 'detail'] },
      admin,
    );
    expect(start.code, start.msg).toBe(CODE.OK);
    const runId = start.data.runId;
    // Stopped once a few clients are printed.
    for (;;) {
      const r = await first.call<PrintRun>(printRunCall.path, { runId }, admin);
      if (r.data.completeNum >= 3) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    await first.close();

    const { openDatabase } = await import('../src/db/client.js');
    const db = await openDatabase(rig.config);
    const printed = await rig.owner<{ enterprise_id: number }>(
      db,
      `select enterprise_id from book_print_clients where run_id = $1 and state is not null order by id`,
      [Number(runId)],
    );
    // On the embedded engine the jobs share the main thread with the page's polling, so the first server
    // may have printed every client before it stopped; the crash is then made by hand below either way.
    expect(printed.length).toBeGreaterThanOrEqual(3);
    const [lost, unrecorded] = printed.map((p) => p.enterprise_id);
    // A client still pending means the run is still running (it ends when none is).
    await rig.owner(db, `update book_runs set state = 'running', finished_at = null, file_name = '' where id = $1`, [
      Number(runId),
    ]);
    // Work never committed: no outcome, no file.
    await rig.owner(
      db,
      `update book_print_clients set state = null, msg = '', pages = 0, pdf = null where run_id = $1 and enterprise_id = $2`,
      [Number(runId), lost],
    );
    await rig.owner(
      db,
      `update jobs set state = 'running', locked_until = now() - interval '1 second', finished_at = null
        where queue = $1 and key = any(string_to_array($2, ','))`,
      [BOOK_PRINT_QUEUE, [`${runId}:${lost}`, `${runId}:${unrecorded}`].join(',')],
    );
    await db.close();

    const second = await rig.open(false);
    try {
      const admin2 = await second.login(ADMIN);
      const done = await waitForFinish(
        async () => (await second.call<PrintRun>(printRunCall.path, { runId }, admin2)).data,
        (r) => r.state !== 'running',
      );
      expect(done).toMatchObject({ state: 'done', totalNum: 8, okNum: 8, emptyNum: 0, failNum: 0 });
      const rows = await rig.owner<{ n: number; distinct_n: number; files: number }>(
        second.db,
        `select count(*)::int as n, count(distinct enterprise_id)::int as distinct_n,
                count(*) filter (where state = 'ok' and pdf is not null)::int as files
           from book_print_clients where run_id = $1`,
        [Number(runId)],
      );
      expect(rows[0]).toEqual({ n: 8, distinct_n: 8, files: 8 });
      const jobs = await rig.owner<{ state: string; n: number }>(
        second.db,
        `select state, count(*)::int as n from jobs where queue = $1 and key like $2 group by state`,
        [BOOK_PRINT_QUEUE, `${runId}:%`],
      );
      expect(jobs).toEqual([{ state: 'done', n: 8 }]);
      const res = await second.app.inject({
        method: 'GET',
        url: `/api/${BOOK_PRINT_FILES.download}?runId=${runId}`,
        headers: { cookie: admin2 },
      });
      const files = unzip(res.rawPayload);
      expect(files.size).toBe(8);
      // Each client's file: its twenty vouchers on ten A4 pages, then its ledgers.
      for (const pdf of files.values()) {
        const pages = await pdfPages(pdf);
        expect(pages.filter((p) => p.text.includes('记 账 凭 证'))).toHaveLength(10);
      }
    } finally {
      await second.close();
    }
  }, 240_000);
});
