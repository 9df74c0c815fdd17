import { DeleteOutlined, RollbackOutlined } from '@ant-design/icons';
import {
  CUSTOMER_MSG,
  CUSTOMER_PAGE_SIZES,
  customerPurgeCall,
  customerRestoreCall,
  QYXZ_NAMES,
  QYXZ_OPTIONS,
  type RecycleItem,
  recycleListCall,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Table, type TableProps, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { SearchBar, type SearchButton } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { formatCount } from '../../../lib/format';
import { movePage, type Paged } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { act, CUSTOMER_KEYS, useAllocateUsers } from '../api';
import '../customer.css';

interface SearchValues {
  keyword?: string;
  qyxz?: '0' | '1';
  allocateUser?: number;
}

/** 回收站 (/customer/khgl/hsz): deleted enterprises; restore, or (administrators) delete for good. */
export function RecyclePage() {
  useDocumentTitle('回收站');
  const can = useHasPerm();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const users = useAllocateUsers();
  const [form] = Form.useForm<SearchValues>();
  const [values, setValues] = useState<SearchValues>({});
  const [page, setPage] = useState<Paged>({ pageNo: 1, pageSize: 20 });
  const [selected, setSelected] = useState<RecycleItem[]>([]);

  const body = {
    ...(values.keyword?.trim() ? { keyword: values.keyword.trim() } : {}),
    ...(values.qyxz ? { qyxz: values.qyxz } : {}),
    ...(values.allocateUser !== undefined && values.allocateUser !== null ? { allocateUser: values.allocateUser } : {}),
    ...page,
  };
  const list = useQuery({
    queryKey: CUSTOMER_KEYS.recycle(body),
    queryFn: () => call(recycleListCall, body),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    setSelected([]);
    return queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.all });
  };

  const restore = (rows: RecycleItem[]) =>
    modal.confirm({
      title: '恢复客户',
      content:
        rows.length === 1
          ? `确定恢复“${rows[0]?.qymc}”吗？恢复后回到我的客户。`
          : `确定恢复所选 ${rows.length} 家企业吗？`,
      okText: '恢复',
      cancelText: '取消',
      onOk: async () => {
        const r = await act(customerRestoreCall, { aeiIds: rows.map((x) => x.id) }, CUSTOMER_MSG.restored);
        if (r.ok) void refresh();
      },
    });

  const purge = (rows: RecycleItem[]) =>
    modal.confirm({
      title: '彻底删除',
      content: `彻底删除后${rows.length === 1 ? `“${rows[0]?.qymc}”` : `所选 ${rows.length} 家企业`}及其联系人、附件、记事都将无法恢复，确定继续吗？`,
      okText: '彻底删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        const r = await act(customerPurgeCall, { aeiIds: rows.map((x) => x.id) }, CUSTOMER_MSG.purged);
        if (r.ok) void refresh();
      },
    });

  const needSelection = (fn: (rows: RecycleItem[]) => unknown) => () => {
    if (selected.length === 0) toast('warning', '请选择企业');
    else fn(selected);
  };

  const buttons = (
    [
      can(['customer:restore']) && {
        key: 'restore',
        label: '批量恢复',
        icon: <RollbackOutlined />,
        type: 'primary' as const,
        onClick: needSelection(restore),
      },
      can(['customer:purge']) && {
        key: 'purge',
        label: '批量彻底删除',
        icon: <DeleteOutlined />,
        danger: true,
        onClick: needSelection(purge),
      },
    ] as (SearchButton | false)[]
  ).filter((b): b is SearchButton => b !== false);

  const columns: TableProps<RecycleItem>['columns'] = [
    {
      title: '序号',
      key: 'no',
      width: 64,
      align: 'center',
      render: (_, _r, i) => (page.pageNo - 1) * page.pageSize + i + 1,
    },
    { title: '企业名称', dataIndex: 'qymc', ellipsis: true },
    { title: '企业税号', dataIndex: 'qysh', width: 200, render: (v: string) => v || '—' },
    { title: '企业性质', dataIndex: 'qyxz', width: 120, render: (v: string) => QYXZ_NAMES[v] ?? '—' },
    {
      title: '负责人',
      dataIndex: 'allocateUserName',
      width: 100,
      render: (v: string) => v || <Typography.Text type="secondary">未分配</Typography.Text>,
    },
    {
      title: '删除时间',
      dataIndex: 'deletedAt',
      width: 170,
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
    },
    {
      title: '操作',
      key: 'op',
      width: 170,
      render: (_, r) => (
        <Space size={0}>
          {can(['customer:restore']) && (
            <Button type="link" size="small" onClick={() => restore([r])}>
              恢复
            </Button>
          )}
          {can(['customer:purge']) && (
            <Button type="link" size="small" danger onClick={() => purge([r])}>
              彻底删除
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div>
      <SearchBar<SearchValues>
        theme="popup"
        form={form}
        buttons={buttons}
        onSearch={(v) => {
          setValues(v);
          setPage((p) => ({ pageNo: 1, pageSize: p.pageSize }));
          setSelected([]);
        }}
        fields={[
          {
            name: 'keyword',
            label: '企业',
            node: <Input allowClear placeholder="企业名称或税号" maxLength={50} style={{ width: 220 }} />,
          },
          {
            name: 'qyxz',
            label: '企业性质',
            node: (
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 150 }}
                options={QYXZ_OPTIONS.map((o) => ({ ...o }))}
              />
            ),
          },
          {
            name: 'allocateUser',
            label: '负责人',
            node: (
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 220 }}
                options={[
                  { value: 0, label: '未分配' },
                  ...(users.data ?? []).map((u) => ({ value: u.userId, label: u.hymc })),
                ]}
              />
            ),
          },
        ]}
      />
      <div style={{ background: '#fff', borderRadius: 8, padding: 16 }}>
        <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
          删除的客户在这里保留，可以恢复；彻底删除仅管理员可操作，且无法恢复。
        </Typography.Paragraph>
        <Table<RecycleItem>
          rowKey="id"
          size="middle"
          loading={list.isPending}
          columns={columns}
          dataSource={list.data?.list ?? []}
          rowSelection={
            buttons.length > 0
              ? {
                  selectedRowKeys: selected.map((r) => r.id),
                  preserveSelectedRowKeys: true,
                  onChange: (_k, rows) => setSelected(rows.filter(Boolean)),
                }
              : undefined
          }
          locale={{ emptyText: '回收站是空的' }}
          onChange={(pg) => {
            const pageSize = pg.pageSize ?? page.pageSize;
            setPage(movePage(page, pg.current ?? 1, pageSize, list.data));
          }}
          pagination={{
            current: page.pageNo,
            pageSize: page.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            showQuickJumper: true,
            pageSizeOptions: CUSTOMER_PAGE_SIZES.map(String),
            showTotal: (t) => `共 ${formatCount(t)} 条`,
          }}
        />
      </div>
    </div>
  );
}
