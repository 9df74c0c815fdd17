import { type SMS_PURPOSES, SMS_RESEND_SECONDS, sendSmsCall } from '@dzy/shared';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../lib/feedback';
import { call } from '../lib/request';

type Purpose = (typeof SMS_PURPOSES)[number];

type Target =
  | { purpose: Purpose; getPhone: () => Promise<string | null> }
  /** A signed-in call that sends the code to the user's own phone (e.g. before revealing a credential). */
  | { send: () => Promise<{ resendAfter: number } | null> };

/**
 * 获取验证码 with the 60 s resend countdown. `getPhone` validates the phone field and resolves with it,
 * or with null when it is not valid (the form shows why); or `send` sends the code itself.
 */
export function SmsCodeButton({ size, ...target }: Target & { size?: 'large' | 'middle' }) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);

  const send = async () => {
    const phone = 'send' in target ? null : await target.getPhone();
    if (!('send' in target) && !phone) return;
    setSending(true);
    try {
      const data =
        'send' in target
          ? await target.send()
          : await call(sendSmsCall, { phone: phone ?? '', dictLabel: target.purpose });
      setLeft(data?.resendAfter ?? SMS_RESEND_SECONDS);
      toast('success', '验证码已发送，请注意查收');
    } catch {
      // The request client has shown why (e.g. 请求过于频繁).
    } finally {
      setSending(false);
    }
  };

  return (
    <Button size={size} disabled={left > 0} loading={sending} onClick={send} style={{ width: 132, flex: 'none' }}>
      {left > 0 ? `${left}s后重新获取` : '获取验证码'}
    </Button>
  );
}
