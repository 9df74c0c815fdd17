import { INVITE_VALID_DAYS, STAFF_MSG, saveAgencyInviteCall } from '@dzy/shared';
import { Alert, Form, Input, Modal, Radio, Select } from 'antd';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { mobileRule } from '../../../lib/form-rules';
import { call } from '../../../lib/request';
import { useStaffOptions } from '../api';

interface Values {
  sjh: string;
  hymc?: string;
  role: 0 | 2;
  departmentId?: number;
}

/** 邀请员工: phone, name, role label and department; the invitee gets an SMS with the link. */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: (sent: boolean) => void }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const options = useStaffOptions();
  const role = Form.useWatch('role', form);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await call(saveAgencyInviteCall, {
        sjh: values.sjh.trim(),
        role: values.role,
        ...(values.hymc?.trim() ? { hymc: values.hymc.trim() } : {}),
        ...(values.departmentId ? { departmentId: values.departmentId } : {}),
      });
      toast('success', STAFF_MSG.inviteSent);
      form.resetFields();
      onClose(true);
    } catch {
      // Told by the request client (e.g. 该用户已加入代理机构，不能重复加入).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="邀请员工"
      open={open}
      width={500}
      okText="发送邀请"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 20 }}
        title={`被邀请人将收到一条短信，通过其中的链接登录（或用验证码注册）后即可加入本机构，邀请${INVITE_VALID_DAYS}天内有效。`}
      />
      <Form<Values>
        form={form}
        name="staffInvite"
        layout="horizontal"
        labelCol={{ flex: '84px' }}
        wrapperCol={{ flex: 1 }}
        colon={false}
        initialValues={{ role: 0 }}
        onFinish={submit}
        requiredMark
      >
        <Form.Item
          label="手机号"
          name="sjh"
          rules={[{ required: true, message: '手机号不能为空' }, mobileRule]}
          validateFirst
        >
          <Input placeholder="请输入被邀请人的手机号" maxLength={11} inputMode="numeric" allowClear />
        </Form.Item>
        <Form.Item label="姓名" name="hymc" rules={[{ max: 20, message: '姓名不能超过20个字符' }]}>
          <Input placeholder="选填，对方未设置姓名时使用" maxLength={20} allowClear />
        </Form.Item>
        <Form.Item label="角色标签" name="role" rules={[{ required: true, message: '请选择角色标签' }]}>
          <Radio.Group
            options={[
              { value: 0, label: '部门员工' },
              { value: 2, label: '部门负责人' },
            ]}
          />
        </Form.Item>
        <Form.Item
          label="部门"
          name="departmentId"
          rules={[{ required: role === 2, message: '部门负责人须选择部门' }]}
          extra={role === 2 ? '部门负责人可查看本部门及下级部门的客户' : undefined}
        >
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={role === 2 ? '请选择部门' : '选填，可稍后在部门管理中调整'}
            loading={options.isPending}
            options={(options.data?.departments ?? []).map((d) => ({ value: d.id, label: d.label }))}
            notFoundContent="暂无部门，可在部门管理中新建"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
