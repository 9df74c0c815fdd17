import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { charges, contracts, enterprises, receivables } from '../../db/schema/index.js';
import { chinaDate } from '../../plugins/jobs.js';
import { addDays, addMonths } from '../contract/contract-dates.js';

const PAYERS = ['财务部', '出纳', '法人代表', '总经理办公室'];
const METHODS = ['2', '2', '3', '4', '1', '9'] as const;

/**
 * Demo payments on the demo receivables (run after the contracts seed): most periods due so far paid in
 * full (some in two parts), the last due period of some enterprises paid in part, and some enterprises in
 * arrears for one to three months (what fell due in that time is unpaid). Deterministic, so the demo looks the same every time.
 */
export async function seedFeeDemo(db: Db, agencyIds: readonly number[], today = chinaDate()) {
  for (const agencyId of agencyIds) {
    const due = await db
      .select({
        id: receivables.id,
        contractId: receivables.contractId,
        enterpriseId: receivables.enterpriseId,
        dueDate: receivables.dueDate,
        amountFen: receivables.amountFen,
        owner: contracts.contractUserId,
        qymc: enterprises.qymc,
      })
      .from(receivables)
      .innerJoin(contracts, eq(contracts.id, receivables.contractId))
      .innerJoin(enterprises, eq(enterprises.id, receivables.enterpriseId))
      .where(
        and(eq(receivables.agencyId, agencyId), inArray(contracts.htzt, ['2', '3']), lte(receivables.dueDate, today)),
      )
      .orderBy(asc(receivables.enterpriseId), asc(receivables.dueDate), asc(receivables.id));

    const byEnterprise = new Map<number, typeof due>();
    for (const r of due) {
      const list = byEnterprise.get(r.enterpriseId) ?? [];
      list.push(r);
      byEnterprise.set(r.enterpriseId, list);
    }

    const rows: (typeof charges.$inferInsert)[] = [];
    let seq = 0;
    const pay = (r: (typeof due)[number], amountFen: number, offset: number) => {
      if (amountFen <= 0) return;
      seq += 1;
      const payDate = [addDays(r.dueDate, offset), today].sort()[0] ?? today;
      rows.push({
        agencyId,
        receivableId: r.id,
        contractId: r.contractId,
        enterpriseId: r.enterpriseId,
        amountFen,
        payDate,
        payMethod: METHODS[seq % METHODS.length] ?? '2',
        payer: seq % 3 === 0 ? (PAYERS[seq % PAYERS.length] ?? '') : r.qymc,
        // Receipt books are numbered per agency: SK + year + running number.
        receiptNo: seq % 3 === 2 ? '' : `SK${payDate.slice(2, 4)}${String(seq).padStart(5, '0')}`,
        createdBy: r.owner,
      });
    };

    let k = 0;
    for (const periods of byEnterprise.values()) {
      k += 1;
      // In arrears for 1-3 months: the periods that fell due within that many months stay unpaid.
      const arrearsSince = k % 7 === 3 ? addMonths(today, -(1 + (k % 3))) : null;
      const partialLast = k % 7 === 5;
      periods.forEach((r, i) => {
        const left = periods.length - i;
        if (arrearsSince && r.dueDate > arrearsSince) return;
        if (partialLast && left === 1 && r.dueDate > addMonths(today, -2)) {
          // Half now (whole fen), the rest still owed.
          pay(r, Math.floor(r.amountFen / 200) * 100 || Math.floor(r.amountFen / 2), 3);
          return;
        }
        if (i % 5 === 1 && r.amountFen >= 200) {
          const first = Math.floor(r.amountFen / 200) * 100;
          pay(r, first, 2);
          pay(r, r.amountFen - first, 12);
          return;
        }
        pay(r, r.amountFen, (seq % 9) - 2);
      });
    }
    for (let i = 0; i < rows.length; i += 1000) await db.insert(charges).values(rows.slice(i, i + 1000));
    await db
      .update(receivables)
      .set({
        paidFen: sql`(select coalesce(sum(c.amount_fen), 0) from charges c
          where c.receivable_id = ${receivables.id} and c.revoked_at is null)`,
      })
      .where(eq(receivables.agencyId, agencyId));
  }
}
