import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { gradeDeleteCall, gradeSaveCall, LABEL_COLORS, labelDeleteCall, labelSaveCall } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { act, CUSTOMER_KEYS, useGrades, useLabels } from '../api';

const COLOR_NAMES: Record<string, string> = {
  blue: '蓝',
  green: '绿',
  orange: '橙',
  red: '红',
  purple: '紫',
  cyan: '青',
  magenta: '洋红',
  gold: '金',
};

interface Row {
  id: number;
  name: string;
  color?: string;
  sort?: number;
  count: number;
}

/** The agency's customer labels or grades: add, rename, delete (small editors of 我的客户). */
export function DictionaryEditor({ kind, onClose }: { kind: 'labels' | 'grades' | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const labels = useLabels();
  const grades = useGrades();
  const [form] = Form.useForm<{ name: string; color?: string; sort?: number }>();
  const [editing, setEditing] = useState<Row | null>(null);
  const isLabels = kind === 'labels';
  const what = isLabels ? '标签' : '客户等级';
  const rows: Row[] = (isLabels ? labels.data : grades.data) ?? [];

  const refresh = () => queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.all });
  const reset = () => {
    setEditing(null);
    form.resetFields();
  };

  const save = async () => {
    const v = await form.validateFields();
    const r = isLabels
      ? await act(
          labelSaveCall,
          { id: editing?.id, name: v.name.trim(), color: (v.color ?? 'blue') as 'blue' },
          '保存成功',
        )
      : await act(gradeSaveCall, { id: editing?.id, name: v.name.trim(), sort: v.sort ?? 0 }, '保存成功');
    if (r.ok) {
      reset();
      void refresh();
    }
  };

  const remove = async (row: Row) => {
    const r = isLabels
      ? await act(labelDeleteCall, { id: row.id }, '删除成功')
      : await act(gradeDeleteCall, { id: row.id }, '删除成功');
    if (r.ok) {
      if (editing?.id === row.id) reset();
      void refresh();
    }
  };

  return (
    <Modal
      open={kind !== null}
      title={`${what}管理`}
      width={600}
      footer={null}
      onCancel={() => {
        reset();
        onClose();
      }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="inline"
        onFinish={save}
        style={{ marginBottom: 16, rowGap: 8 }}
        initialValues={{ color: 'blue', sort: 0 }}
      >
        <Form.Item
          name="name"
          rules={[
            { required: true, whitespace: true, message: `请输入${what}名称` },
            { max: 10, message: `${what}名称不能超过10个字符` },
          ]}
        >
          <Input placeholder={`${what}名称（10字以内）`} maxLength={10} style={{ width: 180 }} />
        </Form.Item>
        {isLabels ? (
          <Form.Item name="color">
            <Select
              style={{ width: 110 }}
              options={LABEL_COLORS.map((c) => ({ value: c, label: <Tag color={c}>{COLOR_NAMES[c]}</Tag> }))}
            />
          </Form.Item>
        ) : (
          <Form.Item name="sort" tooltip="数字小的排在前面">
            <InputNumber min={0} max={999} placeholder="排序" style={{ width: 90 }} />
          </Form.Item>
        )}
        <Space>
          <Button type="primary" htmlType="submit">
            {editing ? '保存修改' : '添加'}
          </Button>
          {editing && <Button onClick={reset}>取消修改</Button>}
        </Space>
      </Form>
      <Table<Row>
        rowKey="id"
        size="small"
        dataSource={rows}
        pagination={false}
        scroll={{ y: 320 }}
        locale={{ emptyText: `还没有${what}` }}
        columns={[
          {
            title: '名称',
            dataIndex: 'name',
            render: (name: string, r) => (isLabels ? <Tag color={r.color}>{name}</Tag> : name),
          },
          ...(isLabels ? [] : [{ title: '排序', dataIndex: 'sort', width: 70 }]),
          { title: '企业数', dataIndex: 'count', width: 80 },
          {
            title: '操作',
            key: 'op',
            width: 160,
            render: (_: unknown, r: Row) => (
              <Space size={4}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => {
                    setEditing(r);
                    form.setFieldsValue({ name: r.name, color: r.color, sort: r.sort });
                  }}
                >
                  编辑
                </Button>
                <Popconfirm
                  title={`删除${what}“${r.name}”？`}
                  description={r.count > 0 ? `${r.count}家企业上的该${what}将一并移除。` : undefined}
                  okText="删除"
                  okButtonProps={{ danger: true }}
                  cancelText="取消"
                  onConfirm={() => remove(r)}
                >
                  <Button type="link" size="small" danger icon={<DeleteOutlined />}>
                    删除
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Modal>
  );
}
