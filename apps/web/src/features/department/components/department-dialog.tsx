import { DEPARTMENT_NAME_MAX, type DepartmentNode, saveDepartmentCall } from '@dzy/shared';
import { Alert, Form, Input, Modal, Select, TreeSelect } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { departmentOptions, useEveryone } from '../api';

interface Values {
  pid?: number | null;
  name: string;
  directorUserId?: number | null;
}

/** What the dialog edits: an existing department, or a new one under `pid`. */
export type DepartmentDraft =
  | { department: DepartmentNode; pid: number | null }
  | { department: null; pid: number | null };

/** 新增部门 / 编辑部门: parent, name (unique among siblings) and head. */
export function DepartmentDialog({
  draft,
  tree,
  onClose,
}: {
  draft: DepartmentDraft | null;
  tree: readonly DepartmentNode[];
  onClose: (savedId: number | null) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const everyone = useEveryone(draft !== null);
  const editing = draft?.department ?? null;
  const director = Form.useWatch('directorUserId', form);

  useEffect(() => {
    if (draft) {
      form.setFieldsValue({
        pid: draft.pid,
        name: draft.department?.name ?? '',
        directorUserId: draft.department?.directorUserId ?? null,
      });
    }
  }, [draft, form]);

  const submit = async (v: Values) => {
    setSaving(true);
    try {
      const directorUserId = v.directorUserId ?? null;
      const saved = await call(saveDepartmentCall, {
        ...(editing ? { id: editing.id } : {}),
        pid: v.pid ?? null,
        name: v.name.trim(),
        // Unchanged head is not re-sent; a new department sends one only when chosen.
        ...(editing
          ? directorUserId !== editing.directorUserId
            ? { directorUserId }
            : {}
          : directorUserId !== null
            ? { directorUserId }
            : {}),
      });
      toast('success', '保存成功');
      onClose(saved?.id ?? editing?.id ?? null);
    } catch {
      // Told by the request client (e.g. 部门名称已存在).
    } finally {
      setSaving(false);
    }
  };

  const movedHead = director != null && director !== (editing?.directorUserId ?? null);
  const chosen = everyone.data?.find((m) => m.userId === director);
  return (
    <Modal
      title={editing ? '编辑部门' : '新增部门'}
      open={draft !== null}
      onCancel={() => onClose(null)}
      onOk={() => form.submit()}
      okText="保存"
      confirmLoading={saving}
      width={500}
      destroyOnHidden
      maskClosable={false}
    >
      <Form<Values> form={form} name="department-form" layout="vertical" onFinish={submit} style={{ marginTop: 16 }}>
        <Form.Item label="上级部门" name="pid" extra="不选择则为一级部门">
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            placeholder="无（一级部门）"
            treeData={departmentOptions(tree, editing?.id)}
            showSearch={{ treeNodeFilterProp: 'title' }}
          />
        </Form.Item>
        <Form.Item
          label="部门名称"
          name="name"
          rules={[
            { required: true, whitespace: true, message: '请输入部门名称' },
            { max: DEPARTMENT_NAME_MAX, message: `部门名称不能超过${DEPARTMENT_NAME_MAX}个字符` },
          ]}
        >
          <Input placeholder="如：记账三部" maxLength={DEPARTMENT_NAME_MAX} showCount autoFocus />
        </Form.Item>
        <Form.Item label="部门负责人" name="directorUserId">
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="选择本机构成员（选填）"
            loading={everyone.isPending}
            options={(everyone.data ?? []).map((m) => ({
              value: m.userId,
              label: `${m.hymc || '未填写姓名'} ${m.phone}`,
            }))}
          />
        </Form.Item>
        {movedHead && chosen && (
          <Alert
            type="info"
            showIcon
            title={`${chosen.hymc || chosen.phone} 将调入本部门并成为部门负责人，可查看本部门及下级部门成员的客户${
              chosen.departmentName && chosen.departmentId !== editing?.id ? `（原部门：${chosen.departmentName}）` : ''
            }。`}
          />
        )}
      </Form>
    </Modal>
  );
}
