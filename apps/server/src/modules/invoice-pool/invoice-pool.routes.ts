import {
  addMonths,
  BENEFIT_MENU,
  BUREAU_MSG,
  BureauError,
  CODE,
  fpPoolStatusCall,
  INVOICE_POOL_MSG,
  INVOICE_RUN_QUEUE,
  INVOICE_TICK_MAX,
  inputConfirmV3Call,
  insertOrUpdateBatchFpJxfpZpCall,
  latestPoolRunCall,
  POOL_MONTH_MIN,
  POOL_RATE_NAMES,
  poolClientsCall,
  queryFpJxfpCall,
  queryFpXxfpCall,
  queryStatisticFpXxfpByFppzCall,
  STATS_TOP_N,
  STATS_TREND_MONTHS,
  type StatsSlice,
  searchJXxDataCall,
  searchJxppDataCall,
  selectFpJxfpZpDetailListCall,
  selectFpJxfpZpListCall,
  sendTaskToFpPoolCall,
} from '@dzy/shared';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { countOf, listPage, pageIds } from '../../db/paging.js';
import { enterprises, invoiceLines, invoiceRunClients, invoiceRuns, invoices, jobs } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { type Served, type ServerModule, serve, serveStaged } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { contractBlocks } from '../contract/contract-status.js';
import { chooseBatchClients } from '../customer/batch-clients.js';
import { enforceEquity } from '../customer/customer.service.js';
import { withBureauSession } from '../declare/bureau-login.js';
import { invoiceRunJob } from './invoice-pool.jobs.js';
import {
  agencyOf,
  breakdownRows,
  clientKindRows,
  createRun,
  enqueueClients,
  findClient,
  findRun,
  invoicesById,
  poolClients,
  publishStatus,
  restate,
  runStatus,
  scopedClients,
  toPoolInvoice,
  topParties,
  trendRows,
} from './invoice-pool.repo.js';

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const n = (v: unknown) => Number(v ?? 0);
const isAll = (s: SessionCtx) => s.isAdmin || s.role === 1;

/** The month asked: from POOL_MONTH_MIN to the current month (China). */
function checkMonth(month: string) {
  if (month < POOL_MONTH_MIN || month > chinaDate().slice(0, 7))
    throw new AppError(CODE.BAD_REQUEST, INVOICE_POOL_MSG.monthRange);
}

/**
 * The clients a statistic or list counts: one (checked to be the caller's), or every one in the caller's
 * scope — nothing to add for an administrator, whose scope is the agency (the rows carry agency_id).
 */
async function clientFilter(
  tx: Queryable,
  session: SessionCtx,
  col: SQL | typeof invoices.enterpriseId,
  aeiId?: number,
) {
  if (aeiId !== undefined) {
    await findClient(tx, session, aeiId);
    return sql`${col} = ${aeiId}`;
  }
  if (isAll(session)) return sql`true`;
  return sql`${col} in (select e.id from enterprises e where e.agency_id = ${agencyOf(session)}
    and ${dataScope(session, sql`e.allocate_user` as unknown as typeof enterprises.allocateUser)})`;
}

/** The clients a statistic covers: null for the whole agency (an administrator, no client chosen). */
const statsClients = async (tx: Queryable, session: SessionCtx, aeiId?: number) =>
  aeiId === undefined && isAll(session) ? null : clientFilter(tx, session, sql`enterprise_id`, aeiId);

// --- collection --------------------------------------------------------------------------------------

const send = serve(sendTaskToFpPoolCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = agencyOf(session);
  const _today = chinaDate();
  if (body.type === '1') {
    // The retry (business.md §4): the selected failed clients of the run, the month after the run's month
    // sent as the 申报月份 whose 所属期 is collected again (docs/decisions-15-pool.md "Retry").
    const run = await findRun(tx, session, body.taskId ?? '');
    if (run.kind !== 'collect') throw new AppError(CODE.NOT_FOUND, INVOICE_POOL_MSG.runNotFound);
    if (body.month !== addMonths(run.month, 1)) throw new AppError(CODE.BAD_REQUEST, INVOICE_POOL_MSG.monthFormat);
    const wanted = [...new Set(body.aeiIds)];
    const failed = await tx
      .select({ id: invoiceRunClients.enterpriseId })
      .from(invoiceRunClients)
      .innerJoin(enterprises, eq(enterprises.id, invoiceRunClients.enterpriseId))
      .where(
        and(
          eq(invoiceRunClients.runId, run.id),
          eq(invoiceRunClients.state, 'failed'),
          inArray(invoiceRunClients.enterpriseId, wanted),
          poolClients(session),
        ),
      );
    if (failed.length !== wanted.length) throw new AppError(CODE.CONFLICT, INVOICE_POOL_MSG.retryNotFailed);
    await tx.execute(sql`select pg_advisory_xact_lock(${7_015}, ${run.id})`);
    let target = run;
    if (body.isSave === 0) {
      const [again] = await tx
        .update(invoiceRuns)
        .set({ state: 'running', finishedAt: null })
        .where(eq(invoiceRuns.id, run.id))
        .returning();
      target = again ?? run;
      await enqueueClients(tx, target, wanted, `:r${Date.now()}`);
    } else {
      target = await createRun(tx, { agencyId, userId: session.userId, kind: 'collect', month: run.month }, wanted);
    }
    await audit(tx, req, { agencyId, userId: session.userId }, 'invoice.pool.retry', String(target.id), {
      month: run.month,
      fromTask: run.id,
      aeiIds: wanted,
      isSave: body.isSave,
    });
    const [status] = await runStatus(tx, [target], false);
    afterCommit(async () => {
      deps.wakeJobs();
      if (status) await publishStatus(deps, target.userId, status);
    });
    return { taskId: String(target.id), month: run.month, total: wanted.length, blocked: [], noQysh: [] };
  }

  checkMonth(body.month);
  const { chosen, noQysh, blocked } = await chooseBatchClients(tx, session, body, {
    ly: 'fp',
    inServiceAlways: true,
    msg: INVOICE_POOL_MSG,
  });
  // 发票采集 is free (iscontrol 'N'): the check refuses only a database without its entry (权限异常！).
  await enforceEquity(
    tx,
    session,
    agencyId,
    BENEFIT_MENU.invoiceCollect,
    chosen.map((e) => e.id),
  );
  const run = await createRun(
    tx,
    { agencyId, userId: session.userId, kind: 'collect', month: body.month },
    chosen.map((e) => e.id),
  );
  await audit(tx, req, { agencyId, userId: session.userId }, 'invoice.pool.collect', String(run.id), {
    month: body.month,
    scope: body.scope,
    clientNum: chosen.length,
    blocked: blocked.map((b) => b.aeiId),
    noQysh: noQysh.map((b) => b.aeiId),
  });
  afterCommit(() => deps.wakeJobs());
  return { taskId: String(run.id), month: body.month, total: chosen.length, blocked, noQysh };
});

const status = serve(fpPoolStatusCall, async ({ body, session, tx }) => {
  const runs = [];
  for (const id of [...new Set(body.taskIds)]) runs.push(await findRun(tx, session, id));
  return { list: await runStatus(tx, runs) };
});

const latest = serve(latestPoolRunCall, async ({ body, session, tx }) => {
  const [r] = await tx
    .select({ id: invoiceRuns.id })
    .from(invoiceRuns)
    .where(
      and(
        eq(invoiceRuns.agencyId, agencyOf(session)),
        eq(invoiceRuns.kind, body.kind),
        eq(invoiceRuns.userId, session.userId),
      ),
    )
    .orderBy(desc(invoiceRuns.id))
    .limit(1);
  return { taskId: r ? String(r.id) : null };
});

// --- the pool's lists ------------------------------------------------------------------------------------

const INVOICE_SORT = { name: 'invoice', keys: [invoices.id], desc: true };

const keywordOf = (kw: string) =>
  kw
    ? sql`(${invoices.fphm} = ${kw} or ${invoices.cpTaxNo} = ${kw} or ${invoices.cpName} like ${`%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})`
    : undefined;

/** A pool list's work (exported for the bench's SQL side). */
export function poolList(direction: 'out' | 'in') {
  return async ({
    body,
    session,
    tx,
  }: {
    body: {
      month: string;
      aeiId?: number | undefined;
      keyword: string;
      fplx?: 'zp' | 'pp' | undefined;
      state?: 'normal' | 'reversed' | 'void' | 'red' | undefined;
      pageNo: number;
      pageSize: number;
      cursor?: string | undefined;
    };
    session: SessionCtx;
    tx: Queryable;
  }) => {
    const agencyId = agencyOf(session);
    const where = and(
      eq(invoices.agencyId, agencyId),
      eq(invoices.direction, direction),
      eq(invoices.month, body.month),
      await clientFilter(tx, session, invoices.enterpriseId, body.aeiId),
      body.fplx ? eq(invoices.fplx, body.fplx) : undefined,
      body.state ? eq(invoices.state, body.state) : undefined,
      keywordOf(body.keyword),
    ) as SQL;
    const from = sql`${invoices}`;
    const { total, sums } = await countOf(tx, from, where, {
      sumAmount: sql`coalesce(sum(${invoices.amount}) filter (where ${invoices.state} <> 'void'), 0)`,
      sumTax: sql`coalesce(sum(${invoices.tax}) filter (where ${invoices.state} <> 'void'), 0)`,
      sumTotal: sql`coalesce(sum(${invoices.total}) filter (where ${invoices.state} <> 'void'), 0)`,
    });
    const { pageNo, pageSize, cursor, ...filter } = body;
    const page = await pageIds(tx, {
      from,
      where,
      sort: INVOICE_SORT,
      ask: { pageNo, pageSize, cursor },
      filter,
      total: async () => total,
    });
    const byId = new Map((await invoicesById(tx, agencyId, page.ids)).map((r) => [r.id, r]));
    return {
      list: page.ids.flatMap((id) => byId.get(id) ?? []),
      total,
      cursor: page.cursor,
      sums: { amount: n(sums.sumAmount), tax: n(sums.sumTax), total: n(sums.sumTotal) },
    };
  };
}

const xxList = serve(queryFpXxfpCall, poolList('out'));
const jxList = serve(queryFpJxfpCall, poolList('in'));

// --- statistics (rollups only) ------------------------------------------------------------------------------

/** The 12-month trend's work (exported for the bench). */
export const trendOf = async ({
  body,
  session,
  tx,
}: {
  body: { aeiId?: number | undefined; month: string };
  session: SessionCtx;
  tx: Queryable;
}) => {
  const agencyId = agencyOf(session);
  const from = addMonths(body.month, -(STATS_TREND_MONTHS - 1));
  const { sums, counts } = await trendRows(tx, agencyId, from, body.month, await statsClients(tx, session, body.aeiId));
  const months = [];
  for (let i = 0; i < STATS_TREND_MONTHS; i++) {
    const m = addMonths(from, i);
    const x = sums.find((r) => r.month === m && r.direction === 'out');
    const j = sums.find((r) => r.month === m && r.direction === 'in');
    months.push({
      month: m,
      xxCount: n(counts.find((r) => r.month === m && r.direction === 'out')?.count),
      xxAmount: n(x?.amount),
      xxTax: n(x?.tax),
      jxCount: n(counts.find((r) => r.month === m && r.direction === 'in')?.count),
      jxAmount: n(j?.amount),
      jxTax: n(j?.tax),
      deductTax: n(j?.deduct),
    });
  }
  return { months };
};
const trend = serve(searchJXxDataCall, trendOf);

const RATE_ORDER = ['0.13', '0.09', '0.06', '0.05', '0.03', '0.01', '0', 'mz'];

/** A month's make-up and top parties (exported for the bench). */
export const breakdownOf = async ({
  body,
  session,
  tx,
}: {
  body: { aeiId?: number | undefined; month: string };
  session: SessionCtx;
  tx: Queryable;
}) => {
  const agencyId = agencyOf(session);
  const only = await statsClients(tx, session, body.aeiId);
  const { rates: rows, kinds } = await breakdownRows(tx, agencyId, body.month, only);
  const slices = (direction: string, by: 'rate' | 'fplx'): StatsSlice[] => {
    const m = new Map<string, StatsSlice>();
    for (const r of rows.filter((x) => x.direction === direction)) {
      const key = by === 'rate' ? r.rate : r.fplx;
      const name = by === 'rate' ? (POOL_RATE_NAMES[key] ?? key) : key === 'zp' ? '专票' : '普票';
      const s = m.get(key) ?? { key, name, count: 0, amount: 0, tax: 0 };
      // By kind, each invoice once (a rate row counts an invoice once per rate it has lines at).
      if (by === 'rate') s.count += n(r.count);
      s.amount += n(r.amount);
      s.tax += n(r.tax);
      m.set(key, s);
    }
    if (by === 'fplx')
      for (const s of m.values()) s.count = n(kinds.find((k) => k.direction === direction && k.fplx === s.key)?.count);
    const order = by === 'rate' ? RATE_ORDER : ['zp', 'pp'];
    return [...m.values()].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  };
  const top = (direction: 'out' | 'in') => topParties(tx, agencyId, body.month, direction, only, STATS_TOP_N);
  return {
    month: body.month,
    xxByRate: slices('out', 'rate'),
    jxByRate: slices('in', 'rate'),
    xxByKind: slices('out', 'fplx'),
    jxByKind: slices('in', 'fplx'),
    topBuyers: await top('out'),
    topSellers: await top('in'),
  };
};
const breakdown = serve(searchJxppDataCall, breakdownOf);

const CLIENT_SORT = { name: 'qymc', keys: [enterprises.qymc, enterprises.id], desc: false };

const byKind = serve(queryStatisticFpXxfpByFppzCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const where = and(
    scopedClients(session),
    sql`exists (select 1 from invoice_month_stats s where s.agency_id = ${enterprises.agencyId}
      and s.enterprise_id = ${enterprises.id} and s.month = ${body.month})`,
    body.keyword
      ? sql`(${enterprises.qymc} like ${`%${body.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} or ${enterprises.qysh} = ${body.keyword})`
      : undefined,
  ) as SQL;
  const { pageNo, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    { from: sql`${enterprises}`, where, sort: CLIENT_SORT, ask: { pageNo, pageSize, cursor }, filter },
    async (ids) => {
      const ents = await tx
        .select({ id: enterprises.id, qymc: enterprises.qymc, qysh: enterprises.qysh })
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, agencyId), inArray(enterprises.id, ids)));
      const rows = await clientKindRows(tx, agencyId, body.month, ids);
      return ents.map((e) => {
        const mine = rows.filter((r) => Number(r.enterprise_id) === e.id);
        const get = (d: string, k: string) => mine.find((r) => r.direction === d && r.fplx === k);
        const jx = mine.filter((r) => r.direction === 'in');
        return {
          id: e.id,
          aeiId: e.id,
          qymc: e.qymc,
          qysh: e.qysh,
          zpCount: n(get('out', 'zp')?.count),
          zpAmount: n(get('out', 'zp')?.amount),
          zpTax: n(get('out', 'zp')?.tax),
          ppCount: n(get('out', 'pp')?.count),
          ppAmount: n(get('out', 'pp')?.amount),
          ppTax: n(get('out', 'pp')?.tax),
          jxTax: jx.reduce((s, r) => s + n(r.tax), 0),
          deductTax: jx.reduce((s, r) => s + n(r.deduct), 0),
        };
      });
    },
  );
  return { ...page, list: page.list.map(({ id: _id, ...r }) => r) };
});

// --- input invoices ------------------------------------------------------------------------------------------

/** The input invoices of a period's window: not ticked and issued by its end, or ticked/confirmed for it. */
const windowOf = (agencyId: number, aeiId: number, ssq: string) =>
  and(
    eq(invoices.agencyId, agencyId),
    eq(invoices.enterpriseId, aeiId),
    eq(invoices.direction, 'in'),
    sql`${invoices.month} <= ${ssq}`,
    sql`((${invoices.deductState} = 'none') or ${invoices.deductPeriod} = ${ssq})`,
  ) as SQL;

/** The period is confirmed for the client: a confirm run's client done for it, or invoices confirmed for it. */
async function periodConfirmed(tx: Queryable, agencyId: number, aeiId: number, ssq: string) {
  const r = rowsOf<{ ok: boolean }>(
    await tx.execute(sql`
      select (exists (select 1 from invoice_run_clients c join invoice_runs r on r.id = c.run_id
        where r.agency_id = ${agencyId} and r.kind = 'confirm' and r.month = ${ssq} and c.enterprise_id = ${aeiId}
          and c.state = 'ok')
      or exists (select 1 from invoices i where i.agency_id = ${agencyId} and i.enterprise_id = ${aeiId}
        and i.direction = 'in' and i.deduct_state = 'confirmed' and i.deduct_period = ${ssq})) as ok`),
  );
  return Boolean(r[0]?.ok);
}

const inputFilterOf = (b: { deductState?: string | undefined; fplx?: string | undefined; keyword: string }) =>
  and(
    b.deductState ? eq(invoices.deductState, b.deductState as 'none') : undefined,
    b.fplx ? eq(invoices.fplx, b.fplx as 'zp') : undefined,
    keywordOf(b.keyword),
  );

const inputList = serve(selectFpJxfpZpListCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  await findClient(tx, session, body.aeiId);
  const base = windowOf(agencyId, body.aeiId, body.ssq);
  const where = and(base, inputFilterOf(body)) as SQL;
  const { pageNo, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    { from: sql`${invoices}`, where, sort: INVOICE_SORT, ask: { pageNo, pageSize, cursor }, filter },
    (ids) => invoicesById(tx, agencyId, ids),
  );
  const sel = sql`${invoices.deductState} = 'selected'`;
  const conf = sql`${invoices.deductState} = 'confirmed'`;
  const { total: count, sums } = await countOf(tx, sql`${invoices}`, base, {
    selectedCount: sql`count(*) filter (where ${sel})`,
    selectedTax: sql`coalesce(sum(${invoices.tax}) filter (where ${sel}), 0)`,
    confirmedCount: sql`count(*) filter (where ${conf})`,
    confirmedTax: sql`coalesce(sum(${invoices.tax}) filter (where ${conf}), 0)`,
  });
  const [run] = await tx
    .select({ id: invoiceRuns.id })
    .from(invoiceRuns)
    .innerJoin(invoiceRunClients, eq(invoiceRunClients.runId, invoiceRuns.id))
    .where(
      and(
        eq(invoiceRuns.agencyId, agencyId),
        eq(invoiceRuns.kind, 'confirm'),
        eq(invoiceRuns.month, body.ssq),
        eq(invoiceRunClients.enterpriseId, body.aeiId),
      ),
    )
    .orderBy(desc(invoiceRuns.id))
    .limit(1);
  return {
    list: page.list,
    total: page.total,
    cursor: page.cursor,
    sums: {
      count,
      selectedCount: n(sums.selectedCount),
      selectedTax: n(sums.selectedTax),
      confirmedCount: n(sums.confirmedCount),
      confirmedTax: n(sums.confirmedTax),
      deductibleTax: n(sums.selectedTax) + n(sums.confirmedTax),
    },
    confirmed: await periodConfirmed(tx, agencyId, body.aeiId, body.ssq),
    taskId: run ? String(run.id) : null,
  };
});

const inputDetail = serve(selectFpJxfpZpDetailListCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const ent = await findClient(tx, session, body.aeiId);
  const [row] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.agencyId, agencyId), eq(invoices.enterpriseId, ent.id), eq(invoices.id, body.id)));
  if (!row) throw new AppError(CODE.NOT_FOUND, INVOICE_POOL_MSG.invoiceNotFound);
  const lines = await tx
    .select()
    .from(invoiceLines)
    .where(and(eq(invoiceLines.agencyId, agencyId), eq(invoiceLines.invoiceId, row.id)))
    .orderBy(invoiceLines.xh);
  return {
    invoice: toPoolInvoice({ ...row, qymc: ent.qymc }),
    lines: lines.map((l) => ({
      xh: l.xh,
      spmc: l.spmc,
      ssflbm: l.ssflbm,
      ggxh: l.ggxh,
      dw: l.dw,
      sl: l.sl,
      dj: l.dj,
      amount: l.amount,
      rate: l.rate,
      tax: l.tax,
    })),
  };
});

/**
 * 勾选 / 取消勾选: the invoices chosen (or all matching the list's filter) that can change, sent to the
 * bureau (fp/gx, 500 a call) outside any transaction, then the ones it accepted stored with their new state.
 */
const tick = serveStaged(insertOrUpdateBatchFpJxfpZpCall, async ({ body, session, inTx, req, deps }) => {
  const agencyId = agencyOf(session);
  const prep = await inTx(async (tx) => {
    const ent = await findClient(tx, session, body.aeiId);
    const blocks = await contractBlocks(tx, agencyId, [ent.id], 'fp', chinaDate());
    if (blocks.has(ent.id)) throw new AppError(CODE.CONFLICT, blocks.get(ent.id) ?? INVOICE_POOL_MSG.blocked);
    await enforceEquity(tx, session, agencyId, BENEFIT_MENU.invoiceInput, [ent.id]);
    if (await periodConfirmed(tx, agencyId, ent.id, body.ssq))
      throw new AppError(CODE.CONFLICT, INVOICE_POOL_MSG.periodConfirmed);
    const can = body.gx
      ? sql`${invoices.deductState} = 'none' and ${invoices.fplx} = 'zp' and ${invoices.state} = 'normal'`
      : sql`${invoices.deductState} = 'selected' and ${invoices.deductPeriod} = ${body.ssq}`;
    const rows = await tx
      .select()
      .from(invoices)
      .where(
        and(windowOf(agencyId, ent.id, body.ssq), can, body.all ? inputFilterOf(body) : inArray(invoices.id, body.ids)),
      )
      .orderBy(invoices.id)
      .limit(INVOICE_TICK_MAX + 1);
    if (rows.length > INVOICE_TICK_MAX) throw new AppError(CODE.BAD_REQUEST, INVOICE_POOL_MSG.tooMany);
    if (rows.length === 0)
      throw new AppError(CODE.CONFLICT, body.gx ? INVOICE_POOL_MSG.onlyZp : INVOICE_POOL_MSG.nothingToTick);
    return { ent, rows };
  });
  let results: { fphm: string; ok: boolean; msg: string }[] = [];
  try {
    const res = await withBureauSession(deps, inTx, prep.ent, async (s) => {
      const out: { fphm: string; ok: boolean; msg: string }[] = [];
      for (let i = 0; i < prep.rows.length; i += 500) {
        const part = prep.rows.slice(i, i + 500);
        const r = await deps.bureau.selectInvoices(s, { ssq: body.ssq, fphms: part.map((x) => x.fphm), gx: body.gx });
        if (r.status === 'refused') throw new AppError(CODE.CONFLICT, r.msg);
        out.push(...r.result.list);
      }
      return out;
    });
    if (!res.ok) throw new AppError(CODE.CONFLICT, res.msg);
    results = res.value;
  } catch (err) {
    if (err instanceof BureauError) throw new AppError(CODE.CONFLICT, err.message || BUREAU_MSG.busy);
    throw err;
  }
  const okSet = new Set(results.filter((r) => r.ok).map((r) => r.fphm));
  const done = prep.rows.filter((r) => okSet.has(r.fphm));
  const fail = results.filter((r) => !r.ok).map((r) => ({ fphm: r.fphm, msg: r.msg }));
  await inTx(async (tx) => {
    await restate(tx, agencyId, prep.ent.id, done, body.gx ? 'selected' : 'none', body.ssq);
    await audit(
      tx,
      req,
      { agencyId, userId: session.userId },
      body.gx ? 'invoice.input.select' : 'invoice.input.unselect',
      String(prep.ent.id),
      {
        aeiId: prep.ent.id,
        ssq: body.ssq,
        count: done.length,
        amount: done.reduce((s, r) => s + r.amount, 0),
        tax: done.reduce((s, r) => s + r.tax, 0),
        fphms: done.map((r) => r.fphm).slice(0, 100),
        failed: fail.length,
      },
    );
  });
  return { okNum: done.length, failNum: fail.length, fail };
});

const confirmStart = serve(inputConfirmV3Call, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = agencyOf(session);
  const wanted = [...new Set(body.aeiIds)];
  const ents = await tx
    .select({ id: enterprises.id, qymc: enterprises.qymc, qysh: enterprises.qysh })
    .from(enterprises)
    .where(and(poolClients(session), inArray(enterprises.id, wanted)));
  if (ents.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, INVOICE_POOL_MSG.notYours);
  const blocks = await contractBlocks(tx, agencyId, wanted, 'fp', chinaDate());
  const blocked = ents
    .filter((e) => blocks.has(e.id))
    .map((e) => ({ aeiId: e.id, qymc: e.qymc, qysh: e.qysh, warning: blocks.get(e.id) ?? '' }));
  const chosen = ents.filter((e) => !blocks.has(e.id) && e.qysh);
  if (chosen.length === 0) throw new AppError(CODE.CONFLICT, blocked[0]?.warning || INVOICE_POOL_MSG.noQysh);
  const ids = chosen.map((e) => e.id);
  await enforceEquity(tx, session, agencyId, BENEFIT_MENU.invoiceInput, ids);
  const sums = rowsOf<{ count: string; tax: string; amount: string }>(
    await tx.execute(sql`select count(*)::text as count, coalesce(sum(tax), 0)::text as tax, coalesce(sum(amount), 0)::text as amount
      from invoices where agency_id = ${agencyId} and direction = 'in' and deduct_state = 'selected'
        and deduct_period = ${body.ssq} and enterprise_id in (${sql.join(
          ids.map((x) => sql`${x}`),
          sql`, `,
        )})`),
  )[0];
  const run = await createRun(tx, { agencyId, userId: session.userId, kind: 'confirm', month: body.ssq }, ids);
  await audit(tx, req, { agencyId, userId: session.userId }, 'invoice.input.confirmStart', String(run.id), {
    ssq: body.ssq,
    aeiIds: ids,
    count: n(sums?.count),
    amount: n(sums?.amount),
    tax: n(sums?.tax),
  });
  afterCommit(() => deps.wakeJobs());
  return { taskId: String(run.id), total: ids.length, blocked };
});

const clients = serve(poolClientsCall, async ({ body, session, tx }) => {
  const where = and(
    poolClients(session),
    body.keyword
      ? sql`(${enterprises.qymc} like ${`%${body.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} or ${enterprises.qysh} = ${body.keyword})`
      : undefined,
  ) as SQL;
  const { pageNo, pageSize, cursor, ...filter } = body;
  return listPage(
    tx,
    { from: sql`${enterprises}`, where, sort: CLIENT_SORT, ask: { pageNo, pageSize, cursor }, filter },
    (ids) =>
      tx
        .select({ id: enterprises.id, qymc: enterprises.qymc, qysh: enterprises.qysh })
        .from(enterprises)
        .where(inArray(enterprises.id, ids)),
  );
});

/** Stops a run's queued jobs (not exposed: runs end by themselves; kept for the lead's cleanup). */
export async function stopRunJobs(tx: Queryable, runId: number) {
  await tx
    .update(jobs)
    .set({ state: 'done', result: { stopped: true }, finishedAt: new Date() })
    .where(and(eq(jobs.queue, INVOICE_RUN_QUEUE), sql`${jobs.key} like ${`${runId}:%`}`, eq(jobs.state, 'queued')));
}

export const invoicePoolCalls: Served[] = [
  send,
  status,
  latest,
  xxList,
  jxList,
  trend,
  breakdown,
  byKind,
  inputList,
  inputDetail,
  tick,
  confirmStart,
  clients,
];

export const invoicePoolModule: ServerModule = {
  name: 'invoice-pool',
  calls: invoicePoolCalls,
  jobs: [invoiceRunJob],
};
