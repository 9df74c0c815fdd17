import {
  BUREAU_MSG,
  BureauError,
  type EtaxLoginInput,
  MSG_TYPE,
  type MsgType,
  type PersonalTaxLoginInput,
  type Sfbm,
} from '@dzy/shared';
import { and, eq, gt, type SQLWrapper } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { enterprises, etaxSessions } from '../../db/schema/index.js';
import { decrypt, encrypt } from '../../lib/crypto.js';
import type { Deps } from '../../plugins/calls.js';

/**
 * Signing in to the e-tax bureau with an enterprise's stored (encrypted) credentials, shared by the
 * batch check and the live tax-data queries. A session is cached encrypted in etax_sessions until it
 * expires (an interactive SMS login may store one there too), so a second query does not log in again.
 */

export type EnterpriseRow = typeof enterprises.$inferSelect;

/** Either the call's transaction, or a way to open short ones (a job must not hold one across bureau calls). */
export type TxAccess = Tx | (<T>(fn: (tx: Tx) => Promise<T>) => Promise<T>);

const run = <T>(db: TxAccess, fn: (tx: Tx) => Promise<T>): Promise<T> => (typeof db === 'function' ? db(fn) : fn(db));

/** How long a bureau session is reused; the bureau may end it sooner (BureauError kind 'session'). */
export const SESSION_TTL_MS = 20 * 60_000;

export interface SessionOptions {
  /** Skip the cache (after the bureau refused a cached session). */
  fresh?: boolean;
  /** The cached session when the caller already read it (null: none); undefined looks it up. */
  cached?: string | null;
  /** Keeps a new session for the caller to store in its own transaction, instead of storing it now. */
  keep?: (session: string) => void;
}

export type LoginOutcome = { ok: true; session: string } | { ok: false; msgType: MsgType; msg: string };

/** The e-tax login the stored credentials describe, or null when they are incomplete (msg_type 2). */
export function etaxLoginInput(deps: Pick<Deps, 'config'>, e: EnterpriseRow): EtaxLoginInput | null {
  const key = deps.config.secretKey;
  const sfbm = (e.xdzswjSfbm || '1') as Sfbm;
  const loginType = e.loginType === '1' ? '1' : '0';
  if (!e.qysh) return null;
  if (sfbm === '97') {
    // Agent login: the agency's own account, password and tax number act for the enterprise.
    const password = decrypt(key, e.agentLoginPasswordEnc);
    if (!e.agentLoginAccount || !password || !e.agentLoginQysh) return null;
    return {
      qysh: e.qysh,
      qymc: e.qymc,
      account: e.agentLoginAccount,
      password,
      sfbm,
      loginType,
      agentQysh: e.agentLoginQysh,
    };
  }
  const password = decrypt(key, e.xdzswjPassEnc);
  if (!e.xdzswjDlzh || !password) return null;
  return { qysh: e.qysh, qymc: e.qymc, account: e.xdzswjDlzh, password, sfbm, loginType };
}

/** The personal-tax login the stored credentials describe, or null when incomplete (msg_type 3). */
export function personalLoginInput(deps: Pick<Deps, 'config'>, e: EnterpriseRow): PersonalTaxLoginInput | null {
  const key = deps.config.secretKey;
  if (e.dlfs === '2') {
    const password = decrypt(key, e.dlPasswordEnc);
    return e.dlId && password ? { qysh: e.qysh, dlfs: e.dlfs, dlId: e.dlId, password } : null;
  }
  if (e.dlfs === '1') {
    const password = decrypt(key, e.reportPasswordEnc);
    // The report-password login identifies by the tax number when no login id is stored.
    return password ? { qysh: e.qysh, dlfs: e.dlfs, dlId: e.dlId || e.qysh, password } : null;
  }
  return null;
}

/** A stored session blob as text; null when it was made with another key (then it logs in again). */
export function readSessionBlob(deps: Pick<Deps, 'config'>, blob: string | null | undefined): string | null {
  if (!blob) return null;
  try {
    return decrypt(deps.config.secretKey, blob);
  } catch {
    return null;
  }
}

/** The client's e-tax session still valid, as a condition on its row (a join's, or a lookup's). */
export const liveSessionOf = (e: { agencyId: SQLWrapper | number; id: SQLWrapper | number }) =>
  and(
    eq(etaxSessions.agencyId, e.agencyId),
    eq(etaxSessions.enterpriseId, e.id),
    eq(etaxSessions.kind, 'etax'),
    gt(etaxSessions.expiresAt, new Date()),
  );

async function cachedSession(deps: Deps, db: TxAccess, e: EnterpriseRow): Promise<string | null> {
  const [row] = await run(db, (tx) =>
    tx.select({ sessionEnc: etaxSessions.sessionEnc }).from(etaxSessions).where(liveSessionOf(e)),
  );
  return readSessionBlob(deps, row?.sessionEnc);
}

/** Stores a bureau session for reuse (also after an interactive SMS login). */
export async function saveBureauSession(
  deps: Pick<Deps, 'config'>,
  db: TxAccess,
  e: Pick<EnterpriseRow, 'agencyId' | 'id'>,
  session: string,
  kind: 'etax' | 'gs' = 'etax',
  ttlMs = SESSION_TTL_MS,
): Promise<void> {
  const sessionEnc = encrypt(deps.config.secretKey, session);
  const expiresAt = new Date(Date.now() + ttlMs);
  await run(db, (tx) =>
    tx
      .insert(etaxSessions)
      .values({ agencyId: e.agencyId, enterpriseId: e.id, kind, sessionEnc, expiresAt })
      .onConflictDoUpdate({
        target: [etaxSessions.agencyId, etaxSessions.enterpriseId, etaxSessions.kind],
        set: { sessionEnc, expiresAt },
      }),
  );
}

/** Forgets a cached session the bureau no longer accepts. */
export async function dropBureauSession(
  db: TxAccess,
  e: Pick<EnterpriseRow, 'agencyId' | 'id'>,
  kind: 'etax' | 'gs' = 'etax',
): Promise<void> {
  await run(db, (tx) =>
    tx
      .delete(etaxSessions)
      .where(
        and(eq(etaxSessions.agencyId, e.agencyId), eq(etaxSessions.enterpriseId, e.id), eq(etaxSessions.kind, kind)),
      ),
  );
}

/** Spec rule (tax-bureau.md §4, §5): a name/password mismatch saves the enterprise's isVerifySet as '4'. */
async function markMismatch(db: TxAccess, e: EnterpriseRow) {
  await run(db, (tx) =>
    tx
      .update(enterprises)
      .set({ isVerifySet: '4' })
      .where(and(eq(enterprises.agencyId, e.agencyId), eq(enterprises.id, e.id))),
  );
}

/**
 * A bureau session for the enterprise: the cached one, or a fresh login with the stored credentials.
 * Answers the spec's failure (msg_type 2 incomplete, 4 mismatch, 5 trusted-login failure) as a value;
 * busy and unreachable bureaus throw BureauError (kind 'busy' / 'unreachable') for the caller to retry
 * or show.
 */
export async function openBureauSession(
  deps: Deps,
  db: TxAccess,
  enterprise: EnterpriseRow,
  opts: SessionOptions = {},
): Promise<LoginOutcome> {
  if (!opts.fresh) {
    const cached = opts.cached !== undefined ? opts.cached : await cachedSession(deps, db, enterprise);
    if (cached) return { ok: true, session: cached };
  }
  const input = etaxLoginInput(deps, enterprise);
  if (!input) return { ok: false, msgType: MSG_TYPE.etaxIncomplete, msg: BUREAU_MSG.etaxIncomplete };
  let res: Awaited<ReturnType<Deps['bureau']['etaxLogin']>>;
  try {
    res = await deps.bureau.etaxLogin(input);
  } catch (err) {
    if (err instanceof BureauError && err.kind === 'failed') return loginFailure(db, enterprise, err.message);
    throw err;
  }
  if (res.status === 1) {
    if (opts.keep) opts.keep(res.session);
    else await saveBureauSession(deps, db, enterprise, res.session);
    return { ok: true, session: res.session };
  }
  if (res.status === 2) {
    // SMS verification cannot be answered unattended: the user logs in once interactively (去验证).
    return { ok: false, msgType: MSG_TYPE.trustedLoginFailed, msg: BUREAU_MSG.trustedSmsExpired };
  }
  if (res.mismatch) {
    await markMismatch(db, enterprise);
    return { ok: false, msgType: MSG_TYPE.mismatch, msg: BUREAU_MSG.mismatch };
  }
  return loginFailure(db, enterprise, res.msg);
}

async function loginFailure(db: TxAccess, e: EnterpriseRow, msg: string): Promise<LoginOutcome> {
  if (msg.includes('用户名与密码不匹配')) {
    await markMismatch(db, e);
    return { ok: false, msgType: MSG_TYPE.mismatch, msg: BUREAU_MSG.mismatch };
  }
  if (msg.includes('您的服务已到期')) return { ok: false, msgType: MSG_TYPE.serviceExpired, msg };
  if (msg.includes('人数过多') || msg.includes('访问频繁')) throw new BureauError(BUREAU_MSG.busy, 'busy');
  return {
    ok: false,
    msgType: MSG_TYPE.trustedLoginFailed,
    msg: msg.startsWith('可信登录失败') ? msg : `可信登录失败: ${msg || BUREAU_MSG.loginIdentityFailed}`,
  };
}

/**
 * Runs bureau queries with the enterprise's session; when the bureau says the session has expired,
 * drops it and logs in again once (tax-bureau.md: a 'refresh' reply retries automatically).
 */
export async function withBureauSession<T>(
  deps: Deps,
  db: TxAccess,
  enterprise: EnterpriseRow,
  fn: (session: string) => Promise<T>,
  opts: Omit<SessionOptions, 'fresh'> = {},
): Promise<{ ok: true; value: T } | Extract<LoginOutcome, { ok: false }>> {
  const first = await openBureauSession(deps, db, enterprise, opts);
  if (!first.ok) return first;
  try {
    return { ok: true, value: await fn(first.session) };
  } catch (err) {
    if (!(err instanceof BureauError && err.kind === 'session')) throw err;
  }
  await dropBureauSession(db, enterprise);
  const again = await openBureauSession(deps, db, enterprise, { ...opts, fresh: true });
  if (!again.ok) return again;
  return { ok: true, value: await fn(again.session) };
}
