import { z } from 'zod';
import { defineCall } from './call.js';

/**
 * The local helper service 365基础服务 (tax-bureau.md §7 "Local helper service", §4 base-service
 * status, §8 helper errors, §9 constants): what the web client and apps/helper say to each other over
 * loopback. `data` is JSON, base64-encoded; no client-side keys (foundation.md §9 describes fixed keys
 * in the original, which the product does not copy: the transport never leaves the machine).
 */

/** Ports the helper tries in order; the web client probes them all (the spec's "dynamically obtained port"). */
export const HELPER_PORTS = [36501, 36502, 36503, 36504, 36505] as const;

/** The helper's own version and the oldest the web client accepts (older: 900, forced update). */
export const HELPER_VERSION = '1.2.0';
export const HELPER_MIN_VERSION = '1.2.0';

/** Default token every body carries (tax-bureau.md §9). */
export const HELPER_DEFAULT_TOKEN = '123';

/** The custom protocol the install scripts register (HKCU\\Software\\Classes on Windows, xdg-mime on Linux). */
export const HELPER_SCHEME = 'dzyhelper';
/** Custom protocol handler the web client opens to start an installed helper (已安装，去启动). */
export const HELPER_START_URL = `${HELPER_SCHEME}://start`;

/** Base-service status (tax-bureau.md §4): 200 ok, 201 upgrading (wait, poll 1 s), 900 too old. */
export const HELPER_STATUS = { ok: 200, upgrading: 201, tooOld: 900 } as const;
export type HelperStatus = (typeof HELPER_STATUS)[keyof typeof HELPER_STATUS];

/** Inner codes of a helper reply: HHZX_SYS_0000 is ok, 49000 / 90000 service exceptions, others carry msg. */
export const HELPER_CODE = {
  ok: 'HHZX_SYS_0000',
  /** Something failed inside the helper. */
  serviceError: '49000',
  /** The helper could not reach the tax bureau or the product. */
  unreachable: '90000',
  badRequest: 'HHZX_SYS_0400',
  badToken: 'HHZX_SYS_0401',
  unknownFunc: 'HHZX_SYS_0404',
  busy: 'HHZX_SYS_0429',
} as const;

/** Timings (tax-bureau.md §7, §9). */
export const HELPER_TIMING = {
  callTimeoutMs: 120_000,
  probeTimeoutMs: 3_000,
  startRetries: 10,
  startRetryMs: 1_000,
  upgradePollMs: 1_000,
} as const;

/** The web client's texts for helper states and replies (tax-bureau.md §5, §8), verbatim. */
/** The agency's 365基础服务 is switched off or expired (the operator's setting365SaveZhzt): nothing to start. */
export const SERVICE365_OFF_MSG = '365基础服务未开通或已到期，请联系服务商';

export const HELPER_MSG = {
  service365Off: SERVICE365_OFF_MSG,
  tooOld: '基础服务版本较旧，为正常使用平台功能，请进行更新安装',
  notRunning: '365基础服务未正常启动，为了正常使用平台功能，请下载安装或启动基础服务',
  upgrading: '365基础服务正在升级，请稍后再试',
  unsupported: '基础服务不支持该系统',
  parseFailed: '返回结果解析失败',
  e49000: '服务异常（E49000）',
  e90000: '服务异常（E90000）',
  emptyLogin: 'common.js方法异常',
  loginFailed: '登录身份获取失败',
  startFailed: '未能启动365基础服务，请确认已安装后手动启动',
  badToken: '基础服务令牌无效',
  unknownFunc: '基础服务不支持该功能',
  noSession: '请先登录电子税务局',
} as const;

/** The probes answered on GET /?func=... (3 s time-out each). */
export type HelperProbe = 'upversionAll' | 'findDevice' | 'upversion';

/** What a probe answers (plain JSON, not enveloped): the status, the version, the machine. */
export interface HelperProbeReply {
  code: HelperStatus;
  msg: string;
  version: string;
  minVersion: string;
  /** The machine's operating system as Node names it (win32, linux, darwin). */
  platform: string;
  /** findDevice only: a short machine description. */
  device?: { hostname: string; os: string; arch: string };
}

/** Every POST body (tax-bureau.md §7): data (base64 JSON), token, callbackurl, func. */
export interface HelperRequest {
  data: string;
  token: string;
  callbackurl: string;
  func: string;
}

/** Every POST reply: the inner code (HHZX_SYS_0000 ok), the message, the data. */
export interface HelperReply<T = unknown> {
  code: string;
  msg: string;
  data: T;
}

/** POST paths of the helper. */
export const HELPER_PATH = {
  root: '/',
  etax: '/hb_etax_ex',
  shenbao: '/ShenBaoQG',
  gsxt: '/gsxt',
  /** Business-credit annual-report home, read with the /gsxt Login session. */
  gsxtReportHome: '/notice/report/home',
} as const;

/** login_etax, SmsLogin: the spec's helper login outcomes (tax-bureau.md §4): 0 failed, 1 ok, 2 SMS needed. */
export type HelperLoginData =
  | { status: 0; msg: string; mismatch: boolean }
  | { status: 1; qymc: string; qysh: string }
  | { status: 2; phoneMasked: string; smsCode: '30001' | '30002' };

/** get_cookie: the bureau session the helper holds for an enterprise, and the hall page to show with it. */
export interface HelperCookieData {
  session: string;
  hallUrl: string;
  qymc: string;
  qysh: string;
}

/** ShenBaoQG query names the helper answers from its bureau session. */
export const SHENBAO_FUNCS = [
  'nsrjcxx',
  'responsiblePersons',
  'registrations',
  'wsbList',
  'filedList',
  'payments',
  'arrears',
  'socialInsurance',
  'creditScores',
  'todos',
] as const;
export type ShenbaoFunc = (typeof SHENBAO_FUNCS)[number];

/** Base64 and UTF-8 as both Node and browsers have them (this package is built without DOM types). */
interface CodecRuntime {
  btoa(bin: string): string;
  atob(b64: string): string;
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new (label: string, opts: { fatal: boolean }) => { decode(bytes: Uint8Array): string };
}
const codec = globalThis as unknown as CodecRuntime;

/** data of a POST body, encoded as the wire wants it (base64 of UTF-8 JSON); works in Node and browsers. */
export function encodeHelperData(value: unknown): string {
  const bytes = new codec.TextEncoder().encode(JSON.stringify(value ?? {}));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return codec.btoa(bin);
}

/** The reverse of encodeHelperData; throws on anything that is not base64 JSON. */
export function decodeHelperData(data: string): unknown {
  const bin = codec.atob(data);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return JSON.parse(new codec.TextDecoder('utf-8', { fatal: true }).decode(bytes));
}

/** a < b for dotted versions ('1.10.0' > '1.9.3'). */
export function versionBelow(a: string, b: string): boolean {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/** One downloadable build of the helper (written by `npm run helper:dist` into its manifest). */
export const helperBuildSchema = z.object({
  /** File name under /api/helper/download/. */
  file: z.string(),
  /** What it is, for the 相关下载 page. */
  title: z.string(),
  platform: z.enum(['linux', 'win32']),
  /** sea: a single executable (Node SEA); script: an installer or a bundle needing Node.js 20+. */
  kind: z.enum(['sea', 'bundle', 'installer', 'uninstaller']),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type HelperBuild = z.infer<typeof helperBuildSchema>;

export const helperManifestSchema = z.object({
  version: z.string(),
  builtAt: z.string(),
  builds: z.array(helperBuildSchema),
});
export type HelperManifest = z.infer<typeof helperManifestSchema>;

/** Where the product serves a build: GET, public (the helper upgrades itself from it). */
export const HELPER_DOWNLOAD_PREFIX = '/api/helper/download/';

/**
 * The product's helper version (issue 18 point 3): the latest build it offers and the oldest it accepts.
 * The helper asks it to decide 900 (too old) and to upgrade itself (201 while it does); the 相关下载 page
 * lists the builds. Public: the helper has no session.
 */
export const helperVersionCall = defineCall({
  path: 'helper/version',
  summary: '365基础服务版本：最新版本、最低可用版本与可下载的安装文件（含 sha256）',
  access: 'public',
  body: z.strictObject({}),
  data: z.object({
    /** The latest build offered (the helper's own version when nothing has been built). */
    version: z.string(),
    minVersion: z.string(),
    builtAt: z.string().nullable(),
    builds: z.array(helperBuildSchema),
  }),
});
