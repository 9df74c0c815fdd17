import { CODE, CONTRACT_MSG, type ContractLineInput, fenToYuan, yuanToFen } from '@dzy/shared';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import {
  contractLines,
  contractNumbers,
  contracts,
  contractTemplates,
  enterprises,
  receivables,
  serviceItems,
} from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import type { PushHub } from '../../plugins/push.js';
import { emitWebhook } from '../apikey/webhook.js';
import { notifyEvent } from '../message/notify.js';
import { isUniqueViolation } from '../role/member.repo.js';
import type { ContractRow } from './contract.repo.js';
import { addDays, addMonths, isIsoDate } from './contract-dates.js';

/** A service term may not run longer than this. */
const MAX_TERM_YEARS = 10;

/**
 * The next contract number of the agency for the year: HT + year + 6 digits, from contract_numbers by one
 * atomic upsert (concurrent calls each get their own, in order).
 */
export async function nextContractNo(tx: Queryable, agencyId: number, year: number): Promise<string> {
  const [row] = await tx
    .insert(contractNumbers)
    .values({ agencyId, year, lastNo: 1 })
    .onConflictDoUpdate({
      target: [contractNumbers.agencyId, contractNumbers.year],
      set: { lastNo: sql`${contractNumbers.lastNo} + 1` },
    })
    .returning({ lastNo: contractNumbers.lastNo });
  if (!row) throw new Error('contract number upsert returned nothing');
  return `HT${year}${String(row.lastNo).padStart(6, '0')}`;
}

export interface Period {
  periodNo: number;
  periodStart: string;
  periodEnd: string;
  dueDate: string;
  amountFen: number;
}

/**
 * The receivable schedule of a term: one period per `payCycle` months from the start (0: one period for the
 * whole term), the last one cut at the end date; each due on its first day. The amount is split evenly in
 * whole fen, the remainder on the last period, so the periods sum exactly to the contract amount.
 * Months are counted from the start date each time (Jan 31 monthly: Feb 28/29, Mar 31, Apr 30 ...).
 */
export function buildSchedule(startDate: string, endDate: string, payCycle: number, amountFen: number): Period[] {
  const spans: { start: string; end: string }[] = [];
  if (payCycle <= 0) {
    spans.push({ start: startDate, end: endDate });
  } else {
    for (let i = 0; ; i++) {
      const start = addMonths(startDate, i * payCycle);
      if (start > endDate) break;
      const next = addDays(addMonths(startDate, (i + 1) * payCycle), -1);
      spans.push({ start, end: next < endDate ? next : endDate });
    }
  }
  const n = spans.length;
  const base = Math.floor(amountFen / n);
  return spans.map((s, i) => ({
    periodNo: i + 1,
    periodStart: s.start,
    periodEnd: s.end,
    dueDate: s.start,
    amountFen: i === n - 1 ? amountFen - base * (n - 1) : base,
  }));
}

export interface ContractTerms {
  signDate: string;
  startDate: string;
  endDate: string;
  payCycle: number;
  discount: string;
  remark: string;
  lines: ContractLineInput[];
}

export interface PreparedLine {
  sort: number;
  serviceId: number;
  serviceName: string;
  jobType: string;
  isGive: number;
  priceFen: number;
  discountFen: number;
  nowPriceFen: number;
}

export interface PreparedTerms {
  lines: PreparedLine[];
  totalPriceFen: number;
  discountFen: number;
  amountFen: number;
}

const bad = (msg: string) => new AppError(CODE.BAD_REQUEST, msg);

/**
 * Checks a term and its lines and prices them: dates in order and at most ten years, every service item of
 * the agency, a line's discount at most its price (nowPrice = price - discount), the total the sum of the
 * lines' nowPrice (gift lines included, as in templates) and the contract discount at most the total.
 */
export async function prepareTerms(tx: Queryable, agencyId: number, t: ContractTerms): Promise<PreparedTerms> {
  for (const d of [t.signDate, t.startDate, t.endDate]) if (!isIsoDate(d)) throw bad('日期不是有效日期');
  if (t.endDate < t.startDate) throw bad(CONTRACT_MSG.endBeforeStart);
  if (t.endDate >= addMonths(t.startDate, MAX_TERM_YEARS * 12)) throw bad(CONTRACT_MSG.termTooLong);
  const ids = [...new Set(t.lines.map((l) => l.serviceId))];
  if (ids.length !== t.lines.length) throw bad(CONTRACT_MSG.serviceRepeat);
  const items = await tx
    .select()
    .from(serviceItems)
    .where(and(eq(serviceItems.agencyId, agencyId), inArray(serviceItems.id, ids)));
  const byId = new Map(items.map((s) => [s.id, s]));
  const lines = t.lines.map((l, i): PreparedLine => {
    const item = byId.get(l.serviceId);
    if (!item) throw new AppError(CODE.NOT_FOUND, '服务项目不存在');
    const priceFen = yuanToFen(l.price);
    const discountFen = yuanToFen(l.discount ?? '0');
    if (discountFen > priceFen) throw bad(`${item.serviceName}：${CONTRACT_MSG.lineDiscountTooHigh}`);
    return {
      sort: i + 1,
      serviceId: item.id,
      serviceName: item.serviceName,
      jobType: item.jobType,
      isGive: l.isGive ?? 0,
      priceFen,
      discountFen,
      nowPriceFen: priceFen - discountFen,
    };
  });
  const totalPriceFen = lines.reduce((s, l) => s + l.nowPriceFen, 0);
  const discountFen = yuanToFen(t.discount);
  if (discountFen > totalPriceFen) throw bad(CONTRACT_MSG.discountTooHigh);
  return { lines, totalPriceFen, discountFen, amountFen: totalPriceFen - discountFen };
}

export async function requireTemplate(tx: Queryable, agencyId: number, id: number | null) {
  if (id === null) return;
  const [row] = await tx
    .select({ id: contractTemplates.id })
    .from(contractTemplates)
    .where(and(eq(contractTemplates.agencyId, agencyId), eq(contractTemplates.id, id)));
  if (!row) throw new AppError(CODE.NOT_FOUND, '合同模板不存在');
}

async function writeLines(tx: Queryable, agencyId: number, contractId: number, lines: PreparedLine[]) {
  await tx.delete(contractLines).where(eq(contractLines.contractId, contractId));
  await tx.insert(contractLines).values(lines.map((l) => ({ agencyId, contractId, ...l })));
}

/** Puts a contract into force: writes its receivable schedule. */
export async function writeSchedule(
  tx: Queryable,
  c: Pick<ContractRow, 'id' | 'agencyId' | 'enterpriseId' | 'startDate' | 'endDate' | 'payCycle' | 'amountFen'>,
) {
  const periods = buildSchedule(c.startDate, c.endDate, c.payCycle, c.amountFen);
  await tx
    .insert(receivables)
    .values(periods.map((p) => ({ agencyId: c.agencyId, contractId: c.id, enterpriseId: c.enterpriseId, ...p })));
  await emitWebhook(tx, c.agencyId, 'contract.signed', {
    id: c.id,
    enterpriseId: c.enterpriseId,
    amountFen: c.amountFen,
  });
  return periods.length;
}

export interface NewContract extends ContractTerms {
  agencyId: number;
  actorId: number;
  contractNo?: string | undefined;
  enterpriseId: number;
  templateId: number | null;
  contractUserId: number;
  htzt: '1' | '2';
  renewedFromId?: number | null;
}

/**
 * Creates a contract with its lines (a draft, or in force with its receivable schedule). The number is
 * the next one when none is given; a taken number is a 409. Used by the calls and the demo seed.
 */
export async function createContract(tx: Queryable, input: NewContract): Promise<ContractRow> {
  const terms = await prepareTerms(tx, input.agencyId, input);
  await requireTemplate(tx, input.agencyId, input.templateId);
  const contractNo = input.contractNo || (await nextContractNo(tx, input.agencyId, Number(input.signDate.slice(0, 4))));
  let row: ContractRow | undefined;
  try {
    [row] = await tx
      .insert(contracts)
      .values({
        agencyId: input.agencyId,
        contractNo,
        enterpriseId: input.enterpriseId,
        templateId: input.templateId,
        contractUserId: input.contractUserId,
        htzt: input.htzt,
        signDate: input.signDate,
        startDate: input.startDate,
        endDate: input.endDate,
        payCycle: input.payCycle,
        totalPriceFen: terms.totalPriceFen,
        discountFen: terms.discountFen,
        amountFen: terms.amountFen,
        remark: input.remark,
        renewedFromId: input.renewedFromId ?? null,
        createdBy: input.actorId,
      })
      .returning();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, CONTRACT_MSG.numberTaken);
    throw err;
  }
  if (!row) throw new Error('contract insert returned nothing');
  await writeLines(tx, input.agencyId, row.id, terms.lines);
  if (row.htzt === '2') await writeSchedule(tx, row);
  return row;
}

/** Rewrites a draft's terms and lines (drafts have no schedule yet). */
export async function updateDraft(
  tx: Queryable,
  c: ContractRow,
  input: Omit<NewContract, 'agencyId' | 'actorId' | 'htzt'>,
): Promise<ContractRow> {
  const terms = await prepareTerms(tx, c.agencyId, input);
  await requireTemplate(tx, c.agencyId, input.templateId);
  let row: ContractRow | undefined;
  try {
    [row] = await tx
      .update(contracts)
      .set({
        contractNo: input.contractNo || c.contractNo,
        enterpriseId: input.enterpriseId,
        templateId: input.templateId,
        contractUserId: input.contractUserId,
        signDate: input.signDate,
        startDate: input.startDate,
        endDate: input.endDate,
        payCycle: input.payCycle,
        totalPriceFen: terms.totalPriceFen,
        discountFen: terms.discountFen,
        amountFen: terms.amountFen,
        remark: input.remark,
        updatedAt: new Date(),
      })
      .where(eq(contracts.id, c.id))
      .returning();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, CONTRACT_MSG.numberTaken);
    throw err;
  }
  if (!row) throw new Error('contract update returned nothing');
  await writeLines(tx, c.agencyId, c.id, terms.lines);
  return row;
}

/** Draft → in force, with its schedule. */
export async function submitContract(tx: Queryable, c: ContractRow) {
  if (c.htzt !== '1') throw bad(`${c.contractNo}：${CONTRACT_MSG.onlyDraftSubmit}`);
  await tx.update(contracts).set({ htzt: '2', updatedAt: new Date() }).where(eq(contracts.id, c.id));
  return writeSchedule(tx, { ...c, htzt: '2' } as ContractRow);
}

/**
 * In force → terminated on `lastDay` (within the term): the end date becomes that day, the unpaid periods
 * starting after it are removed; periods already (partly) paid are kept, as is the period running on it.
 */
export async function terminateContract(tx: Queryable, c: ContractRow, reason: string, lastDay: string) {
  if (c.htzt !== '2') throw bad(`${c.contractNo}：${CONTRACT_MSG.onlyActiveEnd}`);
  const day = lastDay < c.startDate ? c.startDate : lastDay > c.endDate ? c.endDate : lastDay;
  const removed = await tx
    .delete(receivables)
    .where(and(eq(receivables.contractId, c.id), gt(receivables.periodStart, day), eq(receivables.paidFen, 0)))
    .returning({ amountFen: receivables.amountFen });
  await tx
    .update(contracts)
    .set({ htzt: '3', endDate: day, endReason: reason, endedAt: new Date(), updatedAt: new Date() })
    .where(eq(contracts.id, c.id));
  return { lastDay: day, removedPeriods: removed.length, removedFen: removed.reduce((s, r) => s + r.amountFen, 0) };
}

/** Draft or terminated → deleted (recoverable). A contract in force must be terminated first. */
export async function deleteContract(tx: Queryable, c: ContractRow) {
  if (c.htzt !== '1' && c.htzt !== '3') throw bad(`${c.contractNo}：${CONTRACT_MSG.onlyDeletable}`);
  await tx.update(contracts).set({ htzt: '0', updatedAt: new Date() }).where(eq(contracts.id, c.id));
}

/** Deleted → what it was: terminated when it had been ended, otherwise a draft. */
export async function recoverContract(tx: Queryable, c: ContractRow): Promise<'1' | '3'> {
  if (c.htzt !== '0') throw bad(`${c.contractNo}：${CONTRACT_MSG.onlyDeleted}`);
  const htzt = c.endedAt ? '3' : '1';
  await tx.update(contracts).set({ htzt, updatedAt: new Date() }).where(eq(contracts.id, c.id));
  return htzt;
}

/** The new-contract message (msg_xjht) to the enterprise's service staff and the contract owner. */
export async function notifyNewContract(
  tx: Tx,
  push: PushHub,
  afterCommit: (fn: () => Promise<void>) => void,
  c: ContractRow,
  actorName: string,
) {
  const [e] = await tx
    .select({ qymc: enterprises.qymc, allocateUser: enterprises.allocateUser })
    .from(enterprises)
    .where(eq(enterprises.id, c.enterpriseId));
  const userIds = [c.contractUserId, ...(e?.allocateUser ? [e.allocateUser] : [])];
  return notifyEvent(tx, push, afterCommit, {
    event: 'xjht',
    agencyId: c.agencyId,
    userIds,
    targetId: c.id,
    detail: `${actorName}为客户「${e?.qymc ?? ''}」新建了合同 ${c.contractNo}，服务期 ${c.startDate} 至 ${c.endDate}，合同金额 ${fenToYuan(c.amountFen)} 元`,
  });
}
