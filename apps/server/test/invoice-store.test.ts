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
  inScope(t.db.app, { agencyId, userId: ID.admin }, (tx) =>
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

  it('another agency cannot write into a client that is not its own (row-level security)', async () => {
    await expect(save(2, ENT.adminOwn, [inv('26332000000000000031')])).rejects.toThrow();
  });
});
