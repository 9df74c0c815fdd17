import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { loginCall } from '@dzy/shared';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, call } from '../../../lib/request';
import { setSignedIn } from '../../../lib/session';

interface Values {
  account: string;
  password: string;
}

/** 账号登录: account (phone or account name, trimmed) and password. */
export function AccountLoginForm({ ensureConsent }: { ensureConsent: () => boolean }) {
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: Values) => {
    if (!ensureConsent()) return;
    setError(null);
    setSubmitting(true);
    try {
      // The page shows every failure itself (账号或密码错误, locked until ...), so nothing is toasted.
      const data = await call(
        loginCall,
        { type: '1', account: values.account.trim(), password: values.password },
        { handle: 'all' },
      );
      if (data && 'token' in data) setSignedIn(data);
      else setError('登录失败，请稍后重试');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : '登录失败，请稍后重试');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      name="accountLogin"
      size="large"
      requiredMark={false}
      onFinish={onFinish}
      onValuesChange={() => setError(null)}
      onFinishFailed={() => ensureConsent()}
      autoComplete="on"
    >
      <Form.Item name="account" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
        <Input
          prefix={<UserOutlined />}
          placeholder="手机号 / 账号"
          maxLength={50}
          autoComplete="username"
          allowClear
        />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
        <Input.Password prefix={<LockOutlined />} placeholder="密码" maxLength={64} autoComplete="current-password" />
      </Form.Item>
      <div className="dzy-auth-row">
        <span />
        <Link to="/forgetPassword">忘记密码？</Link>
      </div>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Button type="primary" htmlType="submit" block loading={submitting}>
        登 录
      </Button>
    </Form>
  );
}
