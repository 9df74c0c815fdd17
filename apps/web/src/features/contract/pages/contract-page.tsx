import { ExclamationCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  batchDeleteContractCall,
  batchEndContractCall,
  batchSubmitContractCall,
  type CallDef,
  CONTRACT_MSG,
  CONTRACT_PAGE_SIZES,
  CONTRACT_STATUS_FILTERS,
  type ContractFilter,
  type ContractItem,
  contractListCall,
  contractOwnersCall,
  recoverContractCall,
  updateContractStatusCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, InputNumber, Select, Space, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { SearchBar, type SearchButton, type SearchField } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { ContractDrawer } from '../components/contract-drawer';
import { ContractFormDialog, type FormMode } from '../components/contract-form-dialog';
import { EndDialog, type EndTarget } from '../components/end-dialog';
import { StatusTag } from '../components/status-tag';
import '../contract.css';

interface SearchValues {
  contractNo?: string;
  keyword?: string;
  status?: ContractFilter['status'];
  contractUserId?: number;
  period?: [Dayjs, Dayjs] | null;
  expireDays?: number | null;
}

function toFilter(v: SearchValues): ContractFilter {
  return {
    ...(v.contractNo ? { contractNo: v.contractNo } : {}),
    ...(v.keyword ? { keyword: v.keyword } : {}),
    ...(v.status ? { status: v.status } : {}),
    ...(v.contractUserId ? { contractUserId: v.contractUserId } : {}),
    ...(v.period ? { periodFrom: v.period[0].format('YYYY-MM-DD'), periodTo: v.period[1].format('YYYY-MM-DD') } : {}),
    ...(typeof v.expireDays === 'number' ? { expireDays: v.expireDays } : {}),
  };
}

async function act<C extends CallDef>(def: C, body: Parameters<typeof call<C>>[1], done: string) {
  try {
    await call(def, body);
    toast('success', done);
    return true;
  } catch {
    return false;
  }
}

/** 合同列表 (/contract/htgl/htlb): search, the table with warnings, create, view, renew, terminate, delete, batches. */
export function ContractPage() {
  useDocumentTitle('合同列表');
  const { modal } = App.useApp();
  const can = useHasPerm();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SearchValues>();
  const [values, setValues] = useState<SearchValues>({});
  const [selected, setSelected] = useState<ContractItem[]>([]);
  const [formMode, setFormMode] = useState<FormMode | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const [ending, setEnding] = useState<EndTarget | null>(null);

  const owners = useQuery({ queryKey: ['contract', 'owners'], queryFn: () => call(contractOwnersCall, {}) });
  const list = usePagedList(contractListCall, toFilter(values), { queryKey: ['contract', 'list'] });
  const refresh = () => {
    setSelected([]);
    return queryClient.invalidateQueries({ queryKey: ['contract'] });
  };

  const confirm = (title: string, content: string, okText: string, run: () => Promise<boolean>, danger = true) =>
    modal.confirm({
      title,
      content,
      okText,
      cancelText: '取消',
      icon: <ExclamationCircleOutlined />,
      okButtonProps: { danger },
      onOk: async () => {
        if (await run()) void refresh();
      },
    });

  const what = (rows: ContractItem[]) =>
    rows.length === 1 ? `合同 ${rows[0]?.contractNo}` : `所选 ${rows.length} 份合同`;
  const submitRows = (rows: ContractItem[]) =>
    confirm(
      '提交合同',
      `提交${what(rows)}后合同生效，并按付款周期生成应收计划。`,
      '提交',
      () => act(batchSubmitContractCall, { ids: rows.map((r) => r.id) }, CONTRACT_MSG.submitted),
      false,
    );
  const deleteRows = (rows: ContractItem[]) =>
    confirm('删除合同', `确定删除${what(rows)}吗？删除后可在“已删除”中恢复。`, '删除', () =>
      act(batchDeleteContractCall, { ids: rows.map((r) => r.id) }, CONTRACT_MSG.deleted),
    );
  const recoverRows = (rows: ContractItem[]) =>
    confirm(
      '恢复合同',
      `确定恢复${what(rows)}吗？`,
      '恢复',
      () => act(recoverContractCall, { ids: rows.map((r) => r.id) }, CONTRACT_MSG.recovered),
      false,
    );
  const endRows = (rows: ContractItem[]) => {
    const one = rows.length === 1 ? rows[0] : undefined;
    setEnding({
      ids: rows.map((r) => r.id),
      ...(one ? { single: { contractNo: one.contractNo, startDate: one.startDate, endDate: one.endDate } } : {}),
    });
  };
  const needSelection = (fn: (rows: ContractItem[]) => void) => () => {
    if (selected.length === 0) toast('warning', CONTRACT_MSG.chooseContract);
    else fn(selected);
  };

  const fields: SearchField[] = [
    { name: 'contractNo', label: '合同编号', node: <Input allowClear placeholder="合同编号" maxLength={30} /> },
    { name: 'keyword', label: '企业', node: <Input allowClear placeholder="企业名称或税号" maxLength={50} /> },
    {
      name: 'status',
      label: '合同状态',
      node: (
        <Select allowClear placeholder="全部（不含已删除）" options={CONTRACT_STATUS_FILTERS.map((s) => ({ ...s }))} />
      ),
    },
    {
      name: 'contractUserId',
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
    { name: 'period', label: '服务期', node: <DatePicker.RangePicker style={{ width: '100%' }} /> },
    {
      name: 'expireDays',
      label: '到期天数',
      node: (
        <InputNumber
          min={0}
          max={3650}
          precision={0}
          style={{ width: '100%' }}
          placeholder="N 天内到期"
          addonAfter="天内"
        />
      ),
    },
  ];
  const buttons: SearchButton[] = [
    ...(can(['contract:add'])
      ? [
          {
            key: 'add',
            label: '新增合同',
            type: 'primary' as const,
            icon: <PlusOutlined />,
            onClick: () => setFormMode({ kind: 'add' }),
          },
        ]
      : []),
    ...(can(['contract:edit']) ? [{ key: 'submit', label: '批量提交', onClick: needSelection(submitRows) }] : []),
    ...(can(['contract:end']) ? [{ key: 'end', label: '批量终止', onClick: needSelection(endRows) }] : []),
    ...(can(['contract:delete'])
      ? [{ key: 'delete', label: '批量删除', danger: true, onClick: needSelection(deleteRows) }]
      : []),
    ...(can(['contract:recover']) && values.status === '0'
      ? [{ key: 'recover', label: '批量恢复', onClick: needSelection(recoverRows) }]
      : []),
  ];

  // Sized to fit without scrolling at 1440 px (the table gets about 1016 px); the number and operations
  // stay put and a narrower window scrolls between them.
  const columns: ListColumn<ContractItem>[] = [
    {
      title: '合同编号',
      key: 'contractNo',
      width: 124,
      render: (_v: unknown, r: ContractItem) => (
        <Button type="link" size="small" className="dzy-list-name-link" onClick={() => setViewing(r.id)}>
          {r.contractNo}
        </Button>
      ),
    },
    {
      title: '签约企业',
      key: 'qymc',
      width: 184,
      render: (_v: unknown, r: ContractItem) => (
        <div style={{ minWidth: 0 }}>
          <Typography.Text className="dzy-contract-ent" ellipsis={{ tooltip: r.qymc }}>
            {r.qymc}
          </Typography.Text>
          <Typography.Text type="secondary" className="dzy-contract-sub" ellipsis>
            {r.qysh || '无税号'}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '服务项目',
      key: 'serviceNames',
      width: 100,
      render: (_v: unknown, r: ContractItem) => (
        <Typography.Text className="dzy-contract-block" ellipsis={{ tooltip: r.serviceNames }}>
          {r.serviceNames || '—'}
        </Typography.Text>
      ),
    },
    {
      title: '服务期',
      key: 'period',
      width: 104,
      render: (_v: unknown, r: ContractItem) => (
        <div className="dzy-contract-period">
          <div>{r.startDate}</div>
          <div>至 {r.endDate}</div>
        </div>
      ),
    },
    {
      title: '金额（元）',
      key: 'amount',
      width: 104,
      align: 'right' as const,
      render: (_v: unknown, r: ContractItem) => (
        <div>
          <div className="dzy-contract-money">{r.amount}</div>
          <Typography.Text type="secondary" className="dzy-contract-sub">
            已收 {r.paid}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '状态 / 提醒',
      key: 'status',
      width: 140,
      render: (_v: unknown, r: ContractItem) => (
        <div>
          <Space size={4} wrap>
            <StatusTag text={r.statusText} />
            {r.htzt === '2' && r.dqts !== null && r.dqts >= 0 && r.dqts <= 30 && (
              <Typography.Text type="warning" className="dzy-contract-sub">
                剩 {r.dqts} 天
              </Typography.Text>
            )}
          </Space>
          {r.warning && (
            <Typography.Text type="danger" className="dzy-contract-warning" ellipsis={{ tooltip: r.warning }}>
              {r.warning}
            </Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: '负责人',
      key: 'contractUserName',
      width: 80,
      render: (_v: unknown, r: ContractItem) => (
        <Typography.Text className="dzy-contract-block" ellipsis={{ tooltip: r.contractUserName }}>
          {r.contractUserName || '—'}
        </Typography.Text>
      ),
    },
    {
      title: '操作',
      key: 'ops',
      width: 136,
      render: (_v: unknown, r: ContractItem) => {
        const ops: { key: string; label: string; danger?: boolean; on: () => void }[] = [
          { key: 'view', label: '查看', on: () => setViewing(r.id) },
        ];
        if (r.canEdit && r.htzt === '1') {
          if (can(['contract:edit'])) {
            ops.push({ key: 'edit', label: '编辑', on: () => setFormMode({ kind: 'edit', id: r.id }) });
            ops.push({ key: 'submit', label: '提交', on: () => submitRows([r]) });
          }
        }
        if (r.canEdit && r.htzt === '2') {
          if (can(['contract:renew']) && r.renewedById === null)
            ops.push({ key: 'renew', label: '续签', on: () => setFormMode({ kind: 'renew', id: r.id }) });
          if (can(['contract:end'])) ops.push({ key: 'end', label: '终止', danger: true, on: () => endRows([r]) });
        }
        if (r.canEdit && (r.htzt === '1' || r.htzt === '3') && can(['contract:delete']))
          ops.push({ key: 'delete', label: '删除', danger: true, on: () => deleteRows([r]) });
        if (r.canEdit && r.htzt === '0' && can(['contract:recover']))
          ops.push({ key: 'recover', label: '恢复', on: () => recoverRows([r]) });
        return (
          <Space size={0} wrap className="dzy-contract-ops">
            {ops.map((o) => (
              <Button key={o.key} type="link" size="small" danger={o.danger} onClick={o.on}>
                {o.label}
              </Button>
            ))}
            {r.renewedById !== null && (
              <Tooltip title="该合同已续签">
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  已续签
                </Typography.Text>
              </Tooltip>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <div className="dzy-contract-page">
      <SearchBar<SearchValues>
        theme="shrink"
        form={form}
        fields={fields}
        buttons={buttons}
        onSearch={(v) => {
          setValues(v);
          setSelected([]);
          if (JSON.stringify(toFilter(v)) === JSON.stringify(toFilter(values))) void list.refetch();
        }}
      />
      <ListTable<ContractItem>
        card
        pageKey="contract"
        nameKey="contractNo"
        actionKey="ops"
        rowKey="id"
        loading={list.isFetching && !list.isLoading ? { delay: 300 } : list.isLoading}
        columns={columns}
        dataSource={list.data?.list ?? []}
        selection={{ count: selected.length, unit: '份合同', onClear: () => setSelected([]) }}
        rowSelection={{
          selectedRowKeys: selected.map((r) => r.id),
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) => setSelected(rows.filter(Boolean)),
          getCheckboxProps: (r) => ({ disabled: !r.canEdit }),
        }}
        empty="暂无合同"
        pagination={{
          ...list.pagination,
          showQuickJumper: true,
          pageSizeOptions: CONTRACT_PAGE_SIZES.map(String),
        }}
      />

      <ContractFormDialog mode={formMode} onClose={() => setFormMode(null)} onDone={() => void refresh()} />
      <ContractDrawer id={viewing} onClose={() => setViewing(null)} />
      <EndDialog
        target={ending}
        onClose={() => setEnding(null)}
        onOk={async (reason, endDate) => {
          if (!ending) return;
          const ok =
            ending.ids.length === 1 && ending.single
              ? await act(
                  updateContractStatusCall,
                  { id: ending.ids[0] as number, type: '3', reason, ...(endDate ? { endDate } : {}) },
                  CONTRACT_MSG.terminated,
                )
              : await act(batchEndContractCall, { ids: ending.ids, reason }, CONTRACT_MSG.terminated);
          if (ok) {
            setEnding(null);
            void refresh();
          }
        }}
      />
    </div>
  );
}
