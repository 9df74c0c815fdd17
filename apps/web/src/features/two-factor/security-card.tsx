import {
  AUDIT_RETENTION_MIN_DAYS,
  securitySettingsGetCall,
  securitySettingsSaveCall,
  TWO_FACTOR_REQUIRE_LABELS,
  type TwoFactorRequire,
  twoFactorResetCall,
} from '@dzy/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, InputNumber, Popconfirm, Radio, Table, Tag } from 'antd';
import { useEffect } from 'react';
import { useHasPerm } from '../../components/auth';
import { toast } from '../../lib/feedback';
import { call } from '../../lib/request';

const KEY = ['agency', 'security'] as const;

interface Values {
  requireTwoFactor: TwoFactorRequire;
  auditRetentionDays: number;
}

/** 安全设置 on 代理机构信息 (administrator): who must use two-factor sign-in, log retention, members' 2FA reset. */
export function SecurityCard() {
  const hasPerm = useHasPerm();
  if (!hasPerm(['agency:security:edit'])) return null;
  return <SecurityCardBody />;
}

function SecurityCardBody() {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const settings = useQuery({ queryKey: KEY, queryFn: () => call(securitySettingsGetCall, {}) });
  useEffect(() => {
    if (settings.data) {
      form.setFieldsValue({
        requireTwoFactor: settings.data.requireTwoFactor,
        auditRetentionDays: settings.data.auditRetentionDays,
      });
    }
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: (v: Values) => call(securitySettingsSaveCall, v),
    onSuccess: () => {
      toast('success', '安全设置已保存');
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  const reset = useMutation({
    mutationFn: (userId: number) => call(twoFactorResetCall, { userId }),
    onSuccess: () => {
      toast('success', '已重置该员工的两步验证');
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  return (
    <Card title="安全设置" variant="borderless" data-testid="security-settings">
      <Form<Values>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '140px' }}
        colon={false}
        onFinish={(v) => save.mutate(v)}
        disabled={!settings.data}
      >
        <Form.Item
          label="要求两步验证"
          name="requireTwoFactor"
          extra="要求的员工下次登录时须先绑定验证器；已开启的员工不能自行关闭。"
        >
          <Radio.Group
            options={(Object.keys(TWO_FACTOR_REQUIRE_LABELS) as TwoFactorRequire[]).map((k) => ({
              value: k,
              label: TWO_FACTOR_REQUIRE_LABELS[k],
            }))}
          />
        </Form.Item>
        <Form.Item
          label="操作日志保留"
          name="auditRetentionDays"
          rules={[
            { required: true, message: '请输入日志保留天数' },
            {
              type: 'number',
              min: AUDIT_RETENTION_MIN_DAYS,
              message: `日志保留天数不能少于${AUDIT_RETENTION_MIN_DAYS}天`,
            },
          ]}
          extra={`超过保留天数的操作日志每天自动清理，最少保留${AUDIT_RETENTION_MIN_DAYS}天（等保要求不少于6个月）。`}
        >
          <InputNumber min={AUDIT_RETENTION_MIN_DAYS} max={3650} precision={0} suffix="天" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label=" ">
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            保存
          </Button>
        </Form.Item>
      </Form>
      <Table
        size="small"
        rowKey="userId"
        loading={settings.isPending}
        dataSource={settings.data?.members ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        columns={[
          { title: '员工', dataIndex: 'hymc', render: (v: string, r) => v || r.phone },
          { title: '手机号', dataIndex: 'phone' },
          { title: '身份', dataIndex: 'isAdmin', render: (v: boolean) => (v ? '管理员' : '员工') },
          {
            title: '两步验证',
            dataIndex: 'enabled',
            render: (v: boolean) => (v ? <Tag color="success">已开启</Tag> : <Tag>未开启</Tag>),
          },
          {
            title: '操作',
            key: 'op',
            width: 120,
            render: (_, r) =>
              r.enabled ? (
                <Popconfirm
                  title="重置两步验证"
                  description="重置后该员工的验证器、恢复码和记住的设备全部失效，需重新绑定。确定重置？"
                  okText="重置"
                  okButtonProps={{ danger: true }}
                  onConfirm={() => reset.mutateAsync(r.userId)}
                >
                  <Button type="link" danger size="small">
                    重置
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
