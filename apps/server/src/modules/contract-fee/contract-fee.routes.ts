import {
  CODE,
  chargeListCall,
  FEE_MSG,
  feeOwnersCall,
  feeScheduleCall,
  feeYuan,
  receivableListCall,
  revokeChargeCall,
  saveChargeCall,
} from '@dzy/shared';
import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import { charges, contracts, enterprises, receivables, users } from '../../db/schema/index.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { selectMembers } from '../role/member.repo.js';
import { feeFileRoutes } from './contract-fee.files.js';
import { feeJobs, startFeeSchedule } from './contract-fee.jobs.js';
import {
  agencyOf,
  chargeQuery,
  feeAccessOf,
  feeEditable,
  feeVisible,
  receivableQuery,
  toChargeItem,
  toReceivableItem,
} from './contract-fee.repo.js';
import {
  arrearsOf,
  chargeListPage,
  feeToday,
  receivableListPage,
  recordCharge,
  revokeCharge,
} from './contract-fee.service.js';

/** 收费列表 (/contractFee/sfgl/sflb): receivables, charges, the schedule of a contract, export, reminders. */
export const contractFeeModule: ServerModule = {
  name: 'contract-fee',
  jobs: feeJobs,
  routes(app, deps) {
    feeFileRoutes(app, deps);
    startFeeSchedule(app, deps);
  },
  calls: [
    serve(receivableListCall, async ({ body, session, tx }) =>
      receivableListPage(tx, await feeAccessOf(tx, session), body, feeToday()),
    ),

    serve(chargeListCall, async ({ body, session, tx }) => chargeListPage(tx, await feeAccessOf(tx, session), body)),

    serve(saveChargeCall, async ({ body, session, tx, req }) => {
      const a = await feeAccessOf(tx, session);
      return recordCharge(tx, req, a, body);
    }),

    serve(revokeChargeCall, async ({ body, session, tx, req }) => {
      const a = await feeAccessOf(tx, session);
      return revokeCharge(tx, req, a, body.id, body.reason);
    }),

    serve(feeScheduleCall, async ({ body, session, tx }) => {
      const a = await feeAccessOf(tx, session);
      const today = feeToday();
      const [c] = await tx
        .select({
          id: contracts.id,
          contractNo: contracts.contractNo,
          htzt: contracts.htzt,
          enterpriseId: contracts.enterpriseId,
          qymc: enterprises.qymc,
          qysh: enterprises.qysh,
          signDate: contracts.signDate,
          startDate: contracts.startDate,
          endDate: contracts.endDate,
          payCycle: contracts.payCycle,
          amountFen: contracts.amountFen,
          contractUserName: users.hymc,
        })
        .from(contracts)
        .innerJoin(enterprises, eq(enterprises.id, contracts.enterpriseId))
        .leftJoin(users, eq(users.id, contracts.contractUserId))
        .where(and(eq(contracts.id, body.contractId), feeVisible(a)));
      if (!c) throw new AppError(CODE.NOT_FOUND, FEE_MSG.contractNotFound);
      const inContract = and(
        eq(receivables.agencyId, agencyOf(session)),
        eq(receivables.contractId, c.id),
        feeVisible(a),
      ) as SQL;
      const periods = await receivableQuery(tx, a, inContract).orderBy(asc(receivables.periodNo));
      const chargeRows = await chargeQuery(tx, a, and(eq(charges.contractId, c.id), feeVisible(a)) as SQL).orderBy(
        desc(charges.payDate),
        desc(charges.id),
      );
      const arrears = await arrearsOf(tx, [c.enterpriseId], today);
      const qfys = arrears.get(c.enterpriseId) ?? 0;
      let scheduled = 0;
      let paid = 0;
      let overdue = 0;
      for (const p of periods) {
        scheduled += p.amountFen;
        paid += p.paidFen;
        if (p.dueDate <= today) overdue += Math.max(0, p.amountFen - p.paidFen);
      }
      const editable = periods[0]?.editable ?? (await editableContract(tx, a, c.id));
      return {
        contract: {
          id: c.id,
          contractNo: c.contractNo,
          htzt: c.htzt,
          qymc: c.qymc,
          qysh: c.qysh,
          signDate: c.signDate,
          startDate: c.startDate,
          endDate: c.endDate,
          payCycle: c.payCycle,
          // What the schedule asks for (a terminated contract keeps only the periods it still bills).
          amount: feeYuan(periods.length ? scheduled : c.amountFen),
          paid: feeYuan(paid),
          unpaid: feeYuan(Math.max(0, scheduled - paid)),
          dueUnpaid: feeYuan(overdue),
          qfys,
          contractUserName: c.contractUserName ?? '',
          editable,
        },
        periods: periods.map((p) => toReceivableItem(p, today, qfys)),
        charges: chargeRows.map(toChargeItem),
      };
    }),

    serve(feeOwnersCall, async ({ session, tx }) => {
      const rows = await selectMembers(tx, agencyOf(session));
      return rows.map((m) => ({ userId: m.userId, hymc: m.hymc }));
    }),
  ],
};

async function editableContract(
  tx: Parameters<typeof feeAccessOf>[0],
  a: Awaited<ReturnType<typeof feeAccessOf>>,
  contractId: number,
) {
  const [row] = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(and(eq(contracts.id, contractId), feeEditable(a)));
  return Boolean(row);
}
