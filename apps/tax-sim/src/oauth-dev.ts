import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A development OAuth2 authorization-code provider (WeChat / DingTalk style) for the product's third-party
 * sign-in: GET /oauth/dev/authorize shows the development accounts (or, with `user`, approves at once) and
 * sends the browser back with a code; POST /oauth/dev/token exchanges it once; GET /oauth/dev/userinfo
 * answers the account. It answers the loopback only: no one outside this machine can use it.
 */
export const DEV_OAUTH_CLIENT = { id: 'dzy-dev', secret: 'dzy-dev-secret' } as const;
export const DEV_OAUTH_USERS = [
  { openid: 'dev-openid-0001', nickname: '开发用户甲' },
  { openid: 'dev-openid-0002', nickname: '开发用户乙' },
  { openid: 'dev-openid-0003', nickname: '开发用户丙' },
] as const;

const CODE_TTL_MS = 5 * 60_000;

interface Grant {
  openid: string;
  redirectUri: string;
  expiresAt: number;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const isLoopback = (req: IncomingMessage) => {
  const a = req.socket.remoteAddress ?? '';
  return a === '127.0.0.1' || a === '::1' || a === '::ffff:127.0.0.1';
};

/** An absolute http(s) redirect address without a fragment. */
const validRedirect = (v: string) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !u.hash;
  } catch {
    return false;
  }
};

export function createDevOAuth() {
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, string>();

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  }

  /** True when the request was this provider's (answered here). */
  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: Record<string, unknown>): boolean {
    if (!url.pathname.startsWith('/oauth/dev/')) return false;
    if (!isLoopback(req)) {
      json(res, 403, { error: 'forbidden', error_description: 'development provider: loopback only' });
      return true;
    }
    const method = req.method ?? 'GET';
    const path = url.pathname.slice('/oauth/dev/'.length);

    if (method === 'GET' && path === 'authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      const state = q.get('state') ?? '';
      if (
        q.get('client_id') !== DEV_OAUTH_CLIENT.id ||
        q.get('response_type') !== 'code' ||
        !validRedirect(redirectUri)
      ) {
        json(res, 400, { error: 'invalid_request' });
        return true;
      }
      const user = q.get('user');
      if (user) {
        if (!DEV_OAUTH_USERS.some((u) => u.openid === user)) {
          json(res, 400, { error: 'unknown_user' });
          return true;
        }
        const code = randomBytes(16).toString('hex');
        codes.set(code, { openid: user, redirectUri, expiresAt: Date.now() + CODE_TTL_MS });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        back.searchParams.set('state', state);
        res.writeHead(302, { location: back.toString(), 'cache-control': 'no-store' });
        res.end();
        return true;
      }
      const links = DEV_OAUTH_USERS.map((u) => {
        const next = new URL(url.toString());
        next.searchParams.set('user', u.openid);
        return `<li><a href="${esc(next.pathname + next.search)}">${esc(u.nickname)}</a> <small>${esc(u.openid)}</small></li>`;
      }).join('');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(
        `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>开发用第三方登录</title>` +
          `<body style="font-family:sans-serif;max-width:480px;margin:48px auto"><h2>开发用第三方登录</h2>` +
          `<p>模拟微信、钉钉式的授权：选择一个开发账号授权登录代账云。仅本机可用。</p><ul>${links}</ul></body></html>`,
      );
      return true;
    }

    if (method === 'POST' && path === 'token') {
      const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
      if (str('client_id') !== DEV_OAUTH_CLIENT.id || str('client_secret') !== DEV_OAUTH_CLIENT.secret) {
        json(res, 401, { error: 'invalid_client' });
        return true;
      }
      const grant = codes.get(str('code'));
      codes.delete(str('code'));
      if (
        str('grant_type') !== 'authorization_code' ||
        !grant ||
        grant.expiresAt < Date.now() ||
        grant.redirectUri !== str('redirect_uri')
      ) {
        json(res, 400, { error: 'invalid_grant' });
        return true;
      }
      const token = randomBytes(24).toString('hex');
      tokens.set(token, grant.openid);
      json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 7200, openid: grant.openid });
      return true;
    }

    if (method === 'GET' && path === 'userinfo') {
      const auth = req.headers.authorization ?? '';
      const openid = auth.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
      const user = DEV_OAUTH_USERS.find((u) => u.openid === openid);
      if (!user) {
        json(res, 401, { error: 'invalid_token' });
        return true;
      }
      json(res, 200, { openid: user.openid, nickname: user.nickname });
      return true;
    }
    json(res, 404, { error: 'not_found' });
    return true;
  }

  return { handle };
}
