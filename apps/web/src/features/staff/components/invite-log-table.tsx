import { ReloadOutlined } from '@ant-design/icons';
import {
  cancelAgInviteLogCall,
  copyCommandCall,
  deleteAgInviteLogCall,
  getAgencyInviteLogListCall,
  INVITE_STATUS_NAMES,
  type InviteLogItem,
  ROLE_LABELS,
  STAFF_MSG,
  STAFF_PAGE_SIZES,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Popconfirm, Select, Space, Table, type TableProps, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Auth } from '../../../components/auth';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { STAFF_KEYS } from '../api';

const STATUS_COLOR: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'default', 3: 'warning' };
const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

/** 邀请记录: every invitation of the agency, newest first; cancel a pending one, delete a finished one. */
export function InviteLogTable() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<0 | 1 | 2 | 3 | undefined>();
  const [sjh, setSjh] = useState('');
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const params = { ...(status !== undefined ? { status } : {}), ...(sjh ? { sjh } : {}), ...page };
  const list = useQuery({
    queryKey: STAFF_KEYS.invites(params),
    queryFn: () => call(getAgencyInviteLogListCall, params),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['staff', 'invites'] });

  const act = async (kind: 'cancel' | 'delete', id: number) => {
    try {
      await call(kind === 'cancel' ? cancelAgInviteLogCall : deleteAgInviteLogCall, { id });
      toast('success', kind === 'cancel' ? '邀请已取消' : STAFF_MSG.deleted);
    } catch {
      // Told by the request client.
    }
    void refresh();
  };

  const copy = async (id: number) => {
    try {
      const r = await call(copyCommandCall, { id });
      if (!r) return;
      await navigator.clipboard.writeText(r.text);
      toast('success', '邀请口令已复制，可粘贴发给对方');
    } catch {
      // Told by the request client, or the browser refused the clipboard.
    }
  };

  const columns: TableProps<InviteLogItem>['columns'] = [
    { title: '手机号', dataIndex: 'sjh', width: 120 },
    { title: '姓名', dataIndex: 'hymc', width: 100, render: (v: string) => v || '—' },
    {
      title: '角色标签',
      dataIndex: 'role',
      width: 100,
      render: (v: number) => ROLE_LABELS[v as 0 | 1 | 2] ?? '—',
    },
    { title: '部门', dataIndex: 'departmentName', width: 110, render: (v: string) => v || '—' },
    { title: '邀请人', dataIndex: 'inviterName', width: 100, render: (v: string) => v || '—' },
    { title: '邀请时间', dataIndex: 'createdAt', width: 140, render: time },
    {
      title: '有效期至',
      dataIndex: 'expiresAt',
      width: 140,
      render: (v: string, r) => (r.status === 0 || r.status === 3 ? time(v) : '—'),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: number, r) => (
        <Tag color={STATUS_COLOR[s]} style={{ marginInlineEnd: 0 }}>
          {r.statusName || INVITE_STATUS_NAMES[s]}
        </Tag>
      ),
    },
    { title: '接受时间', dataIndex: 'acceptedAt', width: 130, render: time },
    {
      title: '操作',
      key: 'actions',
      width: 170,
      fixed: 'right',
      render: (_, r) => {
        const none = <Typography.Text type="secondary">—</Typography.Text>;
        if (r.status === 0) {
          return (
            <Auth perms={['staff:invite']} fallback={none}>
              <Button type="link" size="small" onClick={() => void copy(r.id)}>
                复制口令
              </Button>
              <Popconfirm
                title="取消邀请"
                description={`确定取消对 ${r.sjh} 的邀请吗？取消后邀请链接失效。`}
                okText="取消邀请"
                cancelText="再想想"
                okButtonProps={{ danger: true }}
                onConfirm={() => act('cancel', r.id)}
              >
                <Button type="link" size="small">
                  取消邀请
                </Button>
              </Popconfirm>
            </Auth>
          );
        }
        if (r.status === 2 || r.status === 3) {
          return (
            <Auth perms={['staff:invite']} fallback={none}>
              <Popconfirm
                title="删除邀请记录"
                description="删除后不可恢复，确定删除吗？"
                okText="删除"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => act('delete', r.id)}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            </Auth>
          );
        }
        return none;
      },
    },
  ];

  return (
    <>
      <div className="dzy-staff-toolbar">
        <Space wrap>
          <Select
            allowClear
            placeholder="全部状态"
            style={{ width: 140 }}
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage((p) => ({ ...p, pageNo: 1 }));
            }}
            options={[0, 1, 2, 3].map((s) => ({ value: s, label: INVITE_STATUS_NAMES[s] }))}
          />
          <Input.Search
            allowClear
            placeholder="手机号"
            maxLength={11}
            style={{ width: 220 }}
            onSearch={(v) => {
              setSjh(v.replace(/\D/g, ''));
              setPage((p) => ({ ...p, pageNo: 1 }));
            }}
          />
        </Space>
        <Button icon={<ReloadOutlined />} onClick={() => void refresh()}>
          刷新
        </Button>
      </div>
      <Table<InviteLogItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        scroll={{ x: 1130 }}
        locale={{ emptyText: '暂无邀请记录' }}
        onChange={(p) =>
          setPage({
            pageNo: p.pageSize !== page.pageSize ? 1 : (p.current ?? 1),
            pageSize: p.pageSize ?? 20,
          })
        }
        pagination={{
          current: page.pageNo,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: STAFF_PAGE_SIZES.map(String),
          showTotal: (n) => `共 ${n} 条`,
        }}
      />
    </>
  );
}
