import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  deleteWhiteOrderCall,
  listWhiteOrderCall,
  ORG_PAGE_SIZES,
  saveWhiteOrderCall,
  WHITELIST_TYPE_NAMES,
  WHITELIST_TYPES,
  type WhitelistType,
  type WhiteOrderItem,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Popconfirm, Select, Table, type TableProps, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { ORG_KEYS } from '../api';

const typeOptions = WHITELIST_TYPES.map((t) => ({ value: t, label: `${WHITELIST_TYPE_NAMES[t]}（${t}）` }));

/** White-list orders (foundation.md §6): features switched on for an agency or a whole province. */
export function WhiteOrderSection() {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ type: WhitelistType; busiVal: string }>();
  const [type, setType] = useState<WhitelistType | undefined>();
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const [saving, setSaving] = useState(false);
  const params = { ...(type ? { type } : {}), ...page };
  const list = useQuery({
    queryKey: [...ORG_KEYS.whiteorders, params],
    queryFn: () => call(listWhiteOrderCall, params),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ORG_KEYS.whiteorders });

  const add = async (v: { type: WhitelistType; busiVal: string }) => {
    setSaving(true);
    try {
      await call(saveWhiteOrderCall, { type: v.type, busiVal: v.busiVal.trim() });
      toast('success', '保存成功');
      form.resetFields(['busiVal']);
      void refresh();
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  const remove = async (item: WhiteOrderItem) => {
    try {
      await call(deleteWhiteOrderCall, { id: item.id });
      toast('success', '删除成功');
    } catch {
      // Told by the request client.
    }
    void refresh();
  };

  const columns: TableProps<WhiteOrderItem>['columns'] = [
    {
      title: '类型',
      dataIndex: 'type',
      width: 240,
      render: (_, r) => (
        <span>
          {r.typeName} <Tag>{r.type}</Tag>
        </span>
      ),
    },
    { title: '业务值', dataIndex: 'busiVal', width: 140 },
    { title: '适用对象', dataIndex: 'busiName', render: (v: string) => v || '—' },
    {
      title: '添加时间',
      dataIndex: 'createdAt',
      width: 170,
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
    },
    {
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_, r) => (
        <Popconfirm
          title="删除白名单"
          description={`确定删除「${r.busiName || r.busiVal}」的${r.typeName}白名单？`}
          okText="删除"
          okButtonProps={{ danger: true }}
          cancelText="取消"
          onConfirm={() => remove(r)}
        >
          <Button type="link" size="small" danger icon={<DeleteOutlined />}>
            删除
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title="功能白名单"
      extra={
        <Select
          allowClear
          placeholder="全部类型"
          style={{ width: 260 }}
          options={typeOptions}
          value={type}
          onChange={(v: WhitelistType | undefined) => {
            setType(v);
            setPage((p) => ({ ...p, pageNo: 1 }));
          }}
        />
      }
    >
      <Form form={form} layout="inline" onFinish={add} className="dzy-white-form" initialValues={{ type: 'lbsjc' }}>
        <Form.Item name="type" rules={[{ required: true, message: '请选择白名单类型' }]}>
          <Select options={typeOptions} style={{ width: 260 }} />
        </Form.Item>
        <Form.Item
          name="busiVal"
          rules={[
            { required: true, whitespace: true, message: '请输入代理机构ID或省份编码' },
            { pattern: /^\s*\d{1,10}\s*$/, message: '请输入代理机构ID或省份编码（如130000）' },
          ]}
        >
          <Input placeholder="代理机构ID 或 省份编码（如130000）" style={{ width: 280 }} maxLength={10} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={saving}>
            添加
          </Button>
        </Form.Item>
      </Form>
      <Table<WhiteOrderItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        locale={{ emptyText: '暂无白名单' }}
        onChange={(p) =>
          setPage({ pageNo: p.pageSize !== page.pageSize ? 1 : (p.current ?? 1), pageSize: p.pageSize ?? 20 })
        }
        pagination={{
          current: page.pageNo,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: ORG_PAGE_SIZES.map(String),
          showTotal: (n) => `共 ${n} 条`,
        }}
      />
    </Card>
  );
}
