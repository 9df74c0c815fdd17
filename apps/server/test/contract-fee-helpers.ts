import {
  type ChargeItem,
  CODE,
  chargeListCall,
  type ReceivableItem,
  receivableListCall,
  type SaveChargeBody,
  saveChargeCall,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { inScope } from '../src/db/client.js';
import { contracts, enterprises, receivables } from '../src/db/schema/index.js';
import { addDays } from '../src/modules/contract/contract-dates.js';
import { chinaDate } from '../src/plugins/jobs.js';
import type { TestApp } from './harness.js';

export const today = () => chinaDate();
export const daysFromToday = (n: number) => addDays(chinaDate(), n);

let seq = 0;

/** A fresh client enterprise of the agency (no contracts yet), allocated to `userId`. */
export async function makeEnterprise(t: TestApp, userId: number, agencyId = 1, qymc?: string) {
  seq += 1;
  const [row] = await inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
    tx
      .insert(enterprises)
      .values({
        agencyId,
        qymc: qymc ?? `收费测试企业${seq}${Date.now().toString(36)}有限公司`,
        qysh: `9133TF${Date.now().toString(36).toUpperCase()}${seq}`.slice(0, 20),
        allocateUser: userId,
      })
      .returning({ id: enterprises.id }),
  );
  if (!row) throw new Error('enterprise insert failed');
  return row.id;
}

/**
 * A contract in force with the given periods (due date and amount in fen), inserted directly in the
 * agency's scope: the fee module's fixtures do not depend on how contracts are made.
 */
export async function makeContract(
  t: TestApp,
  opts: {
    agencyId?: number;
    enterpriseId: number;
    userId: number;
    periods: { due: string; fen: number; paidFen?: number }[];
    htzt?: '0' | '1' | '2' | '3';
    no?: string;
  },
) {
  seq += 1;
  const agencyId = opts.agencyId ?? 1;
  const contractNo = opts.no ?? `TF${Date.now().toString(36).toUpperCase()}${seq}`;
  const sorted = [...opts.periods].sort((a, b) => a.due.localeCompare(b.due));
  const start = sorted[0]?.due ?? today();
  const last = sorted[sorted.length - 1]?.due ?? start;
  const amountFen = sorted.reduce((s, p) => s + p.fen, 0);
  return inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, async (tx) => {
    const [c] = await tx
      .insert(contracts)
      .values({
        agencyId,
        contractNo,
        enterpriseId: opts.enterpriseId,
        contractUserId: opts.userId,
        htzt: opts.htzt ?? '2',
        signDate: start,
        startDate: start,
        endDate: addDays(last, 27),
        payCycle: 1,
        totalPriceFen: amountFen,
        amountFen,
      })
      .returning({ id: contracts.id });
    if (!c) throw new Error('contract insert failed');
    const rows = await tx
      .insert(receivables)
      .values(
        sorted.map((p, i) => ({
          agencyId,
          contractId: c.id,
          enterpriseId: opts.enterpriseId,
          periodNo: i + 1,
          periodStart: p.due,
          periodEnd: addDays(p.due, 27),
          dueDate: p.due,
          amountFen: p.fen,
          paidFen: p.paidFen ?? 0,
        })),
      )
      .returning({ id: receivables.id, periodNo: receivables.periodNo });
    return {
      id: c.id,
      contractNo,
      periodIds: rows.sort((a, b) => a.periodNo - b.periodNo).map((r) => r.id),
    };
  });
}

/** The stored paid_fen of a period. */
export async function paidFenOf(t: TestApp, receivableId: number, agencyId = 1) {
  const [row] = await inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
    tx
      .select({ paidFen: receivables.paidFen })
      .from(receivables)
      .where(and(eq(receivables.id, receivableId), eq(receivables.agencyId, agencyId))),
  );
  return row?.paidFen;
}

export async function receivablesOf(t: TestApp, cookie: string, body: Record<string, unknown> = {}) {
  const r = await t.call<{
    list: ReceivableItem[];
    total: number;
    totals: { amount: string; paid: string; unpaid: string };
  }>(receivableListCall.path, { pageSize: 100, ...body }, cookie);
  if (r.code !== CODE.OK) throw new Error(`receivable list failed: ${r.code} ${r.msg}`);
  return r.data;
}

export async function chargesOf(t: TestApp, cookie: string, body: Record<string, unknown> = {}) {
  const r = await t.call<{ list: ChargeItem[]; total: number; totals: { amount: string } }>(
    chargeListCall.path,
    { pageSize: 100, ...body },
    cookie,
  );
  if (r.code !== CODE.OK) throw new Error(`charge list failed: ${r.code} ${r.msg}`);
  return r.data;
}

export function pay(
  t: TestApp,
  cookie: string,
  body: Partial<Omit<SaveChargeBody, 'payAmount'>> & { receivableId: number; amount?: string },
) {
  return t.call<{ id: number; paid: string; unpaid: string; feeStatus: string }>(
    saveChargeCall.path,
    (({ amount, ...rest }) => ({ payAmount: amount ?? '100.00', payDate: today(), payMethod: '2', ...rest }))(body),
    cookie,
  );
}
