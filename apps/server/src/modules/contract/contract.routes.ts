import {
  batchDeleteContractCall,
  batchEndContractCall,
  batchSubmitContractCall,
  CODE,
  CONTRACT_MSG,
  contractByQyshCall,
  contractEnterprisesCall,
  contractInfoCall,
  contractListByEnterpriseCall,
  contractListCall,
  contractOwnersCall,
  contractStatusCall,
  createContractNoCall,
  fenToYuan,
  getReminderSettingsCall,
  hasPerm,
  REMINDER_LY,
  recoverContractCall,
  renewContractCall,
  saveContractCall,
  saveReminderSettingsCall,
  updateContractStatusCall,
} from '@dzy/shared';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { countOf, pageIds } from '../../db/paging.js';
import {
  contractLines,
  contractReminderSettings,
  contracts,
  enterprises,
  memberships,
  receivables,
  users,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import {
  type ContractAccess,
  contractAccess,
  enterpriseScope,
  mayOwnFor,
  requireContracts,
  requireEnterpriseFor,
  tenantOf,
} from './contract.repo.js';
import {
  createContract,
  deleteContract,
  nextContractNo,
  notifyNewContract,
  recoverContract,
  submitContract,
  terminateContract,
  updateDraft,
} from './contract.service.js';
import { CONTRACT_SORT, contractFrom, contractItems, contractWhere } from './contract-list.repo.js';
import { contractWarningsOf, reminderSettingsOf } from './contract-status.js';
import { specialPermissionCalls } from './special-permission.routes.js';

const fen = (n: number) => fenToYuan(n);

async function idsOfEnterprise(tx: Parameters<typeof contractItems>[0], access: ContractAccess, enterpriseId: number) {
  const rows = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(
      and(
        eq(contracts.agencyId, access.agencyId),
        eq(contracts.enterpriseId, enterpriseId),
        ne(contracts.htzt, '0'),
        access.see,
      ),
    )
    .orderBy(desc(contracts.startDate), desc(contracts.id));
  return rows.map((r) => r.id);
}

export const contractModule: ServerModule = {
  name: 'contract',
  calls: [
    serve(createContractNoCall, async ({ session, tx }) => {
      const agencyId = tenantOf(session);
      return { contractNo: await nextContractNo(tx, agencyId, Number(chinaDate().slice(0, 4))) };
    }),

    serve(saveContractCall, async ({ body, session, tx, req, deps, afterCommit }) => {
      const access = await contractAccess(tx, session);
      const { id, submit, aeiId, ...terms } = body;
      await requireEnterpriseFor(tx, session, aeiId);
      const owner = body.contractUserId ?? session.userId;
      await mayOwnFor(tx, session, access, owner);
      const input = { ...terms, enterpriseId: aeiId, contractUserId: owner };
      if (id === undefined) {
        const row = await createContract(tx, {
          ...input,
          agencyId: access.agencyId,
          actorId: session.userId,
          htzt: submit ? '2' : '1',
        });
        await audit(tx, req, session, 'contract.create', `contract:${row.id}`, {
          contractNo: row.contractNo,
          enterpriseId: aeiId,
          htzt: row.htzt,
          amount: fen(row.amountFen),
          startDate: row.startDate,
          endDate: row.endDate,
        });
        await notifyNewContract(tx, deps.push, afterCommit, row, session.hymc);
        return { id: row.id, contractNo: row.contractNo };
      }
      if (!hasPerm(session.perms, 'contract:edit')) throw new AppError(CODE.NO_PERMISSION, '您没有编辑合同的权限');
      const [before] = await requireContracts(tx, access, [id], true);
      if (!before) throw new AppError(CODE.NOT_FOUND, CONTRACT_MSG.notFound);
      if (before.htzt !== '1') throw new AppError(CODE.BAD_REQUEST, CONTRACT_MSG.onlyDraftEdit);
      const row = await updateDraft(tx, before, input);
      if (submit) await submitContract(tx, row);
      await audit(tx, req, session, 'contract.update', `contract:${id}`, {
        contractNo: row.contractNo,
        amount: { from: fen(before.amountFen), to: fen(row.amountFen) },
        startDate: row.startDate,
        endDate: row.endDate,
        submitted: submit,
      });
      return { id, contractNo: row.contractNo };
    }),

    serve(contractInfoCall, async ({ body, session, tx }) => {
      const access = await contractAccess(tx, session);
      const today = chinaDate();
      const [item] = await contractItems(tx, access, [body.id], today);
      const [seen] = await tx
        .select({ id: contracts.id })
        .from(contracts)
        .where(and(eq(contracts.agencyId, access.agencyId), eq(contracts.id, body.id), access.see));
      if (!item || !seen) throw new AppError(CODE.NOT_FOUND, CONTRACT_MSG.notFound);
      const lines = await tx
        .select()
        .from(contractLines)
        .where(eq(contractLines.contractId, body.id))
        .orderBy(asc(contractLines.sort));
      const periods = await tx
        .select()
        .from(receivables)
        .where(eq(receivables.contractId, body.id))
        .orderBy(asc(receivables.periodNo));
      return {
        ...item,
        lines: lines.map((l) => ({
          serviceId: l.serviceId,
          serviceName: l.serviceName,
          jobType: l.jobType,
          isGive: l.isGive,
          price: fen(l.priceFen),
          discount: fen(l.discountFen),
          nowPrice: fen(l.nowPriceFen),
        })),
        receivables: periods.map((p) => ({
          periodNo: p.periodNo,
          periodStart: p.periodStart,
          periodEnd: p.periodEnd,
          dueDate: p.dueDate,
          amount: fen(p.amountFen),
          paid: fen(p.paidFen),
        })),
      };
    }),

    serve(contractListCall, async ({ body, session, tx }) => {
      const access = await contractAccess(tx, session);
      const today = chinaDate();
      const { pageNo, pageSize, cursor, ...filter } = body;
      const where = contractWhere(access, filter, today);
      const from = contractFrom(filter);
      const { total } = await countOf(tx, from, where);
      const page = await pageIds(tx, {
        from,
        where,
        sort: CONTRACT_SORT,
        ask: { pageNo, pageSize, cursor },
        filter,
        total: async () => total,
      });
      return { list: await contractItems(tx, access, page.ids, today), total, cursor: page.cursor };
    }),

    serve(contractListByEnterpriseCall, async ({ body, session, tx }) => {
      const access = await contractAccess(tx, session);
      if ((body.agencyId ?? body.agency_id ?? access.agencyId) !== access.agencyId) {
        throw new AppError(CODE.NOT_FOUND, CONTRACT_MSG.notFound);
      }
      const [e] = await tx
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, access.agencyId), eq(enterprises.id, body.aeiId)));
      if (!e) throw new AppError(CODE.NOT_FOUND, '企业不存在或无权访问');
      return contractItems(tx, access, await idsOfEnterprise(tx, access, e.id), chinaDate());
    }),

    serve(contractByQyshCall, async ({ body, session, tx }) => {
      const access = await contractAccess(tx, session);
      if ((body.agencyId ?? body.agency_id ?? access.agencyId) !== access.agencyId) {
        throw new AppError(CODE.NOT_FOUND, CONTRACT_MSG.notFound);
      }
      const [e] = await tx
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, access.agencyId), eq(enterprises.qysh, body.qysh.toUpperCase())));
      const ids = e ? await idsOfEnterprise(tx, access, e.id) : [];
      if (ids.length === 0) return new Answer(CODE.EMPTY, '暂无合同', []);
      return contractItems(tx, access, ids, chinaDate());
    }),

    serve(contractEnterprisesCall, async ({ body, session, tx }) => {
      const where = await enterpriseScope(tx, session);
      const rows = await tx
        .select({ id: enterprises.id, qymc: enterprises.qymc, qysh: enterprises.qysh })
        .from(enterprises)
        .where(and(where, nameOrTaxNumber(enterprises.qymc, enterprises.qysh, body.keyword)))
        .orderBy(asc(enterprises.qymc))
        .limit(200);
      if (rows.length === 0) return new Answer(CODE.EMPTY, CONTRACT_MSG.noCustomers, []);
      return rows;
    }),

    serve(contractOwnersCall, async ({ session, tx }) => {
      const agencyId = tenantOf(session);
      return tx
        .selectDistinct({ userId: users.id, hymc: users.hymc })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.agencyId, agencyId))
        .orderBy(users.id);
    }),

    serve(renewContractCall, async ({ body, session, tx, req, deps, afterCommit }) => {
      const access = await contractAccess(tx, session);
      const [old] = await requireContracts(tx, access, [body.id], true);
      if (!old) throw new AppError(CODE.NOT_FOUND, CONTRACT_MSG.notFound);
      if (old.htzt !== '2') throw new AppError(CODE.BAD_REQUEST, CONTRACT_MSG.onlyActiveRenew);
      const [renewed] = await tx
        .select({ id: contracts.id })
        .from(contracts)
        .where(and(eq(contracts.renewedFromId, old.id), ne(contracts.htzt, '0')));
      if (renewed) throw new AppError(CODE.CONFLICT, CONTRACT_MSG.alreadyRenewed);
      if (body.startDate <= old.startDate) throw new AppError(CODE.BAD_REQUEST, CONTRACT_MSG.renewStart);
      const { id: _old, ...terms } = body;
      const row = await createContract(tx, {
        ...terms,
        agencyId: access.agencyId,
        actorId: session.userId,
        enterpriseId: old.enterpriseId,
        templateId: old.templateId,
        contractUserId: old.contractUserId,
        htzt: '2',
        renewedFromId: old.id,
      });
      await audit(tx, req, session, 'contract.renew', `contract:${row.id}`, {
        from: old.contractNo,
        contractNo: row.contractNo,
        amount: fen(row.amountFen),
        startDate: row.startDate,
        endDate: row.endDate,
      });
      await notifyNewContract(tx, deps.push, afterCommit, row, session.hymc);
      return { id: row.id, contractNo: row.contractNo };
    }),

    serve(updateContractStatusCall, async ({ body, session, tx, req }) => {
      const perm = body.type === '3' ? 'contract:end' : 'contract:delete';
      if (!hasPerm(session.perms, perm)) throw new AppError(CODE.NO_PERMISSION, '当前账户没有该功能权限或者页面不存在');
      const access = await contractAccess(tx, session);
      const [c] = await requireContracts(tx, access, [body.id], true);
      if (!c) throw new AppError(CODE.NOT_FOUND, CONTRACT_MSG.notFound);
      if (body.type === '0') {
        await deleteContract(tx, c);
        await audit(tx, req, session, 'contract.delete', `contract:${c.id}`, {
          contractNo: c.contractNo,
          from: c.htzt,
        });
        return null;
      }
      const reason = body.reason ?? '';
      if (!reason) throw new AppError(CODE.BAD_REQUEST, CONTRACT_MSG.endReason);
      const lastDay = body.endDate ?? chinaDate();
      if (body.endDate && (body.endDate < c.startDate || body.endDate > c.endDate)) {
        throw new AppError(CODE.BAD_REQUEST, CONTRACT_MSG.endDateRange);
      }
      const r = await terminateContract(tx, c, reason, lastDay);
      await audit(tx, req, session, 'contract.terminate', `contract:${c.id}`, {
        contractNo: c.contractNo,
        reason,
        endDate: { from: c.endDate, to: r.lastDay },
        removedPeriods: r.removedPeriods,
        removedAmount: fen(r.removedFen),
      });
      return null;
    }),

    serve(recoverContractCall, async ({ body, session, tx, req }) => {
      const access = await contractAccess(tx, session);
      const rows = await requireContracts(tx, access, body.ids, true);
      for (const c of rows) {
        const htzt = await recoverContract(tx, c);
        await audit(tx, req, session, 'contract.recover', `contract:${c.id}`, { contractNo: c.contractNo, to: htzt });
      }
      return { count: rows.length };
    }),

    serve(batchSubmitContractCall, async ({ body, session, tx, req }) => {
      const access = await contractAccess(tx, session);
      const rows = await requireContracts(tx, access, body.ids, true);
      for (const c of rows) {
        const periods = await submitContract(tx, c);
        await audit(tx, req, session, 'contract.submit', `contract:${c.id}`, {
          contractNo: c.contractNo,
          amount: fen(c.amountFen),
          periods,
        });
      }
      return { count: rows.length };
    }),

    serve(batchEndContractCall, async ({ body, session, tx, req }) => {
      const access = await contractAccess(tx, session);
      const rows = await requireContracts(tx, access, body.ids, true);
      const today = chinaDate();
      for (const c of rows) {
        const r = await terminateContract(tx, c, body.reason, today);
        await audit(tx, req, session, 'contract.terminate', `contract:${c.id}`, {
          contractNo: c.contractNo,
          reason: body.reason,
          endDate: { from: c.endDate, to: r.lastDay },
          removedPeriods: r.removedPeriods,
          removedAmount: fen(r.removedFen),
        });
      }
      return { count: rows.length };
    }),

    serve(batchDeleteContractCall, async ({ body, session, tx, req }) => {
      const access = await contractAccess(tx, session);
      const rows = await requireContracts(tx, access, body.ids, true);
      for (const c of rows) {
        await deleteContract(tx, c);
        await audit(tx, req, session, 'contract.delete', `contract:${c.id}`, {
          contractNo: c.contractNo,
          from: c.htzt,
        });
      }
      return { count: rows.length };
    }),

    serve(contractStatusCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      const [e] = await tx
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(and(await enterpriseScope(tx, session), eq(enterprises.id, body.aeiId)));
      if (!e) throw new AppError(CODE.NOT_FOUND, '企业不存在或无权访问');
      const item = (await contractWarningsOf(tx, agencyId, [e.id], body.ly, chinaDate())).get(e.id);
      if (!item) throw new AppError(CODE.NOT_FOUND, '企业不存在或无权访问');
      return item;
    }),

    serve(getReminderSettingsCall, async ({ session, tx }) => reminderSettingsOf(tx, tenantOf(session))),

    serve(saveReminderSettingsCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      if (!session.isAdmin) throw new AppError(CODE.NO_PERMISSION, '请联系管理员修改！');
      const before = await reminderSettingsOf(tx, agencyId);
      const after = { ...before };
      for (const [k, v] of Object.entries(body)) if (typeof v === 'number') after[k] = v;
      for (const ly of REMINDER_LY) {
        const row = {
          qf: after[`${ly}_qf`] ?? 0,
          dq: after[`${ly}_dq`] ?? 0,
          wyxht: after[`${ly}_wyxht`] ?? 0,
          qfyf: after[`${ly}_qfyf`] ?? 1,
          dqts: after[`${ly}_dqts`] ?? 30,
        };
        await tx
          .insert(contractReminderSettings)
          .values({ agencyId, ly, ...row })
          .onConflictDoUpdate({ target: [contractReminderSettings.agencyId, contractReminderSettings.ly], set: row });
      }
      const changed = Object.fromEntries(
        Object.entries(after)
          .filter(([k, v]) => before[k] !== v)
          .map(([k, v]) => [k, { from: before[k], to: v }]),
      );
      await audit(tx, req, session, 'contract.reminder_settings', `agency:${agencyId}`, changed);
      return null;
    }),

    ...specialPermissionCalls,
  ],
};
