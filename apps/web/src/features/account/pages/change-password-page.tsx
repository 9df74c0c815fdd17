import { changePasswordCall } from '@dzy/shared';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input } from 'antd';
import { toast } from '../../../lib/feedback';
import { PASSWORD_HINT, passwordRule, sameAsRule } from '../../../lib/form-rules';
import { call } from '../../../lib/request';
import { signOut, useSessionInfo } from '../../../lib/session';
import '../account.css';

interface Values {
  oldPassword?: string;
  password: string;
  confirm: string;
}

/** 修改密码: the old password when one is set, the new one twice; success signs the user out. */
export function ChangePasswordPage() {
  const session = useSessionInfo();
  const hasPassword = session.token.hasPassword;
  const [form] = Form.useForm<Values>();

  const change = useMutation({
    mutationFn: (values: Values) =>
      call(
        changePasswordCall,
        hasPassword ? { oldPassword: values.oldPassword, password: values.password } : { password: values.password },
      ),
    onSuccess: () => {
      toast('success', '修改成功，请重新登录');
      void signOut();
    },
  });

  return (
    <Card title="修改密码" variant="borderless" className="dzy-account-card">
      <div style={{ maxWidth: 560 }}>
        {!hasPassword && (
          <Alert
            type="info"
            showIcon
            title="您尚未设置登录密码"
            description="设置后即可使用手机号 + 密码登录。"
            style={{ marginBottom: 24 }}
          />
        )}
        <Form<Values>
          form={form}
          layout="horizontal"
          labelCol={{ flex: '96px' }}
          wrapperCol={{ flex: 1 }}
          colon={false}
          onFinish={(values) => change.mutate(values)}
        >
          {hasPassword && (
            <Form.Item label="原密码" name="oldPassword" rules={[{ required: true, message: '请输入原密码' }]}>
              <Input.Password placeholder="请输入原密码" maxLength={64} autoComplete="current-password" />
            </Form.Item>
          )}
          <Form.Item label="新密码" name="password" required rules={[passwordRule]} extra={PASSWORD_HINT}>
            <Input.Password placeholder="请输入新密码" maxLength={20} autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="确认新密码"
            name="confirm"
            required
            dependencies={['password']}
            rules={[sameAsRule('password')]}
          >
            <Input.Password placeholder="请再次输入新密码" maxLength={20} autoComplete="new-password" />
          </Form.Item>
          <Form.Item label=" " style={{ marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" loading={change.isPending}>
              {hasPassword ? '确认修改' : '设置密码'}
            </Button>
          </Form.Item>
        </Form>
      </div>
    </Card>
  );
}
