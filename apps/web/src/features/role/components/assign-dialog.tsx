import { type MemberRoles, type RoleItem, saveMemberRolesCall } from '@dzy/shared';
import { Avatar, Checkbox, Form, Modal, Select, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { usePostOptions } from '../api';

interface Values {
  roleIds: number[];
  stationIds: number[];
}

/** 设置角色: a member's roles (at least one) and posts, saved together (saveYhGw). */
export function AssignDialog({
  member,
  roles,
  onClose,
}: {
  member: MemberRoles | null;
  roles: readonly RoleItem[];
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const posts = usePostOptions(member !== null);

  useEffect(() => {
    if (member) {
      form.setFieldsValue({ roleIds: member.roles.map((r) => r.id), stationIds: member.stations.map((s) => s.id) });
    }
  }, [member, form]);

  const submit = async (values: Values) => {
    if (!member) return;
    setSaving(true);
    try {
      await call(saveMemberRolesCall, {
        userId: member.userId,
        roleIds: values.roleIds,
        stationIds: values.stationIds ?? [],
      });
      toast('success', '设置成功');
      onClose(true);
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="设置角色与岗位"
      open={member !== null}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      okText="保存"
      confirmLoading={saving}
      width={560}
      destroyOnHidden
      maskClosable={false}
    >
      {member && (
        <div className="dzy-assign-person">
          <Avatar style={{ background: '#1677ff' }}>{(member.hymc || member.phone).slice(-2)}</Avatar>
          <div>
            <div>
              <Typography.Text strong>{member.hymc || '未填写姓名'}</Typography.Text>
              {member.isAdmin && (
                <Tag color="gold" variant="filled" style={{ marginInlineStart: 8 }}>
                  管理员
                </Tag>
              )}
            </div>
            <div className="dzy-role-muted">{member.phone}</div>
          </div>
        </div>
      )}
      <Form<Values> form={form} name="assign-form" layout="vertical" onFinish={submit} className="dzy-assign-roles">
        <Form.Item
          label="角色"
          name="roleIds"
          rules={[{ required: true, type: 'array', min: 1, message: '请至少选择一个角色' }]}
          extra={
            member?.isAdmin
              ? '管理员拥有全部权限，角色不影响其权限。'
              : '成员拥有所选角色功能权限的合集，修改后对方下一次操作即生效。'
          }
        >
          <Checkbox.Group
            options={roles.map((r) => ({
              value: r.id,
              label: (
                <span>
                  {r.name}
                  {r.isDefault && <span className="dzy-role-muted">（默认）</span>}
                </span>
              ),
            }))}
          />
        </Form.Item>
        <Form.Item label="岗位" name="stationIds">
          <Select
            mode="multiple"
            allowClear
            placeholder="选择成员所在的岗位，可多选"
            loading={posts.isPending}
            optionFilterProp="label"
            options={(posts.data?.list ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
