import { ExportOutlined, ReloadOutlined, UserAddOutlined } from '@ant-design/icons';
import {
  deleteAgUserConnectionIsConnCall,
  getAgencyInviteUserListV3Call,
  personalQuitAgencyCall,
  quitCheckCall,
  ROLE_LABELS,
  STAFF_MSG,
  STAFF_PAGE_SIZES,
  type StaffItem,
  saveUserQuitSettingCall,
  updateAgUserConnectionIsAdminV3Call,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Switch, Tabs, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Auth, useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable, sortOf } from '../../../components/list-page/list-table';
import { SearchBar, type SearchField } from '../../../components/search-bar';
import { UserAvatar } from '../../../components/user-avatar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { HOME_PATH } from '../../../lib/paths';
import { call } from '../../../lib/request';
import { SESSION_KEY, useSessionInfo } from '../../../lib/session';
import { STAFF_KEYS, useStaffOptions } from '../api';
import { BatchInviteDialog } from '../components/batch-invite-dialog';
import { HandoverDialog } from '../components/handover-dialog';
import { InviteDialog } from '../components/invite-dialog';
import { InviteLogTable } from '../components/invite-log-table';
import { PhoneSettingDialog } from '../components/phone-setting-dialog';
import '../staff.css';

type SortField = 'joinedAt' | 'clientCount';
type SortOrder = 'ascend' | 'descend';

interface Filters {
  hymc?: string;
  sjh?: string;
  departmentId?: number;
  role?: 0 | 1 | 2;
}

const ROLE_COLOR: Record<number, string> = { 0: 'default', 1: 'gold', 2: 'blue' };

/** 员工管理 (/nested/manage/staff): the staff list and the invite log (foundation.md §7). */
export function StaffPage() {
  useDocumentTitle('员工管理');
  const session = useSessionInfo();
  const can = useHasPerm();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const options = useStaffOptions();
  const [form] = Form.useForm<Filters>();
  const [tab, setTab] = useState('staff');
  const [filters, setFilters] = useState<Filters>({});
  const [sort, setSort] = useState<{ field?: SortField; order?: SortOrder }>({});
  const [inviting, setInviting] = useState(false);
  const [batchInviting, setBatchInviting] = useState(false);
  const [phoneSetting, setPhoneSetting] = useState(false);
  const [handingOver, setHandingOver] = useState<StaffItem | null>(null);
  const isAdmin = session.isAdmin === '1';

  const list = usePagedList(
    getAgencyInviteUserListV3Call,
    { ...filters, ...(sort.field && sort.order ? { sortField: sort.field, sortOrder: sort.order } : {}) },
    { queryKey: [...STAFF_KEYS.all, 'page'] },
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: STAFF_KEYS.all });

  const search = (values: Filters) => {
    const next: Filters = {};
    if (values.hymc?.trim()) next.hymc = values.hymc.trim();
    if (values.sjh?.trim()) next.sjh = values.sjh.replace(/\D/g, '');
    if (values.departmentId) next.departmentId = values.departmentId;
    if (values.role !== undefined) next.role = values.role;
    setFilters(next);
  };

  const remove = (r: StaffItem) => {
    if (r.clientCount > 0) {
      modal.confirm({
        title: '请先进行工作交接',
        content: `${r.hymc || r.phone} 名下还有 ${r.clientCount} 家客户，移除前须先把工作交接给其他同事。`,
        okText: '去交接',
        cancelText: '取消',
        onOk: () => setHandingOver(r),
      });
      return;
    }
    modal.confirm({
      title: '移除员工',
      content: `确定将 ${r.hymc || r.phone} 移出本机构吗？移除后其岗位与角色一并清除，且无法再访问本机构的数据。`,
      okText: '移除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await call(deleteAgUserConnectionIsConnCall, { userId: r.userId });
          toast('success', '移除成功');
        } catch {
          // Told by the request client (e.g. 请先进行工作交接 when clients were given meanwhile).
        }
        void refresh();
      },
    });
  };

  const transfer = (r: StaffItem) =>
    modal.confirm({
      title: '转让管理员',
      content: `确定将管理员转让给 ${r.hymc || r.phone} 吗？转让后您将成为部门员工（默认角色“普通员工”），不再拥有管理员权限。`,
      okText: '确认转让',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await call(updateAgUserConnectionIsAdminV3Call, {
            admin_user_id: r.userId,
            notadmin_user_id: session.token.id,
          });
          toast('success', STAFF_MSG.set);
          // Permissions changed: the session, menus and every page's data follow.
          queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
          await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
        } catch {
          // Told by the request client.
        }
      },
    });

  const setQuit = async (allow: boolean) => {
    try {
      await call(saveUserQuitSettingCall, { quitSet: allow ? '1' : '0' });
      toast('success', STAFF_MSG.set);
    } catch {
      // Told by the request client.
    }
    void queryClient.invalidateQueries({ queryKey: STAFF_KEYS.options });
  };

  const quit = async () => {
    const check = await call(quitCheckCall, {}).catch(() => null);
    if (!check) return;
    if (!check.canQuit) {
      modal.warning({ title: '暂时无法退出', content: check.reason, okText: '知道了' });
      return;
    }
    modal.confirm({
      title: '退出代理机构',
      content: `确定退出「${session.orgName ?? ''}」吗？退出后将无法访问该机构的任何数据，如需再加入须重新邀请。`,
      okText: '确认退出',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await call(personalQuitAgencyCall, {});
        } catch {
          return;
        }
        toast('success', '您已退出该代理机构');
        queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
        await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
        navigate(HOME_PATH, { replace: true });
      },
    });
  };

  const columns: ListColumn<StaffItem>[] = [
    {
      title: '员工',
      key: 'hymc',
      width: 200,
      render: (_, r) => (
        <div className="dzy-staff-person">
          <UserAvatar name={r.hymc} src={r.headimg} size={32} />
          <div style={{ minWidth: 0 }}>
            <div className="dzy-staff-name">
              <span>{r.hymc || '未设置姓名'}</span>
              {r.isAdmin === '1' && (
                <Tag color="gold" style={{ marginInlineEnd: 0 }}>
                  管理员
                </Tag>
              )}
              {r.userId === session.token.id && <Tag style={{ marginInlineEnd: 0 }}>我</Tag>}
            </div>
            <div className="dzy-muted">{r.zw || '—'}</div>
          </div>
        </div>
      ),
    },
    { title: '手机号', key: 'phone', dataIndex: 'phone', width: 120 },
    {
      title: '部门 / 角色标签',
      key: 'dept',
      width: 140,
      render: (_, r) => (
        <div>
          <div>{r.departmentName || '未分配部门'}</div>
          <Tag color={ROLE_COLOR[r.role]} style={{ marginInlineEnd: 0, marginTop: 4 }}>
            {ROLE_LABELS[r.role as 0 | 1 | 2] ?? '—'}
          </Tag>
        </div>
      ),
    },
    {
      title: '角色',
      key: 'roles',
      dataIndex: 'roles',
      width: 120,
      ellipsis: (r) => r.roles.join('、'),
      render: (v: string[]) => (v.length ? v.join('、') : <Typography.Text type="secondary">无</Typography.Text>),
    },
    {
      title: '岗位',
      key: 'stations',
      dataIndex: 'stations',
      width: 150,
      render: (v: string[]) =>
        v.length ? (
          <Space size={[4, 4]} wrap>
            {v.map((s) => (
              <Tag key={s} style={{ marginInlineEnd: 0 }}>
                {s}
              </Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">无</Typography.Text>
        ),
    },
    {
      title: '客户数',
      dataIndex: 'clientCount',
      key: 'clientCount',
      width: 90,
      align: 'right',
      sorter: true,
      sortOrder: sort.field === 'clientCount' ? sort.order : null,
    },
    {
      title: '加入时间',
      dataIndex: 'joinedAt',
      key: 'joinedAt',
      width: 116,
      sorter: true,
      sortOrder: sort.field === 'joinedAt' ? sort.order : null,
      render: (v: string) => (
        <Tooltip title={dayjs(v).format('YYYY-MM-DD HH:mm:ss')}>{dayjs(v).format('YYYY-MM-DD')}</Tooltip>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 214,
      render: (_, r) => {
        const self = r.userId === session.token.id;
        const admin = r.isAdmin === '1';
        return (
          <Space size={0}>
            <Auth perms={['staff:handover']}>
              <Button type="link" size="small" onClick={() => setHandingOver(r)}>
                工作交接
              </Button>
            </Auth>
            {isAdmin && !self && (
              <Auth perms={['staff:admin:transfer']}>
                <Button type="link" size="small" onClick={() => transfer(r)}>
                  转让管理员
                </Button>
              </Auth>
            )}
            {!self && !admin && (
              <Auth perms={['staff:remove']}>
                <Button type="link" size="small" danger onClick={() => remove(r)}>
                  移除
                </Button>
              </Auth>
            )}
          </Space>
        );
      },
    },
  ];

  // A viewer who may do nothing to anyone gets no empty 操作 column.
  const canAct = can(['staff:handover', 'staff:remove']) || (isAdmin && can(['staff:admin:transfer']));
  const shownColumns = canAct ? columns : columns.filter((c) => c.key !== 'actions');

  const fields: SearchField[] = [
    {
      name: 'hymc',
      label: '姓名',
      node: <Input placeholder="姓名" allowClear maxLength={20} style={{ width: 130 }} />,
    },
    {
      name: 'sjh',
      label: '手机号',
      rules: [{ pattern: /^\d{0,11}$/, message: '手机号只能包含数字' }],
      tooltip: isAdmin ? undefined : '请输入完整手机号',
      node: (
        <Input
          placeholder={isAdmin ? '手机号' : '完整手机号'}
          allowClear
          maxLength={11}
          inputMode="numeric"
          style={{ width: 140 }}
        />
      ),
    },
    {
      name: 'departmentId',
      label: '部门',
      node: (
        <Select
          allowClear
          placeholder="全部部门"
          style={{ width: 150 }}
          showSearch={{ optionFilterProp: 'label' }}
          options={(options.data?.departments ?? []).map((d) => ({ value: d.id, label: d.label }))}
        />
      ),
    },
    {
      name: 'role',
      label: '角色标签',
      node: (
        <Select
          allowClear
          placeholder="全部"
          style={{ width: 130 }}
          options={[1, 2, 0].map((v) => ({ value: v, label: ROLE_LABELS[v as 0 | 1 | 2] }))}
        />
      ),
    },
  ];

  const quitSet = options.data?.quitSet;
  return (
    <Card
      variant="borderless"
      title="员工管理"
      className="dzy-staff-card"
      extra={
        <Space size={16}>
          {isAdmin && <Button onClick={() => setPhoneSetting(true)}>号码显示设置</Button>}
          {isAdmin && (
            <Tooltip title="关闭后，员工只能由管理员移除，不能自行退出">
              <Space size={8}>
                <span className="dzy-muted-text">允许员工自行退出</span>
                <Switch
                  size="small"
                  checked={quitSet === '1'}
                  loading={options.isPending}
                  onChange={(v) => void setQuit(v)}
                  aria-label="允许员工自行退出"
                />
              </Space>
            </Tooltip>
          )}
          {!isAdmin && (
            <Button icon={<ExportOutlined />} onClick={() => void quit()}>
              退出代理机构
            </Button>
          )}
        </Space>
      }
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'staff',
            label: `员工列表${list.data ? `（${list.data.total}）` : ''}`,
            children: (
              <>
                <SearchBar<Filters>
                  theme="popup"
                  embedded
                  topFields={4}
                  form={form}
                  fields={fields}
                  onSearch={search}
                />
                <ListTable<StaffItem>
                  pageKey="staff"
                  nameKey="hymc"
                  actionKey={canAct ? 'actions' : undefined}
                  rowKey="userId"
                  columns={shownColumns}
                  dataSource={list.data?.list ?? []}
                  loading={list.isFetching}
                  onChange={(_pg, _filters, sorter) => {
                    const s = sortOf(sorter);
                    setSort({ field: s.field as SortField | undefined, order: s.order });
                  }}
                  empty={Object.keys(filters).length ? '没有符合条件的员工' : '暂无员工'}
                  extra={
                    <>
                      <Button icon={<ReloadOutlined />} onClick={() => void refresh()} aria-label="刷新" />
                      <Auth perms={['staff:invite']}>
                        <Button onClick={() => setBatchInviting(true)}>批量邀请</Button>
                        <Button type="primary" icon={<UserAddOutlined />} onClick={() => setInviting(true)}>
                          邀请员工
                        </Button>
                      </Auth>
                    </>
                  }
                  pagination={{
                    ...list.pagination,
                    pageSizeOptions: STAFF_PAGE_SIZES.map(String),
                    showTotal: (n) => `共 ${n} 人`,
                  }}
                />
              </>
            ),
          },
          { key: 'invites', label: '邀请记录', children: <InviteLogTable /> },
        ]}
      />
      <InviteDialog
        open={inviting}
        onClose={(sent) => {
          setInviting(false);
          if (sent) void queryClient.invalidateQueries({ queryKey: ['staff', 'invites'] });
        }}
      />
      <BatchInviteDialog
        open={batchInviting}
        onClose={(sent) => {
          setBatchInviting(false);
          if (sent) void queryClient.invalidateQueries({ queryKey: ['staff', 'invites'] });
        }}
      />
      <PhoneSettingDialog open={phoneSetting} onClose={() => setPhoneSetting(false)} />
      <HandoverDialog
        from={handingOver}
        onClose={(done) => {
          setHandingOver(null);
          if (done) void refresh();
        }}
      />
    </Card>
  );
}
