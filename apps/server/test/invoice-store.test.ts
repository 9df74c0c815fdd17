import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { type InvoiceInput, saveInvoices } from '../src/modules/invoice-store/invoice-store.js';
import { ENT, ID } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const inv = (fphm: string, over: Partial<InvoiceInput> = {}): InvoiceInput => ({
  fphm,
  kprq: '2026-10-15',
  fplx: 'zp',
  state: 'normal',
  cpName: '杭州甲方科技有限公司',
  cpTaxNo: '91330106MA2B0A0A1X',
  amount: 10000_00,
  tax: 1300_00,
  total: 11300_00,
  lines: [
    {
      xh: 1,
      spmc: '*电子计算机*笔记本电脑',
      ssflbm: '1090511030000000000',
      amount: 8000_00,
      rate: '0.13',
      tax: 1040_00,
    },
    { xh: 2, spmc: '*电子计算机*显示器', ssflbm: '1090511030000000000', amount: 2000_00, rate: '0.13', tax: 260_00 },
  ],
  ...over,
});

const save = (agencyId: number, enterpriseId: number, list: InvoiceInput[], direction: 'out' | 'in' = 'out') =>
  inScope(t.db.app, { agencyId, userId: ID.admin, kjgcId: null }, (tx) =>
    saveInvoices(tx, { agencyId, enterpriseId, direction, source: 'collected' }, list),
  );

const stats = (enterpriseId: number, month: string) =>
  t.ownerQuery<{
    direction: string;
    fplx: string;
    rate: string;
    count: number;
    amount: string;
    tax: string;
    deduct_tax: string;
  }>(
    'select direction, fplx, rate, count, amount::text, tax::text, deduct_tax::text from invoice_month_stats where enterprise_id = $1 and month = $2 order by direction, fplx, rate',
    [enterpriseId, month],
  );

/**
 * Every rollup equals its sum of the invoices, for the whole agency: per client and party, per client and kind
 * (each invoice once), and the agency's rollups equal to the clients' rows added up (no row left at zero).
 */
async function expectRollupsEqualInvoices(agencyId: number) {
  const q = (text: string) => t.ownerQuery<Record<string, unknown>>(text, [agencyId]);
  expect(
    await q(`select enterprise_id, month, direction, cp_tax_no, count, total::text from invoice_month_parties
      where agency_id = $1 order by 1, 2, 3, 4`),
  ).toEqual(
    await q(`select enterprise_id, month, direction, cp_tax_no, count(*)::int as count, sum(total)::text as total
      from invoices where agency_id = $1 and state <> 'void' group by 1, 2, 3, 4 order by 1, 2, 3, 4`),
  );
  expect(
    await q(`select enterprise_id, month, direction, fplx, count from invoice_month_counts
      where agency_id = $1 order by 1, 2, 3, 4`),
  ).toEqual(
    await q(`select enterprise_id, month, direction, fplx, count(*)::int as count
      from invoices where agency_id = $1 and state <> 'void' group by 1, 2, 3, 4 order by 1, 2, 3, 4`),
  );
  expect(
    await q(`select month, direction, fplx, rate, count, amount::text, tax::text, total::text, deduct_tax::text
      from invoice_agency_stats where agency_id = $1 order by 1, 2, 3, 4`),
  ).toEqual(
    await q(`select month, direction, fplx, rate, sum(count)::int as count, sum(amount)::text as amount,
        sum(tax)::text as tax, sum(total)::text as total, sum(deduct_tax)::text as deduct_tax
      from invoice_month_stats where agency_id = $1 group by 1, 2, 3, 4 order by 1, 2, 3, 4`),
  );
  expect(
    await q(`select month, direction, fplx, count from invoice_agency_counts where agency_id = $1 order by 1, 2, 3`),
  ).toEqual(
    await q(`select month, direction, fplx, count(*)::int as count
      from invoices where agency_id = $1 and state <> 'void' group by 1, 2, 3 order by 1, 2, 3`),
  );
  expect(
    await q(`select month, direction, cp_tax_no, cp_name, count, total::text from invoice_agency_parties
      where agency_id = $1 order by 1, 2, 3`),
  ).toEqual(
    await q(`select month, direction, cp_tax_no, max(cp_name) as cp_name, count(*)::int as count,
        sum(total)::text as total
      from invoices where agency_id = $1 and state <> 'void' group by 1, 2, 3 order by 1, 2, 3`),
  );
}

const agencyParty = (month: string, cpTaxNo: string) =>
  t.ownerQuery<{ count: number; total: string }>(
    'select count, total::text from invoice_agency_parties where agency_id = 1 and month = $1 and cp_tax_no = $2',
    [month, cpTaxNo],
  );

describe('the invoice store', () => {
  it('saves by number: a second save of the same invoices counts none again and keeps one row each', async () => {
    const first = await save(1, ENT.adminOwn, [inv('26332000000000000001'), inv('26332000000000000002')]);
    expect(first.inserted).toBe(2);
    const again = await save(1, ENT.adminOwn, [inv('26332000000000000001'), inv('26332000000000000002')]);
    expect(again.inserted).toBe(0);
    expect(again.ids.get('26332000000000000001')).toBe(first.ids.get('26332000000000000001'));
    const rows = await t.ownerQuery<{ n: number }>('select count(*)::int n from invoices where enterprise_id = $1', [
      ENT.adminOwn,
    ]);
    expect(rows[0]?.n).toBe(2);
    const lines = await t.ownerQuery<{ n: number }>(
      'select count(*)::int n from invoice_lines l join invoices i on i.id = l.invoice_id where i.enterprise_id = $1',
      [ENT.adminOwn],
    );
    expect(lines[0]?.n).toBe(4);
    expect(await stats(ENT.adminOwn, '2026-10')).toEqual([
      { direction: 'out', fplx: 'zp', rate: '0.13', count: 2, amount: '2000000', tax: '260000', deduct_tax: '0' },
    ]);
  });

  it('a red invoice nets its blue one off; a voided one is left out; a state change updates the rollup', async () => {
    const ent = ENT.liOwn;
    await save(1, ent, [
      inv('26332000000000000011'),
      inv('26332000000000000012', {
        fplx: 'pp',
        state: 'void',
        lines: [{ xh: 1, spmc: '*餐饮服务*餐费', amount: 500_00, rate: '0.06', tax: 30_00 }],
        amount: 500_00,
        tax: 30_00,
        total: 530_00,
      }),
    ]);
    await save(1, ent, [
      inv('26332000000000000011', { state: 'reversed' }),
      inv('26332000000000000013', {
        state: 'red',
        lzfphm: '26332000000000000011',
        amount: -10000_00,
        tax: -1300_00,
        total: -11300_00,
        lines: [{ xh: 1, spmc: '*电子计算机*笔记本电脑', amount: -10000_00, rate: '0.13', tax: -1300_00 }],
      }),
    ]);
    expect(await stats(ent, '2026-10')).toEqual([
      { direction: 'out', fplx: 'zp', rate: '0.13', count: 2, amount: '0', tax: '0', deduct_tax: '0' },
    ]);
    // The red invoice is one more invoice of the kind; the party nets to nothing, in the agency's rollup too.
    expect(
      await t.ownerQuery('select fplx, count from invoice_month_counts where enterprise_id = $1 and month = $2', [
        ent,
        '2026-10',
      ]),
    ).toEqual([{ fplx: 'zp', count: 2 }]);
    await expectRollupsEqualInvoices(1);
    const state = await t.ownerQuery<{ state: string }>('select state from invoices where fphm = $1', [
      '26332000000000000011',
    ]);
    expect(state[0]?.state).toBe('reversed');
  });

  it('input invoices: the confirmed tax is summed apart; parties are summed per other party', async () => {
    const ent = ENT.zhangOwn;
    await save(
      1,
      ent,
      [
        inv('26332000000000000021', { deductState: 'confirmed', deductPeriod: '2026-10' }),
        inv('26332000000000000022', { cpName: '宁波乙方贸易有限公司', cpTaxNo: '91330201MA2C0B0B2Y' }),
      ],
      'in',
    );
    expect(await stats(ent, '2026-10')).toEqual([
      { direction: 'in', fplx: 'zp', rate: '0.13', count: 2, amount: '2000000', tax: '260000', deduct_tax: '130000' },
    ]);
    const parties = await t.ownerQuery<{ cp_name: string; count: number; total: string }>(
      'select cp_name, count, total::text from invoice_month_parties where enterprise_id = $1 order by cp_name',
      [ent],
    );
    expect(parties).toEqual([
      { cp_name: '宁波乙方贸易有限公司', count: 1, total: '1130000' },
      { cp_name: '杭州甲方科技有限公司', count: 1, total: '1130000' },
    ]);
  });

  it('an invoice with lines at several rates counts in each rate and once in its kind and the month', async () => {
    const ent = ENT.adminOwn;
    await save(1, ent, [
      inv('26332000000000000041', {
        kprq: '2026-08-03',
        amount: 1000_00,
        tax: 90_00 + 60_00,
        total: 1150_00,
        lines: [
          { xh: 1, spmc: '*运输服务*货物运输', amount: 500_00, rate: '0.09', tax: 45_00 },
          { xh: 2, spmc: '*现代服务*咨询', amount: 500_00, rate: '0.06', tax: 30_00 },
          { xh: 3, spmc: '*运输服务*装卸', amount: 500_00, rate: '0.09', tax: 45_00 },
        ],
      }),
      inv('26332000000000000042', { kprq: '2026-08-04', fplx: 'pp' }),
    ]);
    expect((await stats(ent, '2026-08')).map((r) => [r.fplx, r.rate, r.count])).toEqual([
      ['pp', '0.13', 1],
      ['zp', '0.06', 1],
      ['zp', '0.09', 1],
    ]);
    expect(
      await t.ownerQuery(
        'select fplx, count from invoice_month_counts where enterprise_id = $1 and month = $2 order by fplx',
        [ent, '2026-08'],
      ),
    ).toEqual([
      { fplx: 'pp', count: 1 },
      { fplx: 'zp', count: 1 },
    ]);
    await expectRollupsEqualInvoices(1);
  });

  it("the agency's parties follow every client's change: added up, reversed, voided, gone when nothing is left", async () => {
    const party = { cpName: '苏州丙方实业有限公司', cpTaxNo: '91320500MA1D0C0C3Z' };
    await save(1, ENT.adminOwn, [inv('26332000000000000051', { kprq: '2026-07-01', ...party })]);
    await save(1, ENT.liOwn, [inv('26332000000000000052', { kprq: '2026-07-02', ...party })]);
    expect(await agencyParty('2026-07', party.cpTaxNo)).toEqual([{ count: 2, total: '2260000' }]);
    // 红冲 of one client's invoice: its red one counts, the party nets to the other client's invoice.
    await save(1, ENT.liOwn, [
      inv('26332000000000000052', { kprq: '2026-07-02', state: 'reversed', ...party }),
      inv('26332000000000000053', {
        kprq: '2026-07-20',
        state: 'red',
        lzfphm: '26332000000000000052',
        amount: -10000_00,
        tax: -1300_00,
        total: -11300_00,
        lines: [{ xh: 1, spmc: '*电子计算机*笔记本电脑', amount: -10000_00, rate: '0.13', tax: -1300_00 }],
        ...party,
      }),
    ]);
    expect(await agencyParty('2026-07', party.cpTaxNo)).toEqual([{ count: 3, total: '1130000' }]);
    await expectRollupsEqualInvoices(1);
    // 作废: the other invoices of the party leave it; once none is left, the agency's row goes too.
    await save(1, ENT.adminOwn, [inv('26332000000000000051', { kprq: '2026-07-01', state: 'void', ...party })]);
    expect(await agencyParty('2026-07', party.cpTaxNo)).toEqual([{ count: 2, total: '0' }]);
    await save(1, ENT.liOwn, [
      inv('26332000000000000052', { kprq: '2026-07-02', state: 'void', ...party }),
      inv('26332000000000000053', { kprq: '2026-07-20', state: 'void', lzfphm: '26332000000000000052', ...party }),
    ]);
    expect(await agencyParty('2026-07', party.cpTaxNo)).toEqual([]);
    await expectRollupsEqualInvoices(1);
  });

  it('concurrent writers of several clients and of one client leave the agency rollup equal to the invoices', async () => {
    const party = (k: number) => ({
      cpName: `并发往来单位${k % 3}`,
      cpTaxNo: `91330100CONC${String(k % 3).padStart(6, '0')}`,
    });
    const batch = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        inv(`2633200000000000${String(from + i).padStart(4, '0')}`, { kprq: '2026-06-10', ...party(from + i) }),
      );
    await Promise.all([
      save(1, ENT.adminOwn, batch(1000, 6)),
      save(1, ENT.liOwn, batch(1100, 5)),
      save(1, ENT.zhangOwn, batch(1200, 4)),
      save(1, ENT.adminOwn, batch(1003, 6)),
      save(1, ENT.liOwn, batch(1300, 3), 'in'),
    ]);
    const total = await t.ownerQuery<{ n: number }>(
      "select coalesce(sum(count), 0)::int as n from invoice_agency_parties where agency_id = 1 and month = '2026-06'",
    );
    expect(total[0]?.n).toBe(9 + 5 + 4 + 3);
    await expectRollupsEqualInvoices(1);
  });

  it('another agency cannot write into a client that is not its own (row-level security)', async () => {
    await expect(save(2, ENT.adminOwn, [inv('26332000000000000031')])).rejects.toThrow();
  });
});
