import { ExclamationCircleOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import {
  OPP_MEMORY_KEY,
  OPP_MSG,
  OPP_PAGE_SIZES,
  OPP_SORTS,
  OPP_SOURCES,
  type OppFilter,
  type OppItem,
  oppDeleteCall,
  oppListCall,
  oppReleaseCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useHasPerm } from '../../../components/auth';
import { useListMemory } from '../../../components/list-page/list-memory';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { SearchBar, type SearchButton, type SearchField } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import {
  ConvertDialog,
  FollowDialog,
  OPP_KEYS,
  OppFormDialog,
  SettingDialog,
  TransferDialog,
  useOppOwners,
  useOppSetting,
} from '../components/opp-dialogs';
import { OppDrawer, StageTag } from '../components/opp-drawer';
import '../opportunity.css';

interface SearchValues {
  keyword?: string;
  stageId?: number;
  source?: OppFilter['source'];
  ownerId?: number;
  due?: OppFilter['due'];
  sort?: OppFilter['sort'];
}

const DUE_OPTIONS = [
  { value: 'overdue', label: '已逾期' },
  { value: 'today', label: '今天' },
  { value: 'week', label: '7天内' },
];

function toFilter(v: SearchValues): OppFilter {
  return {
    ...(v.keyword ? { keyword: v.keyword } : {}),
    ...(v.stageId ? { stageId: v.stageId } : {}),
    ...(v.source ? { source: v.source } : {}),
    ...(v.ownerId ? { ownerId: v.ownerId } : {}),
    ...(v.due ? { due: v.due } : {}),
    sort: v.sort ?? 'created',
  };
}

/** 商机列表 (/customer/swgl/sjgl): the pipeline — search (remembered), create, follow up, transfer, release, convert. */
export function OpportunityPage() {
  useDocumentTitle('商机列表');
  const { modal } = App.useApp();
  const can = useHasPerm();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SearchValues>();
  const [values, setValues] = useState<SearchValues>({});
  const [selected, setSelected] = useState<OppItem[]>([]);
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const [following, setFollowing] = useState<OppItem | null>(null);
  const [moving, setMoving] = useState<OppItem[] | null>(null);
  const [converting, setConverting] = useState<OppItem | null>(null);
  const [setting, setSetting] = useState(false);

  const stages = useOppSetting();
  const owners = useOppOwners();

  // The last query is restored once, before the first list request.
  const { ready, remember } = useListMemory<SearchValues>(OPP_MEMORY_KEY, (m) => {
    form.setFieldsValue(m);
    setValues(m);
  });

  const list = usePagedList(oppListCall, toFilter(values), { queryKey: ['opportunity', 'list'], enabled: ready });
  const refresh = () => {
    setSelected([]);
    return queryClient.invalidateQueries({ queryKey: OPP_KEYS.all });
  };

  const what = (rows: OppItem[]) =>
    rows.length === 1 ? `商机「${rows[0]?.companyName}」` : `所选 ${rows.length} 个商机`;
  const confirm = (title: string, content: string, okText: string, run: () => Promise<void>, danger = true) =>
    modal.confirm({
      title,
      content,
      okText,
      cancelText: '取消',
      icon: <ExclamationCircleOutlined />,
      okButtonProps: { danger },
      onOk: async () => {
        try {
          await run();
          void refresh();
        } catch {
          // told by the request client
        }
      },
    });
  const releaseRows = (rows: OppItem[]) =>
    confirm('释放到公海', `确定将${what(rows)}释放到公海吗？释放后您不再负责，同事可以领取。`, '释放', async () => {
      await call(oppReleaseCall, { ids: rows.map((r) => r.id) });
      toast('success', OPP_MSG.released);
    });
  const deleteRows = (rows: OppItem[]) =>
    confirm('删除商机', `确定删除${what(rows)}吗？跟进记录和转移记录一并删除，不可恢复。`, '删除', async () => {
      await call(oppDeleteCall, { ids: rows.map((r) => r.id) });
      toast('success', OPP_MSG.deleted);
    });
  const open = (rows: OppItem[]) => rows.filter((r) => r.enterpriseId === null);
  const needSelection = (fn: (rows: OppItem[]) => void) => () => {
    const rows = open(selected);
    if (rows.length === 0) toast('warning', OPP_MSG.chooseOpp);
    else fn(rows);
  };

  const fields: SearchField[] = [
    { name: 'keyword', label: '搜索', node: <Input allowClear placeholder="公司名称、联系人或电话" maxLength={50} /> },
    {
      name: 'stageId',
      label: '商机阶段',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={(stages.data?.stages ?? []).map((s) => ({ value: s.id, label: s.name }))}
        />
      ),
    },
    {
      name: 'source',
      label: '商机来源',
      node: <Select allowClear placeholder="全部" options={OPP_SOURCES.map((s) => ({ value: s, label: s }))} />,
    },
    {
      name: 'ownerId',
      label: '负责人',
      node: (
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder="全部"
          options={(owners.data ?? []).map((u) => ({ value: u.userId, label: u.hymc }))}
        />
      ),
    },
    { name: 'due', label: '下次跟进', node: <Select allowClear placeholder="全部" options={DUE_OPTIONS} /> },
    {
      name: 'sort',
      label: '排序',
      node: <Select placeholder="最新创建" options={OPP_SORTS.map((s) => ({ value: s.value, label: s.label }))} />,
    },
  ];
  const buttons: SearchButton[] = [
    ...(can(['opportunity:add'])
      ? [
          {
            key: 'add',
            label: '新增商机',
            type: 'primary' as const,
            icon: <PlusOutlined />,
            onClick: () => setEditing({ id: null }),
          },
        ]
      : []),
    ...(can(['opportunity:transfer'])
      ? [{ key: 'transfer', label: '批量转移', onClick: needSelection((rows) => setMoving(rows)) }]
      : []),
    ...(can(['opportunity:release'])
      ? [{ key: 'release', label: '释放到公海', onClick: needSelection(releaseRows) }]
      : []),
    ...(can(['opportunity:delete'])
      ? [{ key: 'delete', label: '批量删除', danger: true, onClick: needSelection(deleteRows) }]
      : []),
    ...(can(['opportunity:setting:edit'])
      ? [{ key: 'setting', label: '商机设置', icon: <SettingOutlined />, onClick: () => setSetting(true) }]
      : []),
  ];

  const ops = (r: OppItem, inDrawer = false) => {
    const items: { key: string; label: string; danger?: boolean; on: () => void }[] = [];
    if (!inDrawer) items.push({ key: 'view', label: '查看', on: () => setViewing(r.id) });
    if (r.enterpriseId === null) {
      if (can(['opportunity:followup'])) items.push({ key: 'follow', label: '写跟进', on: () => setFollowing(r) });
      if (r.stageKind === 'won' && can(['opportunity:convert']))
        items.push({ key: 'convert', label: '转为客户', on: () => setConverting(r) });
      if (can(['opportunity:add'])) items.push({ key: 'edit', label: '编辑', on: () => setEditing({ id: r.id }) });
      if (can(['opportunity:transfer'])) items.push({ key: 'transfer', label: '转移', on: () => setMoving([r]) });
      if (can(['opportunity:release'])) items.push({ key: 'release', label: '释放', on: () => releaseRows([r]) });
      if (can(['opportunity:delete']))
        items.push({ key: 'delete', label: '删除', danger: true, on: () => deleteRows([r]) });
    } else {
      items.push({ key: 'client', label: '查看客户', on: () => navigate('/customer/khgl/wdkh') });
    }
    return items;
  };

  const columns: ListColumn<OppItem>[] = [
    {
      title: '公司名称',
      key: 'companyName',
      width: 190,
      render: (_v: unknown, r: OppItem) => (
        <div style={{ minWidth: 0 }}>
          <Button type="link" size="small" className="dzy-list-name-link" onClick={() => setViewing(r.id)}>
            {r.companyName}
          </Button>
          <Typography.Text type="secondary" className="dzy-opp-sub" ellipsis>
            {r.contactName} · {r.phone}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '阶段',
      key: 'stageName',
      width: 84,
      render: (_v: unknown, r: OppItem) => (
        <Space size={2} direction="vertical">
          <StageTag item={r} />
          {r.enterpriseId !== null && (
            <Typography.Text type="success" className="dzy-opp-sub">
              已转客户
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: '预计金额（元）',
      key: 'expectAmount',
      width: 104,
      align: 'right' as const,
      render: (_v: unknown, r: OppItem) => <span className="dzy-opp-money">{r.expectAmount}</span>,
    },
    {
      title: '意向服务',
      key: 'serviceNames',
      width: 104,
      render: (_v: unknown, r: OppItem) => (
        <Typography.Text className="dzy-opp-block" ellipsis={{ tooltip: r.serviceNames }}>
          {r.serviceNames || '—'}
        </Typography.Text>
      ),
    },
    { title: '来源', key: 'source', width: 84, render: (_v: unknown, r: OppItem) => r.source },
    {
      title: '跟进',
      key: 'follow',
      width: 140,
      render: (_v: unknown, r: OppItem) => {
        const overdue = r.nextFollowAt !== null && r.nextFollowAt < dayNow();
        return (
          <div className="dzy-opp-follow-cell">
            <div>最近 {r.followedAt.slice(5)}</div>
            {r.nextFollowAt && (
              <Typography.Text type={overdue ? 'danger' : 'secondary'} className="dzy-opp-sub">
                下次 {r.nextFollowAt.slice(5)}
                {overdue ? '（已逾期）' : ''}
              </Typography.Text>
            )}
          </div>
        );
      },
    },
    {
      title: '负责人',
      key: 'ownerName',
      width: 72,
      render: (_v: unknown, r: OppItem) => r.ownerName || '—',
    },
    {
      title: '操作',
      key: 'ops',
      width: 150,
      render: (_v: unknown, r: OppItem) => (
        <Space size={0} wrap className="dzy-opp-ops">
          {ops(r, true)
            .slice(0, 3)
            .map((o) => (
              <Button key={o.key} type="link" size="small" danger={o.danger} onClick={o.on}>
                {o.label}
              </Button>
            ))}
        </Space>
      ),
    },
  ];

  return (
    <div className="dzy-opp-page">
      <SearchBar<SearchValues>
        theme="shrink"
        form={form}
        fields={fields}
        buttons={buttons}
        onSearch={(v) => {
          setValues(v);
          setSelected([]);
          remember(toFilter(v));
          if (JSON.stringify(toFilter(v)) === JSON.stringify(toFilter(values))) void list.refetch();
        }}
      />
      <ListTable<OppItem>
        card
        pageKey="opportunity"
        nameKey="companyName"
        actionKey="ops"
        rowKey="id"
        loading={list.isFetching && !list.isLoading ? { delay: 300 } : list.isLoading}
        columns={columns}
        dataSource={list.data?.list ?? []}
        selection={{ count: selected.length, unit: '个商机', onClear: () => setSelected([]) }}
        rowSelection={{
          selectedRowKeys: selected.map((r) => r.id),
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) => setSelected(rows.filter(Boolean)),
          getCheckboxProps: (r) => ({ disabled: r.enterpriseId !== null }),
        }}
        empty="暂无商机，点击“新增商机”录入第一个销售线索"
        pagination={{ ...list.pagination, showQuickJumper: true, pageSizeOptions: OPP_PAGE_SIZES.map(String) }}
      />

      <OppFormDialog
        open={editing !== null}
        id={editing?.id ?? null}
        onClose={() => setEditing(null)}
        onDone={() => void refresh()}
        onOpenExisting={(id) => {
          setEditing(null);
          setViewing(id);
        }}
      />
      <OppDrawer
        id={viewing}
        onClose={() => setViewing(null)}
        actions={(o) => (
          <Space size={4}>
            {ops(o, true).map((x) => (
              <Button
                key={x.key}
                size="small"
                danger={x.danger}
                type={x.key === 'convert' ? 'primary' : 'default'}
                onClick={x.on}
              >
                {x.label}
              </Button>
            ))}
          </Space>
        )}
      />
      <FollowDialog opp={following} onClose={() => setFollowing(null)} onDone={() => void refresh()} />
      <TransferDialog opps={moving} onClose={() => setMoving(null)} onDone={() => void refresh()} />
      <ConvertDialog
        opp={converting}
        onClose={() => setConverting(null)}
        onDone={(r) => {
          void refresh();
          modal.success({
            title: '已转为客户',
            content: `已在“我的客户”中建档，并生成待提交合同 ${r.contractNo}，请到合同列表核对后提交。`,
            okText: '知道了',
          });
        }}
      />
      <SettingDialog open={setting} onClose={() => setSetting(false)} onDone={() => void refresh()} />
    </div>
  );
}

/** Now as China wall clock 'YYYY-MM-DD HH:mm', comparable with the list's times. */
function dayNow() {
  const d = new Date(Date.now() + 8 * 3_600_000);
  return d.toISOString().slice(0, 16).replace('T', ' ');
}
