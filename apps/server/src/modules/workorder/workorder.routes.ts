import {
  CODE,
  WO_MSG,
  woAddCall,
  woByIdCall,
  woCheckStepCall,
  woDeleteCall,
  woListCall,
  woOrderNumCall,
  woServiceCall,
  woTemplateAddCall,
  woTemplateByIdCall,
  woTemplateDeleteCall,
  woTemplateListCall,
  woTemplateServiceCall,
  woTemplateStatusCall,
  woTemplateUpdateCall,
  woUpdateStepCall,
} from '@dzy/shared';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';

import {
  contractLines,
  contracts,
  enterprises,
  serviceItems,
  workOrderAttachments,
  workOrderSteps,
  workOrders,
  workOrderTemplateServices,
  workOrderTemplates,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { addDays } from '../contract/contract-dates.js';
import { notifyEvent } from '../message/notify.js';
import { tenantOf } from '../role/member.repo.js';
import { removeWoFiles, workOrderFileRoutes } from './workorder.files.js';
import { startOverdueSchedule, workOrderJobs } from './workorder.jobs.js';
import {
  createWorkOrder,
  lineForOrder,
  membersOf,
  notifyNewOrder,
  orderDetail,
  orderPage,
  previewOrderNo,
  requireOrder,
  requireTemplate,
  templateDetails,
  writeTemplate,
} from './workorder.service.js';

// --- templates ---------------------------------------------------------------------------------

const templateList = serve(woTemplateListCall, async ({ body, session, tx }) => {
  const list = await templateDetails(tx, tenantOf(session), { name: body.name, status: body.status });
  return { list, total: list.length };
});

const templateById = serve(woTemplateByIdCall, async ({ body, session, tx }) => {
  const [t] = await templateDetails(tx, tenantOf(session), { ids: [body.id] });
  if (!t) throw new AppError(CODE.NOT_FOUND, WO_MSG.templateNotFound);
  return t;
});

const templateAdd = serve(woTemplateAddCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  const id = await writeTemplate(tx, agencyId, session.userId, body);
  await audit(tx, req, session, 'workorder_template.add', `wo_template:${id}`, { ...body });
  return { id };
});

const templateUpdate = serve(woTemplateUpdateCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  const [before] = await templateDetails(tx, agencyId, { ids: [body.id] });
  if (!before) throw new AppError(CODE.NOT_FOUND, WO_MSG.templateNotFound);
  const id = await writeTemplate(tx, agencyId, session.userId, body, body.id);
  await audit(tx, req, session, 'workorder_template.edit', `wo_template:${id}`, { before, after: { ...body } });
  return { id };
});

const templateStatus = serve(woTemplateStatusCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  await requireTemplate(tx, agencyId, body.id);
  await tx
    .update(workOrderTemplates)
    .set({ status: body.status, updatedAt: new Date() })
    .where(and(eq(workOrderTemplates.id, body.id), eq(workOrderTemplates.agencyId, agencyId)));
  await audit(tx, req, session, 'workorder_template.status', `wo_template:${body.id}`, { status: body.status });
  return null;
});

const templateDelete = serve(woTemplateDeleteCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  const [before] = await templateDetails(tx, agencyId, { ids: [body.id] });
  if (!before) throw new AppError(CODE.NOT_FOUND, WO_MSG.templateNotFound);
  // Steps and service links go with it; work orders made from it keep their own steps (template_id set null).
  await tx
    .delete(workOrderTemplates)
    .where(and(eq(workOrderTemplates.id, body.id), eq(workOrderTemplates.agencyId, agencyId)));
  await audit(tx, req, session, 'workorder_template.delete', `wo_template:${body.id}`, { before });
  return null;
});

const templateServices = serve(woTemplateServiceCall, async ({ session, tx }) => {
  const agencyId = tenantOf(session);
  const rows = await tx
    .select({
      id: serviceItems.id,
      serviceName: serviceItems.serviceName,
      jobType: serviceItems.jobType,
      templateId: workOrderTemplateServices.templateId,
      templateName: workOrderTemplates.name,
    })
    .from(serviceItems)
    .leftJoin(workOrderTemplateServices, eq(workOrderTemplateServices.serviceId, serviceItems.id))
    .leftJoin(workOrderTemplates, eq(workOrderTemplates.id, workOrderTemplateServices.templateId))
    .where(eq(serviceItems.agencyId, agencyId))
    .orderBy(asc(serviceItems.sort), asc(serviceItems.id));
  return rows.map((r) => ({ ...r, templateName: r.templateName ?? '' }));
});

// --- work orders -------------------------------------------------------------------------------

const orderList = serve(woListCall, ({ body, session, tx }) => orderPage(tx, session, tenantOf(session), body));

const orderNum = serve(woOrderNumCall, async ({ session, tx }) => ({
  orderNo: await previewOrderNo(tx, tenantOf(session)),
}));

const orderAdd = serve(woAddCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = tenantOf(session);
  let input: Parameters<typeof createWorkOrder>[3];
  if (body.contractLineId !== undefined) {
    const line = await lineForOrder(tx, session, agencyId, body.contractLineId, body.templateId);
    const [taken] = await tx
      .select({ id: workOrders.id })
      .from(workOrders)
      .where(and(eq(workOrders.agencyId, agencyId), eq(workOrders.contractLineId, line.id)));
    if (taken) throw new AppError(CODE.CONFLICT, WO_MSG.lineTaken);
    input = {
      enterpriseId: line.enterpriseId,
      templateId: line.templateId,
      contractId: line.contractId,
      contractLineId: line.id,
      remark: body.remark,
      assignees: body.assignees,
    };
  } else {
    // The client must be one the caller sees (data scope), not only the agency's.
    const [ent] = await tx
      .select({ id: enterprises.id })
      .from(enterprises)
      .where(
        and(
          eq(enterprises.id, body.enterpriseId as number),
          eq(enterprises.agencyId, agencyId),
          isNull(enterprises.deletedAt),
          dataScope(session, enterprises.allocateUser),
        ),
      );
    if (!ent) throw new AppError(CODE.NOT_FOUND, '企业不存在或无权访问');
    input = {
      enterpriseId: ent.id,
      templateId: body.templateId as number,
      remark: body.remark,
      assignees: body.assignees,
    };
  }
  const made = await createWorkOrder(tx, agencyId, session.userId, input);
  await audit(tx, req, session, 'workorder.add', `work_order:${made.id}`, { orderNo: made.orderNo, ...input });
  await notifyNewOrder(tx, deps, afterCommit, agencyId, session.userId, made);
  return { id: made.id, orderNo: made.orderNo };
});

const orderService = serve(woServiceCall, async ({ body, session, tx }) => {
  const agencyId = tenantOf(session);
  if (!body.contractId && !body.enterpriseId) return [];
  const rows = await tx
    .select({
      lineId: contractLines.id,
      contractId: contracts.id,
      contractNo: contracts.contractNo,
      serviceName: contractLines.serviceName,
      templateId: workOrderTemplateServices.templateId,
      templateName: workOrderTemplates.name,
      workOrderId: workOrders.id,
      orderNo: workOrders.orderNo,
    })
    .from(contractLines)
    .innerJoin(contracts, eq(contracts.id, contractLines.contractId))
    .innerJoin(enterprises, eq(enterprises.id, contracts.enterpriseId))
    .leftJoin(
      workOrderTemplateServices,
      and(
        eq(workOrderTemplateServices.agencyId, agencyId),
        eq(workOrderTemplateServices.serviceId, contractLines.serviceId),
      ),
    )
    .leftJoin(workOrderTemplates, eq(workOrderTemplates.id, workOrderTemplateServices.templateId))
    .leftJoin(workOrders, eq(workOrders.contractLineId, contractLines.id))
    .where(
      and(
        eq(contractLines.agencyId, agencyId),
        body.contractId ? eq(contracts.id, body.contractId) : undefined,
        body.enterpriseId ? eq(contracts.enterpriseId, body.enterpriseId) : undefined,
        sql`${contracts.htzt} in ('1', '2')`,
        isNull(enterprises.deletedAt),
        dataScope(session, enterprises.allocateUser),
      ),
    )
    .orderBy(asc(contracts.id), asc(contractLines.sort))
    .limit(200);
  return rows.map((r) => ({ ...r, templateName: r.templateName ?? '', orderNo: r.orderNo ?? '' }));
});

const orderById = serve(woByIdCall, async ({ body, session, tx }) => {
  const agencyId = tenantOf(session);
  await requireOrder(tx, session, agencyId, body.id);
  return orderDetail(tx, agencyId, body.id);
});

/** The step, its order, and why the caller may not act on it now ('' when they may). */
async function stepCheck(tx: Tx, session: SessionCtx, agencyId: number, stepId: number) {
  const [step] = await tx
    .select()
    .from(workOrderSteps)
    .where(and(eq(workOrderSteps.id, stepId), eq(workOrderSteps.agencyId, agencyId)));
  if (!step) throw new AppError(CODE.NOT_FOUND, WO_MSG.stepNotFound);
  const order = await requireOrder(tx, session, agencyId, step.workOrderId).catch(() => {
    throw new AppError(CODE.NOT_FOUND, WO_MSG.stepNotFound);
  });
  let why = '';
  if (order.state === 'done' || order.state === 'cancelled') why = WO_MSG.orderClosed;
  else if (step.state === 'done') why = WO_MSG.stepDone;
  else if (step.state !== 'doing') why = WO_MSG.outOfOrder;
  else if (step.assigneeId !== session.userId && !order.manage) why = WO_MSG.notAssignee;
  return { step, order, why };
}

const checkStep = serve(woCheckStepCall, async ({ body, session, tx }) => {
  const { why } = await stepCheck(tx, session, tenantOf(session), body.id);
  return { ok: why === '', msg: why };
});

const updateStep = serve(woUpdateStepCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = tenantOf(session);
  const { step, order, why } = await stepCheck(tx, session, agencyId, body.id);
  const today = chinaDate();
  if (body.action === 'cancel') {
    // Cancelling the whole order: its manager only, while it is open.
    if (order.state === 'done' || order.state === 'cancelled') throw new AppError(CODE.BAD_REQUEST, WO_MSG.orderClosed);
    if (!order.manage) throw new AppError(CODE.NO_PERMISSION, WO_MSG.notAssignee);
    await tx
      .update(workOrderSteps)
      .set({ state: 'cancelled' })
      .where(and(eq(workOrderSteps.workOrderId, order.id), sql`${workOrderSteps.state} in ('todo', 'doing')`));
    await tx
      .update(workOrders)
      .set({ state: 'cancelled', finishedAt: new Date(), remark: body.comment || order.remark })
      .where(eq(workOrders.id, order.id));
    await audit(tx, req, session, 'workorder.cancel', `work_order:${order.id}`, { reason: body.comment });
    return { orderState: 'cancelled' as const };
  }
  if (body.action === 'assign') {
    // Reassigning an open step (current or later): its assignee or the order's manager.
    if (order.state === 'done' || order.state === 'cancelled') throw new AppError(CODE.BAD_REQUEST, WO_MSG.orderClosed);
    if (step.state !== 'todo' && step.state !== 'doing') throw new AppError(CODE.BAD_REQUEST, WO_MSG.stepDone);
    if (step.assigneeId !== session.userId && !order.manage) throw new AppError(CODE.NO_PERMISSION, WO_MSG.notAssignee);
    if (!body.assigneeId || !(await membersOf(tx, agencyId, [body.assigneeId])).has(body.assigneeId)) {
      throw new AppError(CODE.BAD_REQUEST, WO_MSG.assigneeUnknown);
    }
    await tx.update(workOrderSteps).set({ assigneeId: body.assigneeId }).where(eq(workOrderSteps.id, step.id));
    await audit(tx, req, session, 'workorder.assign', `work_order_step:${step.id}`, {
      from: step.assigneeId,
      to: body.assigneeId,
    });
    if (body.assigneeId !== session.userId) {
      const [e] = await tx
        .select({ qymc: enterprises.qymc })
        .from(enterprises)
        .where(eq(enterprises.id, order.enterpriseId));
      await notifyEvent(tx, deps.push, afterCommit, {
        event: 'xjgd',
        agencyId,
        userIds: [body.assigneeId],
        detail: `工单 ${order.orderNo}（客户「${e?.qymc ?? ''}」）的步骤「${step.name}」已转给您处理。`,
        targetId: order.id,
      });
    }
    return { orderState: order.state };
  }
  if (why) throw new AppError(why === WO_MSG.notAssignee ? CODE.NO_PERMISSION : CODE.BAD_REQUEST, why);
  if (body.action === 'comment') {
    await tx.update(workOrderSteps).set({ comment: body.comment }).where(eq(workOrderSteps.id, step.id));
    await audit(tx, req, session, 'workorder.comment', `work_order_step:${step.id}`, { comment: body.comment });
    return { orderState: order.state };
  }
  // complete: this step done, the next one becomes current (its due date from today), or the order is done.
  await tx
    .update(workOrderSteps)
    .set({ state: 'done', comment: body.comment || step.comment, doneBy: session.userId, doneAt: new Date() })
    .where(eq(workOrderSteps.id, step.id));
  const [next] = await tx
    .select()
    .from(workOrderSteps)
    .where(
      and(
        eq(workOrderSteps.workOrderId, order.id),
        gt(workOrderSteps.sort, step.sort),
        eq(workOrderSteps.state, 'todo'),
      ),
    )
    .orderBy(asc(workOrderSteps.sort))
    .limit(1);
  let orderState: 'doing' | 'done' = 'done';
  if (next) {
    orderState = 'doing';
    await tx
      .update(workOrderSteps)
      .set({ state: 'doing', dueDate: addDays(today, next.days) })
      .where(eq(workOrderSteps.id, next.id));
    await tx.update(workOrders).set({ state: 'doing' }).where(eq(workOrders.id, order.id));
  } else {
    await tx.update(workOrders).set({ state: 'done', finishedAt: new Date() }).where(eq(workOrders.id, order.id));
  }
  await audit(tx, req, session, 'workorder.step_complete', `work_order_step:${step.id}`, {
    order: order.id,
    comment: body.comment,
    orderState,
  });
  return { orderState };
});

const orderDelete = serve(woDeleteCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = tenantOf(session);
  const order = await requireOrder(tx, session, agencyId, body.id);
  // Deleting needs the permission and the client in the caller's data scope (an assignee alone may not).
  if (!order.manage) throw new AppError(CODE.NO_PERMISSION, '只能删除本人负责客户的工单');
  const files = await tx
    .select({ storedName: workOrderAttachments.storedName })
    .from(workOrderAttachments)
    .where(eq(workOrderAttachments.workOrderId, order.id));
  await tx.delete(workOrders).where(and(eq(workOrders.id, order.id), eq(workOrders.agencyId, agencyId)));
  await audit(tx, req, session, 'workorder.delete', `work_order:${order.id}`, {
    orderNo: order.orderNo,
    enterpriseId: order.enterpriseId,
    state: order.state,
  });
  afterCommit(() =>
    removeWoFiles(
      deps,
      files.map((f) => f.storedName),
    ),
  );
  return null;
});

export const workOrderModule: ServerModule = {
  name: 'workorder',
  calls: [
    templateList,
    templateById,
    templateAdd,
    templateUpdate,
    templateStatus,
    templateDelete,
    templateServices,
    orderList,
    orderNum,
    orderAdd,
    orderService,
    orderById,
    checkStep,
    updateStep,
    orderDelete,
  ],
  routes: (app, deps) => {
    workOrderFileRoutes(app, deps);
    startOverdueSchedule(app, deps);
  },
  jobs: workOrderJobs,
};
