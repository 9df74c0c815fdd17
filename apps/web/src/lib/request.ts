import { type CallBody, type CallData, type CallDef, CODE, MSG } from '@dzy/shared/wire';
import { clearClientState, isSignedOutHere, reloadToLogin } from './client-state';
import { blockingConfirm, toast } from './feedback';

/** Code of an ApiError when the server could not be reached at all. */
export const NETWORK_FAILURE = 0;

const NETWORK_MSG = '网络连接失败，请检查网络后重试';
const UNAVAILABLE_MSG = '服务暂时不可用，请稍后再试';
const INTERNAL_FALLBACK = '接口异常（E500100）';

/** A call that did not succeed. `handled` says the request client already told the user. */
export class ApiError extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly handled: boolean;

  constructor(code: number, msg: string, data: unknown, handled: boolean) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.data = data;
    this.handled = handled;
  }
}

export interface CallOptions {
  /**
   * Codes the caller deals with itself: the call rejects with an ApiError and nothing is shown.
   * 'all' covers every failure, network failures and 403 included.
   */
  handle?: readonly number[] | 'all';
  signal?: AbortSignal;
}

interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

type Outcome = Envelope | 'refresh';

/**
 * Makes one API call (foundation.md §7-§8): POST /api/<path> with a JSON body.
 * Resolves with the data on 200 and with null on 406 (empty); every other outcome rejects with ApiError
 * after the user has been told, unless the caller said it handles that code.
 */
export async function call<C extends CallDef>(
  def: C,
  body: CallBody<C>,
  options: CallOptions = {},
): Promise<CallData<C> | null> {
  let outcome: Outcome;
  try {
    outcome = await send(def.path, body, options.signal);
    // 'refresh' means the session token was renewed: repeat the same call once.
    if (outcome === 'refresh') outcome = await send(def.path, body, options.signal);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError')
      throw new ApiError(NETWORK_FAILURE, '请求已取消', null, true);
    return fail({ code: NETWORK_FAILURE, msg: NETWORK_MSG, data: null }, options);
  }
  if (outcome === 'refresh') return fail({ code: CODE.ERROR, msg: INTERNAL_FALLBACK, data: null }, options);
  if (outcome.code === CODE.OK) return outcome.data as CallData<C>;
  if (outcome.code === CODE.EMPTY && !handles(options, CODE.EMPTY)) return null;
  return fail(outcome, options);
}

function handles(options: CallOptions, code: number): boolean {
  return options.handle === 'all' || (options.handle?.includes(code) ?? false);
}

async function send(path: string, body: unknown, signal: AbortSignal | undefined): Promise<Outcome> {
  const res = await fetch(`/api/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body ?? {}),
    signal: signal ?? null,
  });
  const text = (await res.text()).trim();
  if (text === 'refresh' || text === '"refresh"') return 'refresh';
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const reply = (parsed ?? {}) as Partial<Record<keyof Envelope, unknown>>;
  if (reply.code === 'refresh') return 'refresh';
  const msg = typeof reply.msg === 'string' ? reply.msg : '';
  // HTTP 403 means the session is gone whatever the body says.
  if (res.status === CODE.SESSION_EXPIRED) return { code: CODE.SESSION_EXPIRED, msg, data: reply.data ?? null };
  if (typeof reply.code === 'number') return { code: reply.code, msg, data: reply.data ?? null };
  // Not our envelope (a proxy page, an empty body): judge by the HTTP status.
  if (res.status >= 502 && res.status <= 504) return { code: CODE.ERROR, msg: UNAVAILABLE_MSG, data: null };
  return { code: res.ok ? CODE.ERROR : res.status, msg: '', data: null };
}

/** A 500 whose message says the token was kicked off or is invalid counts as an expired session. */
const KICKED_RE = /(token|令牌|登录).{0,8}(失效|无效|过期|invalid|expired)|被踢|踢下线|其他地方登录|异地登录/i;

function fail(reply: Envelope, options: CallOptions): never {
  const expired = reply.code === CODE.SESSION_EXPIRED || (reply.code === CODE.ERROR && KICKED_RE.test(reply.msg));
  if (expired) {
    if (handles(options, CODE.SESSION_EXPIRED)) throw new ApiError(CODE.SESSION_EXPIRED, reply.msg, reply.data, false);
    showSessionExpired();
    throw new ApiError(CODE.SESSION_EXPIRED, MSG.sessionExpired, reply.data, true);
  }
  if (handles(options, reply.code)) throw new ApiError(reply.code, messageFor(reply), reply.data, false);
  const text = messageFor(reply);
  const isError = reply.code === CODE.ERROR || reply.code === NETWORK_FAILURE;
  toast(isError ? 'error' : 'warning', text);
  throw new ApiError(reply.code, text, reply.data, true);
}

/** What the user reads for a failed call. */
export function messageFor(reply: Pick<Envelope, 'code' | 'msg'>): string {
  const msg = reply.msg.trim();
  if (reply.code === CODE.ERROR) {
    // Show the server's words only when they are meant for people: Chinese, or no letters at all.
    const readable = msg !== '' && (/[\u4e00-\u9fa5]/.test(msg) || !/[A-Za-z]/.test(msg));
    return readable ? msg : INTERNAL_FALLBACK;
  }
  if (msg) return msg;
  switch (reply.code) {
    case NETWORK_FAILURE:
      return NETWORK_MSG;
    case CODE.NO_PERMISSION:
      return MSG.noPermission;
    case CODE.NOT_FOUND:
      return MSG.notFound;
    case CODE.TOO_MANY:
      return MSG.tooMany;
    case CODE.TOO_LARGE:
      return MSG.tooLarge;
    default:
      return `请求失败（${reply.code}）`;
  }
}

let expiredShown = false;

/**
 * The one blocking "session expired" dialog (登录超时，请重新登陆 / 重新登录); later 403s while it is open add
 * nothing. Exported for the file downloads and uploads that fetch outside call(), so a 403 there shows
 * the same dialog as every other call.
 */
export function showSessionExpired(): void {
  // A tab that signed out itself knows: a call it had in flight says nothing new (client-state.ts).
  if (expiredShown || isSignedOutHere()) return;
  expiredShown = true;
  blockingConfirm({
    title: '系统提示',
    content: MSG.sessionExpired,
    okText: '重新登录',
    onOk: () => {
      clearClientState();
      reloadToLogin();
    },
  });
}
