import {
  ACCOUNT_CATEGORIES,
  AUX_KIND_NAMES,
  AUX_KINDS,
  addAccountCall,
  type BookAccount,
  CATEGORY_NAMES,
  DIRECTION_NAMES,
  updateAccountCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Segmented, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useChart } from '../api';

/** A book's chart by category: preset accounts and the user's sub-accounts, 新增下级, 编辑, 停用/启用. */
export function ChartTab({ bookId, editable }: { bookId: number; editable: boolean }) {
  const chart = useChart(bookId);
  const qc = useQueryClient();
  const [category, setCategory] = useState<string>('asset');
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<{ parent?: BookAccount; account?: BookAccount } | null>(null);
  const [form] = Form.useForm();
  const all = chart.data ?? [];
  const present = ACCOUNT_CATEGORIES.filter((c) => all.some((a) => a.category === c));
  const k = keyword.trim().toUpperCase();
  const rows = all.filter((a) =>
    k ? a.code.startsWith(k) || a.fullName.toUpperCase().includes(k) || a.py.includes(k) : a.category === category,
  );
  const refresh = () => qc.invalidateQueries({ queryKey: ['books/accounts', bookId] });

  const submit = async () => {
    const v = await form.validateFields();
    try {
      if (dialog?.parent) {
        const a = await call(addAccountCall, {
          bookId,
          parentId: dialog.parent.id,
          name: v.name,
          code: v.code ?? '',
          auxKinds: v.auxKinds ?? [],
        });
        if (a) toast('success', `已新增 ${a.code} ${a.fullName}`);
      } else if (dialog?.account) {
        await call(updateAccountCall, { accountId: dialog.account.id, name: v.name, auxKinds: v.auxKinds ?? [] });
        toast('success', '已保存');
      }
      setDialog(null);
      await refresh();
    } catch {
      /* told */
    }
  };

  return (
    <div>
      <Space style={{ marginBottom: 8 }} wrap>
        <Segmented
          value={category}
          onChange={(v) => {
            setCategory(String(v));
            setKeyword('');
          }}
          options={present.map((c) => ({ value: c, label: CATEGORY_NAMES[c] }))}
        />
        <Input.Search
          placeholder="编码、名称或拼音首字母"
          allowClear
          onSearch={setKeyword}
          onChange={(e) => !e.target.value && setKeyword('')}
          style={{ width: 240 }}
        />
      </Space>
      <Table<BookAccount>
        className="dzy-chart-table"
        size="small"
        rowKey="id"
        loading={chart.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ y: 'calc(100vh - 300px)' }}
        columns={[
          { key: 'code', title: '科目编码', dataIndex: 'code', width: 120 },
          {
            key: 'name',
            title: '科目名称',
            width: 260,
            render: (_, a) => <span style={{ paddingLeft: (a.level - 1) * 16 }}>{a.name}</span>,
          },
          { key: 'py', title: '助记码', dataIndex: 'py', width: 100 },
          { key: 'direction', title: '余额方向', width: 80, render: (_, a) => DIRECTION_NAMES[a.direction] },
          {
            key: 'aux',
            title: '辅助核算',
            width: 120,
            render: (_, a) => a.auxKinds.map((x) => <Tag key={x}>{AUX_KIND_NAMES[x]}</Tag>),
          },
          {
            key: 'state',
            title: '状态',
            width: 80,
            render: (_, a) => (a.enabled ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
          },
          {
            key: 'ops',
            title: '操作',
            width: 200,
            render: (_, a) =>
              editable ? (
                <Space size={0}>
                  {a.level < 4 ? (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => {
                        form.resetFields();
                        form.setFieldsValue({ name: '', code: '', auxKinds: [] });
                        setDialog({ parent: a });
                      }}
                      data-testid={`add-sub-${a.code}`}
                    >
                      新增下级
                    </Button>
                  ) : null}
                  <Button
                    type="link"
                    size="small"
                    onClick={() => {
                      form.setFieldsValue({ name: a.name, auxKinds: a.auxKinds });
                      setDialog({ account: a });
                    }}
                  >
                    编辑
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    onClick={async () => {
                      await call(updateAccountCall, { accountId: a.id, enabled: !a.enabled }).catch(() => null);
                      await refresh();
                    }}
                  >
                    {a.enabled ? '停用' : '启用'}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        open={dialog !== null}
        title={dialog?.parent ? `新增下级科目：${dialog.parent.code} ${dialog.parent.fullName}` : '编辑科目'}
        onCancel={() => setDialog(null)}
        onOk={submit}
        okText="保存"
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          {dialog?.parent ? (
            <Form.Item
              name="code"
              label="科目编码"
              extra={`留空则自动取 ${dialog.parent.code}01、${dialog.parent.code}02 …；上级已有余额或凭证时，由第一个下级承接`}
            >
              <Input placeholder={`${dialog.parent.code}XX`} maxLength={10} />
            </Form.Item>
          ) : null}
          <Form.Item name="name" label="科目名称" rules={[{ required: true, message: '请输入科目名称' }]}>
            <Input maxLength={40} data-testid="account-name" />
          </Form.Item>
          <Form.Item name="auxKinds" label="辅助核算">
            <Select
              mode="multiple"
              maxCount={2}
              options={AUX_KINDS.map((k) => ({ value: k, label: AUX_KIND_NAMES[k] }))}
            />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
