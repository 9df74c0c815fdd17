import {
  encodeHelperData,
  HELPER_CODE,
  HELPER_DEFAULT_TOKEN,
  HELPER_DOWNLOAD_PREFIX,
  HELPER_MIN_VERSION,
  HELPER_MSG,
  HELPER_PORTS,
  HELPER_START_URL,
  HELPER_STATUS,
  HELPER_TIMING,
  type HelperBuild,
  type HelperProbe,
  type HelperProbeReply,
  helperRedeemCall,
  helperVersionCall,
  service365StatusCall,
  versionBelow,
} from '@dzy/shared';
import { STORAGE_PREFIX } from './client-state';
import { call } from './request';

/**
 * The page's side of the local helper 365基础服务 (tax-bureau.md §4, §7, §8): discovery on loopback
 * (3 s probes), the base-service status (200 / 201 upgrading / 900 too old), starting it through the
 * custom protocol handler (10 tries at 1 s), and calls with the spec's reply rules and the cleared-port
 * retry.
 */

/** Why the helper cannot be used right now; each has its dialog (components/helper-dialogs). */
export type HelperProblem = 'notRunning' | 'tooOld' | 'upgrading' | 'unsupported' | 'service365Off';

export class HelperUnavailable extends Error {
  constructor(readonly problem: HelperProblem) {
    super(HELPER_MSG[problem]);
    this.name = 'HelperUnavailable';
  }
}

/** A helper reply whose inner code is not HHZX_SYS_0000; message is what the user reads. */
export class HelperCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HelperCallError';
  }
}

export interface HelperFound {
  port: number;
  reply: HelperProbeReply;
}

const PORT_KEY = `${STORAGE_PREFIX}helperPort`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const helperBase = (port: number) => `http://127.0.0.1:${port}`;

function storedPort(): number | null {
  try {
    const n = Number(window.localStorage.getItem(PORT_KEY));
    return Number.isInteger(n) && n > 0 && n < 65536 ? n : null;
  } catch {
    return null;
  }
}
function storePort(port: number | null) {
  try {
    if (port === null) window.localStorage.removeItem(PORT_KEY);
    else window.localStorage.setItem(PORT_KEY, String(port));
  } catch {
    // storage off: discovery just runs every time
  }
}

/** Phones and tablets cannot run the helper (基础服务不支持该系统). */
export function systemUnsupported(): boolean {
  return /Android|iPhone|iPad|iPod|HarmonyOS|Mobile/i.test(navigator.userAgent);
}

/** One probe of one port, 3 s at most; null when nothing (or not a helper) answers. */
export async function probe(port: number, func: HelperProbe = 'upversion'): Promise<HelperProbeReply | null> {
  try {
    const res = await fetch(`${helperBase(port)}/?func=${func}&minVersion=${HELPER_MIN_VERSION}`, {
      signal: AbortSignal.timeout(HELPER_TIMING.probeTimeoutMs),
      cache: 'no-store',
    });
    if (!res.ok) return null;
    const reply = (await res.json()) as Partial<HelperProbeReply>;
    return typeof reply.code === 'number' && typeof reply.version === 'string' ? (reply as HelperProbeReply) : null;
  } catch {
    return null;
  }
}

/** The stored port first, then every known port at once; the lowest answering port wins. */
export async function discover(func: HelperProbe = 'upversion'): Promise<HelperFound | null> {
  const known = storedPort();
  if (known !== null) {
    const reply = await probe(known, func);
    if (reply) return { port: known, reply };
    storePort(null);
  }
  const replies = await Promise.all(HELPER_PORTS.map((p) => probe(p, func)));
  const i = replies.findIndex((r) => r !== null);
  const reply = replies[i];
  const port = HELPER_PORTS[i];
  if (!reply || port === undefined) return null;
  storePort(port);
  return { port, reply };
}

let service365: { active: boolean; at: number } | null = null;

/**
 * Whether the agency's 365基础服务 is on (the server refuses the e-tax login otherwise): asked before the page
 * looks for or starts a helper, remembered for a minute. A failed ask does not stop the page; the server decides.
 */
async function service365Active(): Promise<boolean> {
  if (service365 && Date.now() - service365.at < 60_000) return service365.active;
  const r = await call(service365StatusCall, {}, { handle: 'all' }).catch(() => null);
  if (!r) return true;
  service365 = { active: r.active, at: Date.now() };
  return r.active;
}

/** The helper's state for a status line (the downloads page): found and usable, or why not. */
export async function helperState(): Promise<{ problem: HelperProblem | null; found: HelperFound | null }> {
  if (!(await service365Active())) return { problem: 'service365Off', found: null };
  if (systemUnsupported()) return { problem: 'unsupported', found: null };
  const found = await discover('upversionAll');
  if (!found) return { problem: 'notRunning', found: null };
  return { problem: problemOf(found.reply), found };
}

function problemOf(reply: HelperProbeReply): HelperProblem | null {
  if (reply.code === HELPER_STATUS.upgrading) return 'upgrading';
  if (reply.code === HELPER_STATUS.tooOld || versionBelow(reply.version, HELPER_MIN_VERSION)) return 'tooOld';
  return null;
}

/**
 * The port of a usable helper, or HelperUnavailable. While it upgrades (201) it is asked again every
 * second for a while before the page gives up with 365基础服务正在升级，请稍后再试.
 */
export async function ensureHelper(): Promise<number> {
  if (!(await service365Active())) throw new HelperUnavailable('service365Off');
  if (systemUnsupported()) throw new HelperUnavailable('unsupported');
  for (let i = 0; ; i++) {
    const found = await discover();
    if (!found) throw new HelperUnavailable('notRunning');
    const problem = problemOf(found.reply);
    if (problem === null) return found.port;
    if (problem !== 'upgrading' || i >= HELPER_TIMING.startRetries) throw new HelperUnavailable(problem);
    await sleep(HELPER_TIMING.upgradePollMs);
  }
}

/**
 * 已安装，去启动: opens the custom protocol handler, then looks for the helper 10 times, 1 s apart.
 * Resolves with the port, or rejects with HelperUnavailable('notRunning').
 */
export async function startHelper(onTry?: (n: number) => void): Promise<number> {
  if (!(await service365Active())) throw new HelperUnavailable('service365Off');
  const frame = document.createElement('iframe');
  frame.style.display = 'none';
  frame.src = HELPER_START_URL;
  document.body.appendChild(frame);
  try {
    for (let n = 1; n <= HELPER_TIMING.startRetries; n++) {
      onTry?.(n);
      await sleep(HELPER_TIMING.startRetryMs);
      const found = await discover();
      if (found) return found.port;
    }
    throw new HelperUnavailable('notRunning');
  } finally {
    frame.remove();
  }
}

/**
 * One helper call: the body the spec names (data, token, callbackurl, func), 120 s at most. A network
 * failure clears the stored port, finds the helper again and tries once more.
 */
export async function helperCall<T>(path: string, func: string, data: Record<string, unknown>): Promise<T> {
  const body = JSON.stringify({
    data: encodeHelperData(data),
    token: HELPER_DEFAULT_TOKEN,
    callbackurl: `${window.location.origin}/api/${helperRedeemCall.path}`,
    func,
  });
  let port = await ensureHelper();
  let text: string;
  try {
    text = await post(port, path, body);
  } catch {
    storePort(null);
    port = await ensureHelper();
    try {
      text = await post(port, path, body);
    } catch {
      storePort(null);
      throw new HelperUnavailable('notRunning');
    }
  }
  return readReply<T>(text);
}

async function post(port: number, path: string, body: string): Promise<string> {
  const res = await fetch(`${helperBase(port)}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(HELPER_TIMING.callTimeoutMs),
  });
  return res.text();
}

/** §5: the reply must parse (返回结果解析失败) and carry HHZX_SYS_0000, else its message is shown. */
export function readReply<T>(text: string): T {
  let reply: { code?: unknown; msg?: unknown; data?: unknown };
  try {
    reply = JSON.parse(text) as typeof reply;
  } catch {
    throw new HelperCallError('parse', HELPER_MSG.parseFailed);
  }
  if (typeof reply !== 'object' || reply === null) throw new HelperCallError('parse', HELPER_MSG.parseFailed);
  const code = String(reply.code ?? '');
  if (code === HELPER_CODE.ok) return reply.data as T;
  if (code === HELPER_CODE.serviceError) throw new HelperCallError(code, HELPER_MSG.e49000);
  if (code === HELPER_CODE.unreachable) throw new HelperCallError(code, HELPER_MSG.e90000);
  if (code === String(HELPER_STATUS.upgrading)) throw new HelperUnavailable('upgrading');
  const msg = typeof reply.msg === 'string' && reply.msg.trim() ? reply.msg.trim() : HELPER_MSG.loginFailed;
  throw new HelperCallError(code, msg);
}

/** The build for this computer: Windows its installer, Linux the single executable, else the bundle. */
export function buildForThisComputer(builds: readonly HelperBuild[]): HelperBuild | undefined {
  const ua = navigator.userAgent;
  if (/Windows/i.test(ua)) return builds.find((b) => b.platform === 'win32' && b.kind === 'installer');
  if (/Linux|X11/i.test(ua)) return builds.find((b) => b.platform === 'linux' && b.kind === 'sea');
  return builds.find((b) => b.kind === 'bundle');
}

/** Starts the browser's download of one build from the product. */
export function downloadBuild(build: HelperBuild) {
  const a = document.createElement('a');
  a.href = `${HELPER_DOWNLOAD_PREFIX}${encodeURIComponent(build.file)}`;
  a.download = build.file;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * 立即更新: downloads the product's latest build for this computer (helper/version names it, with its
 * sha256). Resolves with the build, or null when the product has none for it (the downloads page says
 * how to install then).
 */
export async function downloadLatestHelper(): Promise<HelperBuild | null> {
  const v = await call(helperVersionCall, {}, { handle: 'all' }).catch(() => null);
  const build = v ? buildForThisComputer(v.builds) : undefined;
  if (!build) return null;
  downloadBuild(build);
  return build;
}
