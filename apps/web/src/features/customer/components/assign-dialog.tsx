import { CUSTOMER_MSG, customerAssignCall } from '@dzy/shared';
import { Alert, Form, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { act, useAllocateUsers } from '../api';

/** 分配客户: choose the member the selected enterprises are given to; they get a dispatch message. */
export function AssignDialog({
  ids,
  names,
  onClose,
  onDone,
}: {
  ids: number[] | null;
  names: string[];
  onClose: () => void;
  onDone: () => void;
}) {
  const users = useAllocateUsers();
  const [form] = Form.useForm<{ userId: number }>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (ids) form.resetFields();
  }, [ids, form]);
  const save = async () => {
    if (!ids) return;
    const { userId } = await form.validateFields();
    setSaving(true);
    const r = await act(customerAssignCall, { aeiIds: ids, userId }, CUSTOMER_MSG.assigned);
    setSaving(false);
    if (r.ok) {
      onDone();
      onClose();
    }
  };
  const what = names.length === 1 ? `“${names[0]}”` : `所选 ${ids?.length ?? 0} 家企业`;
  return (
    <Modal
      open={ids !== null}
      title="分配客户"
      width={400}
      onCancel={onClose}
      onOk={save}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`将${what}分配给：`}
        description="接收人会收到派工消息（按其消息设置）。"
      />
      <Form form={form} layout="vertical">
        <Form.Item name="userId" label="负责人" rules={[{ required: true, message: '请选择负责人' }]}>
          <Select
            showSearch
            optionFilterProp="label"
            placeholder="请选择员工"
            loading={users.isPending}
            options={(users.data ?? []).map((u) => ({
              value: u.userId,
              label: u.departmentName ? `${u.hymc}（${u.departmentName}）` : u.hymc,
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
