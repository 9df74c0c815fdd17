import {
  type Arrear,
  BUREAU_MSG,
  daysOverdue,
  duePeriod,
  type FilingRoster,
  type FilingTaxType,
  filingMonthOf,
  LBSJC_PUSH_TYPE,
  LBSJC_QUEUE,
  type LbsjcKind,
  type LbsjcRate,
  MSG_TYPE,
  ZSXM_NAME_TYPES,
} from '@dzy/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  enterpriseFilingSettings,
  enterprises,
  etaxSessions,
  lbsjcBatches,
  lbsjcItems,
  lbsjcResults,
} from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate, type JobHandler, RetryableError } from '../../plugins/jobs.js';
import {
  type EnterpriseRow,
  liveSessionOf,
  readSessionBlob,
  type TxAccess,
  withBureauSession,
} from '../declare/bureau-login.js';
import { CHECK_MAX_ATTEMPTS, checkConcurrency } from '../declare/check.jobs.js';
import { exhausted, retryable, serviceExpired } from '../declare/check.service.js';

export interface LbsjcPayload {
  batchId: number;
  enterpriseId: number;
}

/** One return found, amounts in fen. */
export interface FoundReturn {
  taxType: FilingTaxType;
  skssqq: string;
  skssqz: string;
  sbqx: string;
  state: string;
  amount: number;
  znj: number;
  daysOverdue: number;
}

type Outcome = { ok: true; found: FoundReturn[] } | { ok: false; msgType: number; msg: string };

const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

const fen = (yuan: string) => Math.round(Number(yuan || '0') * 100);

export type BatchRow = typeof lbsjcBatches.$inferSelect;
export function rateOf(b: BatchRow): LbsjcRate {
  const completeNum = b.successNum + b.failNum;
  return {
    batchId: b.id,
    kind: b.kind,
    filingMonth: b.filingMonth,
    state: b.state,
    completeNum,
    successNum: b.successNum,
    failNum: b.failNum,
    totalNum: b.totalNum,
    foundNum: b.foundNum,
    rate: b.totalNum === 0 ? 100 : Math.floor((completeNum * 100) / b.totalNum),
  };
}

/**
 * What the bureau's answers say is missed or unpaid. 未申报: every return of the month's roster not
 * filed, with the bureau's state (wsb still in time, yqwsb overdue), and every earlier return the roster
 * carries (yqwsb). 未缴款: the month's returns filed with tax to pay (ysb), and the arrears (qsxx: filed,
 * unpaid, past the deadline; state qs, with the late fee), once per tax type and period.
 */
export function findReturns(
  kind: LbsjcKind,
  roster: FilingRoster,
  arrears: Arrear[],
  ignored: ReadonlySet<string>,
  today: string,
): FoundReturn[] {
  const out = new Map<string, FoundReturn>();
  const put = (r: FoundReturn) => {
    if (!ignored.has(r.taxType)) out.set(`${r.taxType}:${r.skssqq}`, r);
  };
  for (const i of roster.items) {
    const base = { taxType: i.type, skssqq: i.skssqq, skssqz: i.skssqz, sbqx: i.sbqx, znj: 0 };
    if (kind === 'wsb' && (i.state === 'wsb' || i.state === 'yqwsb')) {
      put({
        ...base,
        state: i.state,
        amount: fen(i.ybtse),
        daysOverdue: i.state === 'yqwsb' ? Math.max(1, daysOverdue(i.sbqx, today)) : 0,
      });
    }
    if (kind === 'wjk' && i.state === 'ysb' && fen(i.ybtse) > 0) {
      put({ ...base, state: 'ysb', amount: fen(i.ybtse), daysOverdue: daysOverdue(i.sbqx, today) });
    }
  }
  if (kind === 'wjk') {
    for (const a of arrears) {
      const type = ZSXM_NAME_TYPES[a.zsxmMc];
      if (!type) continue;
      const reg = roster.registrations.find((r) => r.type === type);
      const sbqx = reg ? (duePeriod(reg, filingMonthOf(reg, a.skssqz))?.sbqx ?? '') : '';
      put({
        taxType: type,
        skssqq: a.skssqq,
        skssqz: a.skssqz,
        sbqx,
        state: 'qs',
        amount: fen(a.qsje),
        znj: fen(a.znj),
        daysOverdue: sbqx ? daysOverdue(sbqx, today) : 0,
      });
    }
  }
  return [...out.values()];
}

async function checkOne(
  deps: Deps,
  db: TxAccess,
  e: EnterpriseRow,
  kind: LbsjcKind,
  month: string,
  cached: string | null,
  ignored: ReadonlySet<string>,
): Promise<Outcome> {
  const today = chinaDate();
  if (serviceExpired(e, today)) return { ok: false, msgType: MSG_TYPE.serviceExpired, msg: BUREAU_MSG.serviceExpired };
  const res = await withBureauSession(
    deps,
    db,
    e,
    async (session) => {
      const roster = await deps.bureau.filingRoster(session, month);
      const arrears = kind === 'wjk' ? await deps.bureau.arrears(session) : [];
      return { roster, arrears };
    },
    { cached },
  );
  if (!res.ok) return res;
  return { ok: true, found: findReturns(kind, res.value.roster, res.value.arrears, ignored, today) };
}

async function record(tx: Tx, agencyId: number, p: LbsjcPayload, o: Outcome): Promise<BatchRow | null> {
  const found = o.ok ? o.found : [];
  const [res] = await tx
    .update(lbsjcResults)
    .set({
      msgType: o.ok ? MSG_TYPE.success : o.msgType,
      msg: o.ok ? '' : o.msg,
      foundNum: found.length,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(lbsjcResults.batchId, p.batchId),
        eq(lbsjcResults.enterpriseId, p.enterpriseId),
        isNull(lbsjcResults.msgType),
      ),
    )
    .returning({ id: lbsjcResults.id });
  if (!res) return null; // already recorded: counted once
  if (found.length > 0) {
    await tx
      .insert(lbsjcItems)
      .values(found.map((f) => ({ agencyId, batchId: p.batchId, enterpriseId: p.enterpriseId, ...f })))
      .onConflictDoNothing();
  }
  const [b] = await tx
    .update(lbsjcBatches)
    .set({
      successNum: sql`${lbsjcBatches.successNum} + ${o.ok ? 1 : 0}`,
      failNum: sql`${lbsjcBatches.failNum} + ${o.ok ? 0 : 1}`,
      foundNum: sql`${lbsjcBatches.foundNum} + ${found.length}`,
    })
    .where(eq(lbsjcBatches.id, p.batchId))
    .returning();
  if (!b) return null;
  if (b.successNum + b.failNum >= b.totalNum && b.state === 'running') {
    const [done] = await tx
      .update(lbsjcBatches)
      .set({ state: 'done', finishedAt: new Date() })
      .where(eq(lbsjcBatches.id, b.id))
      .returning();
    return done ?? b;
  }
  return b;
}

export async function publishRate(deps: Deps, b: BatchRow) {
  try {
    await deps.push.publish([b.userId], { type: LBSJC_PUSH_TYPE, data: { ...rateOf(b) } });
  } catch {
    // The page polls as well.
  }
}

/**
 * One client of a 漏报检查 (queue filing-lbsjc), the batch check's pattern: per-agency cap, lease and
 * heartbeat by the runner, skipped when already recorded (a resumed job), a busy bureau retried with
 * backoff; no transaction is held while the bureau answers.
 */
export const lbsjcJob: JobHandler = {
  queue: LBSJC_QUEUE,
  get perAgencyCap() {
    return checkConcurrency();
  },
  get workers() {
    return checkConcurrency();
  },
  get leaseSeconds() {
    return envInt('LBSJC_LEASE_SECONDS', envInt('CHECK_LEASE_SECONDS', 30));
  },
  maxAttempts: CHECK_MAX_ATTEMPTS,
  async run(ctx) {
    const { deps, job } = ctx;
    const p = job.payload as unknown as LbsjcPayload;
    const start = await ctx.inTx(async (tx) => {
      const [row] = await tx
        .select({
          state: lbsjcBatches.state,
          kind: lbsjcBatches.kind,
          month: lbsjcBatches.filingMonth,
          msgType: lbsjcResults.msgType,
          ent: enterprises,
          sessionEnc: etaxSessions.sessionEnc,
          ignored: enterpriseFilingSettings.ignoredTypes,
        })
        .from(lbsjcResults)
        .innerJoin(lbsjcBatches, eq(lbsjcBatches.id, lbsjcResults.batchId))
        .innerJoin(enterprises, eq(enterprises.id, lbsjcResults.enterpriseId))
        .leftJoin(etaxSessions, liveSessionOf(enterprises))
        .leftJoin(
          enterpriseFilingSettings,
          and(
            eq(enterpriseFilingSettings.agencyId, enterprises.agencyId),
            eq(enterpriseFilingSettings.enterpriseId, enterprises.id),
          ),
        )
        .where(and(eq(lbsjcResults.batchId, p.batchId), eq(lbsjcResults.enterpriseId, p.enterpriseId)));
      return row && row.state === 'running' && row.msgType === null ? row : null;
    });
    if (!start) return { skipped: true };
    let outcome: Outcome;
    try {
      outcome = await checkOne(
        deps,
        ctx.inTx,
        start.ent,
        start.kind,
        start.month,
        readSessionBlob(deps, start.sessionEnc),
        new Set(start.ignored ?? []),
      );
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      if (retryable(err) && job.attempts < CHECK_MAX_ATTEMPTS) throw new RetryableError(msg);
      const x = exhausted();
      outcome = { ok: false, msgType: x.msgType, msg: x.msg };
    }
    const after = await ctx.inTx(async (tx) => {
      const row = await record(tx, job.agencyId, p, outcome);
      await ctx.doneIn(tx, { msgType: outcome.ok ? 1 : outcome.msgType });
      return row;
    });
    if (after) await publishRate(deps, after);
    return { msgType: outcome.ok ? 1 : outcome.msgType };
  },
};
