import {
  CODE,
  type ContractStatusItem,
  contractStatusCall,
  currentFilingMonth,
  DATA_LIST_FILES,
  type DataListItem,
  dataListCall,
  fenToYuan,
} from '@dzy/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDate } from '../src/plugins/jobs.js';
import { ADMIN, ID, OTHER_ADMIN, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
const c = { admin: '', zhang: '', other: '', op: '' };

beforeAll(async () => {
  t = await startTestApp();
  c.admin = await t.login(ADMIN);
  c.zhang = await t.login(ZHANG);
  c.other = await t.login(OTHER_ADMIN);
  c.op = await t.login('13600000000');
});
afterAll(() => t?.close());

type Page = { list: DataListItem[]; total: number; filingMonth: string };
async function page(cookie: string, body: Record<string, unknown> = {}) {
  const r = await t.call<Page>(dataListCall.path, { pageSize: 100, ...body }, cookie);
  expect(r.code, r.msg).toBe(CODE.OK);
  return r.data;
}
/** Every row of a filter, page by page (100 a page). */
async function all(cookie: string, body: Record<string, unknown> = {}) {
  const rows: DataListItem[] = [];
  for (let n = 1; ; n++) {
    const p = await page(cookie, { ...body, pageNo: n });
    rows.push(...p.list);
    if (rows.length >= p.total || p.list.length === 0) return rows;
  }
}

describe('数据列表: the figures are the modules’ own', () => {
  it('contract state and arrears agree with the contract status call and the receivables', async () => {
    const today = chinaDate();
    const rows = await all(c.admin);
    expect(rows.length).toBe(60);
    // The client list's index, in the order clients were entered.
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b));
    const owed = await t.ownerQuery<{ enterprise_id: number; owed: string }>(
      `select r.enterprise_id, sum(r.amount_fen - r.paid_fen)::text as owed from receivables r
       join contracts c on c.id = r.contract_id
       where r.agency_id = 1 and c.htzt <> '0' and r.due_date < $1::date and r.paid_fen < r.amount_fen
       group by r.enterprise_id`,
      [today],
    );
    const owedOf = new Map(owed.map((o) => [Number(o.enterprise_id), Number(o.owed)]));
    expect(owedOf.size).toBeGreaterThan(0);
    for (const r of rows) expect(r.arrearsAmount).toBe(fenToYuan(owedOf.get(r.id) ?? 0));
    // A few clients of each contract state: the contract module's own status call says the same.
    const sample = ['valid', 'expired', 'none'].flatMap((s) => rows.filter((r) => r.contractState === s).slice(0, 3));
    expect(new Set(sample.map((s) => s.contractState)).size).toBeGreaterThanOrEqual(2);
    for (const r of sample) {
      const s = await t.call<ContractStatusItem>(contractStatusCall.path, { aeiId: r.id }, c.admin);
      const expected = s.data.htstatus === '2' ? 'valid' : s.data.sfdq === '1' ? 'expired' : 'none';
      expect(r.contractState, `client ${r.id}`).toBe(expected);
      expect(r.arrearsMonths).toBe(s.data.qfys);
      expect(r.contractEnd).toBe(s.data.endDate);
    }
  });

  it("this month's filing state counts the roster's returns", async () => {
    const month = currentFilingMonth(chinaDate());
    const rows = await all(c.admin);
    expect(rows[0]?.filingMonth).toBe(month);
    const cells = await t.ownerQuery<{ enterprise_id: number; total: number; pending: number }>(
      `select enterprise_id, count(*)::int as total, count(*) filter (where state in ('wsb','yqwsb'))::int as pending
       from filing_cells where agency_id = 1 and filing_month = $1 group by enterprise_id`,
      [month],
    );
    const of = new Map(cells.map((x) => [Number(x.enterprise_id), x]));
    for (const r of rows) {
      const x = of.get(r.id);
      expect(r.filingTotal).toBe(x?.total ?? 0);
      expect(r.filingPending).toBe(x?.pending ?? 0);
      expect(r.filingState).toBe(!x ? 'unsynced' : x.pending > 0 ? 'pending' : 'done');
    }
  });

  it('filters: each filter returns exactly the rows whose figure matches', async () => {
    const everything = await all(c.admin);
    const expectSame = async (body: Record<string, unknown>, pick: (r: DataListItem) => boolean) => {
      const got = await all(c.admin, body);
      expect(got.map((r) => r.id)).toEqual(everything.filter(pick).map((r) => r.id));
    };
    await expectSame({ arrears: 'yes' }, (r) => r.arrearsAmount !== '0.00');
    await expectSame({ arrears: 'no' }, (r) => r.arrearsAmount === '0.00');
    for (const s of ['valid', 'expired', 'none']) await expectSame({ contractState: s }, (r) => r.contractState === s);
    for (const s of ['done', 'pending', 'unsynced']) await expectSame({ filingState: s }, (r) => r.filingState === s);
    await expectSame({ allocateUser: ID.zhang }, (r) => r.allocateUserName === '张伟');
  });

  it('unfinished work orders are those of the work-order module not done or cancelled', async () => {
    const rows = await all(c.admin);
    const open = await t.ownerQuery<{ enterprise_id: number; n: number }>(
      `select enterprise_id, count(*)::int as n from work_orders
       where agency_id = 1 and state in ('pending', 'doing') group by enterprise_id`,
    );
    const of = new Map(open.map((o) => [Number(o.enterprise_id), o.n]));
    expect(of.size).toBeGreaterThan(0);
    for (const r of rows) expect(r.openWorkOrders, `client ${r.id}`).toBe(of.get(r.id) ?? 0);
    // A finished order no longer counts.
    const [client] = [...of.keys()];
    await t.ownerQuery(
      "update work_orders set state = 'done' where agency_id = 1 and enterprise_id = $1 and state in ('pending', 'doing')",
      [client],
    );
    const after = (await all(c.admin)).find((r) => r.id === client);
    expect(after?.openWorkOrders).toBe(0);
  });
});

describe('数据列表: who sees what', () => {
  it("an employee sees only their own clients (the client list's data scope)", async () => {
    const mine = await all(c.zhang);
    expect(mine.length).toBe(20);
    expect(mine.every((r) => r.allocateUserName === '张伟')).toBe(true);
  });

  it('another agency sees none of these clients; the operator (no agency) sees nothing', async () => {
    const theirs = await all(c.other);
    expect(theirs.length).toBe(20);
    expect(theirs.every((r) => r.id > 60)).toBe(true);
    const op = await t.call<Page>(dataListCall.path, {}, c.op);
    expect(op.code).toBe(CODE.NO_PERMISSION);
  });

  it('pages by cursor: page 2 follows page 1 with nothing repeated', async () => {
    const p1 = await t.call<Page & { cursor: { next: string } }>(dataListCall.path, { pageSize: 20 }, c.admin);
    const p2 = await t.call<Page>(dataListCall.path, { pageSize: 20, pageNo: 2, cursor: p1.data.cursor.next }, c.admin);
    const ids = [...p1.data.list, ...p2.data.list].map((r) => r.id);
    expect(new Set(ids).size).toBe(40);
    expect(p1.data.total).toBe(60);
  });
});

describe('数据列表: export', () => {
  it('exports the filter to .xlsx with the same figures', async () => {
    const rows = await all(c.admin, { arrears: 'yes' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${DATA_LIST_FILES.export}`,
      headers: { cookie: c.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ arrears: 'yes' }),
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('数据列表');
    const values: string[][] = [];
    ws?.eachRow((row) => {
      values.push((row.values as unknown[]).slice(1).map((v) => String(v ?? '')));
    });
    expect(values[0]?.slice(0, 6)).toEqual([
      '企业名称',
      '企业税号',
      '负责人',
      '合同状态',
      '合同到期日',
      '欠费金额（元）',
    ]);
    expect(values.length - 1).toBe(rows.length);
    expect(values[1]?.[0]).toBe(rows[0]?.qymc);
    expect(values[1]?.[5]).toBe(rows[0]?.arrearsAmount);
  });

  it('an employee without the export permission is refused', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${DATA_LIST_FILES.export}`,
      headers: { cookie: c.op, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.json().code).toBe(CODE.NO_PERMISSION);
  });
});
