import { PlusOutlined } from '@ant-design/icons';
import { deleteStationCall, type StationItem, stationListCall } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Auth, useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable, sortOf } from '../../../components/list-page/list-table';
import { SearchBar, type SearchButton } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { PAGE_SIZES, STATION_KEYS } from '../api';
import { MembersDialog } from '../components/members-dialog';
import { StationDialog } from '../components/station-dialog';
import '../station.css';

type SortField = 'name' | 'memberCount' | 'createdAt';
type SortOrder = 'ascend' | 'descend';

/** 岗位管理 (/nested/manage/station): the agency's posts and who serves in each. */
export function StationPage() {
  useDocumentTitle('岗位管理');
  const queryClient = useQueryClient();
  const canEdit = useHasPerm()(['station:edit']);
  const [form] = Form.useForm<{ name?: string }>();
  const [name, setName] = useState('');
  const [sort, setSort] = useState<{ field?: SortField; order?: SortOrder }>({});
  const [editing, setEditing] = useState<StationItem | null | undefined>(undefined);
  const [membersOf, setMembersOf] = useState<StationItem | null>(null);

  const list = usePagedList(
    stationListCall,
    {
      ...(name ? { name } : {}),
      ...(sort.field && sort.order ? { sortField: sort.field, sortOrder: sort.order } : {}),
    },
    { queryKey: [...STATION_KEYS.all, 'page'] },
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: STATION_KEYS.all });

  const remove = async (s: StationItem) => {
    try {
      await call(deleteStationCall, { id: s.id });
      toast('success', '删除成功');
    } catch {
      // Told by the request client.
    }
    void refresh();
  };

  const columns: ListColumn<StationItem>[] = [
    { title: '序号', key: 'index', width: 64, render: (_, __, i) => (list.pageNo - 1) * list.pageSize + i + 1 },
    {
      title: '岗位名称',
      dataIndex: 'name',
      key: 'name',
      width: 240,
      sorter: true,
      sortOrder: sort.field === 'name' ? sort.order : null,
      render: (_, s) => (
        <span className="dzy-station-name">
          {s.name}
          {s.isDefault && (
            <Tooltip title="新成员加入时默认分配到此岗位，不可删除">
              <Tag color="blue" variant="filled">
                默认
              </Tag>
            </Tooltip>
          )}
        </span>
      ),
    },
    {
      title: '成员数',
      dataIndex: 'memberCount',
      key: 'memberCount',
      width: 140,
      sorter: true,
      sortOrder: sort.field === 'memberCount' ? sort.order : null,
      render: (n: number, s) => (
        <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setMembersOf(s)}>
          {n} 人
        </Button>
      ),
    },
    {
      title: '创建时间',
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 180,
      sorter: true,
      sortOrder: sort.field === 'createdAt' ? sort.order : null,
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
    },
    {
      title: '操作',
      key: 'actions',
      width: 180,
      render: (_, s) => (
        <Space size={12}>
          <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setMembersOf(s)}>
            {canEdit ? '设置成员' : '查看成员'}
          </Button>
          <Auth perms={['station:edit']}>
            <Space size={12}>
              <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setEditing(s)}>
                编辑
              </Button>
              {s.isDefault ? (
                <Tooltip title="默认岗位不可删除">
                  <Button type="link" size="small" danger disabled style={{ paddingInline: 0 }}>
                    删除
                  </Button>
                </Tooltip>
              ) : (
                <Popconfirm
                  title="删除岗位"
                  description={
                    s.memberCount > 0
                      ? `「${s.name}」有 ${s.memberCount} 名成员，删除后他们将不再属于该岗位。确定删除？`
                      : `确定删除岗位「${s.name}」？`
                  }
                  okText="删除"
                  okButtonProps={{ danger: true }}
                  cancelText="取消"
                  onConfirm={() => remove(s)}
                  styles={{ root: { maxWidth: 340 } }}
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
    ? [{ key: 'add', label: '新增岗位', type: 'primary', icon: <PlusOutlined />, onClick: () => setEditing(null) }]
    : [];

  return (
    <Card variant="borderless" title="岗位管理">
      <SearchBar<{ name?: string }>
        theme="popup"
        embedded
        form={form}
        fields={[
          {
            name: 'name',
            label: '岗位名称',
            node: <Input placeholder="岗位名称" allowClear style={{ width: 200 }} maxLength={20} />,
          },
        ]}
        buttons={buttons}
        onSearch={(v) => setName(v.name?.trim() ?? '')}
      />
      <ListTable<StationItem>
        pageKey="station"
        nameKey="name"
        actionKey="actions"
        rowKey="id"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        empty={name ? '没有符合条件的岗位' : '暂无岗位'}
        onChange={(_, __, sorter) => {
          const s = sortOf(sorter);
          setSort({ field: s.field as SortField | undefined, order: s.order });
        }}
        pagination={{
          ...list.pagination,
          showQuickJumper: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => `共 ${total} 个岗位`,
        }}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }}>
        岗位表示成员在服务客户时承担的职责；新成员加入机构时默认分配到「服务顾问」。
      </Typography.Paragraph>
      <StationDialog
        station={editing}
        onClose={(saved) => {
          setEditing(undefined);
          if (saved) void refresh();
        }}
      />
      <MembersDialog
        station={membersOf}
        canEdit={canEdit}
        onClose={(saved) => {
          setMembersOf(null);
          if (saved) void refresh();
        }}
      />
    </Card>
  );
}
