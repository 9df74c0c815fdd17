import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { CODE, loginCall, type SessionInfo, saveUserCall } from '@dzy/shared';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { SmsCodeButton } from '../../../components/sms-code-button';
import { toast } from '../../../lib/feedback';
import { mobileRule, smsCodeRule } from '../../../lib/form-rules';
import { ApiError, call } from '../../../lib/request';
import { setSignedIn } from '../../../lib/session';

interface Values {
  phone: string;
  code: string;
}

/** First sign-in of an unknown phone: register as agency staff with the ticket the server gave (code 406). */
async function register(phone: string, registerTicket: string): Promise<SessionInfo | null> {
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
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const getPhone = async () => {
    try {
      const { phone } = await form.validateFields(['phone']);
      return phone.trim();
    } catch {
      return null;
    }
  };

  const onFinish = async (values: Values) => {
    if (!ensureConsent()) return;
    const phone = values.phone.trim();
    setError(null);
    setSubmitting(true);
    try {
      let ticket: string | null = null;
      try {
        const data = await call(loginCall, { type: '2', account: phone, code: values.code.trim() }, { handle: 'all' });
        if (data && 'token' in data) {
          setSignedIn(data);
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
      setSignedIn(info);
      toast('success', '注册成功，欢迎使用代账云');
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : '登录失败，请稍后重试');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      name="smsLogin"
      size="large"
      requiredMark={false}
      onFinish={onFinish}
      onValuesChange={() => setError(null)}
      onFinishFailed={() => ensureConsent()}
    >
      <Form.Item name="phone" rules={[mobileRule]} validateFirst>
        <Input
          prefix={<MobileOutlined />}
          placeholder="手机号"
          maxLength={11}
          inputMode="numeric"
          autoComplete="tel"
          allowClear
        />
      </Form.Item>
      <div className="dzy-code-row">
        <Form.Item name="code" rules={[smsCodeRule]}>
          <Input
            prefix={<SafetyOutlined />}
            placeholder="6位验证码"
            maxLength={6}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
        </Form.Item>
        <SmsCodeButton purpose="login" getPhone={getPhone} size="large" />
      </div>
      <div className="dzy-auth-note">未注册的手机号验证通过后将自动注册为代理机构用户</div>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Button type="primary" htmlType="submit" block loading={submitting}>
        登 录
      </Button>
    </Form>
  );
}
