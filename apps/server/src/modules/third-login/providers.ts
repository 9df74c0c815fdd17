import { type ThirdProviderId, thirdProviderName } from '@dzy/shared';
import type { Config } from '../../config.js';

/** A third-party account as the provider tells it. */
export interface ThirdAccount {
  openid: string;
  nickname: string;
}

/**
 * An OAuth2 authorization-code provider (WeChat / DingTalk style): where to send the browser, and how to
 * turn the code it brings back into the account. `exchange` throws on any refusal.
 */
export interface ThirdProvider {
  id: ThirdProviderId;
  label: string;
  authorizeUrl(p: { state: string; redirectUri: string }): string;
  exchange(p: { code: string; redirectUri: string }): Promise<ThirdAccount>;
}

const TIMEOUT_MS = 10_000;

async function getJson(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`provider answered HTTP ${res.status}`);
  const body = (await res.json()) as unknown;
  if (!body || typeof body !== 'object') throw new Error('provider answered no object');
  return body as Record<string, unknown>;
}
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** 微信开放平台 website sign-in (snsapi_login, QR code page). */
function wechat(appId: string, secret: string): ThirdProvider {
  return {
    id: 'wechat',
    label: thirdProviderName('wechat'),
    authorizeUrl: ({ state, redirectUri }) =>
      `https://open.weixin.qq.com/connect/qrconnect?${new URLSearchParams({
        appid: appId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'snsapi_login',
        state,
      })}#wechat_redirect`,
    async exchange({ code }) {
      const token = await getJson(
        `https://api.weixin.qq.com/sns/oauth2/access_token?${new URLSearchParams({
          appid: appId,
          secret,
          code,
          grant_type: 'authorization_code',
        })}`,
      );
      if (token.errcode || !str(token.openid)) throw new Error(`wechat: ${str(token.errmsg) || 'no openid'}`);
      const info = await getJson(
        `https://api.weixin.qq.com/sns/userinfo?${new URLSearchParams({
          access_token: str(token.access_token),
          openid: str(token.openid),
        })}`,
      ).catch(() => ({}) as Record<string, unknown>);
      // The unionid is the same across the company's WeChat apps; the openid when there is none.
      return { openid: str(token.unionid) || str(token.openid), nickname: str(info.nickname) };
    },
  };
}

/** 钉钉 sign-in (OAuth2 of the new open platform). */
function dingtalk(clientId: string, secret: string): ThirdProvider {
  return {
    id: 'dingtalk',
    label: thirdProviderName('dingtalk'),
    authorizeUrl: ({ state, redirectUri }) =>
      `https://login.dingtalk.com/oauth2/auth?${new URLSearchParams({
        redirect_uri: redirectUri,
        response_type: 'code',
        client_id: clientId,
        scope: 'openid',
        state,
        prompt: 'consent',
      })}`,
    async exchange({ code }) {
      const token = await getJson('https://api.dingtalk.com/v1.0/oauth2/userAccessToken', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId, clientSecret: secret, code, grantType: 'authorization_code' }),
      });
      const accessToken = str(token.accessToken);
      if (!accessToken) throw new Error('dingtalk: no access token');
      const me = await getJson('https://api.dingtalk.com/v1.0/contact/users/me', {
        headers: { 'x-acs-dingtalk-access-token': accessToken },
      });
      const openid = str(me.unionId) || str(me.openId);
      if (!openid) throw new Error('dingtalk: no user id');
      return { openid, nickname: str(me.nick) };
    },
  };
}

/** The development provider the simulator serves (apps/tax-sim/src/oauth-dev.ts), loopback only. */
export const DEV_CLIENT_ID = 'dzy-dev';
export const DEV_CLIENT_SECRET = 'dzy-dev-secret';
function dev(base: string): ThirdProvider {
  return {
    id: 'dev',
    label: thirdProviderName('dev'),
    authorizeUrl: ({ state, redirectUri }) =>
      `${base}/oauth/dev/authorize?${new URLSearchParams({
        client_id: DEV_CLIENT_ID,
        redirect_uri: redirectUri,
        response_type: 'code',
        state,
      })}`,
    async exchange({ code, redirectUri }) {
      const token = await getJson(`${base}/oauth/dev/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'authorization_code',
          client_id: DEV_CLIENT_ID,
          client_secret: DEV_CLIENT_SECRET,
          code,
          redirect_uri: redirectUri,
        }),
      });
      if (!str(token.access_token)) throw new Error(`dev: ${str(token.error) || 'no token'}`);
      const me = await getJson(`${base}/oauth/dev/userinfo`, {
        headers: { authorization: `Bearer ${str(token.access_token)}` },
      });
      if (!str(me.openid)) throw new Error('dev: no openid');
      return { openid: str(me.openid), nickname: str(me.nickname) };
    },
  };
}

/**
 * The providers this server offers: WeChat and DingTalk when their credentials are set (WECHAT_APP_ID and
 * WECHAT_APP_SECRET, DINGTALK_CLIENT_ID and DINGTALK_CLIENT_SECRET), and outside production the development
 * provider of the simulator (THIRD_DEV_OAUTH_URL, else the simulated bureau's address).
 */
export function availableProviders(config: Config, env: NodeJS.ProcessEnv = process.env): ThirdProvider[] {
  const out: ThirdProvider[] = [];
  if (env.WECHAT_APP_ID && env.WECHAT_APP_SECRET) out.push(wechat(env.WECHAT_APP_ID, env.WECHAT_APP_SECRET));
  if (env.DINGTALK_CLIENT_ID && env.DINGTALK_CLIENT_SECRET) {
    out.push(dingtalk(env.DINGTALK_CLIENT_ID, env.DINGTALK_CLIENT_SECRET));
  }
  if (!config.production) {
    const base = (env.THIRD_DEV_OAUTH_URL || config.taxBureauUrl || `http://127.0.0.1:${config.taxSimPort}`).replace(
      /\/+$/,
      '',
    );
    out.push(dev(base));
  }
  return out;
}

export const providerFor = (config: Config, id: string) => availableProviders(config).find((p) => p.id === id) ?? null;
