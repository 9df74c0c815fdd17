import {
  BUREAU_MSG,
  type BureauClient,
  BureauError,
  CODE,
  type EtaxLoginParams,
  type EtaxLoginResult,
  etaxLoginParamsSchema,
  HELPER_CODE,
  HELPER_MSG,
  type HelperCookieData,
  type HelperLoginData,
  type HelperReply,
  helperRedeemCall,
  helperResultCall,
  type ShenbaoFunc,
} from '@dzy/shared';

/** A failure that goes back to the page as the reply's inner code and message. */
export class HelperFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface LoggedIn {
  session: string;
  qymc: string;
  qysh: string;
}
interface SmsPending {
  grant: string;
  origin: string;
  ticket: string;
  params: EtaxLoginParams;
}

/** How long the helper keeps a bureau session for the hall view and queries (the bureau may end it sooner). */
const SESSION_KEEP_MS = 2 * 60 * 60_000;
const PRODUCT_TIMEOUT_MS = 15_000;

export const ok = <T>(data: T): HelperReply<T> => ({ code: HELPER_CODE.ok, msg: '', data });

/**
 * Per-enterprise e-tax work on the user's PC: logs in with credentials redeemed from the product by a
 * one-time grant, keeps the SMS step and the bureau session, and tells the product the outcome.
 * Everything is keyed by the product origin and the enterprise id (aeiId).
 */
export function etaxService(bureau: BureauClient) {
  const sessions = new Map<string, LoggedIn & { at: number }>();
  const pending = new Map<string, SmsPending>();
  const busy = new Set<string>();
  const key = (origin: string, aeiId: number) => `${origin}|${aeiId}`;

  async function product<T>(
    origin: string,
    path: string,
    body: unknown,
  ): Promise<{ code: number; msg: string; data: T }> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), PRODUCT_TIMEOUT_MS);
    try {
      const res = await fetch(`${origin}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: ctl.signal,
      });
      return (await res.json()) as { code: number; msg: string; data: T };
    } catch {
      throw new HelperFailure(HELPER_CODE.unreachable, HELPER_MSG.e90000);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Best effort: the page has its answer either way; a lost report only leaves the flag unsaved. */
  async function report(origin: string, grant: string, status: 0 | 1, msg: string) {
    try {
      await product(origin, helperResultCall.path, { grant, status, msg });
    } catch {
      // the product was not reachable; nothing else to do
    }
  }

  async function settle(k: string, origin: string, grant: string, params: EtaxLoginParams, r: EtaxLoginResult) {
    if (r.status === 1) {
      pending.delete(k);
      sessions.set(k, { session: r.session, qymc: params.qymc, qysh: params.qysh, at: Date.now() });
      await report(origin, grant, 1, '');
      return { status: 1, qymc: params.qymc, qysh: params.qysh } satisfies HelperLoginData;
    }
    if (r.status === 2) {
      pending.set(k, { grant, origin, ticket: r.smsTicket, params });
      return { status: 2, phoneMasked: r.phoneMasked, smsCode: r.code } satisfies HelperLoginData;
    }
    pending.delete(k);
    await report(origin, grant, 0, r.msg);
    return { status: 0, msg: r.msg || BUREAU_MSG.loginIdentityFailed, mismatch: r.mismatch } satisfies HelperLoginData;
  }

  /** One bureau step at a time per enterprise: a second click while the first runs is told to wait. */
  async function exclusive<T>(k: string, fn: () => Promise<T>): Promise<T> {
    if (busy.has(k)) throw new HelperFailure(HELPER_CODE.busy, '该企业正在登录，请稍候');
    busy.add(k);
    try {
      return await fn();
    } catch (err) {
      throw asFailure(err);
    } finally {
      busy.delete(k);
    }
  }

  function liveSession(origin: string, aeiId: number): LoggedIn {
    const s = sessions.get(key(origin, aeiId));
    if (!s || Date.now() - s.at > SESSION_KEEP_MS)
      throw new HelperFailure(HELPER_CODE.badRequest, HELPER_MSG.noSession);
    return s;
  }

  return {
    /** login_etax {grant, aeiId}: redeem, log in, answer 0 / 1 / 2 (tax-bureau.md §4). */
    async login(origin: string, grant: string, aeiId: number): Promise<HelperReply<HelperLoginData>> {
      const k = key(origin, aeiId);
      return exclusive(k, async () => {
        const redeemed = await product<unknown>(origin, helperRedeemCall.path, { grant });
        if (redeemed.code !== CODE.OK)
          throw new HelperFailure(String(redeemed.code), redeemed.msg || HELPER_MSG.loginFailed);
        const parsed = etaxLoginParamsSchema.safeParse(redeemed.data);
        if (!parsed.success || parsed.data.aeiId !== aeiId) {
          throw new HelperFailure(HELPER_CODE.serviceError, HELPER_MSG.e49000);
        }
        const p = parsed.data;
        sessions.delete(k);
        const r = await bureau.etaxLogin({
          qysh: p.qysh,
          qymc: p.qymc,
          account: p.account,
          password: p.password,
          sfbm: p.sfbm,
          loginType: p.loginType,
          ...(p.agentQysh ? { agentQysh: p.agentQysh } : {}),
        });
        return ok(await settle(k, origin, grant, p, r));
      });
    },

    /** sendSms {aeiId}: (re)sends the code of the pending SMS login. */
    async sendSms(origin: string, aeiId: number): Promise<HelperReply<{ sent: true }>> {
      const k = key(origin, aeiId);
      const p = pending.get(k);
      if (!p) throw new HelperFailure(HELPER_CODE.badRequest, BUREAU_MSG.smsLoginExpired);
      return exclusive(k, async () => {
        await bureau.sendSms(p.ticket);
        return ok({ sent: true as const });
      });
    },

    /** SmsLogin {aeiId, code}: finishes the SMS login; a wrong code may be typed again. */
    async smsLogin(origin: string, aeiId: number, code: string): Promise<HelperReply<HelperLoginData>> {
      const k = key(origin, aeiId);
      const p = pending.get(k);
      if (!p) throw new HelperFailure(HELPER_CODE.badRequest, BUREAU_MSG.smsLoginExpired);
      return exclusive(k, async () => {
        const r = await bureau.smsLogin(p.ticket, code);
        // A wrong or expired code may be fixed by typing again or sending a new one: not an outcome yet.
        if (r.status === 0 && !r.mismatch)
          return ok({ status: 0, msg: r.msg, mismatch: false } satisfies HelperLoginData);
        return ok(await settle(k, origin, p.grant, p.params, r));
      });
    },

    /**
     * pwdcheck {grant, aeiId}: checks the enterprise's stored e-tax password against the bureau (the
     * key-password check the kxdlmmjy white list turns on) without keeping a session. A login that asks
     * for SMS means the password was right. A mismatch is reported like a login (isVerifySet 4).
     */
    async checkPassword(
      origin: string,
      grant: string,
      aeiId: number,
    ): Promise<HelperReply<{ pass: boolean; msg: string }>> {
      return exclusive(key(origin, aeiId), async () => {
        const redeemed = await product<unknown>(origin, helperRedeemCall.path, { grant });
        if (redeemed.code !== CODE.OK)
          throw new HelperFailure(String(redeemed.code), redeemed.msg || HELPER_MSG.loginFailed);
        const parsed = etaxLoginParamsSchema.safeParse(redeemed.data);
        if (!parsed.success || parsed.data.aeiId !== aeiId) {
          throw new HelperFailure(HELPER_CODE.serviceError, HELPER_MSG.e49000);
        }
        const p = parsed.data;
        const r = await bureau.etaxLogin({
          qysh: p.qysh,
          qymc: p.qymc,
          account: p.account,
          password: p.password,
          sfbm: p.sfbm,
          loginType: p.loginType,
          ...(p.agentQysh ? { agentQysh: p.agentQysh } : {}),
        });
        if (r.status === 0 && r.mismatch) {
          await report(origin, grant, 0, r.msg);
          return ok({ pass: false, msg: r.msg });
        }
        if (r.status === 0) return ok({ pass: false, msg: r.msg || BUREAU_MSG.loginIdentityFailed });
        return ok({ pass: true, msg: r.status === 2 ? '密码正确（登录需短信验证）' : '密码正确' });
      });
    },

    /** get_user {aeiId}: who the held bureau session is, and since when. */
    user(origin: string, aeiId: number): HelperReply<{ qymc: string; qysh: string; since: string }> {
      const s = sessions.get(key(origin, aeiId));
      liveSession(origin, aeiId);
      return ok({ qymc: s?.qymc ?? '', qysh: s?.qysh ?? '', since: new Date(s?.at ?? Date.now()).toISOString() });
    },

    /** get_cookie {aeiId}: the bureau session this helper holds, with the hall page to open. */
    cookie(origin: string, aeiId: number): HelperReply<HelperCookieData> {
      const s = liveSession(origin, aeiId);
      return ok({ session: s.session, hallUrl: bureau.hallUrl(s.session), qymc: s.qymc, qysh: s.qysh });
    },

    logout(origin: string, aeiId: number): HelperReply<null> {
      sessions.delete(key(origin, aeiId));
      pending.delete(key(origin, aeiId));
      return ok(null);
    },

    /** /ShenBaoQG queries from the enterprise's bureau session. */
    async query(
      origin: string,
      aeiId: number,
      func: ShenbaoFunc,
      args: { from?: string; to?: string; years?: string[] },
    ): Promise<HelperReply<unknown>> {
      const { session } = liveSession(origin, aeiId);
      const today = new Date().toISOString().slice(0, 10);
      const range = { from: args.from ?? `${today.slice(0, 4)}-01-01`, to: args.to ?? today };
      try {
        switch (func) {
          case 'nsrjcxx':
            return ok(await bureau.taxpayerInfo(session));
          case 'responsiblePersons':
            return ok(await bureau.responsiblePersons(session));
          case 'registrations':
            return ok(await bureau.registrations(session));
          case 'wsbList':
            return ok(await bureau.unfiledReturns(session));
          case 'filedList':
            return ok(await bureau.filedReturns(session, range));
          case 'payments':
            return ok(await bureau.payments(session, range));
          case 'arrears':
            return ok(await bureau.arrears(session));
          case 'socialInsurance':
            return ok(await bureau.socialInsurance(session, range));
          case 'creditScores':
            return ok(await bureau.creditScores(session, args.years ?? [String(Number(today.slice(0, 4)) - 1)]));
          case 'todos':
            return ok(await bureau.todos(session));
        }
      } catch (err) {
        if (err instanceof BureauError && err.kind === 'session') sessions.delete(key(origin, aeiId));
        throw asFailure(err);
      }
    },
  };
}

/** Bureau errors keep their message; 'unreachable' is E90000, anything unexpected E49000. */
export function asFailure(err: unknown): HelperFailure {
  if (err instanceof HelperFailure) return err;
  if (err instanceof BureauError) {
    if (err.kind === 'busy') return new HelperFailure(HELPER_CODE.busy, err.message);
    if (err.kind === 'unreachable') return new HelperFailure(HELPER_CODE.unreachable, err.message);
    return new HelperFailure('HHZX_SYS_0500', err.message);
  }
  return new HelperFailure(HELPER_CODE.serviceError, HELPER_MSG.e49000);
}
