import { ROLE_NAME_MAX, ROLE_REMARK_MAX, type RoleItem, saveRoleCall } from '@dzy/shared';
import { Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';

interface Values {
  name: string;
  remark?: string;
}

/** 新增角色 / 编辑角色: name (unique in the agency) and remark. `role` undefined closes it, null adds. */
export function RoleDialog({
  role,
  onClose,
}: {
  role: RoleItem | null | undefined;
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const open = role !== undefined;

  useEffect(() => {
    if (open) form.setFieldsValue({ name: role?.name ?? '', remark: role?.remark ?? '' });
  }, [open, role, form]);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await call(saveRoleCall, {
        ...(role ? { id: role.id } : {}),
        name: values.name.trim(),
        remark: values.remark?.trim() ?? '',
      });
      toast('success', '保存成功');
      onClose(true);
    } catch {
      // Told by the request client (e.g. 角色名称已存在).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={role ? '编辑角色' : '新增角色'}
      open={open}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      okText="保存"
      confirmLoading={saving}
      width={500}
      destroyOnHidden
      maskClosable={false}
    >
      <Form<Values> form={form} name="role-form" layout="vertical" onFinish={submit} style={{ marginTop: 16 }}>
        <Form.Item
          label="角色名称"
          name="name"
          rules={[
            { required: true, whitespace: true, message: '请输入角色名称' },
            { max: ROLE_NAME_MAX, message: `角色名称不能超过${ROLE_NAME_MAX}个字符` },
          ]}
        >
          <Input placeholder="如：外勤会计、审核主管" maxLength={ROLE_NAME_MAX} showCount autoFocus />
        </Form.Item>
        <Form.Item
          label="备注"
          name="remark"
          rules={[{ max: ROLE_REMARK_MAX, message: `备注不能超过${ROLE_REMARK_MAX}个字符` }]}
          extra={role ? undefined : '新角色没有任何功能权限，保存后请在“功能权限”中勾选。'}
        >
          <Input.TextArea rows={3} placeholder="角色的用途，选填" maxLength={ROLE_REMARK_MAX} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
