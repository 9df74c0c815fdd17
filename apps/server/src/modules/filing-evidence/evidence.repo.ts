import { CODE, EVIDENCE_MSG, type FilingTaxType } from '@dzy/shared';
import { and, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { inScope, type Scope, type Tx } from '../../db/client.js';
import { enterprises, filedReturns, filingCells, filingPlanItems, filingPlans } from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';

/** One filed return whose receipt can be shown: from the agency's ledger or the synced roster. */
export interface FiledReturn {
  aeiId: number;
  qymc: string;
  qysh: string;
  taxType: FilingTaxType;
  skssqq: string;
  skssqz: string;
  pzxh: string;
  /** The ledger row (filed through a plan): where a fetched PDF is kept. Null: known from the roster only. */
  ledgerId: number | null;
  hasPdf: boolean;
}

/** Clients of the caller's agency the caller may see (tenant, not deleted, data scope). */
export const clientsInScope = (session: SessionCtx, agencyId: number) =>
  and(
    eq(enterprises.agencyId, agencyId),
    isNull(enterprises.deletedAt),
    dataScope(session, enterprises.allocateUser),
  ) as SQL;

const key = (r: { aeiId: number; taxType: string; skssqq: string }) => `${r.aeiId}|${r.taxType}|${r.skssqq}`;

/**
 * The filed returns matching `where*` (the ledger first: what this agency filed; then the roster's
 * cells with a 申报凭证序号, returns filed on the book or before the ledger existed), one per
 * (client, tax type, 所属期), ordered by client name, type and period.
 */
export async function filedReturnsOf(
  tx: Tx,
  session: SessionCtx,
  agencyId: number,
  f: { aeiIds?: number[]; taxType?: FilingTaxType; skssqq?: string; planId?: number; filingMonth?: string },
  limit: number,
): Promise<FiledReturn[]> {
  const scope = clientsInScope(session, agencyId);
  const ledgerWhere = and(
    eq(filedReturns.agencyId, agencyId),
    eq(filedReturns.state, 'filed'),
    ne(filedReturns.pzxh, ''),
    f.aeiIds ? inArray(filedReturns.enterpriseId, f.aeiIds) : undefined,
    f.taxType ? eq(filedReturns.taxType, f.taxType) : undefined,
    f.skssqq ? eq(filedReturns.skssqq, f.skssqq) : undefined,
    f.planId !== undefined || f.filingMonth
      ? sql`exists (select 1 from ${filingPlanItems} join ${filingPlans} on ${filingPlans.id} = ${filingPlanItems.planId}
          where ${filingPlanItems.agencyId} = ${agencyId} and ${filingPlanItems.enterpriseId} = ${filedReturns.enterpriseId}
          and ${filingPlanItems.taxType} = ${filedReturns.taxType} and ${filingPlanItems.skssqq} = ${filedReturns.skssqq}
          ${f.planId !== undefined ? sql`and ${filingPlans.id} = ${f.planId} and ${filingPlanItems.state} = 'filed'` : sql``}
          ${f.filingMonth ? sql`and ${filingPlans.filingMonth} = ${f.filingMonth}` : sql``})`
      : undefined,
    scope,
  );
  const ledger = await tx
    .select({
      aeiId: filedReturns.enterpriseId,
      qymc: enterprises.qymc,
      qysh: enterprises.qysh,
      taxType: filedReturns.taxType,
      skssqq: filedReturns.skssqq,
      skssqz: filedReturns.skssqz,
      pzxh: filedReturns.pzxh,
      ledgerId: filedReturns.id,
      hasPdf: sql<boolean>`${filedReturns.receiptPdf} is not null`,
    })
    .from(filedReturns)
    .innerJoin(enterprises, eq(enterprises.id, filedReturns.enterpriseId))
    .where(ledgerWhere)
    .limit(limit + 1);
  const out = new Map<string, FiledReturn>();
  for (const r of ledger) out.set(key(r), { ...r, taxType: r.taxType as FilingTaxType, pzxh: r.pzxh ?? '' });
  // A plan's returns are the ledger's; the roster adds the returns filed elsewhere.
  if (f.planId === undefined) {
    const cells = await tx
      .select({
        aeiId: filingCells.enterpriseId,
        qymc: enterprises.qymc,
        qysh: enterprises.qysh,
        taxType: filingCells.taxType,
        skssqq: filingCells.skssqq,
        skssqz: filingCells.skssqz,
        pzxh: filingCells.pzxh,
      })
      .from(filingCells)
      .innerJoin(enterprises, eq(enterprises.id, filingCells.enterpriseId))
      .where(
        and(
          eq(filingCells.agencyId, agencyId),
          ne(filingCells.pzxh, ''),
          f.aeiIds ? inArray(filingCells.enterpriseId, f.aeiIds) : undefined,
          f.taxType ? eq(filingCells.taxType, f.taxType) : undefined,
          f.skssqq ? eq(filingCells.skssqq, f.skssqq) : undefined,
          f.filingMonth ? eq(filingCells.filingMonth, f.filingMonth) : undefined,
          scope,
        ),
      )
      .orderBy(desc(filingCells.syncedAt))
      .limit(limit + 1);
    for (const c of cells) {
      const k = key(c);
      if (!out.has(k)) out.set(k, { ...c, ledgerId: null, hasPdf: false });
    }
  }
  return [...out.values()].sort(
    (a, b) =>
      a.qymc.localeCompare(b.qymc, 'zh') ||
      a.aeiId - b.aeiId ||
      a.taxType.localeCompare(b.taxType) ||
      a.skssqq.localeCompare(b.skssqq),
  );
}

const FETCH_TIMEOUT_MS = 15_000;
const isPdf = (b: Buffer) => b.length > 8 && b.subarray(0, 5).toString('latin1') === '%PDF-';

/**
 * The receipt PDF of a filed return: the stored copy, or fetched from the bureau's receipt address
 * (and stored on the ledger row, so the bureau is asked once). Throws EVIDENCE_MSG.fetchFailed when the
 * bureau cannot give it.
 */
export async function receiptPdfOf(deps: Deps, scope: Scope & { agencyId: number }, r: FiledReturn): Promise<Buffer> {
  const { agencyId } = scope;
  const scoped = <T>(fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, scope, fn);
  if (r.ledgerId !== null && r.hasPdf) {
    const [row] = await scoped((tx) =>
      tx
        .select({ pdf: filedReturns.receiptPdf })
        .from(filedReturns)
        .where(and(eq(filedReturns.agencyId, agencyId), eq(filedReturns.id, r.ledgerId as number))),
    );
    if (row?.pdf) return Buffer.from(row.pdf);
  }
  let pdf: Buffer;
  try {
    const res = await fetch(deps.bureau.receiptUrl(r.qysh, r.pzxh), { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    pdf = Buffer.from(await res.arrayBuffer());
    if (!res.ok || !isPdf(pdf)) throw new Error(`receipt ${res.status}`);
  } catch {
    throw new AppError(CODE.ERROR, EVIDENCE_MSG.fetchFailed);
  }
  if (r.ledgerId !== null) {
    const id = r.ledgerId;
    await scoped((tx) =>
      tx
        .update(filedReturns)
        .set({ receiptPdf: pdf })
        .where(and(eq(filedReturns.agencyId, agencyId), eq(filedReturns.id, id), isNull(filedReturns.receiptPdf))),
    );
  }
  return pdf;
}

/** Not found (or not the caller's: the two are never told apart). */
export const noReceipt = () => new AppError(CODE.NOT_FOUND, EVIDENCE_MSG.notFound);
