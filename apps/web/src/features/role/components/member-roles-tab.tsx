import { type MemberRoles, memberRoleListCall, type RoleItem } from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space, Table, type TableProps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Auth } from '../../../components/auth';
import { call } from '../../../lib/request';
import { PAGE_SIZES, ROLE_KEYS } from '../api';
import { AssignDialog } from './assign-dialog';

interface Filters {
  keyword?: string;
  roleId?: number;
}

/** 成员角色: every member with their roles and posts; administrators assign them here. */
export function MemberRolesTab({
  roles,
  roleId,
  onRoleFilter,
}: {
  roles: readonly RoleItem[];
  roleId: number | undefined;
  onRoleFilter: (roleId: number | undefined) => void;
}) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Filters>();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const [editing, setEditing] = useState<MemberRoles | null>(null);

  const params = { ...(keyword ? { keyword } : {}), ...(roleId ? { roleId } : {}), ...page };
  const list = useQuery({
    queryKey: ROLE_KEYS.members(params),
    queryFn: () => call(memberRoleListCall, params),
    placeholderData: keepPreviousData,
  });

  const search = (v: Filters) => {
    setKeyword(v.keyword?.trim() ?? '');
    onRoleFilter(v.roleId);
    setPage((p) => ({ ...p, pageNo: 1 }));
  };
  const reset = () => {
    form.resetFields();
    search({});
  };

  const columns: TableProps<MemberRoles>['columns'] = [
    {
      title: '序号',
      key: 'index',
      width: 70,
      render: (_, __, i) => (page.pageNo - 1) * page.pageSize + i + 1,
    },
    {
      title: '成员',
      key: 'member',
      width: 220,
      render: (_, m) => (
        <div>
          <div className="dzy-role-name">
            {m.hymc || '未填写姓名'}
            {m.isAdmin && (
              <Tag color="gold" variant="filled">
                管理员
              </Tag>
            )}
          </div>
          <div className="dzy-role-muted">{m.phone}</div>
        </div>
      ),
    },
    {
      title: '角色',
      key: 'roles',
      render: (_, m) =>
        m.isAdmin && m.roles.length === 0 ? (
          <Typography.Text type="secondary">全部权限</Typography.Text>
        ) : m.roles.length === 0 ? (
          <Typography.Text type="secondary">未分配角色</Typography.Text>
        ) : (
          <div className="dzy-role-tags">
            {m.roles.map((r) => (
              <Tag key={r.id} color="blue" variant="filled">
                {r.name}
              </Tag>
            ))}
          </div>
        ),
    },
    {
      title: '岗位',
      key: 'stations',
      render: (_, m) =>
        m.stations.length === 0 ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <div className="dzy-role-tags">
            {m.stations.map((s) => (
              <Tag key={s.id}>{s.name}</Tag>
            ))}
          </div>
        ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 120,
      render: (_, m) => (
        <Auth perms={['role:edit']} fallback={<Typography.Text type="secondary">—</Typography.Text>}>
          <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setEditing(m)}>
            设置角色
          </Button>
        </Auth>
      ),
    },
  ];

  return (
    <>
      <div className="dzy-role-toolbar">
        <Form<Filters>
          form={form}
          name="member-search"
          layout="inline"
          onFinish={search}
          className="dzy-role-filters"
          initialValues={{ roleId }}
          key={roleId ?? 'all'}
        >
          <Form.Item name="keyword">
            <Input placeholder="姓名或手机号" allowClear style={{ width: 200 }} maxLength={20} />
          </Form.Item>
          <Form.Item name="roleId">
            <Select
              placeholder="全部角色"
              allowClear
              style={{ width: 180 }}
              options={roles.map((r) => ({ value: r.id, label: r.name }))}
            />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">
                查询
              </Button>
              <Button onClick={reset}>重置</Button>
            </Space>
          </Form.Item>
        </Form>
      </div>
      <Table<MemberRoles>
        rowKey="userId"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        locale={{ emptyText: keyword || roleId ? '没有符合条件的成员' : '暂无成员' }}
        pagination={{
          current: page.pageNo,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          showQuickJumper: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => `共 ${total} 人`,
          onChange: (pageNo, pageSize) => setPage({ pageNo: pageSize === page.pageSize ? pageNo : 1, pageSize }),
        }}
      />
      <AssignDialog
        member={editing}
        roles={roles}
        onClose={(saved) => {
          setEditing(null);
          if (saved) void queryClient.invalidateQueries({ queryKey: ROLE_KEYS.all });
        }}
      />
    </>
  );
}
