import { type BureauClient, FILING_BATCH_MSG, httpBureauClient, planFigures } from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figuresOf } from '../src/modules/filing-batch/filing-batch.sources.js';

// The plan's general VAT figures from the bureau's invoices (docs/tax-bureau-protocol.md "Invoices (数电票)"):
// sales by rate from fpxx, and the input once the period is confirmed (用途确认) at the bureau. The simulator
// is started for real; its date is fixed so October 2026 is the open VAT period.

const TODAY = '2026-11-03';
/** General taxpayer (monthly VAT), its October return not filed. */
const GENERAL = '91330106000158380C';
const OCT = { taxType: 'zzs', nsrlx: '0', cycle: 'month', skssqq: '2026-10-01', skssqz: '2026-10-31' } as const;

let sim: TaxSim;
let bureau: BureauClient;
let session: string;

beforeAll(async () => {
  sim = await startTaxSim({ today: TODAY });
  bureau = httpBureauClient({ baseUrl: sim.url, timeoutMs: 5_000, busyDelayMs: () => 1 });
  const r = await bureau.etaxLogin({ qysh: GENERAL, account: 'a', password: 'x', sfbm: '1', loginType: '0' });
  if (r.status !== 1) throw new Error('login failed');
  session = r.session;
});
afterAll(() => sim.close());

const fen = (y: string) => Math.round(Number(y) * 100);
const totals = (q: string, z: string) => bureau.invoiceTotals(session, q, z);

describe('general VAT figures from the invoices', () => {
  it('ask for the input while the period is not confirmed, then take the confirmed input and compute', async () => {
    const t = await totals(OCT.skssqq, OCT.skssqz);
    const open = await figuresOf(bureau, session, OCT, totals);
    expect(open).toMatchObject({ source: 'invoices', state: 'needsInput', msg: FILING_BATCH_MSG.needsInputVat });
    expect(open.sbsj).toEqual({ xse13: t.xse13, xse9: t.xse9, xse6: t.xse6 });
    expect(open.srze).toBe(fen(t.zpje) + fen(t.ppje));

    // 勾选 every received 专票 of October, then 用途确认.
    const zp = (await bureau.invoices(session, 'jx', '2026-10')).filter((i) => i.fplx === 'zp');
    const ticked = await bureau.selectInvoices(session, { ssq: '2026-10', fphms: zp.map((i) => i.fphm), gx: true });
    expect(ticked.status).toBe('done');
    const c = await bureau.confirmDeduction(session, '2026-10');
    if (c.status !== 'confirmed') throw new Error(JSON.stringify(c));
    expect(fen(c.confirmation.se)).toBe(zp.reduce((s, i) => s + fen(i.hjse), 0));

    const planned = await figuresOf(bureau, session, OCT, totals);
    const sbsj = { xse13: t.xse13, xse9: t.xse9, xse6: t.xse6, jxse: c.confirmation.se };
    expect(planned).toMatchObject({ source: 'invoices', state: 'planned', msg: FILING_BATCH_MSG.generated, sbsj });
    expect({ srze: planned.srze, ybtse: planned.ybtse }).toEqual(planFigures('zzs', '0', 'month', sbsj));

    // Filed with those figures, the bureau computes the same.
    const filed = await bureau.submitReturn(session, { type: 'zzs', skssqq: OCT.skssqq, skssqz: OCT.skssqz, sbsj });
    if (filed.status === 'rejected') throw new Error(filed.msg);
    expect(fen(filed.receipt.srze)).toBe(planned.srze);
    expect(fen(filed.receipt.ybtse)).toBe(planned.ybtse);
  });
});
