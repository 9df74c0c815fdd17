import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { arch, hostname, platform, release } from 'node:os';
import {
  type BureauClient,
  decodeHelperData,
  HELPER_CODE,
  HELPER_DEFAULT_TOKEN,
  HELPER_MSG,
  HELPER_PATH,
  HELPER_PORTS,
  HELPER_STATUS,
  HELPER_VERSION,
  type HelperProbeReply,
  type HelperReply,
  type HelperStatus,
  SHENBAO_FUNCS,
  type ShenbaoFunc,
  versionBelow,
} from '@dzy/shared';
import { asFailure, etaxService, HelperFailure, ok } from './etax.service.js';
import { gsxtService } from './gsxt.service.js';
import { downloadVerified, productVersion, type SelfInstall, type UpgradeOutcome, upgradeTarget } from './upgrade.js';

export interface HelperOptions {
  /** Product origins whose pages may call the helper (exact scheme://host:port). */
  origins: readonly string[];
  bureau: BureauClient;
  /** The bureau's address, for its trusted-login page (the page frames it). */
  bureauUrl: string;
  /** A loopback address only; anything else is refused. */
  host?: string;
  /** A fixed port (0 = any free one); by default the first free of HELPER_PORTS. */
  port?: number;
  token?: string;
  version?: string;
  /** This copy as installed (the file an upgrade replaces); null when run from sources (npm run helper). */
  self?: SelfInstall | null;
  /** After the file was replaced by a newer build: restart (main.ts starts the new file and exits). */
  onUpgraded?: (version: string) => void;
}

export interface HelperHandle {
  url: string;
  port: number;
  /** Marks the helper as upgrading (probes answer 201, calls are refused until it ends). */
  setUpgrading(on: boolean): void;
  /**
   * Asks the product its helper version: remembers the oldest it accepts (older: probes answer 900) and,
   * when installed as a program and older than the latest, upgrades itself from the product (201 meanwhile).
   */
  checkProduct(): Promise<UpgradeOutcome & { minVersion?: string }>;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const BODY_LIMIT = 64 * 1024;

/**
 * The local helper service 365基础服务 (tax-bureau.md §7). It listens on loopback only, answers only
 * pages of the configured product origins (CORS for them, 403 without CORS headers for anyone else),
 * and checks the Host header so a rebound DNS name cannot reach it either.
 */
export async function startHelper(opts: HelperOptions): Promise<HelperHandle> {
  const host = opts.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`365基础服务只在本机回环地址上监听，拒绝 ${host}`);
  const origins = new Set(opts.origins.map((o) => new URL(o).origin));
  const token = opts.token ?? HELPER_DEFAULT_TOKEN;
  const version = opts.version ?? HELPER_VERSION;
  const etax = etaxService(opts.bureau);
  const gsxt = gsxtService(opts.bureauUrl);
  let upgrading = false;
  /** The oldest version the product accepts, once it has said. */
  let productMin = '';
  let port = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 200, { code: HELPER_CODE.serviceError, msg: HELPER_MSG.e49000, data: null });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const origin = req.headers.origin ?? '';
    if (!hostAllowed(req.headers.host ?? '', port) || !origins.has(origin)) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('forbidden');
      return;
    }
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
        // Chrome's private network access: a page asking loopback must be told it may.
        ...(req.headers['access-control-request-private-network']
          ? { 'access-control-allow-private-network': 'true' }
          : {}),
      });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/') {
      send(res, 200, probe(url));
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, { code: HELPER_CODE.badRequest, msg: 'method not allowed', data: null });
      return;
    }
    let reply: HelperReply<unknown>;
    try {
      if (upgrading) throw new HelperFailure(String(HELPER_STATUS.upgrading), HELPER_MSG.upgrading);
      const body = await readBody(req);
      reply = await dispatch(url.pathname, origin, body);
    } catch (err) {
      const f = asFailure(err);
      reply = { code: f.code, msg: f.message, data: null };
    }
    send(res, 200, reply);
  }

  function probe(url: URL): HelperProbeReply {
    const func = url.searchParams.get('func') ?? 'upversion';
    const asked = url.searchParams.get('minVersion') ?? '';
    const min = productMin && (!asked || versionBelow(asked, productMin)) ? productMin : asked;
    const code: HelperStatus = upgrading
      ? HELPER_STATUS.upgrading
      : min && versionBelow(version, min)
        ? HELPER_STATUS.tooOld
        : HELPER_STATUS.ok;
    const msg =
      code === HELPER_STATUS.ok ? 'ok' : code === HELPER_STATUS.upgrading ? HELPER_MSG.upgrading : HELPER_MSG.tooOld;
    return {
      code,
      msg,
      version,
      minVersion: min,
      platform: platform(),
      ...(func === 'findDevice' || func === 'upversionAll'
        ? { device: { hostname: hostname(), os: `${platform()} ${release()}`, arch: arch() } }
        : {}),
    };
  }

  async function dispatch(path: string, origin: string, raw: unknown): Promise<HelperReply<unknown>> {
    const req = raw as Partial<Record<'data' | 'token' | 'callbackurl' | 'func', unknown>>;
    if (typeof req !== 'object' || req === null || typeof req.func !== 'string') {
      throw new HelperFailure(HELPER_CODE.badRequest, '请求格式有误');
    }
    if (req.token !== token) throw new HelperFailure(HELPER_CODE.badToken, HELPER_MSG.badToken);
    let data: Record<string, unknown>;
    try {
      const decoded = typeof req.data === 'string' && req.data !== '' ? decodeHelperData(req.data) : {};
      data = (typeof decoded === 'object' && decoded !== null ? decoded : {}) as Record<string, unknown>;
    } catch {
      throw new HelperFailure(HELPER_CODE.badRequest, '请求数据无法解析');
    }
    const aeiId = () => {
      const n = data.aeiId;
      if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0)
        throw new HelperFailure(HELPER_CODE.badRequest, '请选择企业');
      return n;
    };
    const text = (k: string, max = 512) => {
      const v = data[k];
      if (typeof v !== 'string' || v === '' || v.length > max)
        throw new HelperFailure(HELPER_CODE.badRequest, `缺少${k}`);
      return v;
    };
    const func = req.func;
    if (path === HELPER_PATH.root) {
      if (func === 'openrun') return ok({ running: true, version });
      if (func === 'computer_info')
        return ok({ hostname: hostname(), os: `${platform()} ${release()}`, arch: arch(), version });
      if (func === 'userinfo') return ok({ version, origins: [...origins] });
      if (func === 'pwdcheck') return etax.checkPassword(origin, text('grant'), aeiId());
    }
    if (path === HELPER_PATH.gsxt && func === 'Login') {
      const qysh = text('qysh', 20);
      const lxrxm = text('lxrxm', 50);
      const password = typeof data.password === 'string' ? data.password.slice(0, 128) : '';
      if (!password) throw new HelperFailure(HELPER_CODE.badRequest, '请输入密码');
      const qymc = typeof data.qymc === 'string' ? data.qymc.slice(0, 100) : '';
      return gsxt.login(origin, { qysh, qymc, lxrxm, password });
    }
    if (path === HELPER_PATH.gsxtReportHome) return gsxt.reportHome(origin, text('qysh', 20));
    if (path === HELPER_PATH.etax) {
      switch (func) {
        case 'login_etax': {
          // The product redeems the grant; the credentials come from there, never from the page.
          const cb = typeof req.callbackurl === 'string' ? safeOrigin(req.callbackurl) : null;
          if (cb !== origin) throw new HelperFailure(HELPER_CODE.badRequest, '回调地址无效');
          return etax.login(origin, text('grant'), aeiId());
        }
        case 'sendSms':
          return etax.sendSms(origin, aeiId());
        case 'SmsLogin': {
          const code = text('code', 12);
          if (!/^\d{4,8}$/.test(code)) throw new HelperFailure(HELPER_CODE.badRequest, '请输入正确的短信验证码');
          return etax.smsLogin(origin, aeiId(), code);
        }
        case 'get_cookie':
          return etax.cookie(origin, aeiId());
        case 'get_user':
          return etax.user(origin, aeiId());
        case 'logout':
          return etax.logout(origin, aeiId());
        case 'trusted_login': {
          // The bureau's own trusted-login page (可信登录), which the page shows in a frame.
          const page = new URL('/trusted-login', opts.bureauUrl);
          page.searchParams.set('qysh', text('qysh', 20));
          if (typeof data.qymc === 'string') page.searchParams.set('qymc', data.qymc.slice(0, 100));
          page.searchParams.set('origin', origin);
          return ok({ url: page.toString() });
        }
      }
    }
    if (path === HELPER_PATH.shenbao && (SHENBAO_FUNCS as readonly string[]).includes(func)) {
      const years = Array.isArray(data.years)
        ? data.years.filter((y): y is string => typeof y === 'string')
        : undefined;
      return etax.query(origin, aeiId(), func as ShenbaoFunc, {
        ...(typeof data.from === 'string' ? { from: data.from } : {}),
        ...(typeof data.to === 'string' ? { to: data.to } : {}),
        ...(years ? { years } : {}),
      });
    }
    throw new HelperFailure(HELPER_CODE.unknownFunc, HELPER_MSG.unknownFunc);
  }

  port = await listen(server, host, opts.port);
  return {
    url: `http://${host === '::1' ? '[::1]' : host}:${port}`,
    port,
    setUpgrading: (on) => {
      upgrading = on;
    },
    async checkProduct() {
      const found = await productVersion([...origins]);
      if (!found) return { kind: 'failed', msg: '无法连接代账云，未检查新版本' };
      productMin = found.v.minVersion;
      const build = upgradeTarget(version, found.v, opts.self ?? null);
      if (!build || !opts.self) return { kind: 'current', minVersion: productMin };
      upgrading = true;
      let restarting = false;
      try {
        const r = await downloadVerified(found.origin, build, opts.self.path);
        if (r.kind !== 'upgraded') return { ...r, minVersion: productMin };
        restarting = opts.onUpgraded !== undefined;
        opts.onUpgraded?.(found.v.version);
        return { kind: 'upgraded', version: found.v.version, minVersion: productMin };
      } finally {
        // While the new file restarts, probes keep saying 201; a failed download leaves this copy serving.
        if (!restarting) upgrading = false;
      }
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The first free port of HELPER_PORTS (what the page probes), or the one asked for. */
async function listen(server: Server, host: string, port: number | undefined): Promise<number> {
  const candidates = port === undefined ? [...HELPER_PORTS] : [port];
  for (const p of candidates) {
    const got = await new Promise<number | null>((done) => {
      const onError = () => done(null);
      server.once('error', onError);
      server.listen(p, host, () => {
        server.off('error', onError);
        done((server.address() as AddressInfo).port);
      });
    });
    if (got !== null) return got;
  }
  throw new Error(`365基础服务无法监听端口 ${candidates.join(', ')}（均被占用）`);
}

function hostAllowed(hostHeader: string, port: number): boolean {
  const m = /^(\[::1\]|127\.0\.0\.1|localhost):(\d+)$/.exec(hostHeader);
  return m !== null && Number(m[2]) === port;
}

function safeOrigin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT) {
        fail(new HelperFailure(HELPER_CODE.badRequest, '请求内容过大'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      try {
        done(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        fail(new HelperFailure(HELPER_CODE.badRequest, '请求格式有误'));
      }
    });
    req.on('error', fail);
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
