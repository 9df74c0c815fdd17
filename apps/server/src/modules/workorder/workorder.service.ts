import {
  CODE,
  WO_MSG,
  type WoDetail,
  type WoItem,
  type WoStep,
  type WoTemplate,
  type woFilterSchema,
} from '@dzy/shared';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Queryable, Tx } from '../../db/client.js';
import { listPage, type Sort } from '../../db/paging.js';
import {
  contractLines,
  contracts,
  enterprises,
  memberships,
  serviceItems,
  stationMembers,
  stations,
  users,
  workOrderAttachments,
  workOrderNumbers,
  workOrderSteps,
  workOrders,
  workOrderTemplateServices,
  workOrderTemplateSteps,
  workOrderTemplates,
} from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { addDays } from '../contract/contract-dates.js';
import { notifyEvent } from '../message/notify.js';
import { isUniqueViolation } from '../role/member.repo.js';

// --- numbers -----------------------------------------------------------------------------------

const dayKey = (date: string) => date.replaceAll('-', '');

/**
 * The next work-order number: GD + yyyyMMdd + 4 digits, per agency and day, by one atomic upsert in the
 * creating transaction (concurrent creates each get their own; a rolled-back create gives its number back,
 * so the sequence has no gaps).
 */
export async function nextOrderNo(tx: Queryable, agencyId: number, date = chinaDate()): Promise<string> {
  const day = dayKey(date);
  const [row] = await tx
    .insert(workOrderNumbers)
    .values({ agencyId, day, lastNo: 1 })
    .onConflictDoUpdate({
      target: [workOrderNumbers.agencyId, workOrderNumbers.day],
      set: { lastNo: sql`${workOrderNumbers.lastNo} + 1` },
    })
    .returning({ lastNo: workOrderNumbers.lastNo });
  if (!row) throw new Error('work order number upsert returned nothing');
  return `GD${day}${String(row.lastNo).padStart(4, '0')}`;
}

/** The number the next create will take (getOrderNum: a preview, nothing is used up). */
export async function previewOrderNo(tx: Queryable, agencyId: number, date = chinaDate()): Promise<string> {
  const day = dayKey(date);
  const [row] = await tx
    .select({ lastNo: workOrderNumbers.lastNo })
    .from(workOrderNumbers)
    .where(and(eq(workOrderNumbers.agencyId, agencyId), eq(workOrderNumbers.day, day)));
  return `GD${day}${String((row?.lastNo ?? 0) + 1).padStart(4, '0')}`;
}

// --- templates ---------------------------------------------------------------------------------

export async function templateDetails(
  tx: Queryable,
  agencyId: number,
  filter: { ids?: number[]; name?: string; status?: '' | '0' | '1' },
): Promise<WoTemplate[]> {
  const rows = await tx
    .select()
    .from(workOrderTemplates)
    .where(
      and(
        eq(workOrderTemplates.agencyId, agencyId),
        filter.ids ? inArray(workOrderTemplates.id, filter.ids.length ? filter.ids : [0]) : undefined,
        filter.status ? eq(workOrderTemplates.status, filter.status) : undefined,
        filter.name
          ? sql`${workOrderTemplates.name} ilike ${`%${filter.name.replace(/[\\%_]/g, '\\$&')}%`}`
          : undefined,
      ),
    )
    .orderBy(asc(workOrderTemplates.id))
    .limit(500);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const steps = await tx
    .select({
      id: workOrderTemplateSteps.id,
      templateId: workOrderTemplateSteps.templateId,
      name: workOrderTemplateSteps.name,
      stationId: workOrderTemplateSteps.stationId,
      stationName: stations.name,
      days: workOrderTemplateSteps.days,
    })
    .from(workOrderTemplateSteps)
    .leftJoin(stations, eq(stations.id, workOrderTemplateSteps.stationId))
    .where(and(eq(workOrderTemplateSteps.agencyId, agencyId), inArray(workOrderTemplateSteps.templateId, ids)))
    .orderBy(asc(workOrderTemplateSteps.templateId), asc(workOrderTemplateSteps.sort));
  const links = await tx
    .select({
      templateId: workOrderTemplateServices.templateId,
      id: serviceItems.id,
      serviceName: serviceItems.serviceName,
    })
    .from(workOrderTemplateServices)
    .innerJoin(serviceItems, eq(serviceItems.id, workOrderTemplateServices.serviceId))
    .where(and(eq(workOrderTemplateServices.agencyId, agencyId), inArray(workOrderTemplateServices.templateId, ids)))
    .orderBy(asc(serviceItems.sort), asc(serviceItems.id));
  return rows.map((r) => {
    const own = steps.filter((s) => s.templateId === r.id);
    return {
      id: r.id,
      name: r.name,
      remark: r.remark,
      status: r.status,
      steps: own.map((s) => ({
        id: s.id,
        name: s.name,
        stationId: s.stationId,
        stationName: s.stationName ?? '',
        days: s.days,
      })),
      services: links.filter((l) => l.templateId === r.id).map((l) => ({ id: l.id, serviceName: l.serviceName })),
      totalDays: own.reduce((n, s) => n + s.days, 0),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

export async function requireTemplate(tx: Queryable, agencyId: number, id: number) {
  const [row] = await tx
    .select()
    .from(workOrderTemplates)
    .where(and(eq(workOrderTemplates.id, id), eq(workOrderTemplates.agencyId, agencyId)));
  if (!row) throw new AppError(CODE.NOT_FOUND, WO_MSG.templateNotFound);
  return row;
}

export interface TemplateInput {
  name: string;
  remark: string;
  steps: { name: string; stationId: number | null; days: number }[];
  serviceIds: number[];
}

/** Adds (no id) or replaces a template with its steps and service links; every id is checked to be the agency's. */
export async function writeTemplate(
  tx: Queryable,
  agencyId: number,
  userId: number | null,
  input: TemplateInput,
  id?: number,
): Promise<number> {
  const stationIds = [...new Set(input.steps.flatMap((s) => (s.stationId ? [s.stationId] : [])))];
  if (stationIds.length) {
    const found = await tx
      .select({ id: stations.id })
      .from(stations)
      .where(and(eq(stations.agencyId, agencyId), inArray(stations.id, stationIds)));
    if (found.length !== stationIds.length) throw new AppError(CODE.BAD_REQUEST, WO_MSG.stationUnknown);
  }
  const serviceIds = [...new Set(input.serviceIds)];
  const services = serviceIds.length
    ? await tx
        .select({ id: serviceItems.id, name: serviceItems.serviceName })
        .from(serviceItems)
        .where(and(eq(serviceItems.agencyId, agencyId), inArray(serviceItems.id, serviceIds)))
    : [];
  if (services.length !== serviceIds.length) throw new AppError(CODE.BAD_REQUEST, WO_MSG.serviceUnknown);
  // A service item starts one template's work order: one linked elsewhere is refused by name.
  if (serviceIds.length) {
    const taken = await tx
      .select({ serviceId: workOrderTemplateServices.serviceId })
      .from(workOrderTemplateServices)
      .where(
        and(
          eq(workOrderTemplateServices.agencyId, agencyId),
          inArray(workOrderTemplateServices.serviceId, serviceIds),
          id ? sql`${workOrderTemplateServices.templateId} <> ${id}` : undefined,
        ),
      );
    const first = taken[0];
    if (first) {
      throw new AppError(
        CODE.CONFLICT,
        WO_MSG.serviceTaken(services.find((s) => s.id === first.serviceId)?.name ?? ''),
      );
    }
  }
  let templateId = id;
  try {
    if (templateId === undefined) {
      const [row] = await tx
        .insert(workOrderTemplates)
        .values({ agencyId, name: input.name, remark: input.remark, createdBy: userId })
        .returning({ id: workOrderTemplates.id });
      if (!row) throw new Error('template insert returned nothing');
      templateId = row.id;
    } else {
      await tx
        .update(workOrderTemplates)
        .set({ name: input.name, remark: input.remark, updatedAt: new Date() })
        .where(and(eq(workOrderTemplates.id, templateId), eq(workOrderTemplates.agencyId, agencyId)));
      await tx.delete(workOrderTemplateSteps).where(eq(workOrderTemplateSteps.templateId, templateId));
      await tx.delete(workOrderTemplateServices).where(eq(workOrderTemplateServices.templateId, templateId));
    }
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, WO_MSG.templateNameTaken);
    throw err;
  }
  const tid = templateId;
  await tx.insert(workOrderTemplateSteps).values(
    input.steps.map((s, i) => ({
      agencyId,
      templateId: tid,
      sort: i + 1,
      name: s.name,
      stationId: s.stationId,
      days: s.days,
    })),
  );
  if (serviceIds.length) {
    await tx
      .insert(workOrderTemplateServices)
      .values(serviceIds.map((serviceId) => ({ agencyId, templateId: tid, serviceId })));
  }
  return tid;
}

// --- members -----------------------------------------------------------------------------------

/** The agency's members among these users (an assignee must be one). */
export async function membersOf(tx: Queryable, agencyId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.agencyId, agencyId), inArray(memberships.userId, [...new Set(ids)])));
  return new Set(rows.map((r) => r.userId));
}

/**
 * The default assignee of a step by its station: the client's owner when they hold the station, else the
 * station's first member (lowest user id) still in the agency; null when the station has none.
 */
async function stationAssignees(tx: Queryable, agencyId: number, stationIds: readonly number[]) {
  const byStation = new Map<number, number[]>();
  if (stationIds.length === 0) return byStation;
  const rows = await tx
    .select({ stationId: stationMembers.stationId, userId: stationMembers.userId })
    .from(stationMembers)
    .innerJoin(memberships, and(eq(memberships.agencyId, agencyId), eq(memberships.userId, stationMembers.userId)))
    .where(and(eq(stationMembers.agencyId, agencyId), inArray(stationMembers.stationId, [...new Set(stationIds)])))
    .orderBy(asc(stationMembers.userId));
  for (const r of rows) byStation.set(r.stationId, [...(byStation.get(r.stationId) ?? []), r.userId]);
  return byStation;
}

// --- work orders -------------------------------------------------------------------------------

export interface CreateInput {
  enterpriseId: number;
  templateId: number;
  contractId?: number | null;
  contractLineId?: number | null;
  remark: string;
  assignees: (number | null)[];
}

/** Creates a work order with its own copy of the template's steps; the first step becomes current. */
export async function createWorkOrder(
  tx: Queryable,
  agencyId: number,
  userId: number,
  input: CreateInput,
  date = chinaDate(),
): Promise<{ id: number; orderNo: string; assignees: number[]; qymc: string; templateName: string }> {
  const tpl = await requireTemplate(tx, agencyId, input.templateId);
  if (tpl.status !== '1') throw new AppError(CODE.BAD_REQUEST, WO_MSG.templateDisabled);
  const [ent] = await tx
    .select({ id: enterprises.id, qymc: enterprises.qymc, owner: enterprises.allocateUser })
    .from(enterprises)
    .where(
      and(eq(enterprises.id, input.enterpriseId), eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt)),
    );
  if (!ent) throw new AppError(CODE.NOT_FOUND, '企业不存在或无权访问');
  const steps = await tx
    .select({
      name: workOrderTemplateSteps.name,
      stationId: workOrderTemplateSteps.stationId,
      stationName: stations.name,
      days: workOrderTemplateSteps.days,
    })
    .from(workOrderTemplateSteps)
    .leftJoin(stations, eq(stations.id, workOrderTemplateSteps.stationId))
    .where(eq(workOrderTemplateSteps.templateId, tpl.id))
    .orderBy(asc(workOrderTemplateSteps.sort));
  if (steps.length === 0) throw new AppError(CODE.BAD_REQUEST, WO_MSG.stepRequired);
  const chosen = input.assignees.filter((a): a is number => a !== null);
  const members = await membersOf(tx, agencyId, chosen);
  if (chosen.some((a) => !members.has(a))) throw new AppError(CODE.BAD_REQUEST, WO_MSG.assigneeUnknown);
  const byStation = await stationAssignees(
    tx,
    agencyId,
    steps.flatMap((s) => (s.stationId ? [s.stationId] : [])),
  );
  const assigneeOf = (i: number): number | null => {
    const picked = input.assignees[i];
    if (picked) return picked;
    const st = steps[i]?.stationId;
    if (!st) return ent.owner ?? userId;
    const holders = byStation.get(st) ?? [];
    if (ent.owner && holders.includes(ent.owner)) return ent.owner;
    return holders[0] ?? ent.owner ?? userId;
  };
  const orderNo = await nextOrderNo(tx, agencyId, date);
  const [order] = await tx
    .insert(workOrders)
    .values({
      agencyId,
      orderNo,
      enterpriseId: ent.id,
      templateId: tpl.id,
      templateName: tpl.name,
      contractId: input.contractId ?? null,
      contractLineId: input.contractLineId ?? null,
      remark: input.remark,
      createdBy: userId,
    })
    .returning({ id: workOrders.id });
  if (!order) throw new Error('work order insert returned nothing');
  const values = steps.map((s, i) => ({
    agencyId,
    workOrderId: order.id,
    sort: i + 1,
    name: s.name,
    stationName: s.stationName ?? '',
    assigneeId: assigneeOf(i),
    days: s.days,
    state: (i === 0 ? 'doing' : 'todo') as 'doing' | 'todo',
    dueDate: i === 0 ? addDays(date, s.days) : null,
  }));
  await tx.insert(workOrderSteps).values(values);
  return {
    id: order.id,
    orderNo,
    assignees: [...new Set(values.flatMap((v) => (v.assigneeId ? [v.assigneeId] : [])))],
    qymc: ent.qymc,
    templateName: tpl.name,
  };
}

/** A contract line the caller may start a work order from: its contract, client and linked template. */
export async function lineForOrder(
  tx: Queryable,
  session: SessionCtx,
  agencyId: number,
  lineId: number,
  chosen?: number,
) {
  const [line] = await tx
    .select({
      id: contractLines.id,
      contractId: contracts.id,
      enterpriseId: contracts.enterpriseId,
      serviceId: contractLines.serviceId,
      templateId: workOrderTemplateServices.templateId,
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
    .where(
      and(
        eq(contractLines.id, lineId),
        eq(contractLines.agencyId, agencyId),
        sql`${contracts.htzt} <> '0'`,
        isNull(enterprises.deletedAt),
        dataScope(session, enterprises.allocateUser),
      ),
    );
  if (!line) throw new AppError(CODE.NOT_FOUND, WO_MSG.lineUnknown);
  // The template chosen in the dialog, else the one the line's service item is linked to; a line whose
  // item is linked to none starts with a chosen template (the contract page's 发起工单, issue 29 point 7).
  const templateId = chosen ?? line.templateId;
  if (!templateId) throw new AppError(CODE.BAD_REQUEST, WO_MSG.lineNoTemplate);
  return { ...line, templateId };
}

// --- visibility --------------------------------------------------------------------------------

/**
 * Work orders the caller sees (docs/decisions-17-17-wo.md): the agency's, of a client in the caller's data
 * scope (administrator all, department head the department's clients, employee their own), or with a step
 * assigned to someone in that scope (so an employee sees every order they have a step in), or made by them.
 */
export function woVisible(session: SessionCtx, agencyId: number): SQL {
  const clientInScope = sql`exists (select 1 from ${enterprises} where ${enterprises.id} = ${workOrders.enterpriseId} and ${enterprises.deletedAt} is null and ${dataScope(session, enterprises.allocateUser)})`;
  const stepInScope = sql`exists (select 1 from ${workOrderSteps} where ${workOrderSteps.workOrderId} = ${workOrders.id} and ${dataScope(session, workOrderSteps.assigneeId)})`;
  return sql`${workOrders.agencyId} = ${agencyId} and (${clientInScope} or ${stepInScope} or ${workOrders.createdBy} = ${session.userId})`;
}

/** A work order the caller sees, and whether they manage it (its client is in their data scope). */
export async function requireOrder(tx: Queryable, session: SessionCtx, agencyId: number, id: number) {
  const [row] = await tx
    .select({
      order: workOrders,
      manage: sql<boolean>`exists (select 1 from ${enterprises} where ${enterprises.id} = ${workOrders.enterpriseId} and ${dataScope(session, enterprises.allocateUser)})`,
    })
    .from(workOrders)
    .where(and(eq(workOrders.id, id), woVisible(session, agencyId)));
  if (!row) throw new AppError(CODE.NOT_FOUND, WO_MSG.notFound);
  return { ...row.order, manage: Boolean(row.manage) };
}

// --- reading -----------------------------------------------------------------------------------

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function stepsOf(tx: Queryable, agencyId: number, orderIds: number[], today: string) {
  if (orderIds.length === 0) return new Map<number, WoStep[]>();
  const rows = await tx
    .select({
      step: workOrderSteps,
      assigneeName: sql<string>`(select ${users.hymc} from ${users} where ${users.id} = ${workOrderSteps.assigneeId})`,
      doneByName: sql<string>`(select ${users.hymc} from ${users} where ${users.id} = ${workOrderSteps.doneBy})`,
    })
    .from(workOrderSteps)
    .where(and(eq(workOrderSteps.agencyId, agencyId), inArray(workOrderSteps.workOrderId, orderIds)))
    .orderBy(asc(workOrderSteps.workOrderId), asc(workOrderSteps.sort));
  const out = new Map<number, WoStep[]>();
  for (const { step: s, assigneeName, doneByName } of rows) {
    const list = out.get(s.workOrderId) ?? [];
    list.push({
      id: s.id,
      sort: s.sort,
      name: s.name,
      stationName: s.stationName,
      assigneeId: s.assigneeId,
      assigneeName: assigneeName ?? '',
      days: s.days,
      dueDate: s.dueDate,
      state: s.state,
      overdue: s.state === 'doing' && s.dueDate !== null && s.dueDate < today,
      comment: s.comment,
      doneByName: doneByName ?? '',
      doneAt: iso(s.doneAt),
      attachments: [],
    });
    out.set(s.workOrderId, list);
  }
  return out;
}

async function itemsFor(tx: Queryable, agencyId: number, ids: number[], today: string) {
  if (ids.length === 0) return { items: [] as WoItem[], steps: new Map<number, WoStep[]>() };
  const rows = await tx
    .select({
      o: workOrders,
      qymc: enterprises.qymc,
      contractNo: contracts.contractNo,
      createdByName: users.hymc,
    })
    .from(workOrders)
    .innerJoin(enterprises, eq(enterprises.id, workOrders.enterpriseId))
    .leftJoin(contracts, eq(contracts.id, workOrders.contractId))
    .leftJoin(users, eq(users.id, workOrders.createdBy))
    .where(and(eq(workOrders.agencyId, agencyId), inArray(workOrders.id, ids)));
  const steps = await stepsOf(tx, agencyId, ids, today);
  const items = rows.map(({ o, qymc, contractNo, createdByName }): WoItem => {
    const own = steps.get(o.id) ?? [];
    const current = own.find((s) => s.state === 'doing');
    return {
      id: o.id,
      orderNo: o.orderNo,
      enterpriseId: o.enterpriseId,
      qymc,
      templateId: o.templateId,
      templateName: o.templateName,
      contractNo: contractNo ?? '',
      state: o.state,
      currentStep: current?.name ?? '',
      currentAssignee: current?.assigneeName ?? '',
      doneSteps: own.filter((s) => s.state === 'done').length,
      totalSteps: own.length,
      overdue: own.some((s) => s.overdue),
      remark: o.remark,
      createdByName: createdByName ?? '',
      createdAt: o.createdAt.toISOString(),
      finishedAt: iso(o.finishedAt),
    };
  });
  return { items, steps };
}

export async function orderDetail(tx: Queryable, agencyId: number, id: number, today = chinaDate()): Promise<WoDetail> {
  const { items, steps } = await itemsFor(tx, agencyId, [id], today);
  const item = items[0];
  if (!item) throw new AppError(CODE.NOT_FOUND, WO_MSG.notFound);
  const own = steps.get(id) ?? [];
  const files = await tx
    .select()
    .from(workOrderAttachments)
    .where(and(eq(workOrderAttachments.agencyId, agencyId), eq(workOrderAttachments.workOrderId, id)))
    .orderBy(asc(workOrderAttachments.id));
  for (const s of own) {
    s.attachments = files
      .filter((f) => f.stepId === s.id)
      .map((f) => ({
        id: f.id,
        fileName: f.fileName,
        size: f.size,
        stepId: f.stepId,
        uploadedAt: f.createdAt.toISOString(),
      }));
  }
  return { ...item, steps: own };
}

type Filter = z.output<typeof woFilterSchema>;

/** The list's conditions (all but the state, which the board's counts leave out). */
function filterWhere(session: SessionCtx, agencyId: number, f: Filter, today: string): SQL {
  const conds: SQL[] = [woVisible(session, agencyId)];
  if (f.templateId) conds.push(sql`${workOrders.templateId} = ${f.templateId}`);
  if (f.enterpriseId) conds.push(sql`${workOrders.enterpriseId} = ${f.enterpriseId}`);
  if (f.assigneeId) {
    conds.push(
      sql`exists (select 1 from ${workOrderSteps} where ${workOrderSteps.workOrderId} = ${workOrders.id} and ${workOrderSteps.assigneeId} = ${f.assigneeId} and ${workOrderSteps.state} in ('todo', 'doing'))`,
    );
  }
  if (f.overdue) {
    conds.push(
      sql`exists (select 1 from ${workOrderSteps} where ${workOrderSteps.workOrderId} = ${workOrders.id} and ${workOrderSteps.state} = 'doing' and ${workOrderSteps.dueDate} < ${today})`,
    );
  }
  if (f.keyword) {
    const term = `%${f.keyword.replace(/[\\%_]/g, '\\$&')}%`;
    conds.push(sql`(${workOrders.orderNo} ilike ${term} or ${enterprises.qymc} ilike ${term})`);
  }
  return sql.join(conds, sql` and `);
}

const SORT: Sort = { name: 'id', keys: [workOrders.id], desc: true };

export async function orderPage(
  tx: Queryable,
  session: SessionCtx,
  agencyId: number,
  body: Filter & { pageNo: number; pageSize: number; cursor?: string | undefined },
  today = chinaDate(),
) {
  const from = sql`${workOrders} inner join ${enterprises} on ${enterprises.id} = ${workOrders.enterpriseId}`;
  const base = filterWhere(session, agencyId, body, today);
  const where = body.state ? sql`${base} and ${workOrders.state} = ${body.state}` : base;
  const filter = { ...body, pageNo: undefined, pageSize: undefined, cursor: undefined };
  const page = await listPage(
    tx,
    { from, where, sort: SORT, ask: body, filter },
    async (ids) => (await itemsFor(tx, agencyId, ids, today)).items,
  );
  const grouped = (await tx.execute(
    sql`select ${workOrders.state} as state, count(*)::int as n from ${from} where ${base} group by ${workOrders.state}`,
  )) as unknown as { rows: { state: string; n: number }[] };
  const counts: Record<string, number> = { pending: 0, doing: 0, done: 0, cancelled: 0 };
  for (const r of grouped.rows) counts[r.state] = Number(r.n);
  return { ...page, counts };
}

/** 新建工单提醒 to the order's assignees (not the creator), each per their message setting. */
export function notifyNewOrder(
  tx: Tx,
  deps: Pick<Deps, 'push'>,
  afterCommit: (fn: () => Promise<void>) => void,
  agencyId: number,
  creator: number,
  made: { id: number; orderNo: string; assignees: number[]; qymc: string; templateName: string },
) {
  return notifyEvent(tx, deps.push, afterCommit, {
    event: 'xjgd',
    agencyId,
    userIds: made.assignees.filter((u) => u !== creator),
    detail: `客户「${made.qymc}」新建了工单 ${made.orderNo}（${made.templateName}），您是其中步骤的处理人。`,
    targetId: made.id,
  });
}
