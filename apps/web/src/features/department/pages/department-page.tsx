import { ApartmentOutlined, PlusOutlined, SearchOutlined, UserOutlined } from '@ant-design/icons';
import {
  type DepartmentMember,
  type DepartmentNode,
  deleteDepartmentCall,
  departmentStaffCall,
  departmentTreeCall,
  ROLE_LABELS,
  saveDepartmentCall,
  unassignedStaffCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Input,
  Popconfirm,
  Skeleton,
  Space,
  Table,
  type TableProps,
  Tag,
  Tooltip,
  Tree,
  type TreeDataNode,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Auth, useHasPerm } from '../../../components/auth';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { SESSION_KEY } from '../../../lib/session';
import { DEPT_KEYS, filterDepartments, findDepartment, flattenDepartments } from '../api';
import { DepartmentDialog, type DepartmentDraft } from '../components/department-dialog';
import { MoveDialog } from '../components/move-dialog';
import '../department.css';

const UNASSIGNED = 'unassigned';
const ROLE_COLOR: Record<number, string> = { 0: 'default', 1: 'gold', 2: 'blue' };

function toTreeData(nodes: readonly DepartmentNode[]): TreeDataNode[] {
  return nodes.map((n) => ({
    key: String(n.id),
    title: (
      <span className="dzy-dept-node">
        <span className="dzy-dept-node-name">{n.name}</span>
        <span className="dzy-dept-count">{n.memberCount}人</span>
      </span>
    ),
    children: toTreeData(n.children),
  }));
}

/** 部门管理 (/nested/manage/department): the department tree, each department's members and head. */
export function DepartmentPage() {
  useDocumentTitle('部门管理');
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = useHasPerm();
  const canEdit = can(['org:dept:edit']);
  const canMove = can(['staff:dept:change']);
  const [selected, setSelected] = useState<string | null>(null);
  const [q, setQ] = useState('');
  const [draft, setDraft] = useState<DepartmentDraft | null>(null);
  const [moving, setMoving] = useState<DepartmentMember[] | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const select = (key: string | null) => {
    setSelected(key);
    setPicked([]);
  };

  const tree = useQuery({ queryKey: DEPT_KEYS.tree, queryFn: () => call(departmentTreeCall, {}) });
  const unassigned = useQuery({ queryKey: DEPT_KEYS.unassigned, queryFn: () => call(unassignedStaffCall, {}) });
  const nodes = tree.data ?? [];
  const all = useMemo(() => flattenDepartments(nodes), [nodes]);

  // Select the first department once the tree is there (or the unassigned list when there is none).
  useEffect(() => {
    if (!tree.data) return;
    const exists = selected === UNASSIGNED || all.some((d) => String(d.id) === selected);
    if (!exists) setSelected(all[0] ? String(all[0].id) : UNASSIGNED);
  }, [tree.data, all, selected]);

  const deptId = selected && selected !== UNASSIGNED ? Number(selected) : null;
  const found = deptId === null ? null : findDepartment(nodes, deptId);
  const staff = useQuery({
    queryKey: DEPT_KEYS.staff(selected ?? ''),
    queryFn: () => call(departmentStaffCall, { pid: deptId ?? 0 }),
    enabled: deptId !== null,
  });
  const rows = (deptId === null ? unassigned.data : staff.data) ?? [];
  const loadingRows = deptId === null ? unassigned.isPending : staff.isPending;

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: DEPT_KEYS.all });
    // A head's role label is part of their session.
    await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
  };

  const remove = async (d: DepartmentNode) => {
    try {
      await call(deleteDepartmentCall, { id: d.id });
      toast('success', '删除成功');
      select(null);
    } catch {
      // Told by the request client (e.g. 请先删除下级部门).
    }
    void refresh();
  };

  const makeHead = (m: DepartmentMember) => {
    if (!found) return;
    const d = found.node;
    modal.confirm({
      title: '设为部门负责人',
      content: `将 ${m.hymc || m.phone} 设为「${d.name}」的负责人？${
        d.directorName ? `原负责人 ${d.directorName} 将不再担任。` : ''
      }负责人可查看本部门及下级部门成员的客户。`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await call(saveDepartmentCall, { id: d.id, name: d.name, directorUserId: m.userId });
          toast('success', '设置成功');
        } catch {
          // Told by the request client.
        }
        await refresh();
      },
    });
  };

  const columns: TableProps<DepartmentMember>['columns'] = [
    {
      title: '姓名',
      key: 'hymc',
      render: (_, m) => (
        <span className="dzy-dept-person">
          {m.hymc || '未填写姓名'}
          {found && found.node.directorUserId === m.userId && (
            <Tag color="blue" variant="filled">
              负责人
            </Tag>
          )}
        </span>
      ),
    },
    { title: '手机号', dataIndex: 'phone', key: 'phone', width: 160 },
    {
      title: '角色标签',
      key: 'role',
      width: 140,
      render: (_, m) => (
        <Tag color={ROLE_COLOR[m.role] ?? 'default'} variant="filled">
          {ROLE_LABELS[m.role as 0 | 1 | 2] ?? '—'}
        </Tag>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      render: (_, m) => {
        const isHead = found?.node.directorUserId === m.userId;
        if (!canMove && (!canEdit || !found || isHead)) return <Typography.Text type="secondary">—</Typography.Text>;
        return (
          <Space size={12}>
            <Auth perms={['staff:dept:change']}>
              <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setMoving([m])}>
                调整部门
              </Button>
            </Auth>
            {found && !isHead && (
              <Auth perms={['org:dept:edit']}>
                <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => makeHead(m)}>
                  设为负责人
                </Button>
              </Auth>
            )}
          </Space>
        );
      },
    },
  ];

  const treeData = useMemo(() => toTreeData(filterDepartments(nodes, q.trim())), [nodes, q]);

  return (
    <Card
      variant="borderless"
      title="部门管理"
      className="dzy-dept-card"
      extra={
        <Auth perms={['org:dept:edit']}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDraft({ department: null, pid: null })}>
            新增部门
          </Button>
        </Auth>
      }
    >
      <div className="dzy-dept-layout">
        <aside className="dzy-dept-side">
          <div className="dzy-dept-side-head">
            <Input
              prefix={<SearchOutlined />}
              placeholder="搜索部门"
              allowClear
              value={q}
              onChange={(e) => setQ(e.target.value)}
            />
          </div>
          <button
            type="button"
            className={`dzy-dept-entry${selected === UNASSIGNED ? ' is-active' : ''}`}
            onClick={() => select(UNASSIGNED)}
          >
            <span>
              <UserOutlined style={{ marginInlineEnd: 8 }} />
              未分配部门
            </span>
            <span className="dzy-dept-count">{unassigned.data?.length ?? 0}人</span>
          </button>
          {tree.isPending ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : nodes.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有部门" />
          ) : treeData.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有匹配的部门" />
          ) : (
            <Tree
              blockNode
              defaultExpandAll
              treeData={treeData}
              selectedKeys={selected && selected !== UNASSIGNED ? [selected] : []}
              onSelect={(keys) => keys[0] !== undefined && select(String(keys[0]))}
              key={q ? `q-${q}` : `all-${all.length}`}
            />
          )}
        </aside>

        <section className="dzy-dept-main">
          <div className="dzy-dept-head">
            {found ? (
              <>
                <div style={{ minWidth: 0 }}>
                  <h3 className="dzy-dept-title">
                    <ApartmentOutlined style={{ marginInlineEnd: 8, color: '#1677ff' }} />
                    {found.node.name}
                  </h3>
                  <div className="dzy-dept-meta">
                    {found.path.length > 1 && <span>所属：{found.path.slice(0, -1).join(' / ')}</span>}
                    <span>负责人：{found.node.directorName ?? '未设置'}</span>
                    <span>成员：{found.node.memberCount} 人</span>
                    <span>下级部门：{found.node.children.length} 个</span>
                  </div>
                </div>
                <Auth perms={['org:dept:edit']}>
                  <Space wrap>
                    <Button onClick={() => setDraft({ department: null, pid: found.node.id })}>新增下级部门</Button>
                    <Button onClick={() => setDraft({ department: found.node, pid: found.parentId })}>编辑部门</Button>
                    {found.node.children.length > 0 ? (
                      <Tooltip title="请先删除下级部门">
                        <Button danger disabled>
                          删除部门
                        </Button>
                      </Tooltip>
                    ) : (
                      <Popconfirm
                        title="删除部门"
                        description={
                          found.node.memberCount > 0
                            ? `「${found.node.name}」的 ${found.node.memberCount} 名成员将变为未分配部门。确定删除？`
                            : `确定删除部门「${found.node.name}」？`
                        }
                        okText="删除"
                        okButtonProps={{ danger: true }}
                        cancelText="取消"
                        onConfirm={() => remove(found.node)}
                        styles={{ root: { maxWidth: 340 } }}
                      >
                        <Button danger>删除部门</Button>
                      </Popconfirm>
                    )}
                  </Space>
                </Auth>
              </>
            ) : (
              <div>
                <h3 className="dzy-dept-title">
                  <UserOutlined style={{ marginInlineEnd: 8, color: '#1677ff' }} />
                  未分配部门
                </h3>
                <div className="dzy-dept-meta">尚未加入任何部门的成员；部门负责人只能查看本部门成员的客户。</div>
              </div>
            )}
          </div>

          <div className="dzy-dept-toolbar">
            <Typography.Text type="secondary">
              {loadingRows ? '加载中…' : `共 ${rows.length} 人${picked.length ? `，已选 ${picked.length} 人` : ''}`}
            </Typography.Text>
            <Auth perms={['staff:dept:change']}>
              <Button
                disabled={picked.length === 0}
                onClick={() => setMoving(rows.filter((m) => picked.includes(m.userId)))}
              >
                批量调整部门
              </Button>
            </Auth>
          </div>
          <Table<DepartmentMember>
            rowKey="userId"
            size="middle"
            columns={columns}
            dataSource={rows}
            loading={loadingRows && selected !== null}
            rowSelection={
              canMove ? { selectedRowKeys: picked, onChange: (keys) => setPicked(keys.map(Number)) } : undefined
            }
            locale={{ emptyText: deptId === null ? '所有成员都已分配部门' : '该部门暂无成员' }}
            pagination={
              rows.length > 20 ? { pageSize: 20, showSizeChanger: false, showTotal: (t) => `共 ${t} 人` } : false
            }
          />
        </section>
      </div>

      <DepartmentDialog
        draft={draft}
        tree={nodes}
        onClose={(savedId) => {
          setDraft(null);
          if (savedId !== null) {
            select(String(savedId));
            void refresh();
          }
        }}
      />
      <MoveDialog
        members={moving}
        tree={nodes}
        onClose={(saved) => {
          setMoving(null);
          setPicked([]);
          if (saved) void refresh();
        }}
      />
    </Card>
  );
}
