import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import {
  type CallData,
  changePhoneCall,
  PHONE_SAME_MSG,
  SMS_RESEND_SECONDS,
  sendChangePhoneCodeCall,
} from '@dzy/shared';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { mobileRule, smsCodeRule } from '../../../lib/form-rules';
import { call } from '../../../lib/request';

interface Values {
  phone: string;
  code: string;
}

/** 更换手机号: a code goes to the new phone; the new phone must not belong to another account. */
export function ChangePhoneDialog({
  open,
  current,
  onClose,
}: {
  open: boolean;
  current: string;
  onClose: (profile: CallData<typeof changePhoneCall> | null) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);

  const sendCode = async () => {
    let phone: string;
    try {
      phone = (await form.validateFields(['phone'])).phone.trim();
    } catch {
      return;
    }
    setSending(true);
    try {
      const data = await call(sendChangePhoneCodeCall, { phone });
      setLeft(data?.resendAfter ?? SMS_RESEND_SECONDS);
      toast('success', '验证码已发送至新手机号，请注意查收');
    } catch {
      // Told by the request client (e.g. 该手机号已被其他账号使用).
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const profile = await call(changePhoneCall, { phone: values.phone.trim(), code: values.code.trim() });
      toast('success', '手机号已更换，下次请使用新手机号登录');
      form.resetFields();
      setLeft(0);
      onClose(profile);
    } catch {
      // Told by the request client (e.g. 验证码错误或已失效).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="更换手机号"
      open={open}
      width={500}
      okText="确认更换"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={() => onClose(null)}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 20 }}
        title={`当前手机号 ${current}。更换后请使用新手机号登录，原手机号将收到一条提醒短信。`}
      />
      <Form<Values> form={form} name="changePhone" layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          label="新手机号"
          name="phone"
          validateFirst
          rules={[
            mobileRule,
            {
              validator: (_r, v: string) =>
                v?.trim() === current ? Promise.reject(new Error(PHONE_SAME_MSG)) : Promise.resolve(),
            },
          ]}
        >
          <Input
            prefix={<MobileOutlined />}
            placeholder="请输入新手机号"
            maxLength={11}
            inputMode="numeric"
            allowClear
          />
        </Form.Item>
        <Form.Item label="验证码" required>
          <div style={{ display: 'flex', gap: 12 }}>
            <Form.Item name="code" rules={[smsCodeRule]} noStyle>
              <Input
                prefix={<SafetyOutlined />}
                placeholder="6位验证码"
                maxLength={6}
                inputMode="numeric"
                autoComplete="one-time-code"
              />
            </Form.Item>
            <Button
              disabled={left > 0}
              loading={sending}
              onClick={() => void sendCode()}
              style={{ width: 132, flex: 'none' }}
            >
              {left > 0 ? `${left}s后重新获取` : '获取验证码'}
            </Button>
          </div>
        </Form.Item>
      </Form>
    </Modal>
  );
}
