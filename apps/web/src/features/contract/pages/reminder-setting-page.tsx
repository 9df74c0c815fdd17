import {
  CONTRACT_MSG,
  getReminderSettingsCall,
  REMINDER_SOURCES,
  type ReminderSettings,
  saveReminderSettingsCall,
  WARNING_LEVELS,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, InputNumber, Radio, Space, Spin, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';

const levelRadio = (
  <Radio.Group
    optionType="button"
    buttonStyle="solid"
    size="small"
    options={WARNING_LEVELS.map((l) => ({ value: l.value, label: l.label }))}
  />
);

/** 合同提醒设置 (/contract/htsz/txsz): per source, the arrears, expiry and no-contract levels and thresholds. */
export function ReminderSettingPage() {
  useDocumentTitle('合同提醒设置');
  const [form] = Form.useForm<ReminderSettings>();
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['contract', 'reminder-settings'],
    queryFn: () => call(getReminderSettingsCall, {}),
  });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);

  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await call(saveReminderSettingsCall, v);
      toast('success', CONTRACT_MSG.saved);
      void queryClient.invalidateQueries({ queryKey: ['contract'] });
    } catch {
      // shown by the request client
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <Card
        title="合同提醒设置"
        extra={
          <Space>
            <Button onClick={() => settings.data && form.setFieldsValue(settings.data)}>重置</Button>
            <Button type="primary" loading={saving} onClick={() => void save()}>
              保存
            </Button>
          </Space>
        }
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="各业务场景下，企业合同欠费、到期或无有效合同时的提醒方式"
          description="关闭：不提醒；仅提醒：显示提醒文字；提醒并限制操作：显示提醒，并拒绝该场景下的受限操作。欠费从欠费达到设定月数起提醒，到期从到期前设定天数起提醒（已到期的一直提醒）。"
        />
        <Spin spinning={settings.isPending}>
          <Form form={form} component={false}>
            <Table
              rowKey="ly"
              pagination={false}
              dataSource={REMINDER_SOURCES.map((s) => ({ ...s }))}
              columns={[
                {
                  title: '场景',
                  width: 160,
                  render: (_v, s) => (
                    <div>
                      <b>{s.label}</b>
                      <div>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          限制：{s.blocks}
                        </Typography.Text>
                      </div>
                    </div>
                  ),
                },
                {
                  title: '合同欠费',
                  render: (_v, s) => (
                    <Space direction="vertical" size={6}>
                      <Form.Item name={`${s.ly}_qf`} noStyle>
                        {levelRadio}
                      </Form.Item>
                      <Space size={4}>
                        欠费
                        <Form.Item
                          name={`${s.ly}_qfyf`}
                          noStyle
                          rules={[{ required: true, message: '请输入欠费月数' }]}
                        >
                          <InputNumber min={1} max={36} precision={0} size="small" style={{ width: 64 }} />
                        </Form.Item>
                        个月起提醒
                      </Space>
                    </Space>
                  ),
                },
                {
                  title: '合同到期',
                  render: (_v, s) => (
                    <Space direction="vertical" size={6}>
                      <Form.Item name={`${s.ly}_dq`} noStyle>
                        {levelRadio}
                      </Form.Item>
                      <Space size={4}>
                        到期前
                        <Form.Item
                          name={`${s.ly}_dqts`}
                          noStyle
                          rules={[{ required: true, message: '请输入提醒天数' }]}
                        >
                          <InputNumber min={0} max={365} precision={0} size="small" style={{ width: 64 }} />
                        </Form.Item>
                        天起提醒
                      </Space>
                    </Space>
                  ),
                },
                {
                  title: '无有效合同',
                  render: (_v, s) => (
                    <Form.Item name={`${s.ly}_wyxht`} noStyle>
                      {levelRadio}
                    </Form.Item>
                  ),
                },
              ]}
            />
          </Form>
        </Spin>
      </Card>
    </div>
  );
}
