import {
  BUREAU_MSG,
  BureauError,
  CODE,
  type CollectedData,
  MSG_TYPE,
  TAX_DATA_HINTS,
  TAX_DATA_MSG,
  TAX_DATA_UNREACHABLE_HINT,
  type TaxDataFailure,
  type TaxDataSource,
  type TaxDataTab,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import { enterpriseTaxData, taxDataQueries } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { agencyOf, type EnterpriseRow, requireEnterprise } from '../customer/customer.repo.js';
import { withBureauSession } from './bureau-login.js';

/** The enterprise of a tax data query: in the tenant and the caller's data scope, with a tax number. */
export async function taxDataEnterprise(tx: Queryable, session: SessionCtx, aeiId: number): Promise<EnterpriseRow> {
  const ent = await requireEnterprise(tx, session, aeiId);
  if (!ent.qysh) throw new AppError(CODE.BAD_REQUEST, TAX_DATA_MSG.noTaxNumber);
  return ent;
}

export interface Stored<T> {
  source: Exclude<TaxDataSource, 'none'>;
  at: Date;
  value: T;
  params: Record<string, unknown>;
}

/** What the last batch check collected for the enterprise, if any. */
export async function checkData(tx: Queryable, ent: EnterpriseRow): Promise<{ data: CollectedData; at: Date } | null> {
  const [row] = await tx
    .select({ data: enterpriseTaxData.collected, at: enterpriseTaxData.collectedAt })
    .from(enterpriseTaxData)
    .where(and(eq(enterpriseTaxData.agencyId, ent.agencyId), eq(enterpriseTaxData.enterpriseId, ent.id)));
  return row ?? null;
}

/** The last live query of a tab, if any. */
export async function lastQuery<T>(tx: Queryable, ent: EnterpriseRow, tab: TaxDataTab): Promise<Stored<T> | null> {
  const [row] = await tx
    .select()
    .from(taxDataQueries)
    .where(
      and(
        eq(taxDataQueries.agencyId, ent.agencyId),
        eq(taxDataQueries.enterpriseId, ent.id),
        eq(taxDataQueries.tab, tab),
      ),
    );
  return row ? { source: 'query', at: row.queriedAt, value: row.result as T, params: row.params } : null;
}

/**
 * What a tab shows without asking the bureau: the newer of the last batch check's data (for the
 * kinds a check collects) and the last live query.
 */
export async function storedFor<T>(
  tx: Queryable,
  ent: EnterpriseRow,
  tab: TaxDataTab,
  fromCheck?: (c: CollectedData) => T,
): Promise<Stored<T> | null> {
  const query = await lastQuery<T>(tx, ent, tab);
  const check = fromCheck ? await checkData(tx, ent) : null;
  if (check && fromCheck && (!query || check.at > query.at)) {
    return { source: 'check', at: check.at, value: fromCheck(check.data), params: {} };
  }
  return query;
}

/** Keeps a live query's result as the tab's latest (one row per enterprise and tab). */
export async function saveQuery(
  tx: Tx,
  session: SessionCtx,
  ent: EnterpriseRow,
  tab: TaxDataTab,
  params: Record<string, unknown>,
  result: Record<string, unknown>,
): Promise<Date> {
  const at = new Date();
  const values = { params, result, userId: session.userId, queriedAt: at };
  await tx
    .insert(taxDataQueries)
    .values({ agencyId: agencyOf(session), enterpriseId: ent.id, tab, ...values })
    .onConflictDoUpdate({
      target: [taxDataQueries.agencyId, taxDataQueries.enterpriseId, taxDataQueries.tab],
      set: values,
    });
  return at;
}

export type LiveOutcome<T> = { ok: true; value: T } | { ok: false; failure: TaxDataFailure };

const failure = (msgType: number, msg: string): TaxDataFailure => ({
  msg_type: msgType,
  msg,
  hint: TAX_DATA_HINTS[msgType] ?? TAX_DATA_UNREACHABLE_HINT,
});

/** A bureau failure during a query, as the spec words it (tax-bureau.md §8). */
function queryFailure(err: BureauError): TaxDataFailure {
  if (err.kind === 'busy') return failure(MSG_TYPE.busy, BUREAU_MSG.busy);
  if (err.kind === 'unreachable') return { msg_type: 0, msg: err.message, hint: TAX_DATA_UNREACHABLE_HINT };
  return { msg_type: 0, msg: err.message || BUREAU_MSG.loginIdentityFailed, hint: TAX_DATA_UNREACHABLE_HINT };
}

/**
 * Runs one query at the bureau for the enterprise through 7d's withBureauSession: a session cached in
 * etax_sessions or a login with the stored credentials, once more after the bureau ended the session.
 * Given `inTx`, nothing holds the database while the bureau answers (the embedded one has one connection).
 */
export async function liveQuery<T>(
  deps: Deps,
  inTx: <R>(fn: (tx: Tx) => Promise<R>) => Promise<R>,
  ent: EnterpriseRow,
  run: (session: string) => Promise<T>,
): Promise<LiveOutcome<T>> {
  try {
    const r = await withBureauSession(deps, inTx, ent, run);
    return r.ok ? { ok: true, value: r.value } : { ok: false, failure: failure(r.msgType, r.msg) };
  } catch (err) {
    if (err instanceof BureauError) return { ok: false, failure: queryFailure(err) };
    throw err;
  }
}

export interface TabAnswer<V> {
  aeiId: number;
  qymc: string;
  qysh: string;
  source: TaxDataSource;
  collectedAt: string | null;
  failure: TaxDataFailure | null;
  value: V;
  params: Record<string, unknown>;
}

/**
 * One tab of /declare/sjcx: with `live`, ask the bureau and keep the answer; otherwise (or when the
 * bureau failed, then with `failure` beside it) what is stored.
 */
export async function tabQuery<V extends Record<string, unknown>>(
  ctx: {
    session: SessionCtx;
    deps: Deps;
    inTx: <R>(fn: (tx: Tx) => Promise<R>) => Promise<R>;
  },
  aeiId: number,
  opts: {
    tab: TaxDataTab;
    live: boolean;
    params: Record<string, unknown>;
    empty: V;
    fromCheck?: (c: CollectedData) => V;
    run: (bureauSession: string) => Promise<V>;
  },
): Promise<TabAnswer<V>> {
  const { session, deps, inTx } = ctx;
  const ent = await inTx((tx) => taxDataEnterprise(tx, session, aeiId));
  const head = { aeiId: ent.id, qymc: ent.qymc, qysh: ent.qysh };
  let failed: TaxDataFailure | null = null;
  if (opts.live) {
    const r = await liveQuery(deps, inTx, ent, opts.run);
    if (r.ok) {
      const at = await inTx((tx) => saveQuery(tx, session, ent, opts.tab, opts.params, r.value));
      return {
        ...head,
        source: 'query',
        collectedAt: at.toISOString(),
        failure: null,
        value: r.value,
        params: opts.params,
      };
    }
    failed = r.failure;
  }
  const stored = await inTx((tx) => storedFor<V>(tx, ent, opts.tab, opts.fromCheck));
  return {
    ...head,
    source: stored?.source ?? 'none',
    collectedAt: stored?.at.toISOString() ?? null,
    failure: failed,
    value: stored ? { ...opts.empty, ...stored.value } : opts.empty,
    params: stored?.params ?? {},
  };
}
