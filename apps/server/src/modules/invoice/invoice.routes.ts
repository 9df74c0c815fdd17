import {
  BENEFIT_MENU,
  batchRateCall,
  billingSummaryCall,
  buyerListCall,
  buyerSaveCall,
  CODE,
  INVOICE_OUT_MSG,
  issueCall,
  type OutFilter,
  outDetailCall,
  type outFilterSchema,
  outListCall,
  previewCall,
  redLetterCall,
  taxFenToYuan,
  taxYuanToFen,
} from '@dzy/shared';
import { and, asc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.js';
import { countOf, listPage, type Sort } from '../../db/paging.js';
import { invoiceBuyers, invoiceMonthStats, invoiceRequests, invoiceRuns, invoices } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import { type Served, type ServerModule, serve, serveStaged } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { agencyOf, type EnterpriseRow } from '../customer/customer.repo.js';
import { enforceEquity } from '../customer/customer.service.js';
import { invoiceFileRoutes } from './invoice.files.js';
import { invoiceIssueJob, settleIssueRun } from './invoice.jobs.js';
import {
  atBureau,
  detailOf,
  findOutInvoice,
  invoiceBlock,
  invoiceClient,
  invoiceMethod,
  kpBody,
  rememberBuyer,
  requireIssuableMethod,
  rowsById,
} from './invoice.repo.js';
import { computedOrRefuse, newRequest, redLetter, requestById, sendBlue, userName } from './invoice.service.js';

const SORTS: Record<'kprq' | 'jshj', Record<'asc' | 'desc', Sort>> = {
  kprq: {
    desc: { name: 'out-kprq-d', keys: [invoices.kprq, invoices.id], desc: true },
    asc: { name: 'out-kprq-a', keys: [invoices.kprq, invoices.id], desc: false },
  },
  jshj: {
    desc: { name: 'out-jshj-d', keys: [invoices.total, invoices.id], desc: true },
    asc: { name: 'out-jshj-a', keys: [invoices.total, invoices.id], desc: false },
  },
};

/** The list's filter (one client, one month, issued invoices) as a condition. */
export function outWhere(agencyId: number, ent: EnterpriseRow, f: z.output<typeof outFilterSchema>): SQL {
  const min = f.minJshj ? taxYuanToFen(f.minJshj) : null;
  const max = f.maxJshj ? taxYuanToFen(f.maxJshj) : null;
  return and(
    eq(invoices.agencyId, agencyId),
    eq(invoices.enterpriseId, ent.id),
    eq(invoices.direction, 'out'),
    eq(invoices.month, f.month),
    f.fplx ? eq(invoices.fplx, f.fplx) : undefined,
    f.state ? eq(invoices.state, f.state) : undefined,
    nameOrTaxNumber(invoices.cpName, invoices.cpTaxNo, f.buyer),
    f.fphm ? sql`${invoices.fphm} like ${`%${f.fphm}%`}` : undefined,
    min !== null ? gte(invoices.total, min) : undefined,
    max !== null ? lte(invoices.total, max) : undefined,
  ) as SQL;
}
export const sortOf = (f: Pick<z.output<typeof outFilterSchema>, 'sort' | 'order'>) => SORTS[f.sort][f.order];

const list = serve(outListCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const ent = await invoiceClient(tx, session, body.aeiId);
  const { pageNum, pageSize, cursor, ...filter } = body;
  const where = outWhere(agencyId, ent, filter);
  const page = await listPage(
    tx,
    { from: sql`${invoices}`, where, sort: sortOf(filter), ask: { pageNo: pageNum, pageSize, cursor }, filter },
    (ids) => rowsById(tx, agencyId, ids),
  );
  const live = sql`${invoices.state} <> 'void'`;
  const { sums } = await countOf(tx, sql`${invoices}`, where, {
    hjje: sql`coalesce(sum(${invoices.amount}) filter (where ${live}), 0)`,
    hjse: sql`coalesce(sum(${invoices.tax}) filter (where ${live}), 0)`,
    jshj: sql`coalesce(sum(${invoices.total}) filter (where ${live}), 0)`,
  });
  return {
    list: page.list.map(({ id, ...r }) => ({ ...r, id })),
    total: page.total,
    cursor: page.cursor,
    sums: {
      hjje: taxFenToYuan(Number(sums.hjje)),
      hjse: taxFenToYuan(Number(sums.hjse)),
      jshj: taxFenToYuan(Number(sums.jshj)),
    },
  };
});

const detail = serve(outDetailCall, async ({ body, session, tx }) => {
  const { inv, ent } = await findOutInvoice(tx, session, body.id);
  return detailOf(tx, inv, ent);
});

const summary = serveStaged(billingSummaryCall, async ({ body, session, deps, inTx }) => {
  const agencyId = agencyOf(session);
  const { ent, head } = await inTx(async (tx) => {
    const ent = await invoiceClient(tx, session, body.aeiId);
    return { ent, head: await monthFigures(tx, agencyId, ent.id, body.month) };
  });
  const { blocked, method } = await inTx(async (tx) => ({
    blocked: await invoiceBlock(tx, ent, chinaDate()),
    method: await invoiceMethod(tx, ent),
  }));
  let quota = null;
  let quotaMsg = '';
  if (body.live) {
    const q = await atBureau(deps, inTx, ent, (s) => deps.bureau.invoiceQuota(s, body.month));
    if (q.ok) quota = { total: q.value.total, used: q.value.used, remaining: q.value.remaining };
    else quotaMsg = q.msg || INVOICE_OUT_MSG.quotaUnknown;
  }
  return {
    aeiId: ent.id,
    qymc: ent.qymc,
    qysh: ent.qysh,
    nsrlx: ent.qyxz === '0' ? ('0' as const) : ('1' as const),
    ...head,
    quota,
    quotaMsg,
    blocked,
    kpfs: method.kpfs,
    kpfsLabel: method.label,
    kpfsBlocked: method.refusal,
  };
});

/** A client-month's issued invoices: count and sums from the invoices, by kind and rate from the rollup. */
async function monthFigures(tx: Queryable, agencyId: number, enterpriseId: number, month: string) {
  const base = and(
    eq(invoices.agencyId, agencyId),
    eq(invoices.enterpriseId, enterpriseId),
    eq(invoices.direction, 'out'),
    eq(invoices.month, month),
  ) as SQL;
  const live = sql`${invoices.state} <> 'void'`;
  const { total, sums } = await countOf(tx, sql`${invoices}`, base, {
    hjje: sql`coalesce(sum(${invoices.amount}) filter (where ${live}), 0)`,
    hjse: sql`coalesce(sum(${invoices.tax}) filter (where ${live}), 0)`,
    jshj: sql`coalesce(sum(${invoices.total}) filter (where ${live}), 0)`,
  });
  const byRate = await tx
    .select()
    .from(invoiceMonthStats)
    .where(
      and(
        eq(invoiceMonthStats.agencyId, agencyId),
        eq(invoiceMonthStats.enterpriseId, enterpriseId),
        eq(invoiceMonthStats.month, month),
        eq(invoiceMonthStats.direction, 'out'),
      ),
    )
    .orderBy(asc(invoiceMonthStats.fplx), asc(invoiceMonthStats.rate));
  return {
    count: total,
    hjje: taxFenToYuan(Number(sums.hjje)),
    hjse: taxFenToYuan(Number(sums.hjse)),
    jshj: taxFenToYuan(Number(sums.jshj)),
    byRate: byRate.map((r) => ({
      fplx: r.fplx,
      slv: r.rate,
      count: r.count,
      je: taxFenToYuan(r.amount),
      se: taxFenToYuan(r.tax),
    })),
  };
}

const preview = serve(previewCall, async ({ body, session, tx }) => {
  const ent = await invoiceClient(tx, session, body.aeiId);
  const c = computedOrRefuse(body, ent);
  const k = kpBody(c, body, '');
  return {
    lines: c.lines.map((l, i) => ({
      xh: l.xh,
      spmc: l.spmc,
      ssflbm: l.ssflbm,
      ggxh: l.ggxh,
      dw: l.dw,
      sl: l.sl,
      dj: l.dj,
      je: k.lines[i]?.je ?? '',
      slv: l.rate,
      se: k.lines[i]?.se ?? '',
    })),
    hjje: taxFenToYuan(c.amount),
    hjse: taxFenToYuan(c.tax),
    jshj: taxFenToYuan(c.total),
    jshjUpper: c.totalUpper,
    xfmc: ent.qymc,
    xfsh: ent.qysh,
  };
});

/**
 * 开具: the request row (with the client's request id) commits first; then fp/kp; then the invoice through
 * the store, the buyer remembered, the audit. The same request id again: a pending one is sent again (the
 * bureau returns the first invoice if it had issued it), a done one answers its invoice, a failed one its
 * refusal — never a second invoice.
 */
const issue = serveStaged(issueCall, async ({ body, session, deps, inTx, req }) => {
  const agencyId = agencyOf(session);
  const prepared = await inTx(async (tx) => {
    const ent = await invoiceClient(tx, session, body.aeiId);
    await tx.execute(sql`select pg_advisory_xact_lock(${7_016}, hashtext(${body.requestId}))`);
    const known = await requestById(tx, agencyId, body.requestId);
    if (known) {
      if (known.enterpriseId !== ent.id || known.kind !== 'blue') throw new AppError(CODE.CONFLICT, '请求号已被使用');
      if (known.state === 'failed') throw new AppError(CODE.BAD_REQUEST, known.msg);
      return { ent, request: known };
    }
    const blocked = await invoiceBlock(tx, ent, chinaDate());
    if (blocked) throw new AppError(CODE.CONFLICT, blocked);
    await requireIssuableMethod(tx, ent, body.kpfs);
    await enforceEquity(tx, session, agencyId, BENEFIT_MENU.invoiceIssue, [ent.id]);
    const c = computedOrRefuse(body, ent);
    const kpr = await userName(tx, session.userId);
    const request = await newRequest(tx, {
      agencyId,
      enterpriseId: ent.id,
      requestId: body.requestId,
      kind: 'blue',
      payload: { ...kpBody(c, body, kpr) },
      createdBy: session.userId,
    });
    return { ent, request };
  });
  const { ent, request } = prepared;
  let invoiceId = request.invoiceId;
  let again = request.state === 'done';
  if (request.state !== 'done' || !invoiceId) {
    const out = await sendBlue(deps, inTx, ent, request, session.userId);
    if (out.status === 'lost') {
      await inTx((tx) =>
        audit(tx, req, { agencyId, userId: session.userId }, 'invoice.issue_pending', body.requestId, {
          aeiId: ent.id,
          msg: out.msg,
        }),
      );
      throw new AppError(CODE.CONFLICT, INVOICE_OUT_MSG.pending);
    }
    if (out.status === 'refused') {
      await inTx((tx) =>
        audit(tx, req, { agencyId, userId: session.userId }, 'invoice.issue_refused', body.requestId, {
          aeiId: ent.id,
          msg: out.msg,
        }),
      );
      throw new AppError(CODE.BAD_REQUEST, out.msg);
    }
    invoiceId = out.invoiceId;
    again = out.again;
    const inv = out.invoice;
    await inTx(async (tx) => {
      if (body.remember) await rememberBuyer(tx, ent, body.buyer);
      await audit(tx, req, { agencyId, userId: session.userId }, 'invoice.issue', inv.fphm, {
        aeiId: ent.id,
        requestId: body.requestId,
        fplx: inv.fplx,
        gfmc: inv.gfmc,
        gfsh: inv.gfsh,
        hjje: inv.hjje,
        hjse: inv.hjse,
        jshj: inv.jshj,
        again,
      });
    });
  }
  const id = invoiceId as number;
  const invoice = await inTx(async (tx) => {
    const { inv, ent: e } = await findOutInvoice(tx, session, id);
    return detailOf(tx, inv, e);
  });
  return { requestId: body.requestId, again, invoice };
});

const red = serveStaged(redLetterCall, async ({ body, session, deps, inTx, req }) => {
  const agencyId = agencyOf(session);
  const { inv, ent } = await inTx(async (tx) => {
    const found = await findOutInvoice(tx, session, body.id);
    if (found.inv.state !== 'normal' || found.inv.total <= 0)
      throw new AppError(CODE.CONFLICT, INVOICE_OUT_MSG.notBlue);
    const blocked = await invoiceBlock(tx, found.ent, chinaDate());
    if (blocked) throw new AppError(CODE.CONFLICT, blocked);
    await enforceEquity(tx, session, agencyId, BENEFIT_MENU.invoiceRed, [found.ent.id]);
    return found;
  });
  let out: { qrdbh: string; redId: number };
  try {
    out = await redLetter(deps, inTx, ent, inv, {
      reason: body.reason,
      requestId: body.requestId,
      userId: session.userId,
    });
  } catch (err) {
    if (err instanceof AppError) {
      const msg = err.message;
      await inTx((tx) =>
        audit(tx, req, { agencyId, userId: session.userId }, 'invoice.red_refused', inv.fphm, {
          aeiId: ent.id,
          reason: body.reason,
          msg,
        }),
      );
    }
    throw err;
  }
  return inTx(async (tx) => {
    const blue = await findOutInvoice(tx, session, inv.id);
    const redInv = await findOutInvoice(tx, session, out.redId);
    await audit(tx, req, { agencyId, userId: session.userId }, 'invoice.red', inv.fphm, {
      aeiId: ent.id,
      reason: body.reason,
      qrdbh: out.qrdbh,
      hzfphm: redInv.inv.fphm,
      hjje: taxFenToYuan(redInv.inv.amount),
      hjse: taxFenToYuan(redInv.inv.tax),
      jshj: taxFenToYuan(redInv.inv.total),
    });
    return {
      qrdbh: out.qrdbh,
      blue: await detailOf(tx, blue.inv, blue.ent),
      red: await detailOf(tx, redInv.inv, redInv.ent),
    };
  });
});

const BUYER_SORT: Sort = { name: 'buyer-recent', keys: [invoiceBuyers.lastUsedAt, invoiceBuyers.id], desc: true };

const buyers = serve(buyerListCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const ent = await invoiceClient(tx, session, body.aeiId);
  const where = and(
    eq(invoiceBuyers.agencyId, agencyId),
    eq(invoiceBuyers.enterpriseId, ent.id),
    nameOrTaxNumber(invoiceBuyers.name, invoiceBuyers.taxNo, body.keyword),
  ) as SQL;
  const page = await listPage(
    tx,
    {
      from: sql`${invoiceBuyers}`,
      where,
      sort: BUYER_SORT,
      ask: { pageNo: body.pageNum, pageSize: body.pageSize, cursor: body.cursor },
      filter: { aeiId: ent.id, keyword: body.keyword },
    },
    async (ids) =>
      (
        await tx
          .select()
          .from(invoiceBuyers)
          .where(
            and(
              eq(invoiceBuyers.agencyId, agencyId),
              sql`${invoiceBuyers.id} in (${sql.join(
                ids.map((i) => sql`${i}`),
                sql`, `,
              )})`,
            ),
          )
      ).map((b) => ({
        id: b.id,
        name: b.name,
        taxNo: b.taxNo,
        addressPhone: b.addressPhone,
        bankAccount: b.bankAccount,
        email: b.email,
        lastUsedAt: b.lastUsedAt.toISOString(),
      })),
  );
  return page;
});

const saveBuyers = serve(buyerSaveCall, async ({ body, session, tx, req }) => {
  const ent = await invoiceClient(tx, session, body.aeiId);
  for (const b of body.list) await rememberBuyer(tx, ent, b);
  await audit(
    tx,
    req,
    { agencyId: ent.agencyId, userId: session.userId },
    'invoice.buyers_save',
    `enterprise:${ent.id}`,
    {
      count: body.list.length,
    },
  );
  return { saved: body.list.length };
});

/** A batch issue run of the caller's agency (its client in the caller's scope), or 404. */
export async function findRun(tx: Queryable, session: SessionCtx, runId: number) {
  const agencyId = agencyOf(session);
  const [run] = await tx
    .select()
    .from(invoiceRuns)
    .where(and(eq(invoiceRuns.agencyId, agencyId), eq(invoiceRuns.id, runId), eq(invoiceRuns.kind, 'issue')));
  if (!run) throw new AppError(CODE.NOT_FOUND, INVOICE_OUT_MSG.runNotFound);
  const [first] = await tx
    .select({ enterpriseId: invoiceRequests.enterpriseId })
    .from(invoiceRequests)
    .where(and(eq(invoiceRequests.agencyId, agencyId), eq(invoiceRequests.runId, run.id)))
    .limit(1);
  if (!first) throw new AppError(CODE.NOT_FOUND, INVOICE_OUT_MSG.runNotFound);
  try {
    await invoiceClient(tx, session, first.enterpriseId);
  } catch {
    throw new AppError(CODE.NOT_FOUND, INVOICE_OUT_MSG.runNotFound);
  }
  return { run, enterpriseId: first.enterpriseId };
}

const batchRate = serve(batchRateCall, async ({ body, session, tx }) => {
  const found = await findRun(tx, session, body.runId);
  const { enterpriseId } = found;
  const run = await settleIssueRun(tx, found.run);
  const [c] = (
    (await tx.execute(sql`
      select count(*) filter (where state = 'done')::int as ok,
             count(*) filter (where state = 'failed')::int as failed,
             count(*) filter (where state = 'failed' and (payload->>'parsed') = 'false')::int as bad,
             coalesce(sum(jsonb_array_length(coalesce(payload->'rows', '[]'::jsonb))), 0)::int as rows
      from invoice_requests where agency_id = ${run.agencyId} and run_id = ${run.id}`)) as unknown as {
      rows: unknown[];
    }
  ).rows as { ok: number; failed: number; bad: number; rows: number }[];
  const done = await tx
    .select({ fphm: invoices.fphm })
    .from(invoiceRequests)
    .innerJoin(invoices, eq(invoices.id, invoiceRequests.invoiceId))
    .where(and(eq(invoiceRequests.agencyId, run.agencyId), eq(invoiceRequests.runId, run.id)))
    .orderBy(asc(invoiceRequests.id))
    .limit(200);
  return {
    runId: run.id,
    aeiId: enterpriseId,
    state: run.state,
    totalNum: run.totalNum,
    successNum: Number(c?.ok ?? 0),
    failNum: Number(c?.failed ?? 0),
    rowNum: Number(c?.rows ?? 0),
    hasFailFile: Number(c?.failed ?? 0) > 0,
    fphms: done.map((d) => d.fphm),
  };
});

export type { OutFilter };

export const invoiceCalls: Served[] = [list, detail, summary, preview, issue, red, buyers, saveBuyers, batchRate];

export const invoiceModule: ServerModule = {
  name: 'invoice',
  calls: invoiceCalls,
  routes: invoiceFileRoutes,
  jobs: [invoiceIssueJob],
};
