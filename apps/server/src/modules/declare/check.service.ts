import { BUREAU_MSG, BureauError, type CollectedData, MSG_TYPE, type MsgType } from '@dzy/shared';
import type { Deps } from '../../plugins/calls.js';
import { chinaDate } from '../../plugins/jobs.js';
import { type EnterpriseRow, personalLoginInput, type TxAccess, withBureauSession } from './bureau-login.js';

/**
 * One enterprise's batch check (tax-bureau.md §4 msg_type, §8 messages), in the spec's order:
 * service expired (8) → e-tax account incomplete (2) → e-tax login (4 mismatch, 5 trusted-login
 * failure) → personal tax (3 incomplete, 7 login failure) → collect the data → success (1).
 * A busy or unreachable bureau throws BureauError: the job retries with backoff and gives 6 at the end.
 */

export interface CheckOutcome {
  msgType: MsgType;
  msg: string;
  /** The personal-tax part: '1' logged in, '3' incomplete, '7' login failed, '' not reached. */
  geshuiType: '' | '1' | '3' | '7';
  collected?: CollectedData;
  /** A new bureau session to cache, written with the outcome (one transaction fewer per enterprise). */
  session?: string;
}

/** The membership has ended: its expiry date is before today, or its status qyzt is '3' (expired). */
export const serviceExpired = (e: Pick<EnterpriseRow, 'hydqsj' | 'qyzt'>, today = chinaDate()) =>
  e.qyzt === '3' || (e.hydqsj !== null && e.hydqsj < today);

/** The month after `ssq` ends the filing window of that period: filed returns are looked up till then. */
export function filingWindow(ssq: string): { from: string; to: string } {
  const [y, m] = ssq.split('-').map(Number) as [number, number];
  const end = new Date(Date.UTC(y, m + 1, 0)); // last day of the following month
  return { from: `${ssq}-01`, to: end.toISOString().slice(0, 10) };
}

const fail = (msgType: MsgType, msg: string, geshuiType: CheckOutcome['geshuiType'] = ''): CheckOutcome => ({
  msgType,
  msg,
  geshuiType,
});

export async function checkEnterprise(
  deps: Deps,
  db: TxAccess,
  e: EnterpriseRow,
  ssq: string,
  opts: { cached?: string | null; today?: string } = {},
): Promise<CheckOutcome> {
  const today = opts.today ?? chinaDate();
  if (serviceExpired(e, today)) return fail(MSG_TYPE.serviceExpired, BUREAU_MSG.serviceExpired);
  if (!e.qysh) return fail(MSG_TYPE.etaxIncomplete, BUREAU_MSG.etaxIncomplete);

  let fresh: string | undefined;
  const keep = (s: string) => {
    fresh = s;
  };
  const res = await withBureauSession(
    deps,
    db,
    e,
    async (session) => {
      // Personal tax first: it decides the outcome before the (longer) collection runs.
      const personal = personalLoginInput(deps, e);
      if (!personal) return fail(MSG_TYPE.personalIncomplete, BUREAU_MSG.personalIncomplete, '3');
      const gs = await deps.bureau.personalTaxLogin(personal).catch((err: unknown) => {
        // A refusal may come as a failure error as well as an answer.
        if (err instanceof BureauError && err.kind === 'failed') return { ok: false as const, msg: err.message };
        throw err;
      });
      if (!gs.ok) {
        const msg = gs.msg.startsWith('个税登录失败') ? gs.msg : `个税登录失败：${gs.msg}`;
        return fail(MSG_TYPE.personalLoginFailed, msg, '7');
      }
      // One call after another: the agency's cap C bounds the calls in flight at the bureau.
      const b = deps.bureau;
      const nsrjcxx = await b.taxpayerInfo(session);
      const sfzhd = await b.registrations(session);
      const wddb = await b.todos(session);
      const wsbList = await b.unfiledReturns(session);
      const qsxxList = await b.arrears(session);
      const cxsysbList = await b.filedReturns(session, filingWindow(ssq));
      const collected: CollectedData = { nsrjcxx, sfzhd, wddb, wsbList, qsxxList, cxsysbList };
      return { msgType: MSG_TYPE.success, msg: MSG_TYPE_SUCCESS_MSG, geshuiType: '1', collected } as CheckOutcome;
    },
    { cached: opts.cached, keep },
  );
  const out = res.ok ? res.value : fail(res.msgType, res.msg);
  return fresh ? { ...out, session: fresh } : out;
}

export const MSG_TYPE_SUCCESS_MSG = '检查成功';

/** Whether a failure is worth another try later: any bureau failure left (busy, 5xx, time-out, a query refused). */
export const retryable = (err: unknown) => err instanceof BureauError;

/** What a bureau failure becomes once the retries are used up: 6 with the busy message. */
export const exhausted = (): CheckOutcome => fail(MSG_TYPE.busy, BUREAU_MSG.busy);
