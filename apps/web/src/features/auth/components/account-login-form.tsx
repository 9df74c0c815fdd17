import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { loginCall } from '@dzy/shared/wire';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, call } from '../../../lib/request';
import { setSignedIn } from '../../../lib/session';
import { PendingSecondStep, type PendingStep, pendingOf } from '../../two-factor/pending-step';
import { checkAccount, checkPasswordGiven } from '../checks';
import { Field, PlainAlert, PlainButton, usePlainForm } from './plain-form';

const CHECKS = { account: checkAccount, password: checkPasswordGiven };

/** 账号登录: account (phone or account name, trimmed) and password. */
export function AccountLoginForm({ ensureConsent }: { ensureConsent: () => boolean }) {
  const form = usePlainForm(CHECKS);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [pending, setPending] = useState<PendingStep | null>(null);

  const change = (name: keyof typeof CHECKS) => (value: string) => {
    setError(null);
    form.setValue(name, value);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const valid = form.validate();
    if (!ensureConsent() || !valid) return;
    setError(null);
    setSubmitting(true);
    try {
      // The page shows every failure itself (账号或密码错误, locked until ...), so nothing is toasted.
      const data = await call(
        loginCall,
        { type: '1', account: form.values.account.trim(), password: form.values.password },
        { handle: 'all' },
      );
      if (data && 'token' in data) setSignedIn(data);
      else if (pendingOf(data)) setPending(pendingOf(data));
      else setError('登录失败，请稍后重试');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : '登录失败，请稍后重试');
    } finally {
      setSubmitting(false);
    }
  };

  if (pending) return <PendingSecondStep pending={pending} onCancel={() => setPending(null)} />;
  return (
    <form name="accountLogin" className="dzy-plain-form" onSubmit={onSubmit} noValidate autoComplete="on">
      <Field
        icon={UserOutlined}
        name="account"
        placeholder="手机号 / 账号"
        maxLength={50}
        autoComplete="username"
        allowClear
        value={form.values.account}
        onValue={change('account')}
        error={form.errors.account}
      />
      <Field
        icon={LockOutlined}
        name="password"
        placeholder="密码"
        maxLength={64}
        autoComplete="current-password"
        password
        value={form.values.password}
        onValue={change('password')}
        error={form.errors.password}
      />
      <div className="dzy-auth-row">
        <span />
        <Link to="/forgetPassword">忘记密码？</Link>
      </div>
      {error && <PlainAlert type="error">{error}</PlainAlert>}
      <PlainButton type="submit" primary block loading={submitting}>
        登 录
      </PlainButton>
    </form>
  );
}
