import { SMS_RESEND_SECONDS, sendSmsCall } from '@dzy/shared/wire';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { PlainButton } from './plain-form';

/**
 * 获取验证码 with the 60 s resend countdown, for the sign-in page (components/sms-code-button.tsx is the
 * antd one the other pages use). `getPhone` checks the phone field and resolves with it, or with null
 * when it is not valid (the form shows why).
 */
export function SmsCodeButton({ getPhone }: { getPhone: () => string | null }) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);

  const send = async () => {
    const phone = getPhone();
    if (!phone) return;
    setSending(true);
    try {
      const data = await call(sendSmsCall, { phone, dictLabel: 'login' });
      setLeft(data?.resendAfter ?? SMS_RESEND_SECONDS);
      toast('success', '验证码已发送，请注意查收');
    } catch {
      // The request client has shown why (e.g. 请求过于频繁).
    } finally {
      setSending(false);
    }
  };

  return (
    <PlainButton className="dzy-code-button" disabled={left > 0} loading={sending} onClick={() => void send()}>
      {left > 0 ? `${left}s后重新获取` : '获取验证码'}
    </PlainButton>
  );
}
