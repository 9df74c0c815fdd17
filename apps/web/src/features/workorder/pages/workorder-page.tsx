import {
  AppstoreOutlined,
  DeleteOutlined,
  PlusOutlined,
  UnorderedListOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  WO_MEMORY_KEY,
  WO_MSG,
  WO_PAGE_SIZES,
  WO_STATES,
  type WoItem,
  type WoState,
  woDeleteCall,
  woListCall,
  woStateOf,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Form, Input, Segmented, Select, Space, Spin, Table, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { Auth } from '../../../components/auth';
import { useListMemory } from '../../../components/list-page/list-memory';
import { FilteredMarker, SearchBar } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { ApiError, call } from '../../../lib/request';
import { useMembers, useWoTemplates, WO_KEYS } from '../api';
import { CreateDialog } from '../components/create-dialog';
import { WoImportDialog } from '../components/import-dialog';
import { OrderDrawer } from '../components/order-drawer';
import '../workorder.css';

interface Filter {
  keyword?: string;
  state?: WoState | '';
  templateId?: number;
  assigneeId?: number;
  overdue?: boolean;
}

const day = (iso: string) => iso.slice(0, 10);

/** What the list page remembers of the last query (user/userLastQuery), like 我的客户 and 商机列表. */
interface Memory {
  filter?: Filter;
  view?: 'list' | 'board';
  pageSize?: number;
}

/** Work orders: a paged table, or a board by state; filters by state, template, assignee, client and overdue. */
export function WorkOrderList({
  enterprise,
  compact = false,
}: {
  enterprise?: { id: number; qymc: string };
  compact?: boolean;
}) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Filter>();
  const [filter, setFilter] = useState<Filter>({});
  const [view, setView] = useState<'list' | 'board'>('list');
  const [page, setPage] = useState({
    pageNo: 1,
    pageSize: WO_PAGE_SIZES[0] as number,
    cursor: undefined as string | undefined,
  });
  const [openId, setOpenId] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const templates = useWoTemplates(false);
  const members = useMembers();
  // The page (not a client's drawer) restores its last query before the first request.
  const { ready, remember } = useListMemory<Memory>(
    WO_MEMORY_KEY,
    (m) => {
      if (m.filter) {
        form.setFieldsValue(m.filter);
        setFilter(m.filter);
      }
      if (m.view === 'list' || m.view === 'board') setView(m.view);
      const size = m.pageSize;
      if (size && (WO_PAGE_SIZES as readonly number[]).includes(size))
        setPage({ pageNo: 1, pageSize: size, cursor: undefined });
    },
    !compact && !enterprise,
  );

  const base = {
    keyword: filter.keyword ?? '',
    templateId: filter.templateId,
    assigneeId: filter.assigneeId,
    overdue: filter.overdue ?? false,
    enterpriseId: enterprise?.id,
  };
  const body =
    view === 'board'
      ? { ...base, state: '' as const, pageNo: 1, pageSize: 50 }
      : { ...base, state: filter.state ?? '', ...page };
  const list = useQuery({
    queryKey: WO_KEYS.list(body),
    queryFn: () => call(woListCall, body),
    placeholderData: keepPreviousData,
    enabled: ready,
  });
  const rows = list.isError ? [] : (list.data?.list ?? []);
  const reload = () => queryClient.invalidateQueries({ queryKey: WO_KEYS.all });

  const remove = (row: WoItem) =>
    modal.confirm({
      title: '提示',
      content: WO_MSG.deleteOrderConfirm,
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(woDeleteCall, { id: row.id }, { handle: 'all' });
          toast('success', WO_MSG.deleted);
          void reload();
        } catch (err) {
          toast('warning', err instanceof ApiError ? err.message : '删除失败，请稍后重试', 2000);
        }
      },
    });

  const search = (v: Filter) => {
    const next = { ...v, keyword: (v.keyword ?? '').trim() };
    setFilter(next);
    setPage((p) => ({ ...p, pageNo: 1, cursor: undefined }));
    remember({ filter: next, view, pageSize: page.pageSize });
  };

  const stateTag = (s: WoItem) => {
    const st = woStateOf(s.state);
    return st ? <Tag color={st.color}>{st.label}</Tag> : null;
  };

  const columns: TableProps<WoItem>['columns'] = [
    {
      key: 'orderNo',
      title: '工单编号',
      width: 150,
      render: (_v, r) => (
        <div>
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setOpenId(r.id)}>
            {r.orderNo}
          </Button>
          <div className="dzy-wo-muted dzy-wo-small">{day(r.createdAt)} 创建</div>
        </div>
      ),
    },
    ...(enterprise
      ? []
      : [
          {
            key: 'qymc',
            title: '客户',
            width: 200,
            ellipsis: { showTitle: true },
            render: (_v: unknown, r: WoItem) => r.qymc,
          },
        ]),
    {
      key: 'template',
      title: '工单模板',
      width: 130,
      render: (_v, r) => (
        <div>
          {r.templateName}
          {r.contractNo && <div className="dzy-wo-muted dzy-wo-small">合同 {r.contractNo}</div>}
        </div>
      ),
    },
    { key: 'state', title: '状态', width: 86, render: (_v, r) => stateTag(r) },
    {
      key: 'current',
      title: '当前步骤（处理人）',
      width: compact ? 170 : 210,
      render: (_v, r) =>
        r.currentStep ? (
          <span className={r.overdue ? 'dzy-wo-overdue' : undefined}>
            {r.currentStep}
            <span className="dzy-wo-muted">（{r.currentAssignee || '未分配'}）</span>
            {r.overdue && (
              <Tag color="red" style={{ marginLeft: 4 }}>
                逾期
              </Tag>
            )}
          </span>
        ) : (
          <span className="dzy-wo-muted">—</span>
        ),
    },
    { key: 'progress', title: '进度', width: 64, align: 'center', render: (_v, r) => `${r.doneSteps}/${r.totalSteps}` },
    {
      key: 'op',
      title: '操作',
      width: 120,
      fixed: 'right',
      render: (_v, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setOpenId(r.id)}>
            办理
          </Button>
          <Auth perms={['workorder:delete']}>
            <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(r)}>
              删除
            </Button>
          </Auth>
        </Space>
      ),
    },
  ];

  const board = (
    <Spin spinning={list.isFetching}>
      <div className="dzy-wo-board">
        {WO_STATES.map((s) => {
          const items = rows.filter((r) => r.state === s.value);
          return (
            <div key={s.value} className="dzy-wo-col" data-testid={`wo-col-${s.value}`}>
              <div className="dzy-wo-col-head">
                <span>
                  <Tag color={s.color}>{s.label}</Tag>
                </span>
                <span className="dzy-wo-muted">{list.data?.counts[s.value] ?? 0}</span>
              </div>
              {items.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无工单" />}
              {items.map((r) => (
                <button
                  key={r.id}
                  type="button"
                  className={`dzy-wo-tile ${r.overdue ? 'is-overdue' : ''}`}
                  onClick={() => setOpenId(r.id)}
                >
                  <div className="dzy-wo-tile-title">{r.qymc}</div>
                  <div className="dzy-wo-tile-line">
                    {r.templateName} · {r.orderNo}
                  </div>
                  <div className={`dzy-wo-tile-line ${r.overdue ? 'dzy-wo-overdue' : ''}`}>
                    {r.currentStep
                      ? `${r.currentStep}（${r.currentAssignee || '未分配'}）`
                      : day(r.finishedAt ?? r.createdAt)}
                    {r.overdue ? ' · 已逾期' : ''} · {r.doneSteps}/{r.totalSteps}
                  </div>
                </button>
              ))}
            </div>
          );
        })}
      </div>
      {(list.data?.total ?? 0) > 50 && (
        <div className="dzy-wo-muted" style={{ marginTop: 8 }}>
          看板显示最近 50 个工单，更多请用列表查看或缩小筛选范围
        </div>
      )}
    </Spin>
  );

  return (
    <div>
      {!compact && (
        <SearchBar<Filter>
          theme="shrink"
          form={form}
          onSearch={search}
          marker={
            <FilteredMarker
              values={filter}
              onClear={() => {
                form.resetFields();
                search({});
              }}
            />
          }
          fields={[
            ...(enterprise
              ? []
              : [
                  {
                    name: 'keyword' as const,
                    label: '客户/编号',
                    node: <Input allowClear placeholder="企业名称或工单编号" maxLength={50} style={{ width: 200 }} />,
                  },
                ]),
            {
              name: 'state',
              label: '状态',
              node: (
                <Select
                  allowClear
                  placeholder="全部"
                  style={{ width: 120 }}
                  options={WO_STATES.map((s) => ({ value: s.value, label: s.label }))}
                />
              ),
            },
            {
              name: 'templateId',
              label: '工单模板',
              node: (
                <Select
                  allowClear
                  placeholder="全部"
                  style={{ width: 150 }}
                  options={(templates.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
                />
              ),
            },
            {
              name: 'assigneeId',
              label: '处理人',
              node: (
                <Select
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  placeholder="全部"
                  style={{ width: 130 }}
                  options={(members.data ?? []).map((m) => ({ value: m.userId, label: m.hymc }))}
                />
              ),
            },
            {
              name: 'overdue',
              label: '逾期',
              node: (
                <Select
                  allowClear
                  placeholder="全部"
                  style={{ width: 120 }}
                  options={[{ value: true, label: '只看逾期' }]}
                />
              ),
            },
          ]}
        />
      )}
      <div className="dzy-wo-card">
        <div className="dzy-wo-toolbar">
          <Auth perms={['workorder:add']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              新建工单
            </Button>
          </Auth>
          {!enterprise && (
            <Auth perms={['workorder:import']}>
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
                批量导入
              </Button>
            </Auth>
          )}
          <span className="dzy-wo-spacer" />
          {!compact && (
            <Segmented
              value={view}
              onChange={(v) => {
                setView(v as 'list' | 'board');
                remember({ filter, view: v as 'list' | 'board', pageSize: page.pageSize });
              }}
              options={[
                { value: 'list', label: '列表', icon: <UnorderedListOutlined /> },
                { value: 'board', label: '看板', icon: <AppstoreOutlined /> },
              ]}
            />
          )}
        </div>
        {view === 'board' ? (
          board
        ) : (
          <Table<WoItem>
            rowKey="id"
            size="middle"
            loading={list.isPending || list.isFetching}
            columns={columns}
            dataSource={rows}
            scroll={{ x: compact ? 720 : 960 }}
            rowClassName={(r) => (r.overdue ? 'dzy-wo-row-overdue' : '')}
            locale={{ emptyText: '暂无工单' }}
            onChange={(pg) => {
              const pageSize = pg.pageSize ?? page.pageSize;
              const to = pageSize !== page.pageSize ? 1 : (pg.current ?? 1);
              const cursor =
                to === page.pageNo + 1
                  ? list.data?.cursor.next
                  : to === page.pageNo - 1
                    ? list.data?.cursor.prev
                    : undefined;
              setPage({ pageNo: to, pageSize, cursor: cursor ?? undefined });
              if (pageSize !== page.pageSize) remember({ filter, view, pageSize });
            }}
            pagination={{
              current: page.pageNo,
              pageSize: page.pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: WO_PAGE_SIZES.map(String),
              showTotal: (t) => `共 ${t} 条`,
            }}
          />
        )}
      </div>
      <CreateDialog
        open={creating}
        client={enterprise ?? null}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          void reload();
          setOpenId(id);
        }}
      />
      <WoImportDialog
        kind={importing ? 'order' : null}
        onClose={() => setImporting(false)}
        onDone={() => void reload()}
      />
      <OrderDrawer id={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}

/** 工单列表 (/customer/swgl/workorder). */
export function WorkOrderPage() {
  useDocumentTitle('工单列表');
  return <WorkOrderList />;
}
