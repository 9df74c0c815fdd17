import {
  CloudSyncOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  DownOutlined,
  ExportOutlined,
  FileSearchOutlined,
  KeyOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  SettingOutlined,
  TagsOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';
import {
  BENEFIT_FILTERS,
  BENEFIT_MENU,
  CUSTOMER_FILES,
  CUSTOMER_MSG,
  CUSTOMER_PAGE_KEY,
  CUSTOMER_PAGE_SIZES,
  type CustomerFilter,
  type CustomerItem,
  customerDeleteCall,
  customerListCall,
  customerServiceCall,
  getMemoryCall,
  HYDJ_NAMES,
  MASTER_FILES,
  MASTER_MSG,
  QYXZ_NAMES,
  QYXZ_OPTIONS,
  takeBureauCall,
  updateMemoryCall,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Dropdown, Form, Input, type MenuProps, Select, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type EtaxEnterprise, EtaxLoginDialog } from '../../../components/etax-login/etax-login-dialog';
import { type ListColumn, ListTable, sortOf } from '../../../components/list-page/list-table';
import { FilteredMarker, SearchBar, type SearchButton, type SearchField } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { formatCount } from '../../../lib/format';
import { movePage, type Paged } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { act, CUSTOMER_KEYS, downloadFile, useAgencyEquity, useAllocateUsers, useGrades, useLabels } from '../api';
import { AssignDialog } from '../components/assign-dialog';
import { BenefitTag } from '../components/benefit-tag';
import { ClientSettingsDialog } from '../components/client-settings-dialog';
import { DictionaryEditor } from '../components/dictionary-editor';
import { EnterpriseDrawer } from '../components/enterprise-drawer';
import { EnterpriseFormDialog } from '../components/enterprise-form-dialog';
import { useEquityGate } from '../components/equity-gate';
import { ImportDialog } from '../components/import-dialog';
import { RegionCascader } from '../components/region-cascader';
import '../customer.css';

interface SearchValues {
  keyword?: string;
  qyxz?: '0' | '1';
  region?: string[];
  labelId?: number;
  gradeId?: number;
  allocateUser?: number;
  serviceStatus?: '0' | '1';
  benefitStatus?: 'active' | 'expiring' | 'expired';
  needUpdate?: '1';
}

type Sort = Pick<CustomerFilter, 'sortField' | 'sortOrder'>;

/** What the page remembers of the last query (user/userLastQuery). */
interface Memory {
  values?: SearchValues;
  sort?: Sort;
  pageSize?: number;
}

function toFilter(v: SearchValues): CustomerFilter {
  const [sssf, ssds, ssqx] = v.region ?? [];
  const f: CustomerFilter = {};
  if (v.keyword?.trim()) f.keyword = v.keyword.trim();
  if (v.qyxz) f.qyxz = v.qyxz;
  if (sssf) f.sssf = sssf;
  if (ssds) f.ssds = ssds;
  if (ssqx) f.ssqx = ssqx;
  if (v.labelId) f.labelId = v.labelId;
  if (v.gradeId) f.gradeId = v.gradeId;
  if (v.allocateUser !== undefined && v.allocateUser !== null) f.allocateUser = v.allocateUser;
  if (v.serviceStatus) f.serviceStatus = v.serviceStatus;
  if (v.benefitStatus) f.benefitStatus = v.benefitStatus;
  if (v.needUpdate) f.needUpdate = v.needUpdate;
  return f;
}

/** 我的客户 (/customer/khgl/wdkh): the client-enterprise book (business.md §1-§9). */
export function CustomerPage() {
  useDocumentTitle('我的客户');
  const can = useHasPerm();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SearchValues>();
  const labels = useLabels();
  const grades = useGrades();
  const users = useAllocateUsers();
  const equity = useAgencyEquity();
  const gate = useEquityGate();
  const agencyQyzt = equity.data?.qyzt ?? '1';
  const kjgc = equity.data?.kjgc ?? false;

  const [ready, setReady] = useState(false);
  const [values, setValues] = useState<SearchValues>({});
  const [sort, setSort] = useState<Sort>({});
  const [page, setPage] = useState<Paged>({ pageNo: 1, pageSize: 20 });
  const [selected, setSelected] = useState<CustomerItem[]>([]);
  const [formFor, setFormFor] = useState<{ id?: number } | null>(null);
  const [drawer, setDrawer] = useState<number | null>(null);
  const [etaxFor, setEtaxFor] = useState<EtaxEnterprise | null>(null);
  const [assign, setAssign] = useState<CustomerItem[] | null>(null);
  const [importing, setImporting] = useState<'customer' | 'password' | 'shuiju' | null>(null);
  const [dictionary, setDictionary] = useState<'labels' | 'grades' | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);

  // The last query is restored once, before the first list request.
  useEffect(() => {
    let live = true;
    call(getMemoryCall, { pageKey: CUSTOMER_PAGE_KEY })
      .then((r) => {
        if (!live) return;
        const m = (r?.query ?? null) as Memory | null;
        if (m?.values) {
          form.setFieldsValue(m.values);
          setValues(m.values);
        }
        if (m?.sort) setSort(m.sort);
        if (m?.pageSize && (CUSTOMER_PAGE_SIZES as readonly number[]).includes(m.pageSize)) {
          setPage({ pageNo: 1, pageSize: m.pageSize });
        }
      })
      .catch(() => undefined)
      .finally(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [form]);

  const remember = useCallback((m: Memory) => {
    void call(
      updateMemoryCall,
      { pageKey: CUSTOMER_PAGE_KEY, query: m as Record<string, unknown> },
      { handle: 'all' },
    ).catch(() => undefined);
  }, []);

  const filter = useMemo(() => ({ ...toFilter(values), ...sort }), [values, sort]);
  const body = { ...filter, ...page } as Parameters<typeof call<typeof customerListCall>>[1];
  const list = useQuery({
    queryKey: CUSTOMER_KEYS.list(body),
    queryFn: () => call(customerListCall, body),
    placeholderData: keepPreviousData,
    enabled: ready,
  });
  const refresh = () => {
    setSelected([]);
    return queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.all });
  };

  const search = (v: SearchValues) => {
    setValues(v);
    setPage((p) => ({ pageNo: 1, pageSize: p.pageSize }));
    setSelected([]);
    remember({ values: v, sort, pageSize: page.pageSize });
  };

  // --- actions --------------------------------------------------------------------------------

  const setService = (rows: CustomerItem[], status: '0' | '1') =>
    gate(
      BENEFIT_MENU.service,
      rows.map((r) => r.id),
      (ids) =>
        new Promise<void>((resolve) => {
          const what =
            ids.length === 1 ? `“${rows.find((r) => r.id === ids[0])?.qymc ?? ''}”` : `所选 ${ids.length} 家企业`;
          modal.confirm({
            title: status === '0' ? '停止服务' : '恢复服务',
            content:
              status === '0'
                ? `确定停止为${what}提供服务吗？停止后仍可在列表中查看，并可随时恢复。`
                : `确定恢复为${what}提供服务吗？`,
            okText: status === '0' ? '停止服务' : '恢复服务',
            okButtonProps: { danger: status === '0' },
            cancelText: '取消',
            onOk: async () => {
              const r = await act(
                customerServiceCall,
                { aeiIds: ids, serviceStatus: status },
                status === '0' ? CUSTOMER_MSG.stopped : CUSTOMER_MSG.resumed,
              );
              if (r.ok) void refresh();
            },
            afterClose: resolve,
          });
        }),
    );

  const remove = (rows: CustomerItem[]) =>
    gate(
      BENEFIT_MENU.delete,
      rows.map((r) => r.id),
      (ids) =>
        new Promise<void>((resolve) => {
          const what =
            ids.length === 1 ? `“${rows.find((r) => r.id === ids[0])?.qymc ?? ''}”` : `所选 ${ids.length} 家企业`;
          modal.confirm({
            title: '删除客户',
            content: `确定删除${what}吗？删除后可在回收站恢复。`,
            okText: '删除',
            okButtonProps: { danger: true },
            cancelText: '取消',
            onOk: async () => {
              const r = await act(customerDeleteCall, { aeiIds: ids }, CUSTOMER_MSG.deleted);
              if (r.ok) void refresh();
            },
            afterClose: resolve,
          });
        }),
    );

  const openAssign = (rows: CustomerItem[]) =>
    gate(
      BENEFIT_MENU.assign,
      rows.map((r) => r.id),
      (ids) => setAssign(rows.filter((r) => ids.includes(r.id))),
    );

  const exportAll = async () => {
    const ok = await downloadFile(CUSTOMER_FILES.export, '我的客户.xlsx', filter);
    if (ok) toast('success', CUSTOMER_MSG.exported);
  };

  const exportNeedUpdate = async () => {
    const ok = await downloadFile(MASTER_FILES.needUpdateExport, '需更新客户.xlsx', filter);
    if (ok) toast('success', CUSTOMER_MSG.exported);
  };

  const takeBureau = (rows: CustomerItem[]) => {
    const marked = rows.filter((r) => r.needUpdate);
    if (marked.length === 0) {
      toast('warning', MASTER_MSG.nothingToTake);
      return;
    }
    modal.confirm({
      title: '按税局信息更新',
      content: MASTER_MSG.takeConfirm(marked.length),
      okText: '更新',
      cancelText: '取消',
      onOk: async () => {
        const r = await act(takeBureauCall, { aeiIds: marked.map((m) => m.id) });
        if (r.ok) {
          toast('success', `已更新${r.data?.updated ?? 0}个客户`);
          void refresh();
        }
      },
    });
  };

  const needSelection = (fn: (rows: CustomerItem[]) => unknown) => () => {
    if (selected.length === 0) {
      toast('warning', '请选择企业');
      return;
    }
    void fn(selected);
  };

  // --- search bar -----------------------------------------------------------------------------

  const fields: SearchField[] = [
    { name: 'keyword', label: '企业', node: <Input allowClear placeholder="企业名称或税号" maxLength={50} /> },
    {
      name: 'qyxz',
      label: '企业性质',
      node: <Select allowClear placeholder="全部" options={QYXZ_OPTIONS.map((o) => ({ ...o }))} />,
    },
    { name: 'region', label: '所属地区', node: <RegionCascader changeOnSelect placeholder="省 / 市 / 区县" /> },
    {
      name: 'labelId',
      label: '标签',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={(labels.data ?? []).map((l) => ({
            value: l.id,
            label: <Tag color={l.color}>{l.name}</Tag>,
            title: l.name,
          }))}
        />
      ),
    },
    {
      name: 'gradeId',
      label: '客户等级',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={(grades.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
        />
      ),
    },
    {
      name: 'allocateUser',
      label: '负责人',
      node: (
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder="全部"
          options={[
            { value: 0, label: '未分配' },
            ...(users.data ?? []).map((u) => ({ value: u.userId, label: u.hymc })),
          ]}
        />
      ),
    },
    {
      name: 'serviceStatus',
      label: '服务状态',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={[
            { value: '1', label: '服务中' },
            { value: '0', label: '已停止服务' },
          ]}
        />
      ),
    },
    {
      name: 'benefitStatus',
      label: '权益状态',
      node: <Select allowClear placeholder="全部" options={BENEFIT_FILTERS.map((o) => ({ ...o }))} />,
    },
    {
      name: 'needUpdate',
      label: '税局比对',
      node: <Select allowClear placeholder="全部" options={[{ value: '1', label: MASTER_MSG.needUpdateTag }]} />,
    },
  ];

  const buttons = (
    [
      can(['customer:add']) && {
        key: 'add',
        label: '新增客户',
        type: 'primary' as const,
        icon: <PlusOutlined />,
        onClick: () => setFormFor({}),
      },
      can(['customer:import']) && {
        key: 'import',
        label: '导入客户',
        icon: <CloudUploadOutlined />,
        onClick: () => setImporting('customer'),
      },
      can(['customer:import']) && {
        key: 'importPwd',
        label: '导入账号密码',
        icon: <KeyOutlined />,
        onClick: () => setImporting('password'),
      },
      can(['customer:export']) && { key: 'export', label: '导出', icon: <ExportOutlined />, onClick: exportAll },
      can(['customer:assign']) && {
        key: 'assign',
        label: '批量分配',
        icon: <UserSwitchOutlined />,
        onClick: needSelection(openAssign),
      },
      can(['customer:service:toggle']) && {
        key: 'stop',
        label: '批量停止服务',
        icon: <PauseCircleOutlined />,
        onClick: needSelection((rows) => setService(rows, '0')),
      },
      can(['customer:service:toggle']) && {
        key: 'resume',
        label: '批量恢复服务',
        icon: <PlayCircleOutlined />,
        onClick: needSelection((rows) => setService(rows, '1')),
      },
      can(['customer:delete']) && {
        key: 'delete',
        label: '批量删除',
        icon: <DeleteOutlined />,
        danger: true,
        onClick: needSelection(remove),
      },
      can(['customer:edit']) && {
        key: 'takeBureau',
        label: '按税局信息更新',
        icon: <CloudSyncOutlined />,
        onClick: needSelection(takeBureau),
      },
      can(['customer:import']) && {
        key: 'importShuiJu',
        label: '导入税局密码',
        icon: <KeyOutlined />,
        onClick: () => setImporting('shuiju'),
      },
      can(['customer:export']) && {
        key: 'exportNeedUpdate',
        label: '导出需更新客户',
        icon: <ExportOutlined />,
        onClick: exportNeedUpdate,
      },
      can(['customer:grade:edit']) && {
        key: 'grades',
        label: '等级管理',
        icon: <SettingOutlined />,
        onClick: () => setDictionary('grades'),
      },
      {
        key: 'clientSettings',
        label: '客户设置',
        icon: <SettingOutlined />,
        onClick: () => setSettingsOpen(true),
      },
      can(['customer:edit']) && {
        key: 'labels',
        label: '标签管理',
        icon: <TagsOutlined />,
        onClick: () => setDictionary('labels'),
      },
    ] as (SearchButton | false)[]
  ).filter((b): b is SearchButton => b !== false);

  // --- table ----------------------------------------------------------------------------------

  const rowMenu = (r: CustomerItem): MenuProps['items'] =>
    [
      can(['declare:data:view']) && {
        key: 'taxdata',
        label: <a href={`#/declare/sjcx?aeiId=${r.id}`}>税务数据</a>,
        icon: <FileSearchOutlined />,
      },
      can(['customer:assign']) && { key: 'assign', label: '分配', icon: <UserSwitchOutlined /> },
      can(['customer:service:toggle']) &&
        (r.serviceStatus === '1'
          ? { key: 'stop', label: '停止服务', icon: <PauseCircleOutlined /> }
          : { key: 'resume', label: '恢复服务', icon: <PlayCircleOutlined /> }),
      can(['customer:delete']) && { key: 'delete', label: '删除', icon: <DeleteOutlined />, danger: true },
    ].filter(Boolean) as MenuProps['items'];

  const onRowMenu = (r: CustomerItem, key: string) => {
    if (key === 'assign') void openAssign([r]);
    if (key === 'stop') void setService([r], '0');
    if (key === 'resume') void setService([r], '1');
    if (key === 'delete') void remove([r]);
  };

  const sortOrderOf = (field: 'qymc' | 'createdAt') =>
    sort.sortField === field ? sort.sortOrder : field === 'createdAt' && !sort.sortField ? 'descend' : null;

  const columns: ListColumn<CustomerItem>[] = [
    {
      title: '序号',
      key: 'no',
      width: 64,
      align: 'center',
      render: (_, _r, i) => (page.pageNo - 1) * page.pageSize + i + 1,
    },
    {
      title: '企业名称',
      dataIndex: 'qymc',
      key: 'qymc',
      sorter: true,
      sortOrder: sortOrderOf('qymc') ?? null,
      width: 270,
      render: (_, r) => (
        <div>
          <div className="dzy-customer-name">
            <Button type="link" className="dzy-list-name-link" onClick={() => setDrawer(r.id)}>
              {r.qymc}
            </Button>
            <BenefitTag agencyQyzt={agencyQyzt} kjgc={kjgc} qyzt={r.qyzt} />
            {r.needUpdate && (
              <Tag color="orange" style={{ cursor: 'pointer' }} onClick={() => setDrawer(r.id)}>
                {MASTER_MSG.needUpdateTag}
              </Tag>
            )}
          </div>
          {r.labels.length > 0 && (
            <div className="dzy-customer-labels">
              {r.labels.map((l) => (
                <Tag key={l.id} color={l.color} bordered={false}>
                  {l.name}
                </Tag>
              ))}
            </div>
          )}
        </div>
      ),
    },
    {
      title: '企业税号 / 性质',
      key: 'qysh',
      dataIndex: 'qysh',
      width: 200,
      render: (v: string, r) => (
        <div>
          {v ? (
            <Typography.Text copyable={{ tooltips: ['复制', '已复制'] }}>{v}</Typography.Text>
          ) : (
            <Tag color="red">缺少税号</Tag>
          )}
          <div className="dzy-customer-sub">{QYXZ_NAMES[r.qyxz] ?? ''}</div>
        </div>
      ),
    },
    { title: '所属地区', key: 'regionName', dataIndex: 'regionName', width: 160, ellipsis: true },
    { title: '客户等级', key: 'gradeName', dataIndex: 'gradeName', width: 100, ellipsis: true },
    {
      title: '负责人',
      key: 'allocateUserName',
      dataIndex: 'allocateUserName',
      width: 90,
      ellipsis: true,
      render: (v: string) => v || <Typography.Text type="secondary">未分配</Typography.Text>,
    },
    {
      title: '会员',
      key: 'hydj',
      width: 130,
      render: (_, r) =>
        r.hydj_real ? (
          <div>
            <div>{HYDJ_NAMES[r.hydj_real] ?? r.hydj_real}</div>
            {r.hydqsj && <div className="dzy-customer-sub">{r.hydqsj} 到期</div>}
          </div>
        ) : (
          '—'
        ),
    },
    {
      title: '服务状态',
      key: 'serviceStatus',
      dataIndex: 'serviceStatus',
      width: 110,
      render: (v: string) => (
        <Badge status={v === '1' ? 'success' : 'default'} text={v === '1' ? '服务中' : '已停止服务'} />
      ),
    },
    {
      title: '联系人',
      key: 'contact',
      width: 130,
      render: (_, r) =>
        r.contactName ? (
          <div>
            <div>{r.contactName}</div>
            <div className="dzy-customer-sub">{r.contactPhone}</div>
          </div>
        ) : (
          '—'
        ),
    },
    {
      title: '创建时间',
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 120,
      sorter: true,
      sortOrder: sortOrderOf('createdAt') ?? null,
      render: (v: string) => dayjs(v).format('YYYY-MM-DD'),
    },
    {
      title: '操作',
      key: 'op',
      width: 204,
      render: (_, r) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setDrawer(r.id)}>
            详情
          </Button>
          {can(['customer:edit']) && (
            <Button type="link" size="small" onClick={() => setFormFor({ id: r.id })}>
              编辑
            </Button>
          )}
          {can(['customer:etax:login']) && (
            <Button type="link" size="small" onClick={() => setEtaxFor({ id: r.id, qymc: r.qymc, qysh: r.qysh })}>
              登录电子税务局
            </Button>
          )}
          {(rowMenu(r)?.length ?? 0) > 0 && (
            <Dropdown menu={{ items: rowMenu(r), onClick: ({ key }) => onRowMenu(r, key) }} trigger={['click']}>
              <Button type="link" size="small">
                更多 <DownOutlined />
              </Button>
            </Dropdown>
          )}
        </Space>
      ),
    },
  ];

  const total = list.data?.total ?? 0;

  return (
    <div>
      <SearchBar<SearchValues>
        theme="shrink"
        form={form}
        fields={fields}
        buttons={buttons}
        onSearch={search}
        marker={
          <FilteredMarker
            values={values}
            onClear={() => {
              form.resetFields();
              search({});
            }}
          />
        }
      />
      <ListTable<CustomerItem>
        card
        pageKey="customer"
        nameKey="qymc"
        actionKey="op"
        className="dzy-customer-table"
        rowKey="id"
        loading={list.isFetching && !list.isPending ? { delay: 300 } : list.isPending}
        columns={columns}
        dataSource={list.data?.list ?? []}
        selection={{ count: selected.length, unit: '家企业', onClear: () => setSelected([]) }}
        rowSelection={{
          selectedRowKeys: selected.map((r) => r.id),
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) => setSelected(rows.filter(Boolean)),
        }}
        empty="暂无客户"
        onChange={(pg, _filters, sorter, extra) => {
          if (extra.action === 'sort') {
            const s = sortOf(sorter);
            const next: Sort = s.field
              ? { sortField: s.field as NonNullable<Sort['sortField']>, sortOrder: s.order }
              : {};
            setSort(next);
            setPage((p) => ({ pageNo: 1, pageSize: p.pageSize }));
            remember({ values, sort: next, pageSize: page.pageSize });
            return;
          }
          const pageSize = pg.pageSize ?? page.pageSize;
          setPage(movePage(page, pg.current ?? 1, pageSize, list.data));
          if (pageSize !== page.pageSize) remember({ values, sort, pageSize });
        }}
        pagination={{
          current: page.pageNo,
          pageSize: page.pageSize,
          total,
          showSizeChanger: true,
          showQuickJumper: true,
          pageSizeOptions: CUSTOMER_PAGE_SIZES.map(String),
          showTotal: (t) => `共 ${formatCount(t)} 条`,
        }}
      />

      <EtaxLoginDialog enterprise={etaxFor} onClose={() => setEtaxFor(null)} />
      <EnterpriseFormDialog open={formFor !== null} id={formFor?.id} onClose={() => setFormFor(null)} />
      <EnterpriseDrawer
        id={drawer}
        onClose={() => setDrawer(null)}
        onEdit={(id) => setFormFor({ id })}
        agencyQyzt={agencyQyzt}
        kjgc={kjgc}
      />
      <AssignDialog
        ids={assign ? assign.map((r) => r.id) : null}
        names={(assign ?? []).map((r) => r.qymc)}
        onClose={() => setAssign(null)}
        onDone={() => void refresh()}
      />
      <ClientSettingsDialog
        open={settingsOpen}
        selectedIds={selected.map((r) => r.id)}
        onClose={() => setSettingsOpen(false)}
      />
      <ImportDialog mode={importing} onClose={() => setImporting(null)} onDone={() => void refresh()} />
      <DictionaryEditor kind={dictionary} onClose={() => setDictionary(null)} />
    </div>
  );
}
