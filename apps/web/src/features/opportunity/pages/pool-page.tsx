import { ExclamationCircleOutlined } from '@ant-design/icons';
import {
  OPP_MSG,
  OPP_PAGE_SIZES,
  OPP_SOURCES,
  type OppFilter,
  type OppItem,
  oppClaimCall,
  oppPoolDeleteCall,
  oppPoolListCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { SearchBar, type SearchButton, type SearchField } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { OPP_KEYS, useOppSetting } from '../components/opp-dialogs';
import { OppDrawer, StageTag } from '../components/opp-drawer';
import '../opportunity.css';

interface SearchValues {
  keyword?: string;
  stageId?: number;
  source?: OppFilter['source'];
}

/** 公海 (/customer/swgl/gh): opportunities without an owner — claim them, or (granted) delete them. */
export function PoolPage() {
  useDocumentTitle('公海');
  const { modal } = App.useApp();
  const can = useHasPerm();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SearchValues>();
  const [values, setValues] = useState<SearchValues>({});
  const [selected, setSelected] = useState<OppItem[]>([]);
  const [viewing, setViewing] = useState<number | null>(null);
  const stages = useOppSetting();
  const filter = {
    ...(values.keyword ? { keyword: values.keyword } : {}),
    ...(values.stageId ? { stageId: values.stageId } : {}),
    ...(values.source ? { source: values.source } : {}),
  };
  const list = usePagedList(oppPoolListCall, filter, { queryKey: ['opportunity', 'pool'] });
  const refresh = () => {
    setSelected([]);
    setViewing(null);
    return queryClient.invalidateQueries({ queryKey: OPP_KEYS.all });
  };
  const what = (rows: OppItem[]) => (rows.length === 1 ? `「${rows[0]?.companyName}」` : `所选 ${rows.length} 个商机`);
  const claim = (rows: OppItem[]) =>
    modal.confirm({
      title: '领取商机',
      content: `确定领取${what(rows)}吗？领取后由您负责跟进。`,
      okText: '领取',
      cancelText: '取消',
      icon: <ExclamationCircleOutlined />,
      onOk: async () => {
        try {
          await call(oppClaimCall, { ids: rows.map((r) => r.id) });
          toast('success', OPP_MSG.claimed);
        } catch {
          // told
        }
        void refresh();
      },
    });
  const remove = (rows: OppItem[]) =>
    modal.confirm({
      title: '删除公海商机',
      content: `确定删除${what(rows)}吗？跟进记录和转移记录一并删除，不可恢复。`,
      okText: '删除',
      cancelText: '取消',
      icon: <ExclamationCircleOutlined />,
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(oppPoolDeleteCall, { ids: rows.map((r) => r.id) });
          toast('success', OPP_MSG.deleted);
        } catch {
          // told
        }
        void refresh();
      },
    });
  const needSelection = (fn: (rows: OppItem[]) => void) => () => {
    if (selected.length === 0) toast('warning', OPP_MSG.chooseOpp);
    else fn(selected);
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
  ];
  const buttons: SearchButton[] = [
    ...(can(['opportunity:pool:claim'])
      ? [{ key: 'claim', label: '批量领取', type: 'primary' as const, onClick: needSelection(claim) }]
      : []),
    ...(can(['opportunity:pool:delete'])
      ? [{ key: 'delete', label: '批量删除', danger: true, onClick: needSelection(remove) }]
      : []),
  ];
  const columns: ListColumn<OppItem>[] = [
    {
      title: '公司名称',
      key: 'companyName',
      width: 220,
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
    { title: '阶段', key: 'stageName', width: 96, render: (_v: unknown, r: OppItem) => <StageTag item={r} /> },
    {
      title: '预计金额（元）',
      key: 'expectAmount',
      width: 112,
      align: 'right' as const,
      render: (_v: unknown, r: OppItem) => <span className="dzy-opp-money">{r.expectAmount}</span>,
    },
    {
      title: '意向服务',
      key: 'serviceNames',
      width: 130,
      render: (_v: unknown, r: OppItem) => (
        <Typography.Text className="dzy-opp-block" ellipsis={{ tooltip: r.serviceNames }}>
          {r.serviceNames || '—'}
        </Typography.Text>
      ),
    },
    { title: '来源', key: 'source', width: 100, render: (_v: unknown, r: OppItem) => r.source },
    {
      title: '进入公海',
      key: 'releasedAt',
      width: 120,
      render: (_v: unknown, r: OppItem) => r.releasedAt ?? '—',
    },
    {
      title: '操作',
      key: 'ops',
      width: 120,
      render: (_v: unknown, r: OppItem) => (
        <Space size={0}>
          {can(['opportunity:pool:claim']) && (
            <Button type="link" size="small" onClick={() => claim([r])}>
              领取
            </Button>
          )}
          {can(['opportunity:pool:delete']) && (
            <Button type="link" size="small" danger onClick={() => remove([r])}>
              删除
            </Button>
          )}
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
          void list.refetch();
        }}
      />
      <ListTable<OppItem>
        card
        pageKey="opportunity-pool"
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
        }}
        empty="公海里暂无商机"
        pagination={{ ...list.pagination, showQuickJumper: true, pageSizeOptions: OPP_PAGE_SIZES.map(String) }}
      />
      <OppDrawer id={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
