import { LockOutlined, MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { forgetPasswordCall } from '@dzy/shared';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { SmsCodeButton } from '../../../components/sms-code-button';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { mobileRule, PASSWORD_HINT, passwordRule, sameAsRule, smsCodeRule } from '../../../lib/form-rules';
import { ApiError, call } from '../../../lib/request';
import { AuthLayout } from '../components/auth-layout';

interface Values {
  phone: string;
  code: string;
  password: string;
  confirm: string;
}

/** /forgetPassword: reset the password with an SMS code sent to the account's phone. */
export function ForgetPasswordPage() {
  useDocumentTitle('找回密码');
  const navigate = useNavigate();
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
    setError(null);
    setSubmitting(true);
    try {
      await call(
        forgetPasswordCall,
        { phone: values.phone.trim(), code: values.code.trim(), password: values.password },
        { handle: 'all' },
      );
      toast('success', '密码重置成功，请使用新密码登录');
      navigate('/login', { replace: true });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : '重置失败，请稍后重试');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout>
      <h2 className="dzy-auth-title">找回密码</h2>
      <p className="dzy-auth-subtitle">验证绑定的手机号后，即可设置新的登录密码</p>
      <Form<Values>
        form={form}
        name="forgetPassword"
        size="large"
        requiredMark={false}
        onFinish={onFinish}
        onValuesChange={() => setError(null)}
      >
        <Form.Item name="phone" rules={[mobileRule]}>
          <Input prefix={<MobileOutlined />} placeholder="手机号" maxLength={11} inputMode="numeric" allowClear />
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
          <SmsCodeButton purpose="reset" getPhone={getPhone} size="large" />
        </div>
        <Form.Item name="password" rules={[passwordRule]} extra={PASSWORD_HINT}>
          <Input.Password prefix={<LockOutlined />} placeholder="新密码" maxLength={20} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" dependencies={['password']} rules={[sameAsRule('password')]}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder="确认新密码"
            maxLength={20}
            autoComplete="new-password"
          />
        </Form.Item>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <Button type="primary" htmlType="submit" block loading={submitting}>
          重置密码
        </Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: 'center' }}>
        <Link to="/login">返回登录</Link>
      </div>
    </AuthLayout>
  );
}
