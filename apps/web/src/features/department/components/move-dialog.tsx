import { changeDepartmentCall, type DepartmentMember, type DepartmentNode } from '@dzy/shared';
import { Form, Modal, TreeSelect, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { departmentOptions } from '../api';

const UNASSIGNED = -1;

/** 调整部门: moves the chosen members to a department, or makes them unassigned. */
export function MoveDialog({
  members,
  tree,
  onClose,
}: {
  members: DepartmentMember[] | null;
  tree: readonly DepartmentNode[];
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm<{ orgId: number }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (members) form.resetFields();
  }, [members, form]);

  const submit = async ({ orgId }: { orgId: number }) => {
    if (!members) return;
    setSaving(true);
    try {
      await call(changeDepartmentCall, {
        userIds: members.map((m) => m.userId),
        orgId: orgId === UNASSIGNED ? null : orgId,
      });
      toast('success', '调整成功');
      onClose(true);
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  const heads = (members ?? []).filter((m) => m.role === 2);
  return (
    <Modal
      title="调整部门"
      open={members !== null}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      okText="确定"
      confirmLoading={saving}
      width={500}
      destroyOnHidden
      maskClosable={false}
    >
      <Typography.Paragraph style={{ marginTop: 12 }}>
        调整 <Typography.Text strong>{(members ?? []).map((m) => m.hymc || m.phone).join('、')}</Typography.Text>{' '}
        的所在部门：
      </Typography.Paragraph>
      <Form form={form} name="move-form" layout="vertical" onFinish={submit}>
        <Form.Item label="调入部门" name="orgId" rules={[{ required: true, message: '请选择部门' }]}>
          <TreeSelect
            treeDefaultExpandAll
            placeholder="选择部门"
            showSearch={{ treeNodeFilterProp: 'title' }}
            treeData={[{ value: UNASSIGNED, title: '未分配部门', children: [] }, ...departmentOptions(tree)]}
          />
        </Form.Item>
      </Form>
      {heads.length > 0 && (
        <Typography.Paragraph type="warning" style={{ marginBottom: 0 }}>
          {heads.map((m) => m.hymc || m.phone).join('、')} 是部门负责人，调出所负责的部门后将不再担任负责人。
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
