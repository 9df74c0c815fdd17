import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  CODE,
  getBindThirdpartyCall,
  THIRD_CALLBACK_PATH,
  THIRD_MSG,
  THIRD_PROVIDERS,
  type ThirdProviderId,
  thirdProviderName,
  thirdRenderCall,
  unbindThirdpartyCall,
  updateUserChanneCall,
} from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import { thirdBindings, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Deps, type ServerModule, serve, serveStaged } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import { resolveSession, type SessionCtx, scopeOf, sessionInfo, startSession } from '../../plugins/session.js';
import { secondStep } from '../two-factor/two-factor.service.js';
import { availableProviders, providerFor, type ThirdAccount } from './providers.js';

/** The browser's half of the state: a random nonce in a cookie only this path sees. */
export const STATE_COOKIE = 'dzy_oauth';
const COOKIE_PATH = '/api/user/third/login';
const STATE_TTL_MS = 10 * 60_000;

interface StatePayload {
  /** provider */
  p: ThirdProviderId;
  /** purpose */
  u: 'bind' | 'login';
  /** the user binding (bind only) */
  i: number | null;
  /** nonce, also in the cookie */
  n: string;
  /** expiry, ms */
  e: number;
}

const mac = (key: Buffer, data: string) =>
  createHmac('sha256', key).update('third-login-state\0').update(data).digest('base64url');

function signState(key: Buffer, p: StatePayload): string {
  const data = Buffer.from(JSON.stringify(p)).toString('base64url');
  return `${data}.${mac(key, data)}`;
}

/** The state as signed here, unexpired and from this browser (its nonce is the cookie's); null otherwise. */
export function readState(key: Buffer, state: string, cookieNonce: string | undefined): StatePayload | null {
  const [data, sig] = state.split('.');
  if (!data || !sig) return null;
  const want = Buffer.from(mac(key, data));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  let p: StatePayload;
  try {
    p = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as StatePayload;
  } catch {
    return null;
  }
  if (typeof p.e !== 'number' || p.e < Date.now()) return null;
  if (!cookieNonce || typeof p.n !== 'string' || p.n.length !== cookieNonce.length) return null;
  if (!timingSafeEqual(Buffer.from(p.n), Buffer.from(cookieNonce))) return null;
  if (!THIRD_PROVIDERS.some((x) => x.id === p.p) || (p.u !== 'bind' && p.u !== 'login')) return null;
  return p;
}

// PUBLIC_URL only: a forged Host header must not send the provider's code to another site.
const redirectUri = (deps: Deps, provider: string) => `${deps.config.publicUrl}/api/${THIRD_CALLBACK_PATH}/${provider}`;

type Outcome = {
  purpose: 'bind' | 'login';
  provider: string;
  nickname: string;
  session: ReturnType<typeof sessionInfo> | null;
  twoFactor: { ticket: string; enrol: boolean } | null;
};

/**
 * Finishes what render started: the state checked (signature, expiry, this browser's nonce), the code
 * exchanged at the provider (outside any transaction), then the binding made or the session started.
 */
async function complete(
  deps: Deps,
  req: FastifyRequest,
  reply: FastifyReply,
  session: SessionCtx | null,
  body: { code: string; state: string },
  provider?: string,
): Promise<Outcome | Answer> {
  const key = deps.config.secretKey;
  const st = readState(key, body.state, req.cookies[STATE_COOKIE]);
  const refuse = async (msg: string, code: number = CODE.BAD_REQUEST, detail: Record<string, unknown> = {}) => {
    await inScope(deps.db.app, scopeOf(session), (tx) =>
      audit(
        tx,
        req,
        { agencyId: session?.agencyId ?? null, userId: session?.userId ?? null },
        'third.refused',
        st?.p ?? provider ?? '',
        {
          reason: msg,
          ...detail,
        },
      ),
    );
    return new Answer(code, msg);
  };
  if (!st || (provider && st.p !== provider)) return refuse(THIRD_MSG.stateBad);
  // One use: the nonce cookie goes whatever happens next.
  reply.clearCookie(STATE_COOKIE, { path: COOKIE_PATH });
  const label = thirdProviderName(st.p);
  if (st.u === 'bind' && (!session || session.userId !== st.i)) return refuse(THIRD_MSG.stateBad);
  const p = providerFor(deps.config, st.p);
  if (!p) return refuse(THIRD_MSG.notConfigured(label));
  let account: ThirdAccount;
  try {
    account = await p.exchange({ code: body.code, redirectUri: redirectUri(deps, st.p) });
  } catch (err) {
    req.log.warn({ err, provider: st.p }, 'third-party code exchange failed');
    return refuse(THIRD_MSG.exchangeFailed(label));
  }
  const openid = account.openid.slice(0, 200);
  const nickname = account.nickname.slice(0, 60);

  if (st.u === 'bind' && session) {
    return inScope(deps.db.app, scopeOf(session), async (tx) => {
      const taken = (await tx.execute(sql`select third_account_taken(${st.p}, ${openid}) as taken`)) as unknown as {
        rows: { taken: boolean }[];
      };
      if (taken.rows[0]?.taken) {
        await audit(tx, req, session, 'third.refused', st.p, { reason: 'taken' });
        return new Answer(CODE.BAD_REQUEST, THIRD_MSG.takenByOther(label));
      }
      const [mine] = await tx
        .select()
        .from(thirdBindings)
        .where(and(eq(thirdBindings.userId, session.userId), eq(thirdBindings.provider, st.p)));
      if (mine && mine.openid !== openid) return new Answer(CODE.BAD_REQUEST, THIRD_MSG.alreadyBound(label));
      if (!mine) await tx.insert(thirdBindings).values({ userId: session.userId, provider: st.p, openid, nickname });
      await audit(tx, req, session, 'third.bind', st.p, { nickname });
      return { purpose: 'bind' as const, provider: st.p, nickname, session: null, twoFactor: null };
    });
  }

  return inScope(deps.db.app, scopeOf(null), async (tx: Tx) => {
    const res = (await tx.execute(sql`select third_binding_user(${st.p}, ${openid}) as uid`)) as unknown as {
      rows: { uid: number | null }[];
    };
    const uid = res.rows[0]?.uid ?? null;
    const [user] =
      uid === null
        ? []
        : await tx
            .select()
            .from(users)
            .where(eq(users.id, Number(uid)));
    if (!user) {
      await audit(tx, req, { agencyId: null, userId: null }, 'third.login_failed', st.p, { reason: 'not bound' });
      return new Answer(CODE.BAD_REQUEST, THIRD_MSG.notBound(label));
    }
    // The same second step as a password sign-in (modules/two-factor).
    const pending = await secondStep(tx, req, key, user.id);
    if (pending) {
      await audit(tx, req, { agencyId: null, userId: user.id }, 'third.login_second_step', st.p);
      return { purpose: 'login' as const, provider: st.p, nickname, session: null, twoFactor: pending.twoFactor };
    }
    const s = await startSession(tx, req, reply, user);
    await audit(tx, req, { agencyId: s.agencyId, userId: user.id }, 'third.login', st.p, { nickname });
    return { purpose: 'login' as const, provider: st.p, nickname, session: sessionInfo(s), twoFactor: null };
  });
}

export const thirdLoginCalls = [
  serve(thirdRenderCall, async ({ body, session, reply, req, deps }) => {
    const label = thirdProviderName(body.provider);
    if (body.purpose === 'bind' && !session) throw new AppError(CODE.SESSION_EXPIRED, THIRD_MSG.signInFirst);
    const p = providerFor(deps.config, body.provider);
    if (!p) throw new AppError(CODE.BAD_REQUEST, THIRD_MSG.notConfigured(label));
    const nonce = randomBytes(18).toString('base64url');
    const state = signState(deps.config.secretKey, {
      p: body.provider,
      u: body.purpose,
      i: body.purpose === 'bind' ? (session?.userId ?? null) : null,
      n: nonce,
      e: Date.now() + STATE_TTL_MS,
    });
    reply.setCookie(STATE_COOKIE, nonce, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: req.protocol === 'https',
      maxAge: STATE_TTL_MS / 1000,
    });
    return { url: p.authorizeUrl({ state, redirectUri: redirectUri(deps, body.provider) }) };
  }),

  // Staged: the provider is asked for the account without holding the database.
  serveStaged(updateUserChanneCall, async ({ body, session, req, reply, deps }) =>
    complete(deps, req, reply, session, body),
  ),

  serve(getBindThirdpartyCall, async ({ session, tx, deps }) => {
    const mine = await tx.select().from(thirdBindings).where(eq(thirdBindings.userId, session.userId));
    const configured = new Set(availableProviders(deps.config).map((p) => p.id));
    return THIRD_PROVIDERS.filter((p) => configured.has(p.id) || mine.some((b) => b.provider === p.id)).map((p) => {
      const b = mine.find((x) => x.provider === p.id);
      return {
        provider: p.id,
        label: p.label,
        configured: configured.has(p.id),
        bound: Boolean(b),
        nickname: b?.nickname ?? '',
        boundAt: b?.createdAt.toISOString() ?? null,
      };
    });
  }),

  serve(unbindThirdpartyCall, async ({ body, session, tx, req }) => {
    const [row] = await tx
      .delete(thirdBindings)
      .where(and(eq(thirdBindings.userId, session.userId), eq(thirdBindings.provider, body.provider)))
      .returning();
    if (!row) throw new AppError(CODE.NOT_FOUND, THIRD_MSG.notBoundSelf(thirdProviderName(body.provider)));
    await audit(tx, req, session, 'third.unbind', body.provider, { nickname: row.nickname });
    return null;
  }),
];

/**
 * GET /api/user/third/login/callback/{provider}?code&state: where the provider sends the browser back. It
 * finishes like updateUserChanne and sends the browser on: signed in to the shell, bound to 个人设置, or a
 * refusal (or a pending second step) to the sign-in page.
 */
function callbackRoute(app: FastifyInstance, deps: Deps) {
  app.get<{ Params: { provider: string }; Querystring: { code?: string; state?: string; error?: string } }>(
    `/api/${THIRD_CALLBACK_PATH}/:provider`,
    async (req, reply) => {
      const { code = '', state = '' } = req.query;
      const toLogin = (params: Record<string, string>) =>
        reply.redirect(`/#/login?${new URLSearchParams(params).toString()}`, 302);
      if (!code || !state || typeof code !== 'string' || typeof state !== 'string') {
        return toLogin({ thirdError: THIRD_MSG.codeRequired });
      }
      const session = await resolveSession(deps.db.app, req);
      const out = await complete(deps, req, reply, session, { code, state }, req.params.provider);
      if (out instanceof Answer) {
        if (session)
          return reply.redirect(`/#/nested/menu1/baseInfo?${new URLSearchParams({ thirdError: out.msg })}`, 302);
        return toLogin({ thirdError: out.msg });
      }
      if (out.purpose === 'bind') {
        return reply.redirect(`/#/nested/menu1/baseInfo?${new URLSearchParams({ thirdBound: out.provider })}`, 302);
      }
      if (out.twoFactor) {
        return toLogin({ twoFactorTicket: out.twoFactor.ticket, enrol: out.twoFactor.enrol ? '1' : '0' });
      }
      return reply.redirect('/#/', 302);
    },
  );
}

export const thirdLoginModule: ServerModule = {
  name: 'third-login',
  calls: thirdLoginCalls,
  routes: callbackRoute,
};
