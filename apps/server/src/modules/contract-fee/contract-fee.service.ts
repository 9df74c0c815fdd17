import {
  CODE,
  FEE_MSG,
  type FeeStatus,
  feeFen,
  feeStatusOf,
  feeYuan,
  type SaveChargeBody,
  type saveChargeBodySchema,
} from '@dzy/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { type PageAsk, pageIds } from '../../db/paging.js';
import { charges, contracts, receivables } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import { emitWebhook } from '../apikey/webhook.js';
import { contractStatusOf } from '../contract/contract-status.js';
import { isUniqueViolation } from '../role/member.repo.js';
import {
  type ChargeFilterOut,
  chargeRows,
  chargeSort,
  chargeTotals,
  chargeWhere,
  type FeeAccess,
  feeEditable,
  feeFrom,
  feeVisible,
  type ReceivableFilterOut,
  receivableRows,
  receivableSort,
  receivableTotals,
  receivableWhere,
  toChargeItem,
  toReceivableItem,
} from './contract-fee.repo.js';

export type { SaveChargeBody };

type SaveChargeInput = z.output<typeof saveChargeBodySchema>;

/** Today in China: due dates, arrears and "not in the future" all count by the agencies' calendar. */
export const feeToday = () => chinaDate();

/** Months in arrears of each enterprise, from the one contract-status computation (slice 6b). */
export async function arrearsOf(tx: Tx, enterpriseIds: readonly number[], today: string): Promise<Map<number, number>> {
  const status = await contractStatusOf(tx, enterpriseIds, today);
  return new Map([...status].map(([id, s]) => [id, s.qfys]));
}

interface LockedPeriod {
  id: number;
  contractId: number;
  enterpriseId: number;
  periodNo: number;
  dueDate: string;
  amountFen: number;
  paidFen: number;
  editable: boolean;
}

/**
 * The period, locked for the rest of the transaction (FOR UPDATE), so two payments on one period are
 * applied one after the other. 404 when the caller may not see it; 460 when they see but may not edit.
 */
async function lockPeriod(tx: Tx, a: FeeAccess, receivableId: number): Promise<LockedPeriod> {
  const [row] = await tx
    .select({
      id: receivables.id,
      contractId: receivables.contractId,
      enterpriseId: receivables.enterpriseId,
      periodNo: receivables.periodNo,
      dueDate: receivables.dueDate,
      amountFen: receivables.amountFen,
      paidFen: receivables.paidFen,
      editable: sql<boolean>`(${feeEditable(a)})`.mapWith(Boolean),
    })
    .from(receivables)
    .innerJoin(contracts, eq(contracts.id, receivables.contractId))
    .where(and(eq(receivables.id, receivableId), eq(receivables.agencyId, a.agencyId), feeVisible(a)))
    .for('update', { of: receivables });
  if (!row) throw new AppError(CODE.NOT_FOUND, FEE_MSG.notFound);
  if (!row.editable) throw new AppError(CODE.NO_PERMISSION, FEE_MSG.noEditRight);
  return row;
}

/** Sets paid_fen to the sum of the period's live charges (called under the period's row lock). */
async function resumPeriod(tx: Tx, p: LockedPeriod, today: string) {
  const [row] = await tx
    .update(receivables)
    .set({
      paidFen: sql`(select coalesce(sum(${charges.amountFen}), 0) from ${charges}
        where ${charges.receivableId} = ${p.id} and ${charges.revokedAt} is null)`,
    })
    .where(eq(receivables.id, p.id))
    .returning({ paidFen: receivables.paidFen });
  const paidFen = row?.paidFen ?? 0;
  const feeStatus: FeeStatus = feeStatusOf(p.amountFen, paidFen, p.dueDate, today);
  return {
    paidFen,
    paid: feeYuan(paidFen),
    unpaid: feeYuan(Math.max(0, p.amountFen - paidFen)),
    feeStatus,
  };
}

/**
 * 登记收款: one payment against one period, at most what is still unpaid on it (a larger sum is refused,
 * not spread over other periods: docs/decisions/contract.md). Not dated in the future; the receipt number, when
 * given, is not used by another live charge of the agency. Audited with the amounts before and after.
 */
export async function recordCharge(tx: Tx, req: FastifyRequest, a: FeeAccess, body: SaveChargeInput) {
  const today = feeToday();
  if (body.payDate > today) throw new AppError(CODE.BAD_REQUEST, FEE_MSG.dateFuture);
  const amountFen = feeFen(body.payAmount);
  if (amountFen === null || amountFen <= 0) throw new AppError(CODE.BAD_REQUEST, FEE_MSG.amountPattern);
  const p = await lockPeriod(tx, a, body.receivableId);
  const unpaidFen = p.amountFen - p.paidFen;
  if (unpaidFen <= 0) throw new AppError(CODE.BAD_REQUEST, FEE_MSG.settled);
  if (amountFen > unpaidFen) throw new AppError(CODE.BAD_REQUEST, FEE_MSG.overpay(feeYuan(unpaidFen)));
  if (body.receiptNo) {
    const [taken] = await tx
      .select({ id: charges.id })
      .from(charges)
      .where(and(eq(charges.agencyId, a.agencyId), eq(charges.receiptNo, body.receiptNo), isNull(charges.revokedAt)))
      .limit(1);
    if (taken) throw new AppError(CODE.CONFLICT, FEE_MSG.receiptTaken(body.receiptNo));
  }
  let id: number;
  try {
    const [row] = await tx
      .insert(charges)
      .values({
        agencyId: a.agencyId,
        receivableId: p.id,
        contractId: p.contractId,
        enterpriseId: p.enterpriseId,
        amountFen,
        payDate: body.payDate,
        payMethod: body.payMethod,
        payer: body.payer,
        receiptNo: body.receiptNo,
        remark: body.remark,
        createdBy: a.session.userId,
      })
      .returning({ id: charges.id });
    if (!row) throw new Error('charge insert returned nothing');
    id = row.id;
  } catch (err) {
    // Two payments with one receipt number at the same moment: the unique index decides.
    if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, FEE_MSG.receiptTaken(body.receiptNo));
    throw err;
  }
  const after = await resumPeriod(tx, p, today);
  await audit(tx, req, a.session, 'fee.charge_add', `charge:${id}`, {
    receivableId: p.id,
    contractId: p.contractId,
    enterpriseId: p.enterpriseId,
    periodNo: p.periodNo,
    amountFen,
    payDate: body.payDate,
    payMethod: body.payMethod,
    payer: body.payer,
    receiptNo: body.receiptNo,
    paidFenBefore: p.paidFen,
    paidFenAfter: after.paidFen,
  });
  await emitWebhook(tx, a.agencyId, 'charge.recorded', {
    id,
    contractId: p.contractId,
    enterpriseId: p.enterpriseId,
    amountFen,
  });
  return { id, paid: after.paid, unpaid: after.unpaid, feeStatus: after.feeStatus };
}

/** 撤销收款: the charge keeps its row (revoked_at, revoked_by); the period's unpaid amount comes back. */
export async function revokeCharge(tx: Tx, req: FastifyRequest, a: FeeAccess, chargeId: number, reason: string) {
  const today = feeToday();
  const [charge] = await tx
    .select({ receivableId: charges.receivableId })
    .from(charges)
    .innerJoin(contracts, eq(contracts.id, charges.contractId))
    .where(and(eq(charges.id, chargeId), eq(charges.agencyId, a.agencyId), feeVisible(a)));
  if (!charge) throw new AppError(CODE.NOT_FOUND, FEE_MSG.chargeNotFound);
  // The period first, then the charge: the same lock order as recording, so the two never deadlock.
  const p = await lockPeriod(tx, a, charge.receivableId);
  const [revoked] = await tx
    .update(charges)
    .set({ revokedAt: new Date(), revokedBy: a.session.userId })
    .where(and(eq(charges.id, chargeId), isNull(charges.revokedAt)))
    .returning({ amountFen: charges.amountFen, payDate: charges.payDate, receiptNo: charges.receiptNo });
  if (!revoked) throw new AppError(CODE.CONFLICT, FEE_MSG.alreadyRevoked);
  const after = await resumPeriod(tx, p, today);
  await audit(tx, req, a.session, 'fee.charge_revoke', `charge:${chargeId}`, {
    receivableId: p.id,
    contractId: p.contractId,
    enterpriseId: p.enterpriseId,
    periodNo: p.periodNo,
    amountFen: revoked.amountFen,
    payDate: revoked.payDate,
    receiptNo: revoked.receiptNo,
    reason,
    paidFenBefore: p.paidFen,
    paidFenAfter: after.paidFen,
  });
  return { paid: after.paid, unpaid: after.unpaid, feeStatus: after.feeStatus };
}

/** One page of 应收 with its total and 合计 (the call and the bench run this same code). */
export async function receivableListPage(tx: Tx, a: FeeAccess, body: ReceivableFilterOut & PageAsk, today: string) {
  const { pageNo, pageSize, cursor, ...filter } = body;
  const where = receivableWhere(a, body, today);
  const from = feeFrom('receivables', a, body);
  const { total, totals } = await receivableTotals(tx, from, where);
  const page = await pageIds(tx, {
    from,
    where,
    sort: receivableSort(body),
    ask: { pageNo, pageSize, cursor },
    filter,
    total: async () => total,
  });
  const rows = await receivableRows(tx, a, page.ids);
  const arrears = await arrearsOf(tx, [...new Set(rows.map((r) => r.enterpriseId))], today);
  return {
    list: rows.map((r) => toReceivableItem(r, today, arrears.get(r.enterpriseId) ?? 0)),
    total,
    totals,
    cursor: page.cursor,
  };
}

/** One page of 收款记录 with its total and 合计 (the call and the bench run this same code). */
export async function chargeListPage(tx: Tx, a: FeeAccess, body: ChargeFilterOut & PageAsk) {
  const { pageNo, pageSize, cursor, ...filter } = body;
  const where = chargeWhere(a, body);
  const from = feeFrom('charges', a, body);
  const { total, totals } = await chargeTotals(tx, from, where);
  const page = await pageIds(tx, {
    from,
    where,
    sort: chargeSort(body),
    ask: { pageNo, pageSize, cursor },
    filter,
    total: async () => total,
  });
  return { list: (await chargeRows(tx, a, page.ids)).map(toChargeItem), total, totals, cursor: page.cursor };
}
