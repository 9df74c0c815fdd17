import {
  addMonths,
  CODE,
  changeFlagged,
  confirmPlanCall,
  FILING_BATCH_MSG,
  FILING_MONTH_MIN,
  FILING_RUN_QUEUE,
  filingMonthMax,
  GRSDS_SSQ_MIN,
  grsdsSsqMax,
  type ItemState,
  iitEstimate,
  payPlanCall,
  planFigures,
  planItemsCall,
  planListCall,
  qymcSh,
  type ReportRow,
  retryPlanCall,
  runDeleteCall,
  runRateCall,
  runReportCall,
  saveSbqcCall,
  taxFenToYuan,
  taxYuanToFen,
  updateGssbCall,
  updateItemCall,
  validateSbsj,
} from '@dzy/shared';
import { and, desc, eq, inArray, like, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { countOf, listPage } from '../../db/paging.js';
import {
  enterprises,
  filingPlanItems,
  filingPlans,
  filingRunClients,
  filingRuns,
  jobs,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import { type Served, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { chooseBatchClients } from '../customer/batch-clients.js';
import { rosterClients } from '../filing/filing.repo.js';
import { filingRunJob } from './filing-batch.jobs.js';
import {
  agencyOf,
  batchSettings,
  createRun,
  findPlan,
  findRun,
  type ItemRow,
  itemsById,
  liveRate,
  type PlanRow,
  plansById,
  publishRunRate,
  runningRun,
  toPlanItem,
} from './filing-batch.repo.js';

const ids = (xs: readonly number[]) =>
  sql.join(
    xs.map((x) => sql`${x}`),
    sql`, `,
  );

/** A plan that can take a new run: not cancelled, generated, nothing else running on it. */
async function assertIdle(tx: Tx, plan: PlanRow) {
  if (plan.state === 'cancelled') throw new AppError(CODE.CONFLICT, FILING_BATCH_MSG.planCancelled);
  // Two quick clicks must not start two runs.
  await tx.execute(sql`select pg_advisory_xact_lock(${7_014}, ${plan.id})`);
  const running = await runningRun(tx, plan.id);
  if (running)
    throw new AppError(
      CODE.CONFLICT,
      running.kind === 'generate' ? FILING_BATCH_MSG.planGenerating : FILING_BATCH_MSG.busyRunning,
    );
}

// --- saveSbqc ---------------------------------------------------------------------------------------

const save = serve(saveSbqcCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = agencyOf(session);
  const today = chinaDate();
  // kind grsds: the body's month is the 所属期 (2019-08 … last month); the return is filed the month after.
  let month = body.filingMonth;
  let grsdsSkssqq = '';
  if (body.kind === 'grsds') {
    if (body.filingMonth < GRSDS_SSQ_MIN || body.filingMonth > grsdsSsqMax(today))
      throw new AppError(CODE.BAD_REQUEST, FILING_BATCH_MSG.ssqRange);
    grsdsSkssqq = `${body.filingMonth}-01`;
    month = addMonths(body.filingMonth, 1);
  } else if (month < FILING_MONTH_MIN || month > filingMonthMax(today)) {
    throw new AppError(CODE.BAD_REQUEST, `申报月份须在${FILING_MONTH_MIN}至下月之间`);
  }
  const types = body.kind === 'grsds' ? ['grsds'] : [...new Set(body.taxTypes)];

  const { chosen, noQysh, blocked } = await chooseBatchClients(tx, session, body, {
    ly: 'sb',
    inServiceAlways: true,
    msg: FILING_BATCH_MSG,
  });

  const [plan] = await tx
    .insert(filingPlans)
    .values({ agencyId, userId: session.userId, filingMonth: month, kind: body.kind })
    .returning();
  if (!plan) throw new Error('plan not created');
  // One item per return due and not filed (the roster's wsb / yqwsb cells), not one the ledger holds filed.
  const cellWhere =
    body.kind === 'grsds'
      ? sql`c.tax_type = 'grsds' and c.skssqq = ${grsdsSkssqq}`
      : sql`c.filing_month = ${month} ${
          types.length > 0
            ? sql`and c.tax_type in (${sql.join(
                types.map((t) => sql`${t}`),
                sql`, `,
              )})`
            : sql``
        }`;
  for (let i = 0; i < chosen.length; i += 2000) {
    const part = chosen.slice(i, i + 2000).map((e) => e.id);
    await tx.execute(sql`
      insert into filing_plan_items
        (agency_id, plan_id, enterprise_id, tax_type, cycle, skssqq, skssqz, sbqx, overdue, nsrlx, prev_srze, prev_ybtse, confirm_state)
      select distinct on (c.enterprise_id, c.tax_type, c.skssqq)
        c.agency_id, ${plan.id}::int, c.enterprise_id, c.tax_type, c.cycle, c.skssqq, c.skssqz, c.sbqx,
        c.state = 'yqwsb',
        case when coalesce(nullif(s.nsrlx, ''), e.qyxz) = '0' then '0' else '1' end,
        p.srze, p.ybtse, 'none'
      from filing_cells c
      join enterprises e on e.id = c.enterprise_id
      left join filing_syncs s
        on s.agency_id = c.agency_id and s.enterprise_id = c.enterprise_id and s.filing_month = c.filing_month
      left join lateral (
        select c2.srze, c2.ybtse from filing_cells c2
        where c2.agency_id = c.agency_id and c2.enterprise_id = c.enterprise_id and c2.tax_type = c.tax_type
          and c2.skssqz <> '' and c2.skssqz < c.skssqq and c2.state in ('ysb', 'yjk')
        order by c2.skssqq desc limit 1
      ) p on true
      where c.agency_id = ${agencyId} and c.enterprise_id in (${ids(part)}) and ${cellWhere}
        and c.state in ('wsb', 'yqwsb') and c.skssqq <> ''
        and not exists (select 1 from enterprise_filing_settings x where x.agency_id = c.agency_id
          and x.enterprise_id = c.enterprise_id and c.tax_type = any(x.ignored_types))
        and not exists (select 1 from filed_returns f where f.agency_id = c.agency_id
          and f.enterprise_id = c.enterprise_id and f.tax_type = c.tax_type and f.skssqq = c.skssqq and f.state = 'filed')
      order by c.enterprise_id, c.tax_type, c.skssqq, c.filing_month desc
      on conflict do nothing`);
  }
  const { run, items } = await createRun(
    tx,
    { agencyId, planId: plan.id, userId: session.userId, kind: 'generate' },
    sql`true`,
  );
  if (items === 0) throw new AppError(CODE.EMPTY, FILING_BATCH_MSG.nothingDue);
  await audit(tx, req, { agencyId, userId: session.userId }, 'declare.filing.plan', String(plan.id), {
    filingMonth: month,
    kind: body.kind,
    scope: body.scope,
    taxTypes: types,
    items,
    clientNum: run.totalNum,
    blocked: blocked.map((b) => b.aeiId),
    noQysh: noQysh.map((b) => b.aeiId),
  });
  afterCommit(() => deps.wakeJobs());
  return { planId: plan.id, redisKey: String(run.id), total: items, clientNum: run.totalNum, blocked, noQysh };
});

// --- progress and report ------------------------------------------------------------------------------

const rate = serve(runRateCall, async ({ body, session, tx }) =>
  liveRate(tx, await findRun(tx, session, body.redisKey)),
);

const FAILED_STATES: readonly ItemState[] = ['planFailed', 'rejected'];

const report = serve(runReportCall, async ({ body, session, tx }) => {
  const run = await findRun(tx, session, body.redisKey);
  const clients = await tx
    .select({ enterpriseId: filingRunClients.enterpriseId, state: filingRunClients.state, msg: filingRunClients.msg })
    .from(filingRunClients)
    .where(and(eq(filingRunClients.runId, run.id), sql`${filingRunClients.state} is not null`));
  const byClient = new Map(clients.map((c) => [c.enterpriseId, c]));
  const success: ReportRow[] = [];
  const fail: ReportRow[] = [];
  if (clients.length === 0) return { success, fail };
  const rows = await tx
    .select({ item: filingPlanItems, qymc: enterprises.qymc, qysh: enterprises.qysh })
    .from(filingPlanItems)
    .innerJoin(enterprises, eq(enterprises.id, filingPlanItems.enterpriseId))
    .where(
      and(
        eq(filingPlanItems.agencyId, run.agencyId),
        eq(filingPlanItems.planId, run.planId),
        inArray(
          filingPlanItems.enterpriseId,
          clients.map((c) => c.enterpriseId),
        ),
        // A file, pay or update run: the items it took (while no later run took them again).
        run.kind === 'generate' ? undefined : eq(filingPlanItems.runId, run.id),
        sql`${filingPlanItems.state} <> 'dropped'`,
      ),
    )
    .orderBy(filingPlanItems.enterpriseId, filingPlanItems.id);
  for (const { item: i, qymc, qysh } of rows) {
    const c = byClient.get(i.enterpriseId);
    const bad =
      run.kind === 'pay' ? i.payState === 'refused' || i.payState === 'paying' : FAILED_STATES.includes(i.state);
    const row: ReportRow = {
      aeiId: i.enterpriseId,
      qymcSh: qymcSh(qymc, qysh),
      state_text: run.kind === 'pay' ? (bad ? '缴款失败' : '缴款成功') : toPlanItem({ ...i, qymc, qysh }).stateText,
      message: (run.kind === 'pay' ? i.payMsg : i.msg) || (c?.msg ?? ''),
      srze: taxFenToYuan(i.srze),
      ybtse: taxFenToYuan(i.ybtse),
      taxType: i.taxType,
      itemId: i.id,
      diff: i.diff ?? null,
    };
    (bad || c?.state === 'fail' ? fail : success).push(row);
  }
  return { success, fail };
});

const remove = serve(runDeleteCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const run = await findRun(tx, session, body.redisKey);
  if (run.state === 'running') {
    const [after] = await tx
      .update(filingRuns)
      .set({ state: 'stopped', finishedAt: new Date() })
      .where(and(eq(filingRuns.id, run.id), eq(filingRuns.state, 'running')))
      .returning();
    await tx
      .update(jobs)
      .set({ state: 'done', result: { stopped: true }, finishedAt: new Date() })
      .where(and(eq(jobs.queue, FILING_RUN_QUEUE), like(jobs.key, `${run.id}:%`), eq(jobs.state, 'queued')));
    if (after) {
      const out = await liveRate(tx, after);
      afterCommit(() => publishRunRate(deps, run.userId, out));
    }
  }
  // An unconfirmed plan (nothing filed or being filed) goes with its generation.
  if (run.kind === 'generate' || run.kind === 'update') {
    const [touched] = await tx
      .select({ id: filingPlanItems.id })
      .from(filingPlanItems)
      .where(
        and(
          eq(filingPlanItems.planId, run.planId),
          sql`${filingPlanItems.state} in ('submitting', 'filed', 'rejected')`,
        ),
      )
      .limit(1);
    if (!touched)
      await tx
        .update(filingPlans)
        .set({ state: 'cancelled' })
        .where(and(eq(filingPlans.id, run.planId), sql`${filingPlans.state} <> 'cancelled'`));
    else
      await tx
        .update(filingPlans)
        .set({ state: 'ready' })
        .where(and(eq(filingPlans.id, run.planId), eq(filingPlans.state, 'generating')));
  }
  await audit(tx, req, { agencyId: run.agencyId, userId: session.userId }, 'declare.filing.stop', String(run.id), {
    planId: run.planId,
    kind: run.kind,
  });
  return null;
});

// --- the plan ---------------------------------------------------------------------------------------

const ITEM_SORT = { name: 'item', keys: [filingPlanItems.enterpriseId, filingPlanItems.id], desc: false };

const items = serve(planItemsCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const plan = await findPlan(tx, session, body.planId);
  const base = and(eq(filingPlanItems.agencyId, agencyId), eq(filingPlanItems.planId, plan.id)) as SQL;
  const where = and(
    base,
    body.state ? eq(filingPlanItems.state, body.state) : undefined,
    body.taxType ? eq(filingPlanItems.taxType, body.taxType) : undefined,
    body.flaggedOnly ? eq(filingPlanItems.flagged, true) : undefined,
    body.overdueOnly ? eq(filingPlanItems.overdue, true) : undefined,
    nameOrTaxNumber(enterprises.qymc, enterprises.qysh, body.keyword),
  ) as SQL;
  const from = body.keyword
    ? sql`${filingPlanItems} inner join ${enterprises} on ${enterprises.id} = ${filingPlanItems.enterpriseId}`
    : sql`${filingPlanItems}`;
  const { pageNum, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    { from, where, sort: ITEM_SORT, ask: { pageNo: pageNum, pageSize, cursor }, filter },
    async (pageIds) => (await itemsById(tx, agencyId, pageIds)).map((i) => ({ ...toPlanItem(i), id: i.id })),
  );
  const s = await batchSettings(tx, agencyId);
  const live = sql`${filingPlanItems.state} <> 'dropped'`;
  // What 确认申报 files: the planned returns, less those held for the client's confirmation.
  const toFile = s.confirmRequired
    ? sql`${filingPlanItems.state} = 'planned' and not (${filingPlanItems.ybtse} >= ${s.confirmThreshold} and ${filingPlanItems.confirmState} <> 'confirmed')`
    : sql`${filingPlanItems.state} = 'planned'`;
  const { sums } = await countOf(tx, sql`${filingPlanItems}`, base, {
    num: sql`count(*) filter (where ${live})`,
    srze: sql`coalesce(sum(${filingPlanItems.srze}) filter (where ${live}), 0)`,
    ybtse: sql`coalesce(sum(${filingPlanItems.ybtse}) filter (where ${live}), 0)`,
    flagged: sql`count(*) filter (where ${live} and ${filingPlanItems.flagged})`,
    needsInput: sql`count(*) filter (where ${filingPlanItems.state} = 'needsInput')`,
    waitingClient: s.confirmRequired
      ? sql`count(*) filter (where ${filingPlanItems.state} = 'planned' and ${filingPlanItems.ybtse} >= ${s.confirmThreshold} and ${filingPlanItems.confirmState} <> 'confirmed')`
      : sql`0`,
    filed: sql`count(*) filter (where ${filingPlanItems.state} = 'filed')`,
    failed: sql`count(*) filter (where ${filingPlanItems.state} in ('rejected', 'planFailed'))`,
    paid: sql`count(*) filter (where ${filingPlanItems.payState} = 'paid')`,
    toFile: sql`count(*) filter (where ${toFile})`,
    toFileYbtse: sql`coalesce(sum(${filingPlanItems.ybtse}) filter (where ${toFile}), 0)`,
    toFileFlagged: sql`count(*) filter (where ${toFile} and ${filingPlanItems.flagged})`,
    toFileOverdue: sql`count(*) filter (where ${toFile} and ${filingPlanItems.overdue})`,
  });
  const [wire] = await plansById(tx, agencyId, [plan.id]);
  if (!wire) throw new AppError(CODE.NOT_FOUND, FILING_BATCH_MSG.planNotFound);
  const { id: _id, ...planOut } = wire;
  return {
    plan: planOut,
    list: page.list.map(({ id: _x, ...r }) => r),
    total: page.total,
    cursor: page.cursor,
    sums: {
      num: Number(sums.num),
      srze: taxFenToYuan(Number(sums.srze)),
      ybtse: taxFenToYuan(Number(sums.ybtse)),
      flagged: Number(sums.flagged),
      needsInput: Number(sums.needsInput),
      waitingClient: Number(sums.waitingClient),
      filed: Number(sums.filed),
      failed: Number(sums.failed),
      paid: Number(sums.paid),
      toFile: Number(sums.toFile),
      toFileYbtse: taxFenToYuan(Number(sums.toFileYbtse)),
      toFileFlagged: Number(sums.toFileFlagged),
      toFileOverdue: Number(sums.toFileOverdue),
    },
  };
});

const PLAN_SORT = { name: 'plan', keys: [filingPlans.id], desc: true };

const plans = serve(planListCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const where = and(eq(filingPlans.agencyId, agencyId), dataScope(session, filingPlans.userId)) as SQL;
  const page = await listPage(
    tx,
    {
      from: sql`${filingPlans}`,
      where,
      sort: PLAN_SORT,
      ask: { pageNo: body.pageNum, pageSize: body.pageSize, cursor: body.cursor },
      filter: {},
    },
    (pageIds) => plansById(tx, agencyId, pageIds),
  );
  return { ...page, list: page.list.map(({ id: _id, ...p }) => p) };
});

// --- editing an item ------------------------------------------------------------------------------

const EDITABLE: readonly ItemState[] = ['planned', 'needsInput', 'planFailed', 'rejected', 'dropped'];

/** The item (tenant, the plan in the caller's scope, the client in the caller's scope), or 404. */
async function findItem(tx: Tx, session: SessionCtx, itemId: number) {
  const [row] = await tx
    .select({ item: filingPlanItems, plan: filingPlans })
    .from(filingPlanItems)
    .innerJoin(filingPlans, eq(filingPlans.id, filingPlanItems.planId))
    .innerJoin(enterprises, eq(enterprises.id, filingPlanItems.enterpriseId))
    .where(
      and(
        eq(filingPlanItems.agencyId, agencyOf(session)),
        eq(filingPlanItems.id, itemId),
        dataScope(session, filingPlans.userId),
        rosterClients(session),
      ),
    );
  if (!row) throw new AppError(CODE.NOT_FOUND, FILING_BATCH_MSG.itemNotFound);
  return row;
}

/** The figures of typed sbsj (fen): tax-compute's, IIT by the estimate over the typed persons. */
function typedFigures(it: ItemRow, sbsj: Record<string, unknown>) {
  const nsrlx = it.nsrlx === '0' ? '0' : '1';
  if (it.taxType === 'grsds') {
    const ry = (sbsj.ry as { zjhm: string; sre: string; sxyj?: string; zxfjkc?: string; qtkc?: string }[]) ?? [];
    const f = (y?: string) => (y ? (taxYuanToFen(y) ?? 0) : 0);
    return {
      ...iitEstimate(
        ry.map((p) => ({
          zjhm: p.zjhm,
          rzrq: `${it.skssqq.slice(0, 4)}-01-01`,
          sre: f(p.sre),
          sxyj: f(p.sxyj),
          zxfjkc: f(p.zxfjkc),
          qtkc: f(p.qtkc),
        })),
        it.skssqq.slice(0, 7),
      ),
      estimate: true,
    };
  }
  return { ...planFigures(it.taxType, nsrlx, it.cycle, sbsj as never, 'city', it.skssqz), estimate: false };
}

const update = serve(updateItemCall, async ({ body, session, tx, req }) => {
  const { item: it, plan } = await findItem(tx, session, body.itemId);
  if (plan.state === 'cancelled') throw new AppError(CODE.CONFLICT, FILING_BATCH_MSG.planCancelled);
  if (!EDITABLE.includes(it.state)) throw new AppError(CODE.CONFLICT, FILING_BATCH_MSG.itemLocked);
  const s = await batchSettings(tx, it.agencyId);
  const set: Partial<ItemRow> = { updatedAt: new Date() };
  let next: ItemRow = it;
  if (body.sbsj !== undefined) {
    const v = validateSbsj(it.taxType, it.nsrlx === '0' ? '0' : '1', body.sbsj);
    if (!v.ok) throw new AppError(CODE.BAD_REQUEST, v.msg);
    const sbsj = v.sbsj as Record<string, unknown>;
    const f = typedFigures(it, sbsj);
    Object.assign(set, { source: 'typed', sbsj, srze: f.srze, ybtse: f.ybtse, estimate: f.estimate });
  }
  if (body.zero === true) Object.assign(set, { source: 'zero', sbsj: null, srze: 0, ybtse: 0, estimate: false });
  if (body.zero === false && (set.source ?? it.source) === 'zero') Object.assign(set, { source: 'typed' });
  next = { ...it, ...set } as ItemRow;
  if (body.drop === true) Object.assign(set, { state: 'dropped', msg: FILING_BATCH_MSG.dropped });
  else if (body.drop === false || body.sbsj !== undefined || body.zero !== undefined) {
    const ready =
      next.source === 'zero' ||
      (next.sbsj !== null && validateSbsj(it.taxType, it.nsrlx === '0' ? '0' : '1', next.sbsj).ok);
    Object.assign(
      set,
      ready
        ? { state: 'planned', msg: '' }
        : {
            state: 'needsInput',
            msg: it.taxType === 'zzs' ? FILING_BATCH_MSG.needsInputVat : FILING_BATCH_MSG.needsInputTyped,
          },
    );
  }
  next = { ...it, ...set } as ItemRow;
  // The client confirmed (or disputed) other amounts: their answer no longer covers this return.
  if (it.confirmState !== 'none' && (next.srze !== it.srze || next.ybtse !== it.ybtse)) set.confirmState = 'none';
  set.flagged =
    changeFlagged(next.ybtse, next.prevYbtse, s.diffPercent) || changeFlagged(next.srze, next.prevSrze, s.diffPercent);
  await tx.update(filingPlanItems).set(set).where(eq(filingPlanItems.id, it.id));
  await audit(tx, req, { agencyId: it.agencyId, userId: session.userId }, 'declare.filing.edit', String(it.id), {
    planId: it.planId,
    aeiId: it.enterpriseId,
    taxType: it.taxType,
    skssqq: it.skssqq,
    zero: body.zero,
    drop: body.drop,
    sbsj: body.sbsj,
  });
  const [out] = await itemsById(tx, it.agencyId, [it.id]);
  if (!out) throw new AppError(CODE.NOT_FOUND, FILING_BATCH_MSG.itemNotFound);
  return toPlanItem(out);
});

// --- confirm, retry, pay, update ------------------------------------------------------------------

async function startFile(
  tx: Tx,
  session: SessionCtx,
  plan: PlanRow,
  itemIds: number[] | undefined,
  lateNotice: boolean,
  states: readonly ItemState[],
) {
  const agencyId = agencyOf(session);
  const s = await batchSettings(tx, agencyId);
  const retrying = states.includes('rejected');
  const pick = and(
    eq(filingPlanItems.planId, plan.id),
    retrying
      ? // The failed ones: rejected, or rejected and corrected since (planned, last taken by a file run).
        sql`(${filingPlanItems.state} = 'rejected' or (${filingPlanItems.state} = 'planned' and ${filingPlanItems.runId} in
          (select r.id from ${filingRuns} r where r.plan_id = ${plan.id} and r.kind = 'file')))`
      : inArray(filingPlanItems.state, [...states]),
    itemIds ? inArray(filingPlanItems.id, itemIds.length > 0 ? itemIds : [0]) : undefined,
  ) as SQL;
  // Items above the threshold without the client's confirmation stay out when the agency requires it.
  const waiting = s.confirmRequired
    ? sql`${filingPlanItems.ybtse} >= ${s.confirmThreshold} and ${filingPlanItems.confirmState} <> 'confirmed'`
    : sql`false`;
  const waitingRows = await tx
    .update(filingPlanItems)
    .set({ msg: FILING_BATCH_MSG.waitingClient, updatedAt: new Date() })
    .where(and(pick, waiting))
    .returning({ id: filingPlanItems.id });
  const [late] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(filingPlanItems)
    .where(and(pick, sql`not (${waiting})`, eq(filingPlanItems.overdue, true)));
  if ((late?.n ?? 0) > 0 && !lateNotice) throw new AppError(CODE.BAD_REQUEST, FILING_BATCH_MSG.lateNoticeRequired);
  if (retrying)
    await tx
      .update(filingPlanItems)
      .set({ state: 'planned', msg: '' })
      .where(and(pick, sql`not (${waiting})`));
  // The same choice on the alias of createRun's update (no self-join: under row-level security a join of
  // the items with themselves is planned as a scan per row).
  const which = and(
    retrying
      ? sql`(i.state = 'rejected' or (i.state = 'planned' and i.run_id in
          (select r.id from ${filingRuns} r where r.plan_id = ${plan.id} and r.kind = 'file')))`
      : sql`i.state in (${sql.join(
          states.map((x) => sql`${x}`),
          sql`, `,
        )})`,
    itemIds ? sql`i.id in (${ids(itemIds.length > 0 ? itemIds : [0])})` : undefined,
    s.confirmRequired ? sql`not (i.ybtse >= ${s.confirmThreshold} and i.confirm_state <> 'confirmed')` : undefined,
  ) as SQL;
  const { run, items: n } = await createRun(
    tx,
    { agencyId, planId: plan.id, userId: session.userId, kind: 'file', lateNotice },
    which,
  );
  return { run, n, waitingClient: waitingRows.length };
}

const confirm = serve(confirmPlanCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const plan = await findPlan(tx, session, body.planId);
  await assertIdle(tx, plan);
  const { run, n, waitingClient } = await startFile(tx, session, plan, body.itemIds, body.lateNotice, ['planned']);
  if (n === 0) throw new AppError(CODE.CONFLICT, FILING_BATCH_MSG.nothingToFile);
  const [sum] = await tx
    .select({ ybtse: sql<number>`coalesce(sum(${filingPlanItems.ybtse}), 0)`.mapWith(Number) })
    .from(filingPlanItems)
    .where(eq(filingPlanItems.runId, run.id));
  await audit(tx, req, { agencyId: plan.agencyId, userId: session.userId }, 'declare.filing.confirm', String(plan.id), {
    runId: run.id,
    returns: n,
    clientNum: run.totalNum,
    ybtse: taxFenToYuan(sum?.ybtse ?? 0),
    lateNotice: body.lateNotice,
    waitingClient,
  });
  afterCommit(() => deps.wakeJobs());
  return { redisKey: String(run.id), total: n, waitingClient };
});

const retry = serve(retryPlanCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const plan = await findPlan(tx, session, body.planId);
  await assertIdle(tx, plan);
  const { run, n } = await startFile(tx, session, plan, undefined, body.lateNotice, ['rejected']);
  if (n === 0) throw new AppError(CODE.CONFLICT, FILING_BATCH_MSG.nothingToRetry);
  await audit(tx, req, { agencyId: plan.agencyId, userId: session.userId }, 'declare.filing.retry', String(plan.id), {
    runId: run.id,
    returns: n,
  });
  afterCommit(() => deps.wakeJobs());
  return { redisKey: String(run.id), total: n };
});

const payBatch = serve(payPlanCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const plan = await findPlan(tx, session, body.planId);
  await assertIdle(tx, plan);
  const which = and(
    sql`i.state = 'filed' and i.ybtse > 0 and i.pay_state in ('none', 'refused')`,
    body.itemIds ? sql`i.id in (${ids(body.itemIds.length > 0 ? body.itemIds : [0])})` : undefined,
  ) as SQL;
  const { run, items: n } = await createRun(
    tx,
    { agencyId: plan.agencyId, planId: plan.id, userId: session.userId, kind: 'pay' },
    which,
  );
  if (n === 0) throw new AppError(CODE.CONFLICT, FILING_BATCH_MSG.nothingToPay);
  await audit(
    tx,
    req,
    { agencyId: plan.agencyId, userId: session.userId },
    'declare.filing.payBatch',
    String(plan.id),
    {
      runId: run.id,
      returns: n,
    },
  );
  afterCommit(() => deps.wakeJobs());
  return { redisKey: String(run.id), total: n };
});

const updateGssb = serve(updateGssbCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const plan = await findPlan(tx, session, body.planId);
  if (plan.state === 'cancelled') throw new AppError(CODE.CONFLICT, FILING_BATCH_MSG.planCancelled);
  const [it] = await tx
    .select()
    .from(filingPlanItems)
    .where(
      and(
        eq(filingPlanItems.planId, plan.id),
        eq(filingPlanItems.enterpriseId, body.aeiId),
        eq(filingPlanItems.taxType, 'grsds'),
      ),
    )
    .orderBy(desc(filingPlanItems.skssqq))
    .limit(1);
  if (!it) throw new AppError(CODE.NOT_FOUND, FILING_BATCH_MSG.itemNotFound);
  if (!EDITABLE.includes(it.state)) throw new AppError(CODE.CONFLICT, FILING_BATCH_MSG.itemLocked);
  await tx
    .update(filingPlanItems)
    .set({ state: 'pending', msg: '', updatedAt: new Date() })
    .where(eq(filingPlanItems.id, it.id));
  const { run } = await createRun(
    tx,
    { agencyId: plan.agencyId, planId: plan.id, userId: session.userId, kind: 'update' },
    sql`i.id = ${it.id}`,
  );
  await audit(tx, req, { agencyId: plan.agencyId, userId: session.userId }, 'declare.filing.update', String(it.id), {
    planId: plan.id,
    aeiId: body.aeiId,
    runId: run.id,
  });
  afterCommit(() => deps.wakeJobs());
  return { redisKey: String(run.id) };
});

export const filingBatchCalls: Served[] = [
  save,
  rate,
  report,
  remove,
  items,
  plans,
  update,
  confirm,
  retry,
  payBatch,
  updateGssb,
];

export const filingBatchModule: ServerModule = {
  name: 'filing-batch',
  calls: filingBatchCalls,
  jobs: [filingRunJob],
};
