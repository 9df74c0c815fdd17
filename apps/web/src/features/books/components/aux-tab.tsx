import { AUX_KIND_NAMES, AUX_KINDS, type AuxItem, type AuxKindKey, auxItemsCall, saveAuxItemCall } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Segmented, Space, Switch, Tag } from 'antd';
import { useState } from 'react';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';

/** 辅助核算: a book's customers, suppliers, departments and projects. */
export function AuxTab({ bookId, editable }: { bookId: number; editable: boolean }) {
  const [kind, setKind] = useState<AuxKindKey>('customer');
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<AuxItem | 'new' | null>(null);
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const list = usePagedList(auxItemsCall, { bookId, kind, keyword }, { queryKey: [auxItemsCall.path] });
  const columns: ListColumn<AuxItem>[] = [
    { key: 'code', title: '编码', dataIndex: 'code', width: 120 },
    { key: 'name', title: '名称', dataIndex: 'name', width: 260 },
    { key: 'taxNo', title: '税号', dataIndex: 'taxNo', width: 200 },
    {
      key: 'enabled',
      title: '状态',
      width: 90,
      render: (_, x) => (x.enabled ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
    },
    {
      key: 'ops',
      title: '操作',
      width: 90,
      render: (_, x) =>
        editable ? (
          <Button
            type="link"
            size="small"
            onClick={() => {
              form.setFieldsValue(x);
              setEditing(x);
            }}
          >
            编辑
          </Button>
        ) : null,
    },
  ];
  const submit = async () => {
    const v = await form.validateFields();
    try {
      await call(saveAuxItemCall, {
        bookId,
        kind,
        ...(editing && editing !== 'new' ? { id: editing.id } : {}),
        code: v.code,
        name: v.name,
        taxNo: v.taxNo ?? '',
        enabled: v.enabled ?? true,
      });
      toast('success', '已保存');
      setEditing(null);
      await qc.invalidateQueries({ queryKey: [auxItemsCall.path] });
    } catch {
      /* told */
    }
  };
  return (
    <div>
      <Space style={{ marginBottom: 8 }} wrap>
        <Segmented
          value={kind}
          onChange={(v) => setKind(v as AuxKindKey)}
          options={AUX_KINDS.map((k) => ({ value: k, label: AUX_KIND_NAMES[k] }))}
        />
        <Input.Search placeholder="编码或名称" allowClear onSearch={setKeyword} style={{ width: 220 }} />
        {editable ? (
          <Button
            type="primary"
            onClick={() => {
              form.resetFields();
              form.setFieldsValue({ enabled: true });
              setEditing('new');
            }}
          >
            新增{AUX_KIND_NAMES[kind]}
          </Button>
        ) : null}
      </Space>
      <ListTable
        pageKey="books-aux"
        rowKey="id"
        nameKey="name"
        actionKey="ops"
        size="small"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isLoading}
        pagination={list.pagination}
        empty={`暂无${AUX_KIND_NAMES[kind]}`}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? `新增${AUX_KIND_NAMES[kind]}` : `编辑${AUX_KIND_NAMES[kind]}`}
        onCancel={() => setEditing(null)}
        onOk={submit}
        okText="保存"
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item name="code" label="编码" rules={[{ required: true, message: '请输入编码' }]}>
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="name" label="名称" rules={[{ required: true, message: '请输入名称' }]}>
            <Input maxLength={60} />
          </Form.Item>
          {kind === 'customer' || kind === 'supplier' ? (
            <Form.Item name="taxNo" label="税号">
              <Input maxLength={20} />
            </Form.Item>
          ) : null}
          <Form.Item name="enabled" label="启用" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
