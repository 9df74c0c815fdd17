import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  accountsCall,
  addAccountCall,
  applyTemplateCall,
  auxItemsCall,
  BOOK_FILES,
  type BookAccount,
  type BookInfo,
  bookClientsCall,
  bookIdByQyshCall,
  bookInfoCall,
  CODE,
  copyVoucherCall,
  deleteVouchersCall,
  fenToChineseUpper,
  nextNumberCall,
  openingsCall,
  pinyinInitials,
  reviewVouchersCall,
  saveAuxItemCall,
  saveOpeningsCall,
  saveTemplateCall,
  saveVoucherCall,
  setUpCall,
  updateAccountCall,
  VOUCHER_IMPORT_COLUMNS,
  type Voucher,
  type VoucherImportResult,
  type VoucherImportStart,
  voucherImportProgressCall,
  vouchersCall,
} from '@dzy/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { jobs } from '../src/db/schema/index.js';
import { importDir, importVoucherRows, rowsFileName } from '../src/modules/books/books.files.js';
import { voucherImportJob } from '../src/modules/books/books.jobs.js';
import { createBook } from '../src/modules/books/books.service.js';
import type { Deps } from '../src/plugins/calls.js';
import { ENT, ID, readSheet, xlsx } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let admin = '';
let li = '';
let other = '';
let book: BookInfo;
let chart: BookAccount[] = [];
const acc = (code: string) => {
  const a = chart.find((x) => x.code === code);
  if (!a) throw new Error(`no account ${code}`);
  return a.id;
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('13800000000');
  li = await t.login('13800000001');
  other = await t.login('13900000000');
});
afterAll(() => t?.close());

const line = (code: string, debit: number, credit: number, summary = '测试') => ({
  summary,
  accountId: acc(code),
  debit,
  credit,
});

describe('books (账套)', () => {
  it('creates one book per client with the 小企业会计准则 chart', async () => {
    const r = await t.call<BookInfo>(
      setUpCall.path,
      { aeiId: ENT.adminOwn, standard: 'small2013', startPeriod: '2026-01', vatKind: 'general' },
      admin,
    );
    expect(r.code).toBe(CODE.OK);
    book = r.data;
    expect(book).toMatchObject({ startPeriod: '2026-01', currentPeriod: '2026-01', standard: 'small2013' });
    const again = await t.call(
      setUpCall.path,
      { aeiId: ENT.adminOwn, startPeriod: '2026-01', vatKind: 'general' },
      admin,
    );
    expect(again.code).toBe(CODE.CONFLICT);
    expect(again.msg).toContain('已建账');
    const c = await t.call<{ list: BookAccount[] }>(accountsCall.path, { bookId: book.bookId }, admin);
    chart = c.data.list;
    const byCode = new Map(chart.map((a) => [a.code, a]));
    expect(byCode.get('1001')).toMatchObject({ name: '库存现金', category: 'asset', direction: 'debit', py: 'KCXJ' });
    expect(byCode.get('1002')?.py).toBe('YHCK');
    expect(byCode.get('1602')).toMatchObject({ name: '累计折旧', direction: 'credit' });
    expect(byCode.get('5001')).toMatchObject({ name: '主营业务收入', category: 'profit', direction: 'credit' });
    expect(byCode.get('5801')?.name).toBe('所得税费用');
    expect(byCode.get('2221')?.isLeaf).toBe(false);
    expect(byCode.get('22210102')).toMatchObject({
      name: '销项税额',
      fullName: '应交税费_应交增值税_销项税额',
      level: 3,
    });
    expect(byCode.get('560203')?.name).toBe('差旅费');
    expect(byCode.get('310404')?.name).toBe('未分配利润');
    // A small-scale book's 应交增值税 is a leaf.
    const small = await inScope(t.db.app, { agencyId: 1, userId: ID.admin, kjgcId: null }, (tx) =>
      createBook(tx, { agencyId: 1, userId: ID.admin }, { enterpriseId: 7, startPeriod: '2026-03', vatKind: 'small' }),
    );
    const sc = await t.call<{ list: BookAccount[] }>(accountsCall.path, { bookId: small.id }, admin);
    expect(sc.data.list.find((a) => a.code === '222101')?.isLeaf).toBe(true);
    expect(sc.data.list.some((a) => a.code === '22210101')).toBe(false);
  });

  it('finds the book by tax number and lists clients with their book state in scope', async () => {
    const clients = await t.call<{ list: { aeiId: number; qysh: string; bookId: number | null }[]; total: number }>(
      bookClientsCall.path,
      { state: 'booked', pageSize: 50 },
      admin,
    );
    expect(clients.data.list.map((c) => c.aeiId).sort()).toEqual([ENT.adminOwn, 7]);
    const qysh = clients.data.list.find((c) => c.aeiId === ENT.adminOwn)?.qysh ?? '';
    const byQysh = await t.call<{ bookId: number }>(bookIdByQyshCall.path, { qysh }, admin);
    expect(byQysh.data.bookId).toBe(book.bookId);
    // 李晓梅 sees only her clients: not 王建国's book.
    const liClients = await t.call<{ list: { aeiId: number }[] }>(bookClientsCall.path, { pageSize: 100 }, li);
    expect(liClients.data.list.some((c) => c.aeiId === ENT.liOwn)).toBe(true);
    expect(liClients.data.list.some((c) => c.aeiId === ENT.adminOwn)).toBe(false);
    expect((await t.call(bookInfoCall.path, { bookId: book.bookId }, li)).code).toBe(CODE.NOT_FOUND);
    // Another agency sees nothing.
    expect((await t.call(bookInfoCall.path, { bookId: book.bookId }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(accountsCall.path, { bookId: book.bookId }, other)).code).toBe(CODE.NOT_FOUND);
    expect(
      (await t.call(setUpCall.path, { aeiId: ENT.adminOwn, startPeriod: '2026-01', vatKind: 'small' }, other)).code,
    ).toBe(CODE.NOT_FOUND);
  });

  it('adds sub-accounts and aux items', async () => {
    const bank = await t.call<BookAccount>(
      addAccountCall.path,
      { bookId: book.bookId, parentId: acc('1002'), name: '工商银行' },
      admin,
    );
    expect(bank.data).toMatchObject({
      code: '100201',
      level: 2,
      category: 'asset',
      direction: 'debit',
      fullName: '银行存款_工商银行',
    });
    const recv = await t.call<BookAccount>(
      addAccountCall.path,
      { bookId: book.bookId, parentId: acc('1122'), name: '客户往来', auxKinds: ['customer'] },
      admin,
    );
    expect(recv.data.code).toBe('112201');
    const dup = await t.call(
      addAccountCall.path,
      { bookId: book.bookId, parentId: acc('1002'), code: '100201', name: 'x' },
      admin,
    );
    expect(dup.code).toBe(CODE.CONFLICT);
    const c = await t.call<{ list: BookAccount[] }>(accountsCall.path, { bookId: book.bookId }, admin);
    chart = c.data.list;
    expect(chart.find((a) => a.code === '1002')?.isLeaf).toBe(false);
    const item = await t.call<{ id: number }>(
      saveAuxItemCall.path,
      { bookId: book.bookId, kind: 'customer', code: 'C001', name: '杭州甲公司' },
      admin,
    );
    expect(item.code).toBe(CODE.OK);
    const list = await t.call<{ list: { name: string }[]; total: number }>(
      auxItemsCall.path,
      { bookId: book.bookId, kind: 'customer' },
      admin,
    );
    expect(list.data.list.map((x) => x.name)).toEqual(['杭州甲公司']);
  });

  it('refuses vouchers until the openings balance (期初试算平衡)', async () => {
    const o = await t.call<{ trial: { debit: number; credit: number; balanced: boolean } }>(
      saveOpeningsCall.path,
      {
        bookId: book.bookId,
        rows: [
          { accountId: acc('1001'), balance: 1_000_00 },
          { accountId: acc('100201'), balance: 99_000_00 },
          { accountId: acc('3001'), balance: 90_000_00 },
        ],
      },
      admin,
    );
    expect(o.data.trial).toEqual({ debit: 100_000_00, credit: 90_000_00, balanced: false });
    const refused = await t.call(
      saveVoucherCall.path,
      { bookId: book.bookId, vdate: '2026-01-05', lines: [line('1001', 500_00, 0), line('100201', 0, 500_00)] },
      admin,
    );
    expect(refused.code).toBe(CODE.CONFLICT);
    expect(refused.msg).toBe('期初余额试算不平衡（借方100,000.00元，贷方90,000.00元），请先调整期初余额');
    const fixed = await t.call<{ trial: { balanced: boolean } }>(
      saveOpeningsCall.path,
      { bookId: book.bookId, rows: [{ accountId: acc('3001'), balance: 100_000_00 }] },
      admin,
    );
    expect(fixed.data.trial.balanced).toBe(true);
    const notLeaf = await t.call(
      saveOpeningsCall.path,
      { bookId: book.bookId, rows: [{ accountId: acc('1002'), balance: 1 }] },
      admin,
    );
    expect(notLeaf.code).toBe(CODE.BAD_REQUEST);
    const read = await t.call<{ rows: unknown[]; editable: boolean }>(
      openingsCall.path,
      { bookId: book.bookId },
      admin,
    );
    expect(read.data.rows).toHaveLength(3);
    expect(read.data.editable).toBe(true);
  });

  const made: Voucher[] = [];
  it('numbers vouchers 记-1, 2, 3 and enforces 借贷必相等', async () => {
    const unbalanced = await t.call(
      saveVoucherCall.path,
      { bookId: book.bookId, vdate: '2026-01-05', lines: [line('1001', 500_00, 0), line('100201', 0, 400_00)] },
      admin,
    );
    expect(unbalanced.code).toBe(CODE.BAD_REQUEST);
    expect(unbalanced.msg).toBe('借贷不平衡：借方合计500.00元，贷方合计400.00元');
    const noAux = await t.call(
      saveVoucherCall.path,
      { bookId: book.bookId, vdate: '2026-01-06', lines: [line('112201', 100_00, 0), line('5001', 0, 100_00)] },
      admin,
    );
    expect(noAux.msg).toContain('需要选择辅助核算（客户）');
    for (const [d, amount] of [
      ['2026-01-05', 500_00],
      ['2026-01-08', 1_234_56],
      ['2026-01-09', 300_00],
    ] as const) {
      const r = await t.call<Voucher>(
        saveVoucherCall.path,
        {
          bookId: book.bookId,
          vdate: d,
          attachments: 2,
          lines: [line('560202', amount, 0, '购办公用品'), line('1001', 0, amount, '购办公用品')],
        },
        admin,
      );
      expect(r.code).toBe(CODE.OK);
      made.push(r.data);
    }
    expect(made.map((v) => `${v.word}-${v.number}`)).toEqual(['记-1', '记-2', '记-3']);
    expect(made[1]?.lines[0]).toMatchObject({ accountCode: '560202', accountName: '管理费用_办公费', debit: 1_234_56 });
    const next = await t.call<{ number: number }>(
      nextNumberCall.path,
      { bookId: book.bookId, period: '2026-01' },
      admin,
    );
    expect(next.data.number).toBe(4);
  });

  it('reviews, refuses to delete a reviewed voucher, deletes and renumbers without gaps, copies', async () => {
    const [v1, v2, v3] = made as [Voucher, Voucher, Voucher];
    const rev = await t.call<{ done: number }>(reviewVouchersCall.path, { voucherIds: [v1.id], reviewed: true }, admin);
    expect(rev.data.done).toBe(1);
    const del = await t.call<{ done: number; failed: { label: string; msg: string }[] }>(
      deleteVouchersCall.path,
      { voucherIds: [v1.id, v2.id] },
      admin,
    );
    expect(del.data.done).toBe(1);
    expect(del.data.failed).toEqual([
      { voucherId: v1.id, label: '2026-01 记-1', msg: '凭证已审核，请先反审核再修改或删除' },
    ]);
    const list = await t.call<{ list: Voucher[]; total: number; sumTotal: number }>(
      vouchersCall.path,
      { bookId: book.bookId, periodFrom: '2026-01', periodTo: '2026-01' },
      admin,
    );
    expect(list.data.list.map((v) => [v.id, v.number])).toEqual([
      [v1.id, 1],
      [v3.id, 2],
    ]);
    expect(list.data.sumTotal).toBe(800_00);
    expect(list.data.list[0]?.reviewerName).not.toBe('');
    const copy = await t.call<Voucher>(copyVoucherCall.path, { voucherId: v3.id, vdate: '2026-01-20' }, admin);
    expect(copy.data).toMatchObject({ number: 3, total: 300_00, source: 'copy' });
    const filtered = await t.call<{ total: number }>(
      vouchersCall.path,
      { bookId: book.bookId, periodFrom: '2026-01', periodTo: '2026-01', review: 'unreviewed', accountCode: '5602' },
      admin,
    );
    expect(filtered.data.total).toBe(2);
    // Another agency can neither see nor review these vouchers.
    const stranger = await t.call<{ done: number; failed: unknown[] }>(
      reviewVouchersCall.path,
      { voucherIds: [v3.id], reviewed: true },
      other,
    );
    expect(stranger.data.done).toBe(0);
    expect(
      (await t.call(vouchersCall.path, { bookId: book.bookId, periodFrom: '2026-01', periodTo: '2026-01' }, other))
        .code,
    ).toBe(CODE.NOT_FOUND);
  });

  it('keeps 常用凭证 by code and applies them to a book', async () => {
    const saved = await t.call<{ id: number }>(
      saveTemplateCall.path,
      {
        name: '提现',
        lines: [
          { summary: '提现', code: '1001', debit: 0, credit: 0 },
          { summary: '提现', code: '100201', debit: 0, credit: 0 },
        ],
      },
      admin,
    );
    const applied = await t.call<{ lines: { accountId: number }[] }>(
      applyTemplateCall.path,
      { id: saved.data.id, bookId: book.bookId },
      admin,
    );
    expect(applied.data.lines.map((l) => l.accountId)).toEqual([acc('1001'), acc('100201')]);
  });

  it('imports vouchers from .xlsx and gives a failure file', async () => {
    const rows = [
      ['2026-01-25', '1', '1', '收到货款', '100201', '', '1130.00', ''],
      ['2026-01-25', '1', '1', '收到货款', '5001', '', '', '1000.00'],
      ['2026-01-25', '1', '1', '收到货款', '22210102', '', '', '130.00'],
      ['2026-01-26', '2', '0', '错误凭证', '1001', '', '10.00', ''],
      ['2026-01-26', '2', '0', '错误凭证', '9999', '', '', '10.00'],
    ];
    const file = await xlsx(VOUCHER_IMPORT_COLUMNS, rows);
    const boundary = '----dzybooks';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="v.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${BOOK_FILES.importUpload}?bookId=${book.bookId}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: admin },
      payload,
    });
    const started = res.json() as { code: number; data: VoucherImportStart };
    expect(started.code).toBe(CODE.OK);
    expect(started.data.total).toBe(5);
    // The import runs as a job: followed through its progress call until done.
    let progress = await t.call<{ state: string; result: VoucherImportResult | null }>(
      voucherImportProgressCall.path,
      { jobId: started.data.jobId },
      admin,
    );
    for (let i = 0; i < 200 && progress.data.state !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      progress = await t.call(voucherImportProgressCall.path, { jobId: started.data.jobId }, admin);
    }
    expect(progress.data.state).toBe('done');
    const r = { data: progress.data.result as VoucherImportResult };
    expect(r.data).toMatchObject({ total: 5, vouchers: 1, failNum: 2 });
    // Another agency cannot follow it.
    const theirs = await t.call(voucherImportProgressCall.path, { jobId: started.data.jobId }, other);
    expect(theirs.code).toBe(CODE.NOT_FOUND);
    const fail = await t.app.inject({
      method: 'GET',
      url: `/api/${BOOK_FILES.importFailList}?key=${r.data.failKey}`,
      headers: { cookie: admin },
    });
    expect(fail.statusCode).toBe(200);
    const sheet = await readSheet(fail.rawPayload);
    expect(sheet[0]?.at(-1)).toBe('失败原因');
    expect(sheet[2]?.at(-1)).toContain('科目编码9999不存在');
    const list = await t.call<{ list: Voucher[] }>(
      vouchersCall.path,
      { bookId: book.bookId, periodFrom: '2026-01', periodTo: '2026-01', keyword: '货款' },
      admin,
    );
    expect(list.data.list[0]).toMatchObject({ number: 4, total: 1130_00, source: 'import' });
    // Another agency's key finds nothing.
    const stranger = await t.app.inject({
      method: 'GET',
      url: `/api/${BOOK_FILES.importFailList}?key=${r.data.failKey}`,
      headers: { cookie: other },
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('an import job taken again after its worker died goes on after the last saved chunk', async () => {
    // 60 vouchers (2 chunks of 50 and 10); the worker that died had saved the first 50 and recorded so in
    // the same transaction, as books.jobs.ts does.
    const rows = Array.from({ length: 60 }, (_, i) => [
      { line: 2 + 2 * i, cells: ['2026-01-27', String(100 + i), '0', `续导${i}`, '1001', '', '1.00', ''] },
      { line: 3 + 2 * i, cells: ['2026-01-27', String(100 + i), '0', `续导${i}`, '100201', '', '', '1.00'] },
    ]).flat();
    const key = 'e'.repeat(32);
    const deps = { config: t.config } as unknown as Deps;
    await mkdir(importDir(deps), { recursive: true });
    await writeFile(join(importDir(deps), rowsFileName(1, key)), JSON.stringify(rows));
    const scope = { agencyId: 1, userId: ID.admin, kjgcId: null };
    const [job] = await inScope(t.db.app, scope, async (tx) => {
      const first = await importVoucherRows(tx, scope, book.bookId, rows.slice(0, 100));
      expect(first.vouchers).toBe(50);
      // A queue no worker serves, so only this test runs the job.
      return tx
        .insert(jobs)
        .values({
          agencyId: 1,
          queue: 'voucher-import-test',
          key,
          state: 'running',
          payload: { key, bookId: book.bookId, userId: ID.admin, total: rows.length },
          progress: { total: rows.length, done: 100, vouchers: 50, failed: [], groups: 50 },
        })
        .returning();
    });
    if (!job) throw new Error('job not made');
    const result = await voucherImportJob.run({
      job: { ...job, progress: null },
      deps,
      inTx: (fn, userId) => inScope(t.db.app, { agencyId: 1, userId: userId ?? null, kjgcId: null }, fn),
      setProgress: async () => undefined,
      doneIn: async (tx, r) => {
        await tx
          .update(jobs)
          .set({ state: 'done', result: r ?? {} })
          .where(eq(jobs.id, job.id));
      },
    });
    expect(result).toEqual({ total: 120, vouchers: 60, failNum: 0, failKey: '' });
    const made = await t.ownerQuery<{ n: number; numbers: number }>(
      `select count(*)::int n, count(distinct number)::int numbers from vouchers v
        where v.book_id = $1 and exists (select 1 from voucher_lines l where l.voucher_id = v.id and l.summary like '续导%')`,
      [book.bookId],
    );
    expect(made[0]).toEqual({ n: 60, numbers: 60 });
  });

  it('edits accounts: no aux change once used; disable', async () => {
    const r = await t.call(updateAccountCall.path, { accountId: acc('1001'), auxKinds: ['dept'] }, admin);
    expect(r.code).toBe(CODE.CONFLICT);
    const off = await t.call<BookAccount>(updateAccountCall.path, { accountId: acc('1012'), enabled: false }, admin);
    expect(off.data.enabled).toBe(false);
  });
});

describe('Chinese amounts', () => {
  it('writes 大写 and pinyin initials', () => {
    expect(fenToChineseUpper(1_234_56)).toBe('壹仟贰佰叁拾肆元伍角陆分');
    expect(fenToChineseUpper(100_000_00)).toBe('壹拾万元整');
    expect(fenToChineseUpper(1_000_05)).toBe('壹仟元零伍分');
    expect(fenToChineseUpper(10_005_00)).toBe('壹万零伍元整');
    expect(pinyinInitials('主营业务收入')).toBe('ZYYWSR');
    expect(pinyinInitials('长期借款')).toBe('CQJK');
  });
});
