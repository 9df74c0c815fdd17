import {
  APIKEY_MSG,
  type BureauClient,
  type CallDef,
  CODE,
  halfWidth,
  hasPerm,
  keyMayCall,
  MENUS,
  MSG,
} from '@dzy/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config.js';
import { type Database, inScope, type Tx } from '../db/client.js';
import { Answer, AppError, httpStatusOf, validationError } from './errors.js';
import type { JobHandler } from './jobs.js';
import type { PushHub } from './push.js';
import { type SessionCtx, scopeOf, sessionIn } from './session.js';
import type { SmsSender } from './sms.js';

/** What every module's handlers may use besides the request. */
export interface Deps {
  config: Config;
  db: Database;
  sms: SmsSender;
  push: PushHub;
  /** The e-tax bureau (the simulator unless TAX_BUREAU_URL names another). */
  bureau: BureauClient;
  /** Wakes this process's idle job workers after something was enqueued. */
  wakeJobs(): void;
}

export interface CallCtx<C extends CallDef> {
  body: z.output<C['body']>;
  /** The caller; null only on public calls made without a session. */
  session: C['access'] extends 'public' ? SessionCtx | null : SessionCtx;
  /** The call's transaction, scoped by row-level security to the caller's agency. */
  tx: Tx;
  req: FastifyRequest;
  reply: FastifyReply;
  deps: Deps;
  /** Runs `fn` once the call's transaction has committed (pushes, never for a rolled-back call). */
  afterCommit(fn: () => Promise<void> | void): void;
}

/**
 * For the few calls that must not hold the database while they wait on something slow (sign-in's
 * scrypt would stall every request on the one embedded connection): no surrounding transaction,
 * but short ones of the call's scope on demand.
 */
export interface StagedCallCtx<C extends CallDef> extends Omit<CallCtx<C>, 'tx'> {
  inTx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export interface Served {
  def: CallDef;
  staged?: boolean;
  run(ctx: CallCtx<CallDef> | StagedCallCtx<CallDef>): Promise<unknown>;
}

/** Pairs a call of the contract with its handler, run in one transaction. */
export function serve<C extends CallDef>(
  def: C,
  handler: (ctx: CallCtx<C>) => Promise<z.input<C['data']> | Answer>,
): Served {
  return { def, run: handler as Served['run'] };
}

/** Pairs a call with a handler that opens its own short transactions (see StagedCallCtx). */
export function serveStaged<C extends CallDef>(
  def: C,
  handler: (ctx: StagedCallCtx<C>) => Promise<z.input<C['data']> | Answer>,
): Served {
  return { def, staged: true, run: handler as Served['run'] };
}

/** A module declares its calls, plain routes and background jobs in one place; app.ts lists the modules. */
export interface ServerModule {
  name: string;
  calls: Served[];
  routes?(app: FastifyInstance, deps: Deps): void;
  jobs?: JobHandler[];
}

const KNOWN_PERMS = new Set<string>(MENUS.flatMap((m) => ('perm' in m ? [m.perm] : [])));

/** Checks every call states who may make it, with a permission the registry knows; refuses to boot otherwise. */
export function assertAccessDeclared(calls: readonly Served[]) {
  const seen = new Set<string>();
  for (const { def } of calls) {
    if (seen.has(def.path)) throw new Error(`call served twice: ${def.path}`);
    seen.add(def.path);
    const access = def.access as string | undefined;
    if (!access) throw new Error(`call without access rule: ${def.path}`);
    if (access !== 'public' && access !== 'signedIn' && !KNOWN_PERMS.has(access)) {
      throw new Error(`call ${def.path} needs unknown permission ${access}`);
    }
  }
}

/** Serves each call at POST /api/<path>: session, permission, body, one scoped transaction, the envelope. */
export function registerCalls(app: FastifyInstance, deps: Deps, calls: readonly Served[]) {
  assertAccessDeclared(calls);
  for (const served of calls) {
    const { def } = served;
    app.post(`/api/${def.path}`, async (req, reply) => {
      const committed: (() => Promise<void> | void)[] = [];
      const afterCommit = (fn: () => Promise<void> | void) => void committed.push(fn);
      /** Who calls, whether they may, and the body: refused before the handler runs. */
      const admit = async (tx: Tx) => {
        const session = await sessionIn(tx, req);
        if (def.access !== 'public') {
          if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
          if (def.access !== 'signedIn' && !hasPerm(session.perms, def.access)) {
            throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
          }
        }
        // A key is never a person: only the calls marked for keys, public ones included (issue 26 point 1).
        if (session?.apiKeyId !== undefined && !keyMayCall(def)) {
          throw new AppError(CODE.NO_PERMISSION, APIKEY_MSG.keyRefused);
        }
        const parsed = def.body.safeParse(asTyped(req.body ?? {}));
        if (!parsed.success) throw validationError(parsed.error, def.labels);
        // sessionIn left the transaction scoped to this caller (a new transaction without a session has
        // no scope at all, which row-level security reads as nobody): no further round trip needed.
        // The whole scope, the factory's id included, for the staged call's own transactions.
        const scope = scopeOf(session);
        return { scope, base: { body: parsed.data, session: session as SessionCtx, req, reply, deps, afterCommit } };
      };
      // One transaction per call: the session is read inside the call's own transaction. Staged
      // calls (sign-in's slow hashing) admit in a short one and open their own as they need them.
      const result = served.staged
        ? await deps.db.app
            .transaction(admit)
            .then(({ scope, base }) => served.run({ ...base, inTx: (fn) => inScope(deps.db.app, scope, fn) }))
        : await deps.db.app.transaction(async (tx) => served.run({ ...(await admit(tx)).base, tx }));
      for (const fn of committed) {
        try {
          await fn();
        } catch (err) {
          req.log.error({ err }, 'after-commit step failed');
        }
      }
      if (result instanceof Answer) {
        return reply.status(httpStatusOf(result.code)).send({ code: result.code, msg: result.msg, data: result.data });
      }
      return { code: CODE.OK, msg: MSG.ok, data: result ?? null };
    });
  }
}

/** Keys whose values are secrets, taken exactly as typed. */
const SECRET_KEY = /pass|pwd/i;

/**
 * A body as the person meant it: full-width letters and digits (an input method's) made ASCII in every
 * string, so 税号, phone numbers and codes typed that way are found and accepted (validators.halfWidth).
 */
function asTyped(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return halfWidth(value);
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => asTyped(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? v : asTyped(v, depth + 1)]));
}
