import { inflateRawSync } from 'node:zlib';
import { readPdf } from '@dzy/pdf/read';
import {
  CODE,
  EVIDENCE_FILES,
  EVIDENCE_MSG,
  FILING_TAX_TYPE_NAMES,
  type FilingSyncRate,
  type FilingSyncStartReply,
  type FilingTaxType,
  filingSyncRateCall,
  filingSyncStartCall,
  sbjtylUrl,
} from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEnterprises, GOOD, setCredentials } from './declare-check-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

const TODAY = '2026-11-10';
const MONTH = '2026-11';

let sim: TaxSim;
let t: TestApp;
let admin: string;
let other: string;

type Cell = {
  enterprise_id: number;
  qymc: string;
  qysh: string;
  tax_type: FilingTaxType;
  skssqq: string;
  skssqz: string;
  pzxh: string;
  filing_month: string;
};
let cells: Cell[] = [];

/** The bureau's receipt writes its text as UCS-2 hex: how a 申报凭证序号 appears in the PDF. */
/** The text of a PDF as a viewer extracts it (PDF.js). */
const textOf = async (pdf: Uint8Array | undefined) =>
  (await readPdf(pdf ?? new Uint8Array())).pages.map((p) => p.text).join('\n');

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
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const lName = buf.readUInt16LE(local + 26);
    const lExtra = buf.readUInt16LE(local + 28);
    const data = buf.subarray(local + 30 + lName + lExtra, local + 30 + lName + lExtra + size);
    out.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

async function get(url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}
async function post(path: string, body: unknown, cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  });
}

const periodOf = (c: { skssqq: string; skssqz: string }) =>
  c.skssqq === c.skssqz ? c.skssqq : `${c.skssqq}至${c.skssqz}`;

beforeAll(async () => {
  sim = await startTaxSim({ latencyMs: 2, today: TODAY });
  t = await startTestApp({ taxBureauUrl: sim.url });
  admin = await t.login('13800000000');
  other = await t.login('13900000000');
  const ents = (await demoEnterprises(t)).filter((e) => e.qysh && e.service_status === '1').slice(0, 6);
  for (const e of ents) await setCredentials(t, e.id, GOOD);
  const r = await t.call<FilingSyncStartReply>(
    filingSyncStartCall.path,
    { filingMonth: MONTH, scope: 'selected', aeiIds: ents.map((e) => e.id) },
    admin,
  );
  expect(r.code, r.msg).toBe(CODE.OK);
  for (const until = Date.now() + 60_000; ; ) {
    const s = await t.call<FilingSyncRate>(filingSyncRateCall.path, { batchId: r.data.batchId }, admin);
    if (s.data?.state !== 'running') break;
    if (Date.now() > until) throw new Error('sync not finished');
    await new Promise((res) => setTimeout(res, 100));
  }
  cells = await t.ownerQuery<Cell>(
    `select c.enterprise_id, e.qymc, e.qysh, c.tax_type, c.skssqq, c.skssqz, c.pzxh, c.filing_month
       from filing_cells c join enterprises e on e.id = c.enterprise_id
      where c.pzxh <> '' and c.agency_id = e.agency_id order by c.enterprise_id, c.tax_type, c.skssqq`,
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('申报回执 (sbjtyl)', () => {
  it('a return filed on the book (the roster knows its 申报凭证序号) opens as the bureau’s PDF, inline', async () => {
    expect(cells.length).toBeGreaterThan(2);
    const c = cells[0] as Cell;
    const res = await get(sbjtylUrl({ aeiId: c.enterprise_id, taxType: c.tax_type, skssqq: c.skssqq }), admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toMatch(/^inline;/);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await textOf(pdf);
    expect(text).toContain(c.pzxh);
    expect(text).toContain(c.qysh);
    const [log] = await t.ownerQuery<{ user_id: number; target: string; detail: { pzxh: string } }>(
      `select user_id, target, detail from audit_log where action = 'filing.receipt.view' order by id desc limit 1`,
    );
    expect(log).toMatchObject({ target: `enterprise:${c.enterprise_id}`, detail: { pzxh: c.pzxh } });
    expect(log?.user_id).toBeGreaterThan(0);
  });

  it('a return of the ledger without its PDF fetches it once from the bureau and keeps it', async () => {
    const c = cells[1] as Cell;
    await t.ownerQuery(
      `insert into filed_returns (agency_id, enterprise_id, tax_type, skssqq, skssqz, state, pzxh, sbrq)
       select agency_id, $1, $2, $3, $4, 'filed', $5, '2026-11-05' from enterprises where id = $1`,
      [c.enterprise_id, c.tax_type, c.skssqq, c.skssqz, c.pzxh],
    );
    const res = await post(
      EVIDENCE_FILES.sbjtyl,
      { aeiId: c.enterprise_id, taxType: c.tax_type, skssqq: c.skssqq },
      admin,
    );
    expect(res.statusCode).toBe(200);
    expect(await textOf(res.rawPayload)).toContain(c.pzxh);
    const [kept] = await t.ownerQuery<{ pdf: Buffer }>(
      `select receipt_pdf as pdf from filed_returns where enterprise_id = $1 and tax_type = $2 and skssqq = $3`,
      [c.enterprise_id, c.tax_type, c.skssqq],
    );
    expect(Buffer.from(kept?.pdf ?? []).equals(res.rawPayload)).toBe(true);
  });

  it('an unknown return, or another agency’s, is not found; signed out is refused', async () => {
    const c = cells[0] as Cell;
    const url = sbjtylUrl({ aeiId: c.enterprise_id, taxType: c.tax_type, skssqq: c.skssqq });
    const theirs = await get(url, other);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().msg).toBe(EVIDENCE_MSG.notFound);
    const none = await get(sbjtylUrl({ aeiId: c.enterprise_id, taxType: c.tax_type, skssqq: '2019-01-01' }), admin);
    expect(none.statusCode).toBe(404);
    expect((await get(url)).statusCode).toBe(403);
  });
});

describe('申报回执下载 (downloadSbjtFiles)', () => {
  it('chosen clients: a zip with a folder per client and a PDF per return holding its 申报凭证序号', async () => {
    const ids = [...new Set(cells.map((c) => c.enterprise_id))].slice(0, 2);
    const res = await post(EVIDENCE_FILES.downloadSbjtFiles, { aeiIds: ids }, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = unzip(res.rawPayload);
    const want = cells.filter((c) => ids.includes(c.enterprise_id));
    const names = new Set(want.map((c) => `${c.qymc}/${FILING_TAX_TYPE_NAMES[c.tax_type]}_${periodOf(c)}.pdf`));
    expect(new Set(files.keys())).toEqual(names);
    for (const c of want) {
      const pdf = files.get(`${c.qymc}/${FILING_TAX_TYPE_NAMES[c.tax_type]}_${periodOf(c)}.pdf`);
      expect(pdf?.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(await textOf(pdf)).toContain(c.pzxh);
    }
    const [log] = await t.ownerQuery<{ target: string; detail: { aeiIds: number[]; clients: number } }>(
      `select target, detail from audit_log where action = 'filing.receipt.download' order by id desc limit 1`,
    );
    expect(log).toMatchObject({ target: `receipts:${want.length}`, detail: { aeiIds: ids, clients: 2 } });
  });

  it('a plan: only the plan’s filed returns; a filing month: the month’s', async () => {
    const c = cells[1] as Cell;
    const [plan] = await t.ownerQuery<{ id: number }>(
      `insert into filing_plans (agency_id, user_id, filing_month, kind, state)
       select e.agency_id, (select id from users where phone = '13800000000'), $2, 'multi', 'ready' from enterprises e where e.id = $1
       returning id`,
      [c.enterprise_id, MONTH],
    );
    await t.ownerQuery(
      `insert into filing_plan_items (agency_id, plan_id, enterprise_id, tax_type, cycle, skssqq, skssqz, state, pzxh)
       select agency_id, $2, $1, $3, 'month', $4, $5, 'filed', $6 from enterprises where id = $1`,
      [c.enterprise_id, plan?.id, c.tax_type, c.skssqq, c.skssqz, c.pzxh],
    );
    const byPlan = unzip((await post(EVIDENCE_FILES.downloadSbjtFiles, { planId: plan?.id }, admin)).rawPayload);
    expect([...byPlan.keys()]).toEqual([`${c.qymc}/${FILING_TAX_TYPE_NAMES[c.tax_type]}_${periodOf(c)}.pdf`]);
    // GET works too (a plain link): the month's receipts are every roster cell of the month with one.
    const byMonth = await get(`/api/${EVIDENCE_FILES.downloadSbjtFiles}?filingMonth=${MONTH}`, admin);
    expect(byMonth.statusCode).toBe(200);
    expect(unzip(byMonth.rawPayload).size).toBe(cells.filter((x) => x.filing_month === MONTH).length);
  });

  it('another agency’s clients or plan are refused; nothing chosen is a message', async () => {
    const ids = [cells[0]?.enterprise_id];
    const theirs = await post(EVIDENCE_FILES.downloadSbjtFiles, { aeiIds: ids }, other);
    expect([theirs.statusCode, theirs.json().msg]).toEqual([404, EVIDENCE_MSG.notYours]);
    const [plan] = await t.ownerQuery<{ id: number }>(`select id from filing_plans order by id desc limit 1`);
    const planTheirs = await post(EVIDENCE_FILES.downloadSbjtFiles, { planId: plan?.id }, other);
    expect([planTheirs.statusCode, planTheirs.json().msg]).toEqual([404, EVIDENCE_MSG.planNotFound]);
    const month = await post(EVIDENCE_FILES.downloadSbjtFiles, { filingMonth: MONTH }, other);
    expect([month.statusCode, month.json().msg]).toEqual([404, EVIDENCE_MSG.none]);
    const nothing = await post(EVIDENCE_FILES.downloadSbjtFiles, {}, admin);
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().msg).toContain(EVIDENCE_MSG.chooseScope);
  });
});
