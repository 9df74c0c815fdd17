import {
  getAgencyInviteUserListV3Call,
  getPhoneSettingInfoCall,
  PHONE_VISIBILITY_NAMES,
  type PhoneVisibility,
  savePhoneSettingCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Modal, Radio, Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';

interface Values {
  staffPhone: PhoneVisibility;
  clientPhone: PhoneVisibility;
  userIds: number[];
}
const VISIBILITY = (Object.entries(PHONE_VISIBILITY_NAMES) as [PhoneVisibility, string][]).map(([value, label]) => ({
  value,
  label,
}));

/** 号码显示设置 (administrator): who sees full staff and client phone numbers; others see 138****0000. */
export function PhoneSettingDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const setting = useQuery({
    queryKey: ['staff', 'phone-setting'],
    queryFn: () => call(getPhoneSettingInfoCall, {}),
    enabled: open,
  });
  const members = useQuery({
    queryKey: ['staff', 'phone-setting-members'],
    queryFn: () => call(getAgencyInviteUserListV3Call, { pageSize: 500 }),
    enabled: open,
  });
  useEffect(() => {
    if (setting.data) form.setFieldsValue(setting.data);
  }, [setting.data, form]);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await call(savePhoneSettingCall, { ...values, userIds: values.userIds ?? [] });
      toast('success', '设置成功');
      void queryClient.invalidateQueries({ queryKey: ['staff'] });
      void queryClient.invalidateQueries({ queryKey: ['customer'] });
      onClose();
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="号码显示设置"
      open={open}
      width={560}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title="不可见完整号码的员工看到的是 138****0000 形式；管理员和本人始终可见完整号码。"
      />
      <Spin spinning={setting.isPending}>
        <Form<Values>
          form={form}
          name="phoneSetting"
          layout="vertical"
          onFinish={submit}
          initialValues={{ staffPhone: 'admin', clientPhone: 'all', userIds: [] }}
        >
          <Form.Item label="员工手机号" name="staffPhone">
            <Radio.Group options={VISIBILITY} />
          </Form.Item>
          <Form.Item label="客户联系人手机号" name="clientPhone">
            <Radio.Group options={VISIBILITY} />
          </Form.Item>
          <Form.Item label="指定可见完整号码的员工" name="userIds" extra="无论以上如何设置，这些员工都可见完整号码">
            <Select
              mode="multiple"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="选填"
              loading={members.isPending}
              options={(members.data?.list ?? [])
                .filter((m) => m.isAdmin !== '1')
                .map((m) => ({ value: m.userId, label: `${m.hymc || '未设置姓名'}（${m.phone}）` }))}
            />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
