import MobileOutlined from '@ant-design/icons-svg/es/asn/MobileOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import { CODE, loginCall, type SessionInfo, saveUserCall } from '@dzy/shared/wire';
import { type FormEvent, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { ApiError, call } from '../../../lib/request';
import { setSignedIn } from '../../../lib/session';
import { PendingSecondStep, type PendingStep, pendingOf } from '../../two-factor/pending-step';
import { checkMobile, checkSmsCode, compact } from '../checks';
import { Field, PlainAlert, PlainButton, usePlainForm } from './plain-form';
import { SmsCodeButton } from './sms-code-button';

const CHECKS = { phone: checkMobile, code: checkSmsCode };

/** First sign-in of an unknown phone: register as agency staff with the ticket the server gave (code 406). */
async function register(phone: string, registerTicket: string): Promise<unknown> {
  return call(saveUserCall, { phone, isAgency: '1', dataSource: 'web', registerTicket }, { handle: 'all' });
}

function ticketOf(data: unknown): string | null {
  if (data && typeof data === 'object' && 'registerTicket' in data && typeof data.registerTicket === 'string') {
    return data.registerTicket;
  }
  return null;
}

/** 验证码登录: phone and six-digit SMS code; an unknown phone is registered on the spot. */
export function SmsLoginForm({ ensureConsent }: { ensureConsent: () => boolean }) {
  const form = usePlainForm(CHECKS);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [pending, setPending] = useState<PendingStep | null>(null);

  const change = (name: keyof typeof CHECKS) => (value: string) => {
    setError(null);
    form.setValue(name, value);
  };

  const getPhone = () => (form.validate(['phone']) ? compact(form.values.phone) : null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const valid = form.validate();
    if (!ensureConsent() || !valid) return;
    const phone = compact(form.values.phone);
    setError(null);
    setSubmitting(true);
    try {
      let ticket: string | null = null;
      try {
        const data = await call(
          loginCall,
          { type: '2', account: phone, code: compact(form.values.code) },
          { handle: 'all' },
        );
        if (data && 'token' in data) {
          setSignedIn(data);
          return;
        }
        if (pendingOf(data)) {
          setPending(pendingOf(data));
          return;
        }
        ticket = ticketOf(data);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === CODE.EMPTY)) throw err;
        ticket = ticketOf(err.data);
      }
      if (!ticket) throw new Error('登录失败，请稍后重试');
      const info = await register(phone, ticket);
      if (!info) throw new Error('注册失败，请稍后重试');
      if (pendingOf(info)) {
        setPending(pendingOf(info));
        return;
      }
      setSignedIn(info as SessionInfo);
      toast('success', '注册成功，欢迎使用代账云');
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : '登录失败，请稍后重试');
    } finally {
      setSubmitting(false);
    }
  };

  if (pending) return <PendingSecondStep pending={pending} onCancel={() => setPending(null)} />;
  return (
    <form name="smsLogin" className="dzy-plain-form" onSubmit={onSubmit} noValidate>
      <Field
        icon={MobileOutlined}
        name="phone"
        placeholder="手机号"
        maxLength={11}
        inputMode="numeric"
        autoComplete="tel"
        allowClear
        value={form.values.phone}
        onValue={change('phone')}
        error={form.errors.phone}
      />
      <div className="dzy-code-row">
        <Field
          icon={SafetyOutlined}
          name="code"
          placeholder="6位验证码"
          maxLength={6}
          inputMode="numeric"
          autoComplete="one-time-code"
          value={form.values.code}
          onValue={change('code')}
          error={form.errors.code}
        />
        <SmsCodeButton getPhone={getPhone} />
      </div>
      <div className="dzy-auth-note">未注册的手机号验证通过后将自动注册为代理机构用户</div>
      {error && <PlainAlert type="error">{error}</PlainAlert>}
      <PlainButton type="submit" primary block loading={submitting}>
        登 录
      </PlainButton>
    </form>
  );
}
