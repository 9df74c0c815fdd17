import { PlusOutlined } from '@ant-design/icons';
import { deleteRoleCall, type RoleItem, roleListCall } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Popconfirm, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Auth, useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable, sortOf } from '../../../components/list-page/list-table';
import { SearchBar, type SearchButton } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { PAGE_SIZES, ROLE_KEYS } from '../api';
import { MemberRolesTab } from '../components/member-roles-tab';
import { PermDrawer } from '../components/perm-drawer';
import { RoleDialog } from '../components/role-dialog';
import '../role.css';

type SortField = 'name' | 'memberCount' | 'createdAt';
type SortOrder = 'ascend' | 'descend';

/** 角色权限 (/nested/manage/role): the agency roles, their function permissions and who holds them. */
export function RolePage() {
  useDocumentTitle('角色权限');
  const queryClient = useQueryClient();
  const can = useHasPerm();
  const canEdit = can(['role:edit']);
  const [tab, setTab] = useState('roles');
  const [form] = Form.useForm<{ name?: string }>();
  const [name, setName] = useState('');
  const [sort, setSort] = useState<{ field?: SortField; order?: SortOrder }>({});
  const [editing, setEditing] = useState<RoleItem | null | undefined>(undefined);
  const [permsOf, setPermsOf] = useState<RoleItem | null>(null);
  const [memberRole, setMemberRole] = useState<number | undefined>(undefined);

  const list = usePagedList(
    roleListCall,
    {
      ...(name ? { name } : {}),
      ...(sort.field && sort.order ? { sortField: sort.field, sortOrder: sort.order } : {}),
    },
    { queryKey: [...ROLE_KEYS.all, 'page'] },
  );
  // Every role, for the member filter and the assign dialog.
  const allRoles = useQuery({
    queryKey: ROLE_KEYS.allRoles,
    queryFn: () => call(roleListCall, { pageNo: 1, pageSize: 500 }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ROLE_KEYS.all });

  const remove = async (role: RoleItem) => {
    try {
      await call(deleteRoleCall, { id: role.id });
      toast('success', '删除成功');
    } catch {
      // Told by the request client.
    }
    void refresh();
  };

  const showMembers = (role: RoleItem) => {
    setMemberRole(role.id);
    setTab('members');
  };

  const columns: ListColumn<RoleItem>[] = [
    { title: '序号', key: 'index', width: 64, render: (_, __, i) => (list.pageNo - 1) * list.pageSize + i + 1 },
    {
      title: '角色名称',
      dataIndex: 'name',
      key: 'name',
      width: 200,
      sorter: true,
      sortOrder: sort.field === 'name' ? sort.order : null,
      render: (_, r) => (
        <span className="dzy-role-name">
          {r.name}
          {r.isDefault && (
            <Tooltip title="新成员默认获得此角色，不可删除">
              <Tag color="blue" variant="filled">
                默认
              </Tag>
            </Tooltip>
          )}
        </span>
      ),
    },
    {
      title: '备注',
      dataIndex: 'remark',
      key: 'remark',
      width: 240,
      ellipsis: true,
      render: (v: string) => v || <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      title: '成员数',
      dataIndex: 'memberCount',
      key: 'memberCount',
      width: 110,
      sorter: true,
      sortOrder: sort.field === 'memberCount' ? sort.order : null,
      render: (n: number, r) => (
        <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => showMembers(r)}>
          {n} 人
        </Button>
      ),
    },
    {
      title: '功能权限',
      key: 'perms',
      width: 100,
      render: (_, r) =>
        r.perms.length === 0 ? <Typography.Text type="warning">未设置</Typography.Text> : `${r.perms.length} 项`,
    },
    {
      title: '创建时间',
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 160,
      sorter: true,
      sortOrder: sort.field === 'createdAt' ? sort.order : null,
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
    },
    {
      title: '操作',
      key: 'actions',
      width: 180,
      render: (_, r) => (
        <Space size={12}>
          <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setPermsOf(r)}>
            {canEdit ? '功能权限' : '查看权限'}
          </Button>
          <Auth perms={['role:edit']}>
            <Space size={12}>
              <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setEditing(r)}>
                编辑
              </Button>
              {r.isDefault ? (
                <Tooltip title="默认角色不可删除">
                  <Button type="link" size="small" danger disabled style={{ paddingInline: 0 }}>
                    删除
                  </Button>
                </Tooltip>
              ) : (
                <Popconfirm
                  title="删除角色"
                  description={
                    r.memberCount > 0
                      ? `${r.memberCount} 名成员持有「${r.name}」，删除后他们保留其他角色（没有其他角色的获得默认角色）。确定删除？`
                      : `确定删除角色「${r.name}」？`
                  }
                  okText="删除"
                  okButtonProps={{ danger: true }}
                  cancelText="取消"
                  onConfirm={() => remove(r)}
                  styles={{ root: { maxWidth: 360 } }}
                >
                  <Button type="link" size="small" danger style={{ paddingInline: 0 }}>
                    删除
                  </Button>
                </Popconfirm>
              )}
            </Space>
          </Auth>
        </Space>
      ),
    },
  ];

  const buttons: SearchButton[] = canEdit
    ? [{ key: 'add', label: '新增角色', type: 'primary', icon: <PlusOutlined />, onClick: () => setEditing(null) }]
    : [];

  return (
    <Card variant="borderless" title="角色权限" className="dzy-role-card">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'roles',
            label: `角色列表${list.data ? `（${allRoles.data?.total ?? list.total}）` : ''}`,
            children: (
              <>
                <SearchBar<{ name?: string }>
                  theme="popup"
                  embedded
                  form={form}
                  fields={[
                    {
                      name: 'name',
                      label: '角色名称',
                      node: <Input placeholder="角色名称" allowClear style={{ width: 200 }} maxLength={20} />,
                    },
                  ]}
                  buttons={buttons}
                  onSearch={(v) => setName(v.name?.trim() ?? '')}
                />
                <ListTable<RoleItem>
                  pageKey="role"
                  nameKey="name"
                  actionKey="actions"
                  rowKey="id"
                  columns={columns}
                  dataSource={list.data?.list ?? []}
                  loading={list.isFetching}
                  empty={name ? '没有符合条件的角色' : '暂无角色'}
                  onChange={(_, __, sorter) => {
                    const s = sortOf(sorter);
                    setSort({ field: s.field as SortField | undefined, order: s.order });
                  }}
                  pagination={{
                    ...list.pagination,
                    showQuickJumper: true,
                    pageSizeOptions: PAGE_SIZES,
                    showTotal: (total) => `共 ${total} 个角色`,
                  }}
                />
              </>
            ),
          },
          {
            key: 'members',
            label: '成员角色',
            children: (
              <MemberRolesTab roles={allRoles.data?.list ?? []} roleId={memberRole} onRoleFilter={setMemberRole} />
            ),
          },
        ]}
      />
      <RoleDialog
        role={editing}
        onClose={(saved) => {
          setEditing(undefined);
          if (saved) void refresh();
        }}
      />
      {permsOf && <PermDrawer role={permsOf} canEdit={canEdit} onClose={() => setPermsOf(null)} />}
    </Card>
  );
}
