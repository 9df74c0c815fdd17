import ExperimentOutlined from '@ant-design/icons-svg/es/asn/ExperimentOutlined';
import { useEffect, useState } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { preloadSignedIn } from '../../../app/preload';
import { PlainIcon } from '../../../components/plain-icon';
import { useDevOutbox } from '../../../lib/dev-outbox';
import { useDocumentTitle } from '../../../lib/document-title';
import { ThirdLoginButtons, useLoginConfig } from '../../brand/login-brand';
import { PendingSecondStep, type PendingStep } from '../../two-factor/pending-step';
import { AccountLoginForm } from '../components/account-login-form';
import { AuthLayout } from '../components/auth-layout';
import { Consent } from '../components/consent';
import { LoginTabs } from '../components/login-tabs';
import { PlainAlert } from '../components/plain-form';
import { SmsLoginForm } from '../components/sms-login-form';

/** Dev-only link to the SMS outbox, shown only when the server has one. */
function DevOutboxHint() {
  const outbox = useDevOutbox();
  if (!outbox.data) return null;
  return (
    <div className="dzy-auth-dev-hint">
      <PlainIcon icon={ExperimentOutlined} />
      <span>开发环境：</span>
      <a href="#/dev/outbox" target="_blank" rel="noreferrer">
        查看开发短信收件箱
      </a>
    </div>
  );
}

/**
 * /login: 账号登录 and 验证码登录 (foundation.md §2, §4). The first page of every visit, so it is drawn without
 * antd (plain-form.tsx, auth.css) and imports its calls from @dzy/shared/wire (no zod).
 */
export function LoginPage() {
  useDocumentTitle('登录');
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  // /login/{fwsid}: a provider's own sign-in address; a refused third-party sign-in comes back with its reason.
  const config = useLoginConfig(useParams().fwsid);
  const notice = (location.state as { notice?: string } | null)?.notice ?? search.get('thirdError') ?? null;
  // A third-party sign-in of a user with two factors comes back with the second step's ticket (5 minutes).
  // It is taken off the address at once, so that it stays in no history entry, bookmark or shared link.
  const [pending, setPending] = useState<PendingStep | null>(() => {
    const ticket = search.get('twoFactorTicket');
    return ticket ? { ticket, enrol: search.get('enrol') === '1' } : null;
  });
  useEffect(() => {
    if (search.has('twoFactorTicket')) setSearch({}, { replace: true });
  }, [search, setSearch]);
  const [tab, setTab] = useState('account');
  const [agreed, setAgreed] = useState(false);
  const [consentMissing, setConsentMissing] = useState(false);

  const ensureConsent = () => {
    setConsentMissing(!agreed);
    return agreed;
  };

  return (
    <AuthLayout config={config}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: listens only, to preload the shell as the visitor starts typing */}
      <div onFocusCapture={preloadSignedIn} onPointerDownCapture={preloadSignedIn}>
        <h2 className="dzy-auth-title">欢迎登录</h2>
        <p className="dzy-auth-subtitle">登录代账云，高效管理您的代账业务</p>
        {notice && <PlainAlert type="warning">{notice}</PlainAlert>}
        {pending ? (
          <PendingSecondStep pending={pending} onCancel={() => setPending(null)} />
        ) : (
          <>
            <LoginTabs
              activeKey={tab}
              onChange={setTab}
              items={[
                { key: 'account', label: '账号登录', children: <AccountLoginForm ensureConsent={ensureConsent} /> },
                {
                  key: 'sms',
                  label: '验证码登录',
                  children: (
                    <>
                      <SmsLoginForm ensureConsent={ensureConsent} />
                      <DevOutboxHint />
                    </>
                  ),
                },
              ]}
            />
            <Consent checked={agreed} onChange={setAgreed} showError={consentMissing} />
            <ThirdLoginButtons providers={config?.thirdProviders ?? []} />
          </>
        )}
      </div>
    </AuthLayout>
  );
}
