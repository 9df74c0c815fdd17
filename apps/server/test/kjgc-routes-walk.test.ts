import { inflateRawSync } from 'node:zlib';
import { readPdf } from '@dzy/pdf/read';
import {
  CODE,
  CUSTOMER_MSG,
  customerCreateCall,
  INVITE_FILE_COLUMNS,
  INVOICE_BATCH_COLUMNS,
  importProgressCall,
  PWD_IMPORT_COLUMNS,
  printRunCall,
  printStartCall,
  SERVICE_IMPORT_COLUMNS,
  SHUIJU_PWD_COLUMNS,
  TEMPLATE_IMPORT_COLUMNS,
  VOUCHER_IMPORT_COLUMNS,
  WO_ORDER_IMPORT_COLUMNS,
} from '@dzy/shared';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../src/app.js';
import { inScope, type Tx } from '../src/db/client.js';
import { accountIdsByCode, createBook } from '../src/modules/books/books.service.js';
import { ExcelJS } from '../src/modules/customer/xlsx.js';
import { createVoucher, reviewVoucher } from '../src/modules/voucher-store/voucher-store.js';
import type { Deps } from '../src/plugins/calls.js';
import { ADMIN, FACTORY, ID, multipart, upload } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { untilJobsSettled } from './helpers.js';
import { waitForFinish } from './resume-helpers.js';

/**
 * Issue 26 point 2 over the plain routes: the demo factory (启航会计工厂, 13700000000, bound to 演示财税代理有限公司)
 * keeps three clients handed over; every other client of the agency is withheld and given what the file routes
 * serve (attachments, a work order's file, books with vouchers, invoices, filed returns, a finished print run,
 * failure files of the agency's own imports). Then, as the factory, every plain route the app registers is
 * called against those clients — ids of withheld clients, whole-list exports, uploads into them, jobs it
 * starts and their files — and nothing of a withheld client may come back (its name or tax number, searched
 * in the bytes, inside .xlsx/.zip entries, in PDF text and in the file name) nor be written.
 * kjgc-scope-walk.test.ts does the same over the JSON calls.
 */

const AGENCY = 1;
/** Handed over to the factory; every other client of the agency is withheld. */
const VISIBLE = [1, 2, 3];

let t: TestApp;
let admin = '';
let factory = '';
let withheld: { id: number; qymc: string; qysh: string }[] = [];
let visible: { id: number; qymc: string; qysh: string }[] = [];
const idList = (ids: number[]) => `'{${ids.map((i) => Math.trunc(i)).join(',')}}'::int[]`;

/** What the walk uses: ids of withheld clients' data, and keys of files made for them. */
interface Ctx {
  w: { id: number; qymc: string; qysh: string };
  attachmentId: number;
  woAttachmentId: number;
  woStepId: number;
  /** An enabled work-order template of the agency, so an order row reaches the client lookup. */
  woTemplate: string;
  invoiceId: number;
  filed: { aeiId: number; taxType: string; skssqq: string };
  bookId: number;
  period: string;
  agencyPrintRun: string;
  agencyInvoiceRun: number;
  agencyPwdKey: string;
  /** Keys and runs of the factory's own uploads and jobs, filled as the walk goes (uploads first). */
  own: {
    pwdKey?: string;
    shuijuKey?: string;
    woKey?: string;
    tempKey?: string;
    serviceKey?: string;
    voucherKey?: string;
    printRun?: string;
  };
}
let ctx: Ctx;

// --- what a response shows -------------------------------------------------------------------------

/** The entries of a zip (central directory, stored or deflated), as the evidence and print tests read them. */
function zipEntries(buf: Buffer): Buffer[] {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) return [];
  const out: Buffer[] = [];
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  for (let i = 0; i < count && buf.readUInt32LE(p) === 0x02014b50; i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30);
    const comment = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    out.push(buf.subarray(p + 46, p + 46 + nameLen));
    const lName = buf.readUInt16LE(local + 26);
    const lExtra = buf.readUInt16LE(local + 28);
    const data = buf.subarray(local + 30 + lName + lExtra, local + 30 + lName + lExtra + size);
    out.push(method === 8 ? inflateRawSync(data) : Buffer.from(data));
    p += 46 + nameLen + extra + comment;
  }
  return out;
}

/** A PDF's text: its streams inflated, hex strings read as UCS-2 (how the product's PDFs draw Chinese). */

/** Every text a response carries: the body, its zip entries and PDFs (recursively), and the file name. */
async function shown(body: Buffer, headers: Record<string, unknown>, depth = 0): Promise<string> {
  const out = [body.toString('utf8')];
  if (depth === 0) {
    const cd = String(headers['content-disposition'] ?? '');
    out.push(cd);
    try {
      out.push(decodeURIComponent(cd));
    } catch {
      // not percent-encoded
    }
  }
  if (depth < 3 && body.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    for (const e of zipEntries(body)) out.push(await shown(e, {}, depth + 1));
  }
  // A PDF's text as a viewer shows it (the fonts are embedded subsets, so the bytes do not hold it).
  if (body.subarray(0, 5).toString('latin1') === '%PDF-')
    out.push(
      await readPdf(body).then(
        (pdf) => pdf.pages.map((p) => p.items.join('')).join('\n'),
        // A file the walk uploaded itself (a few-byte PDF header) is not one a viewer opens; its bytes are in out[0].
        () => '',
      ),
    );
  return out.join('\n');
}

/** The withheld clients' names and tax numbers found in `text` (strings the caller itself sent excepted). */
function leaksIn(text: string, sent: readonly string[] = []): string[] {
  let t0 = text;
  for (const s of sent) t0 = t0.replaceAll(s, '');
  const found: string[] = [];
  for (const w of withheld) {
    // A withheld name inside a visible client's name would be found where the visible one is shown.
    const inVisible = visible.some((v) => v.qymc.includes(w.qymc));
    if (!inVisible && t0.includes(w.qymc)) found.push(w.qymc);
    if (w.qysh && t0.includes(w.qysh)) found.push(w.qysh);
  }
  return found;
}

/** Every row of every client-owned table that belongs to the withheld clients, as one fingerprint each. */
async function fingerprint(): Promise<Record<string, string>> {
  const tables = await t.ownerQuery<{ table_name: string }>(
    `select c.table_name from information_schema.columns c
     join information_schema.tables s on s.table_name = c.table_name and s.table_schema = c.table_schema
     where c.column_name = 'enterprise_id' and c.table_schema = current_schema() and s.table_type = 'BASE TABLE'
     order by 1`,
  );
  const ids = idList(withheld.map((w) => w.id));
  const out: Record<string, string> = {};
  const [e] = await t.ownerQuery<{ h: string }>(
    `select coalesce(md5(string_agg(t::text, '|' order by t.id)), '') as h from enterprises t where t.id = any(${ids})`,
  );
  out.enterprises = e?.h ?? '';
  for (const { table_name } of tables) {
    const [r] = await t.ownerQuery<{ h: string }>(
      `select count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h
       from "${table_name}" t where t.enterprise_id = any(${ids})`,
    );
    out[table_name] = r?.h ?? '';
  }
  // Work-order files hang on the order, not the client.
  const [wa] = await t.ownerQuery<{ h: string }>(
    `select count(*)::text as h from work_order_attachments a join work_orders o on o.id = a.work_order_id
     where o.enterprise_id = any(${ids})`,
  );
  out.work_order_attachments = wa?.h ?? '';
  return out;
}

// --- setting up the withheld clients' data ---------------------------------------------------------

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** A .csv upload (every import route reads UTF-8 .csv) with the given header and rows. */
const csv = (header: readonly string[], rows: string[][]) =>
  Buffer.from(
    `\uFEFF${[header, ...rows].map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')).join('\r\n')}\r\n`,
  );

const mp = (url: string, file: { name: string; data: Buffer }, cookie: string): InjectOptions => {
  const body = multipart(file);
  return { method: 'POST', url, headers: { ...body.headers, cookie }, payload: body.payload };
};

async function postVoucher(tx: Tx, c: { agencyId: number; userId: number }, bookId: number, vdate: string) {
  const ids = await accountIdsByCode(tx, bookId);
  const line = (code: string, debit: number, credit: number) => {
    const accountId = ids.get(code);
    if (!accountId) throw new Error(`no account ${code}`);
    return { summary: '销售商品', accountId, debit, credit };
  };
  const v = await createVoucher(tx, c, bookId, {
    vdate,
    attachments: 1,
    lines: [line('1122', 103_000_00, 0), line('5001', 0, 100_000_00), line('222101', 0, 3_000_00)],
  });
  await reviewVoucher(tx, c, v.id, true);
}

/** The id of a book of `enterpriseId` (made, with one voucher, when the demo has none). */
async function bookOf(enterpriseId: number): Promise<{ id: number; period: string }> {
  const [have] = await t.ownerQuery<{ id: number; p: string }>(
    'select id, start_period as p from books where enterprise_id = $1 order by id limit 1',
    [enterpriseId],
  );
  if (have) return { id: have.id, period: have.p };
  const c = { agencyId: AGENCY, userId: ID.admin, kjgcId: null };
  return inScope(t.db.app, c, async (tx) => {
    const b = await createBook(tx, c, { enterpriseId, startPeriod: '2026-10', vatKind: 'small' });
    await postVoucher(tx, c, b.id, '2026-10-08');
    return { id: b.id, period: '2026-10' };
  });
}

beforeAll(async () => {
  t = await startTestApp();
  const [demo] = await t.ownerQuery<{ id: number }>(`select id from organisations where name = '演示财税代理有限公司'`);
  expect(demo?.id).toBe(AGENCY);
  const clients = await t.ownerQuery<{ id: number; qymc: string; qysh: string }>(
    'select id, qymc, qysh from enterprises where agency_id = $1 order by id',
    [AGENCY],
  );
  visible = clients.filter((c) => VISIBLE.includes(c.id));
  withheld = clients.filter((c) => !VISIBLE.includes(c.id));
  expect(withheld.length).toBeGreaterThan(40);
  await t.ownerQuery(`delete from kjgc_handovers where enterprise_id = any(${idList(withheld.map((w) => w.id))})`);
  const [kept] = await t.ownerQuery<{ n: number }>(
    'select count(*)::int as n from kjgc_handovers where agency_id = $1',
    [AGENCY],
  );
  expect(kept?.n).toBe(VISIBLE.length);
  admin = await t.login(ADMIN);
  factory = await t.login(FACTORY);

  // The withheld client the walk aims at: one with a tax number, books, a work order and an invoice.
  const w = withheld.find((c) => c.qysh) ?? withheld[0];
  if (!w) throw new Error('no withheld client');

  // A customer attachment of the withheld client.
  const att = await upload<{ id: number }>(t, `user/agency/uploadEnterpriseAttachment?enterpriseId=${w.id}`, admin, {
    name: `${w.qymc}营业执照.pdf`,
    data: PDF,
  });
  expect(att.code, att.msg).toBe(CODE.OK);

  // A work order of the withheld client with a file on its first step.
  await t.ownerQuery(
    `insert into work_orders (agency_id, order_no, enterprise_id, template_name, remark)
     values ($1, 'GD-KJGC-0001', $2, '工商年报', $3)`,
    [AGENCY, w.id, `${w.qymc}年报`],
  );
  const [wo] = await t.ownerQuery<{ id: number }>(`select id from work_orders where order_no = 'GD-KJGC-0001'`);
  await t.ownerQuery(
    `insert into work_order_steps (agency_id, work_order_id, sort, name, days, assignee_id) values ($1, $2, 1, '填报', 3, $3)`,
    [AGENCY, wo?.id, ID.admin],
  );
  const [step] = await t.ownerQuery<{ id: number }>('select id from work_order_steps where work_order_id = $1', [
    wo?.id,
  ]);
  const woAtt = await upload<{ id: number }>(t, `user/workorder/uploadStepAttachment?stepId=${step?.id}`, admin, {
    name: `${w.qymc}年报回执.pdf`,
    data: PDF,
  });
  expect(woAtt.code, woAtt.msg).toBe(CODE.OK);

  // Books with a voucher, and a finished print run of the agency over every client.
  const book = await bookOf(w.id);
  const start = await t.call<{ runId: string }>(
    printStartCall.path,
    { scope: 'selected', aeiIds: [w.id], from: book.period, to: book.period, items: ['vouchers', 'balance'] },
    admin,
  );
  expect(start.code, start.msg).toBe(CODE.OK);
  const done = await waitForFinish(
    async () => (await t.call<{ state: string }>(printRunCall.path, { runId: start.data.runId }, admin)).data,
    (r) => r.state !== 'running',
  );
  expect(done?.state).toBe('done');
  // The factory's own print run over "all" will have a handed-over client with books to print.
  await bookOf(VISIBLE[0] ?? 1);

  // An issued invoice of the withheld client (its PDF shows the seller's name and tax number), and a filed
  // return with the bureau's receipt kept (the receipt PDF names the client, as the bureau's does).
  const [inv] = await t.ownerQuery<{ id: number }>(
    `insert into invoices (agency_id, enterprise_id, direction, fphm, kprq, month, fplx, cp_name, cp_tax_no,
       amount, tax, total, source, issued_by)
     values ($1, $2, 'out', '26332000000012345678', '2026-10-08', '2026-10', 'pp', '杭州购买方有限公司',
       '91330106MA2KJ0001A', 10000, 600, 10600, 'issued', $3) returning id`,
    [AGENCY, w.id, ID.admin],
  );
  const hex = (s: string) => [...s].map((ch) => (ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')).join('');
  const receipt = `%PDF-1.4\n1 0 obj\n<< /Length 60 >>\nstream\nBT <${hex(w.qymc)}> Tj <${hex(w.qysh)}> Tj ET\nendstream\nendobj\n%%EOF\n`;
  const [filed] = await t.ownerQuery<{ aei: number; tax_type: string; skssqq: string }>(
    `insert into filed_returns (agency_id, enterprise_id, tax_type, skssqq, skssqz, state, pzxh, sbrq, receipt_pdf)
     values ($1, $2, 'zzs', '2026-10-01', '2026-10-31', 'filed', '10013326000000099999', '2026-11-05',
       convert_to($3, 'UTF8'))
     returning enterprise_id as aei, tax_type, skssqq`,
    [AGENCY, w.id, receipt],
  );
  expect(inv?.id).toBeGreaterThan(0);
  expect(filed?.aei).toBe(w.id);

  // The agency's own failure files: a credentials import naming withheld clients, with a bad row.
  const pwd = await upload<{ jobId: number }>(t, 'user/agency/importPassword', admin, {
    name: '账号密码.csv',
    data: csv(PWD_IMPORT_COLUMNS, [
      [w.qysh, w.qymc, ...PWD_IMPORT_COLUMNS.slice(2).map(() => 'x')],
      ['ZZ000000000000000X', '不存在的公司', ...PWD_IMPORT_COLUMNS.slice(2).map(() => '')],
    ]),
  });
  expect(pwd.code, pwd.msg).toBe(CODE.OK);
  const pwdKey = await progressKey(pwd.data.jobId, admin);
  expect(pwdKey, 'the agency’s credentials import left a failure file').toMatch(/^[0-9a-f]{32}$/);

  // A batch-issuing run of the agency for the withheld client whose request failed (its failure file).
  const [run] = await t.ownerQuery<{ id: number }>(
    `insert into invoice_runs (agency_id, user_id, kind, state, total_num) values ($1, $2, 'issue', 'done', 1) returning id`,
    [AGENCY, ID.admin],
  );
  await t.ownerQuery(
    `insert into invoice_requests (agency_id, enterprise_id, kind, state, payload, msg, run_id, created_by)
     values ($1, $2, 'issue', 'failed', $3::jsonb, '购买方税号有误', $4, $5)`,
    [AGENCY, w.id, JSON.stringify({ rows: [{ line: 2, cells: ['1', '普票', w.qymc, w.qysh] }] }), run?.id, ID.admin],
  );

  const [tpl] = await t.ownerQuery<{ name: string }>(
    `select name from work_order_templates where agency_id = $1 and status = '1' order by id limit 1`,
    [AGENCY],
  );
  expect(tpl?.name, 'the demo agency has an enabled work-order template').toBeTruthy();

  ctx = {
    w,
    woTemplate: tpl?.name ?? '',
    attachmentId: att.data.id,
    woAttachmentId: woAtt.data.id,
    woStepId: step?.id ?? 0,
    invoiceId: inv?.id ?? 0,
    filed: {
      aeiId: filed?.aei ?? 0,
      taxType: filed?.tax_type ?? '',
      skssqq: filed?.skssqq ?? '',
    },
    bookId: book.id,
    period: book.period,
    agencyPrintRun: start.data.runId,
    agencyInvoiceRun: run?.id ?? 0,
    agencyPwdKey: pwdKey ?? '',
    own: {},
  };
}, 600_000);
afterAll(() => t?.close());

// --- how to call each plain route as the factory ------------------------------------------------------

interface Probe {
  req: InjectOptions;
  /** Strings the factory itself sent (a failure file may echo them). */
  sent?: string[];
  /** Reads what the factory needs later from the answer (a key, a run). */
  after?: (json: Record<string, unknown> | null) => Promise<void> | void;
}
type Prober = (c: Ctx) => Promise<Probe[]> | Probe[];

/** A tax number no client has: a withheld client's must be refused with the same words. */
const UNKNOWN_QYSH = '91110000MA00KJGC9X';

/** Who the probes call as: the factory, or the agency's administrator for the control pass. */
let caller = '';
const get = (url: string): InjectOptions => ({ method: 'GET', url, headers: { cookie: caller } });
const postJson = (url: string, body: unknown): InjectOptions => ({
  method: 'POST',
  url,
  headers: { cookie: caller, 'content-type': 'application/json' },
  payload: JSON.stringify(body),
});
const key32 = (k: string | undefined) => k ?? '0'.repeat(32);
const dataOf = (json: Record<string, unknown> | null) => (json?.data ?? {}) as Record<string, unknown>;

/** Runs an import job (customer-import queue) to its end; its failure file's key, if it left one. */
async function progressKey(jobId: unknown, cookie: string): Promise<string | undefined> {
  if (typeof jobId !== 'number') return undefined;
  type P = { state: string; result: { redisKey?: string } | null };
  const r = await waitForFinish(
    async () => (await t.call<P>(importProgressCall.path, { jobId }, cookie)).data,
    (p) => p?.state !== 'queued' && p?.state !== 'running',
  );
  return r?.result?.redisKey || undefined;
}

/** The job a factory's import started, run to its end; its failure key. */
const importKey = (json: Record<string, unknown> | null) => progressKey(dataOf(json).jobId, factory);

/**
 * Every plain route, keyed as the app registers it. A route the app registers that is not here fails the
 * test: whoever adds a file route adds here how a factory would aim it at a withheld client.
 */
const PROBES: Record<string, Prober> = {
  // Uploads and jobs first (the walk runs them first): into the withheld client, or naming it.
  'POST /api/user/agency/importAgencyEnterprise': (c) => [
    {
      req: mp(
        '/api/user/agency/importAgencyEnterprise',
        { name: '客户.csv', data: csv(['企业名称*', '企业税号*'], [[`${c.w.qymc}`, c.w.qysh]]) },
        factory,
      ),
      sent: [c.w.qymc, c.w.qysh],
    },
  ],
  'POST /api/user/agency/importPassword': (c) => [
    {
      req: mp(
        '/api/user/agency/importPassword',
        {
          name: '账号密码.csv',
          data: csv(PWD_IMPORT_COLUMNS, [
            [c.w.qysh, '', ...PWD_IMPORT_COLUMNS.slice(2).map(() => 'k1')],
            [UNKNOWN_QYSH, '', ...PWD_IMPORT_COLUMNS.slice(2).map(() => 'k1')],
          ]),
        },
        factory,
      ),
      sent: [c.w.qysh],
      after: async (json) => {
        c.own.pwdKey = await importKey(json);
      },
    },
  ],
  'POST /api/user/agency/importShuiJuPassword': (c) => [
    {
      req: mp(
        '/api/user/agency/importShuiJuPassword',
        {
          name: '税局密码.csv',
          data: csv(SHUIJU_PWD_COLUMNS, [
            [c.w.qysh, '', '', 'acc', 'pw123456'],
            [UNKNOWN_QYSH, '', '', 'acc', 'pw123456'],
          ]),
        },
        factory,
      ),
      sent: [c.w.qysh],
      after: async (json) => {
        c.own.shuijuKey = (await importKey(json)) ?? (dataOf(json).redisKey as string | undefined);
      },
    },
  ],
  'POST /api/user/agency/uploadEnterpriseAttachment': (c) => [
    {
      req: mp(
        `/api/user/agency/uploadEnterpriseAttachment?enterpriseId=${c.w.id}`,
        { name: 'a.pdf', data: PDF },
        factory,
      ),
    },
  ],
  'POST /api/user/workorder/import': (c) => [
    {
      req: mp(
        '/api/user/workorder/import?kind=order',
        {
          name: '工单.csv',
          data: csv(WO_ORDER_IMPORT_COLUMNS, [
            [c.w.qysh, c.woTemplate, ''],
            [UNKNOWN_QYSH, c.woTemplate, ''],
          ]),
        },
        factory,
      ),
      sent: [c.w.qysh],
      after: (json) => {
        c.own.woKey = dataOf(json).redisKey as string | undefined;
      },
    },
  ],
  'POST /api/user/workorder/uploadStepAttachment': (c) => [
    { req: mp(`/api/user/workorder/uploadStepAttachment?stepId=${c.woStepId}`, { name: 'a.pdf', data: PDF }, factory) },
  ],
  'POST /api/user/fp/xxfp/batchImport': (c) => [
    {
      req: mp(
        `/api/user/fp/xxfp/batchImport?aeiId=${c.w.id}`,
        { name: '批量开票.csv', data: csv(INVOICE_BATCH_COLUMNS, []) },
        factory,
      ),
    },
  ],
  'POST /api/books/voucher/import': (c) => [
    {
      req: mp(
        `/api/books/voucher/import?bookId=${c.bookId}`,
        { name: '凭证.csv', data: csv(VOUCHER_IMPORT_COLUMNS, [VOUCHER_IMPORT_COLUMNS.map(() => '1')]) },
        factory,
      ),
      after: (json) => {
        c.own.voucherKey = (dataOf(json).key ?? dataOf(json).redisKey) as string | undefined;
      },
    },
  ],
  'POST /api/user/contract/temp/import': (c) => [
    {
      req: mp(
        '/api/user/contract/temp/import',
        { name: '合同模板.csv', data: csv(TEMPLATE_IMPORT_COLUMNS, [TEMPLATE_IMPORT_COLUMNS.map(() => c.w.qymc)]) },
        factory,
      ),
      sent: [c.w.qymc],
      after: (json) => {
        c.own.tempKey = dataOf(json).redisKey as string | undefined;
      },
    },
  ],
  'POST /api/user/contract/service/import': (c) => [
    {
      req: mp(
        '/api/user/contract/service/import',
        { name: '服务项目.csv', data: csv(SERVICE_IMPORT_COLUMNS, [SERVICE_IMPORT_COLUMNS.map(() => 'x')]) },
        factory,
      ),
      after: (json) => {
        c.own.serviceKey = dataOf(json).redisKey as string | undefined;
      },
    },
  ],
  'POST /api/user/agency/importAgencyInviteList': () => [
    {
      req: mp(
        '/api/user/agency/importAgencyInviteList',
        { name: '邀请.csv', data: csv(INVITE_FILE_COLUMNS, [['13712345678', '甲']]) },
        factory,
      ),
    },
  ],
  'POST /api/user/v1.0/userinfo/uploadIconInfo': () => [
    { req: mp('/api/user/v1.0/userinfo/uploadIconInfo', { name: 'a.pdf', data: PDF }, factory) },
  ],
  'POST /api/content/upload': () => [
    { req: mp('/api/content/upload?kind=file', { name: 'a.pdf', data: PDF }, factory) },
  ],
  'POST /api/brand/uploadLogo': () => [{ req: mp('/api/brand/uploadLogo', { name: 'a.pdf', data: PDF }, factory) }],

  // Downloads by the id of a withheld client's file or record.
  'GET /api/files/attachment/:id': (c) => [{ req: get(`/api/files/attachment/${c.attachmentId}`) }],
  'GET /api/files/workorder-attachment/:id': (c) => [
    { req: get(`/api/files/workorder-attachment/${c.woAttachmentId}`) },
  ],
  'GET /api/user/fp/xxfp/doInvoicePrintV2/:id': (c) => [
    { req: get(`/api/user/fp/xxfp/doInvoicePrintV2/${c.invoiceId}`) },
  ],
  'GET /api/user/fp/xxfp/batchFail/:runId': (c) => [{ req: get(`/api/user/fp/xxfp/batchFail/${c.agencyInvoiceRun}`) }],
  'POST /api/user/fp/xxfp/xqExport': (c) => [
    { req: postJson('/api/user/fp/xxfp/xqExport', { aeiId: c.w.id, month: '2026-10' }) },
  ],
  'GET /api/user/ycs/Sbqc/sbjtyl': (c) => [
    {
      req: get(`/api/user/ycs/Sbqc/sbjtyl?aeiId=${c.filed.aeiId}&taxType=${c.filed.taxType}&skssqq=${c.filed.skssqq}`),
    },
  ],
  'POST /api/user/ycs/Sbqc/sbjtyl': (c) => [
    {
      req: postJson('/api/user/ycs/Sbqc/sbjtyl', {
        aeiId: c.filed.aeiId,
        taxType: c.filed.taxType,
        skssqq: c.filed.skssqq,
      }),
    },
  ],
  'GET /api/user/ycs/Sbqc/downloadSbjtFiles': (c) => [
    {
      req: get(
        `/api/user/ycs/Sbqc/downloadSbjtFiles?aeiIds=${withheld
          .slice(0, 50)
          .map((x) => x.id)
          .join(',')}`,
      ),
    },
    { req: get(`/api/user/ycs/Sbqc/downloadSbjtFiles?filingMonth=${c.filed.skssqq.slice(0, 7)}`) },
  ],
  'POST /api/user/ycs/Sbqc/downloadSbjtFiles': (c) => [
    { req: postJson('/api/user/ycs/Sbqc/downloadSbjtFiles', { aeiIds: [c.filed.aeiId, ...VISIBLE] }) },
    { req: postJson('/api/user/ycs/Sbqc/downloadSbjtFiles', { planId: 1 }) },
  ],
  'POST /api/account/ledger/export': (c) => [
    {
      req: postJson('/api/account/ledger/export', {
        bookId: c.bookId,
        from: c.period,
        to: c.period,
        kind: 'general',
        format: 'xlsx',
      }),
    },
    {
      req: postJson('/api/account/ledger/export', {
        bookId: c.bookId,
        from: c.period,
        to: c.period,
        kind: 'detail',
        format: 'pdf',
      }),
    },
  ],
  'POST /api/account/statement/export': (c) => [
    {
      req: postJson('/api/account/statement/export', {
        bookId: c.bookId,
        period: c.period,
        kind: 'balance',
        format: 'xlsx',
      }),
    },
    {
      req: postJson('/api/account/statement/export', {
        bookId: c.bookId,
        period: c.period,
        kind: 'income',
        format: 'pdf',
      }),
    },
  ],
  // The agency's print run of the withheld client, and a run the factory starts over "all" clients.
  'GET /api/account/print/download': async (c) => {
    const mine = await t.call<{ runId: string }>(
      printStartCall.path,
      { scope: 'all', from: c.period, to: c.period, items: ['vouchers', 'balance'] },
      factory,
    );
    const probes: Probe[] = [{ req: get(`/api/account/print/download?runId=${c.agencyPrintRun}`) }];
    if (mine.code === CODE.OK) {
      await waitForFinish(
        async () => (await t.call<{ state: string }>(printRunCall.path, { runId: mine.data.runId }, factory)).data,
        (r) => r?.state !== 'running',
      );
      c.own.printRun = mine.data.runId;
      probes.push({ req: get(`/api/account/print/download?runId=${mine.data.runId}`) });
    }
    return probes;
  },

  // Whole-list exports: the handed-over clients only.
  'POST /api/user/agency/exportAgencyEnterprise': () => [
    { req: postJson('/api/user/agency/exportAgencyEnterprise', {}) },
  ],
  'POST /api/user/agency/exportNeedUpdateAgencyEnterpriseInfo': () => [
    { req: postJson('/api/user/agency/exportNeedUpdateAgencyEnterpriseInfo', {}) },
  ],
  'GET /api/user/agency/exportNeedUpdateAgencyEnterpriseInfo': () => [
    { req: get('/api/user/agency/exportNeedUpdateAgencyEnterpriseInfo') },
  ],
  'POST /api/user/contractFee/exportFeeList': () => [
    { req: postJson('/api/user/contractFee/exportFeeList', { tab: 'receivable' }) },
    { req: postJson('/api/user/contractFee/exportFeeList', { tab: 'charge' }) },
  ],
  'POST /api/userext/ycs/Sbqc/batchShenBaoListV2Export': (c) => [
    { req: postJson('/api/userext/ycs/Sbqc/batchShenBaoListV2Export', { filingMonth: c.filed.skssqq.slice(0, 7) }) },
    { req: postJson('/api/userext/ycs/Sbqc/batchShenBaoListV2Export', {}) },
  ],
  'POST /api/user/ycs/Sbqc/DeclareScheduleV3Export': (c) => [
    { req: postJson('/api/user/ycs/Sbqc/DeclareScheduleV3Export', { filingMonth: c.filed.skssqq.slice(0, 7) }) },
    { req: postJson('/api/user/ycs/Sbqc/DeclareScheduleV3Export', {}) },
  ],
  'POST /api/user/agency/exportDataList': () => [{ req: postJson('/api/user/agency/exportDataList', {}) }],
  'GET /api/files/audit/export': (c) => [
    { req: get('/api/files/audit/export') },
    { req: get(`/api/files/audit/export?enterpriseId=${c.w.id}`) },
  ],

  // Failure files: the agency's own (by its key) and the factory's (of the uploads above).
  'GET /api/user/agency/exportImportFailList': (c) => [
    { req: get(`/api/user/agency/exportImportFailList?redisKey=${key32(c.agencyPwdKey)}`) },
  ],
  'GET /api/user/agency/exportPwdFailList': (c) => [
    { req: get(`/api/user/agency/exportPwdFailList?redisKey=${key32(c.agencyPwdKey)}`) },
    { req: get(`/api/user/agency/exportPwdFailList?redisKey=${key32(c.own.pwdKey)}`), sent: [c.w.qysh] },
  ],
  'GET /api/user/agency/exportShuiJuPassFailData': (c) => [
    { req: get(`/api/user/agency/exportShuiJuPassFailData?redisKey=${key32(c.own.shuijuKey)}`), sent: [c.w.qysh] },
  ],
  'GET /api/user/contract/temp/exportContractTemplateErrorData': (c) => [
    {
      req: get(`/api/user/contract/temp/exportContractTemplateErrorData?redisKey=${key32(c.own.tempKey)}`),
      sent: [c.w.qymc],
    },
  ],
  'GET /api/user/contract/service/exportServiceItemErrorData': (c) => [
    { req: get(`/api/user/contract/service/exportServiceItemErrorData?redisKey=${key32(c.own.serviceKey)}`) },
  ],
  'GET /api/user/workorder/exportWorkOrderTemplateErrorData': (c) => [
    {
      req: get(`/api/user/workorder/exportWorkOrderTemplateErrorData?kind=order&redisKey=${key32(c.own.woKey)}`),
      sent: [c.w.qysh],
    },
  ],
  'GET /api/books/voucher/importFailList': (c) => [
    { req: get(`/api/books/voucher/importFailList?key=${key32(c.own.voucherKey)}`) },
  ],

  // Templates and files of no client: called all the same (their bytes are searched too).
  'GET /api/user/agency/inviteTemplateExport': () => [{ req: get('/api/user/agency/inviteTemplateExport') }],
  'GET /api/user/agency/enterpriseTemplateExport': () => [{ req: get('/api/user/agency/enterpriseTemplateExport') }],
  'GET /api/user/agency/pwdTemplateExport': () => [{ req: get('/api/user/agency/pwdTemplateExport') }],
  'GET /api/user/agency/shuiJuPwdTemplateExport': () => [{ req: get('/api/user/agency/shuiJuPwdTemplateExport') }],
  'GET /api/static/htmb_temp.xlsx': () => [{ req: get('/api/static/htmb_temp.xlsx') }],
  'GET /api/static/fwxm_temp.xlsx': () => [{ req: get('/api/static/fwxm_temp.xlsx') }],
  'GET /api/static/gdmb_temp.xlsx': () => [{ req: get('/api/static/gdmb_temp.xlsx') }],
  'GET /api/static/gd_temp.xlsx': () => [{ req: get('/api/static/gd_temp.xlsx') }],
  'GET /api/user/fp/xxfp/batchTemplate': () => [{ req: get('/api/user/fp/xxfp/batchTemplate') }],
  'GET /api/books/voucher/importTemplate': () => [{ req: get('/api/books/voucher/importTemplate') }],
  'GET /api/helper/download/:file': () => [{ req: get('/api/helper/download/manifest.json') }],
  'GET /api/content/file/:name': () => [{ req: get(`/api/content/file/${'0'.repeat(32)}.pdf`) }],
  'GET /api/files/brand/:name': () => [{ req: get(`/api/files/brand/${'0'.repeat(32)}.png`) }],
  'GET /api/files/avatar/:name': () => [{ req: get(`/api/files/avatar/${'0'.repeat(32)}.png`) }],
  'GET /api/user/third/login/callback/:provider': () => [
    { req: get('/api/user/third/login/callback/dev?code=x&state=y') },
  ],
  'GET /api/ws': () => [{ req: get('/api/ws') }],
  'GET /api/health': () => [{ req: get('/api/health') }],
  'GET /api/openapi.json': () => [{ req: get('/api/openapi.json') }],
  'GET /api/dev/outbox': () => [{ req: get('/api/dev/outbox') }],
};

/** Routes whose first probe, made by the agency's administrator, must show the withheld client. */
const CONTROL = [
  'GET /api/files/attachment/:id',
  'GET /api/files/workorder-attachment/:id',
  'GET /api/user/fp/xxfp/doInvoicePrintV2/:id',
  'GET /api/user/fp/xxfp/batchFail/:runId',
  'GET /api/user/ycs/Sbqc/sbjtyl',
  'POST /api/user/ycs/Sbqc/sbjtyl',
  'GET /api/user/ycs/Sbqc/downloadSbjtFiles',
  'POST /api/user/ycs/Sbqc/downloadSbjtFiles',
  'POST /api/account/ledger/export',
  'POST /api/account/statement/export',
  'POST /api/user/agency/exportAgencyEnterprise',
  'POST /api/user/agency/exportDataList',
  'GET /api/user/agency/exportPwdFailList',
  'POST /api/user/contractFee/exportFeeList',
  'POST /api/userext/ycs/Sbqc/batchShenBaoListV2Export',
];

/** The plain routes every module registers (the system module's too), recorded on a bare Fastify. */
async function appRoutes(): Promise<{ key: string; multipart: boolean }[]> {
  const app = Fastify({ logger: false });
  const seen: { key: string; multipart: boolean }[] = [];
  app.addHook('onRoute', function (this: FastifyInstance, r) {
    const isMultipart = this.hasContentTypeParser('multipart/form-data');
    for (const method of [r.method].flat()) {
      if (method !== 'HEAD' && r.url.startsWith('/api/'))
        seen.push({ key: `${method} ${r.url}`, multipart: isMultipart });
    }
  });
  for (const m of serverModules()) m.routes?.(app, {} as Deps);
  await app.ready();
  await app.close();
  return seen;
}

describe('a factory over every plain route against clients not handed over (issue 26 point 2)', () => {
  it('knows how to call every plain route the app registers', async () => {
    const routes = (await appRoutes()).map((r) => r.key);
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((r) => !PROBES[r])).toEqual([]);
    expect(Object.keys(PROBES).filter((k) => !routes.includes(k))).toEqual([]);
  });

  it('aims at real data: the same probes as the agency’s administrator do show the withheld client', async () => {
    caller = admin;
    const missed: string[] = [];
    for (const key of CONTROL) {
      const prober = PROBES[key];
      if (!prober) throw new Error(`no probe for ${key}`);
      const [probe] = await prober(ctx);
      if (!probe) throw new Error(`no request for ${key}`);
      const res = await t.app.inject(probe.req);
      if (leaksIn(await shown(res.rawPayload, res.headers)).length === 0)
        missed.push(`${key}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(missed).toEqual([]);
    // The agency's print run has the withheld client's PDF.
    const run = await t.app.inject({
      method: 'GET',
      url: `/api/account/print/download?runId=${ctx.agencyPrintRun}`,
      headers: { cookie: admin },
    });
    expect(leaksIn(await shown(run.rawPayload, run.headers))).toContain(ctx.w.qymc);
  }, 300_000);

  it('no plain route returns a withheld client, and none writes to one', async () => {
    caller = factory;
    const before = await fingerprint();
    const routes = await appRoutes();
    // Uploads (and the jobs they start) first, so the failure files they leave are fetched afterwards.
    const ordered = [...routes.filter((r) => r.multipart), ...routes.filter((r) => !r.multipart)];
    const leaks: string[] = [];
    const outcomes: string[] = [];
    for (const { key } of ordered) {
      const prober = PROBES[key];
      if (!prober) throw new Error(`no probe for ${key}`);
      for (const probe of await prober(ctx)) {
        const res = await t.app.inject(probe.req);
        const json = String(res.headers['content-type'] ?? '').includes('application/json')
          ? (res.json() as Record<string, unknown>)
          : null;
        outcomes.push(
          `${res.statusCode} ${probe.req.method} ${probe.req.url} ${json ? String(json.msg) : String(res.headers['content-type'])}`,
        );
        expect(res.statusCode, `${key}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        for (const l of leaksIn(await shown(res.rawPayload, res.headers), probe.sent))
          leaks.push(`${probe.req.method} ${probe.req.url}: ${l}`);
        await probe.after?.(json);
      }
    }
    console.info(outcomes.join('\n'));
    expect(leaks).toEqual([]);
    // Jobs the factory started ran as the factory: once they have run, nothing of the withheld clients changed.
    await untilJobsSettled(t);
    expect(await fingerprint()).toEqual(before);
  }, 600_000);

  it('the factory’s failure files tell a withheld client apart from no client at all: they do not', async () => {
    const files = {
      账号密码: `/api/user/agency/exportPwdFailList?redisKey=${ctx.own.pwdKey}`,
      税局密码: `/api/user/agency/exportShuiJuPassFailData?redisKey=${ctx.own.shuijuKey}`,
      工单: `/api/user/workorder/exportWorkOrderTemplateErrorData?kind=order&redisKey=${ctx.own.woKey}`,
    };
    for (const [what, url] of Object.entries(files)) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: factory } });
      expect(res.statusCode, `${what}: ${url}`).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      // Each row: the tax number the factory sent, and the reason in the last column.
      const reasons = new Map<string, string>();
      wb.worksheets[0]?.eachRow((row) => {
        const cells = (row.values as unknown[]).slice(1).map((v) => String(v ?? ''));
        const qysh = cells.find((v) => v === ctx.w.qysh || v === UNKNOWN_QYSH);
        // A reason may quote the tax number it was given: compared without it.
        if (qysh) reasons.set(qysh, (cells.at(-1) ?? '').replaceAll(qysh, '<税号>'));
      });
      expect(reasons.get(ctx.w.qysh), what).toBeTruthy();
      expect(reasons.get(ctx.w.qysh), what).toBe(reasons.get(UNKNOWN_QYSH));
    }
    // The agency's own failure file of the same kind is not the factory's to read by its key.
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/user/agency/exportPwdFailList?redisKey=${ctx.agencyPwdKey}`,
      headers: { cookie: factory },
    });
    expect(theirs.statusCode).toBe(404);
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/user/agency/exportPwdFailList?redisKey=${ctx.agencyPwdKey}`,
      headers: { cookie: admin },
    });
    expect(mine.statusCode).toBe(200);
  });

  it('a factory creating a client, by the call or by import, gets a clear refusal and nothing is written', async () => {
    const [n0] = await t.ownerQuery<{ n: number }>('select count(*)::int as n from enterprises');
    const r = await t.call(
      customerCreateCall.path,
      { qymc: '工厂自建客户有限公司', qysh: '91330106MA2KJ0099X' },
      factory,
    );
    expect([r.status, r.code, r.msg]).toEqual([460, CODE.NO_PERMISSION, CUSTOMER_MSG.factoryNoCreate]);
    const file = await upload(t, 'user/agency/importAgencyEnterprise', factory, {
      name: '客户.csv',
      data: csv(['企业名称*', '企业税号*'], [['工厂自建客户有限公司', '91330106MA2KJ0099X']]),
    });
    expect([file.status, file.code, file.msg]).toEqual([460, CODE.NO_PERMISSION, CUSTOMER_MSG.factoryNoCreate]);
    const [n1] = await t.ownerQuery<{ n: number }>('select count(*)::int as n from enterprises');
    expect(n1?.n).toBe(n0?.n);
  });
});
