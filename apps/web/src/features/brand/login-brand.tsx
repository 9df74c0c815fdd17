import type { CallDef, thirdRenderCall, urlAndJsConfigCall } from '@dzy/shared';
import { useEffect, useState } from 'react';
import { call } from '../../lib/request';
import { rememberSignInAddress } from '../../lib/session-address';
import './login-brand.css';

/**
 * What the sign-in page needs from the server before sign-in (its brand by /login/{fwsid}, the hotline, the
 * third-party sign-in buttons). Drawn without antd and importing the contract by type only, so the sign-in
 * chunk gains no zod and no antd: two calls by path.
 */
const configCall = { path: 'user/urlAndJsConfig/getUrlAndJsConfigData' } as unknown as typeof urlAndJsConfigCall;
const renderCall = { path: 'user/third/login/render' } as unknown as typeof thirdRenderCall;

export type LoginConfig = NonNullable<Awaited<ReturnType<typeof loadConfig>>>;
const loadConfig = (fwsid: string | undefined) =>
  call(configCall as CallDef as typeof urlAndJsConfigCall, fwsid ? { fwsid } : {}, { handle: 'all' });

/** The colour of the provider whose sign-in page is shown (null: the platform's), for the lazily loaded second step. */
let shownBrandColor: string | null = null;
export const loginBrandColor = () => shownBrandColor;

/** The sign-in page's configuration; null until it arrives (or when it cannot: the platform's defaults show). */
export function useLoginConfig(fwsid: string | undefined): LoginConfig | null {
  const [config, setConfig] = useState<LoginConfig | null>(null);
  useEffect(() => {
    let live = true;
    // The shell later compares the agency's provider with this address (账号异常，请联系服务商。).
    rememberSignInAddress(fwsid);
    loadConfig(fwsid)
      .then((c) => {
        if (!live || !c) return;
        shownBrandColor = c.brand?.primaryColor ?? null;
        setConfig(c);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [fwsid]);
  return config;
}

/** 其他登录方式: one button per provider the server offers; each goes to the provider's authorization page. */
export function ThirdLoginButtons({ providers }: { providers: LoginConfig['thirdProviders'] }) {
  const [busy, setBusy] = useState('');
  const [error, setError] = useState('');
  if (providers.length === 0) return null;
  const go = async (provider: string) => {
    setBusy(provider);
    setError('');
    try {
      const r = await call(renderCall, { provider: provider as 'dev', purpose: 'login' }, { handle: 'all' });
      if (r?.url) window.location.assign(r.url);
    } catch (err) {
      setError((err as Error).message || '第三方登录暂不可用，请稍后再试');
      setBusy('');
    }
  };
  return (
    <div className="dzy-auth-third">
      <div className="dzy-auth-third-title">其他登录方式</div>
      <div className="dzy-auth-third-list">
        {providers.map((p) => (
          <button
            key={p.id}
            type="button"
            className="dzy-auth-third-button"
            disabled={busy !== ''}
            onClick={() => void go(p.id)}
          >
            {busy === p.id ? '正在跳转…' : p.label}
          </button>
        ))}
      </div>
      {error && (
        <div className="dzy-auth-third-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
