import { ExportOutlined } from '@ant-design/icons';
import {
  type ChargeFilter,
  type ChargeItem,
  chargeListCall,
  FEE_FILES,
  FEE_MSG,
  FEE_PAGE_SIZES,
  FEE_STATUS,
  type FeeStatus,
  PAY_METHOD_NAMES,
  PAY_METHODS,
  type PayMethod,
  type ReceivableFilter,
  type ReceivableItem,
  receivableListCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Select, Space, Table, type TableProps, Tabs, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useCallback, useMemo, useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable, sortOf } from '../../../components/list-page/list-table';
import { SearchBar, type SearchButton, type SearchField } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { downloadPost, FEE_KEYS, showYuan, useFeeOwners } from '../api';
import { ChargeDialog } from '../components/charge-dialog';
import { FeeStatusTag, ScheduleDrawer } from '../components/schedule-drawer';
import { useRevoke } from '../components/use-revoke';
import '../contract-fee.css';

type Tab = 'receivable' | 'charge';

interface SearchValues {
  keyword?: string;
  contractNo?: string;
  contractUserId?: number;
  feeStatus?: FeeStatus;
  due?: [Dayjs, Dayjs] | null;
  pay?: [Dayjs, Dayjs] | null;
  payMethod?: PayMethod;
  revoked?: '0' | '1';
}

type Sort = { sortField?: string; sortOrder?: 'ascend' | 'descend' };
const DAY = 'YYYY-MM-DD';

function commonFilter(v: SearchValues) {
  const f: { keyword?: string; contractNo?: string; contractUserId?: number } = {};
  if (v.keyword?.trim()) f.keyword = v.keyword.trim();
  if (v.contractNo?.trim()) f.contractNo = v.contractNo.trim();
  if (v.contractUserId) f.contractUserId = v.contractUserId;
  return f;
}

function receivableFilter(v: SearchValues, sort: Sort): ReceivableFilter {
  const f: ReceivableFilter = { ...commonFilter(v) };
  if (v.feeStatus) f.feeStatus = v.feeStatus;
  if (v.due?.[0]) f.dueFrom = v.due[0].format(DAY);
  if (v.due?.[1]) f.dueTo = v.due[1].format(DAY);
  if (sort.sortField) {
    f.sortField = sort.sortField as ReceivableFilter['sortField'];
    f.sortOrder = sort.sortOrder;
  }
  return f;
}

function chargeFilter(v: SearchValues, sort: Sort): ChargeFilter {
  const f: ChargeFilter = { ...commonFilter(v) };
  if (v.pay?.[0]) f.payFrom = v.pay[0].format(DAY);
  if (v.pay?.[1]) f.payTo = v.pay[1].format(DAY);
  if (v.payMethod) f.payMethod = v.payMethod;
  if (v.revoked) f.revoked = v.revoked;
  if (sort.sortField) {
    f.sortField = sort.sortField as ChargeFilter['sortField'];
    f.sortOrder = sort.sortOrder;
  }
  return f;
}

/**
 * The 合计 row (business.md §5) over the shown columns: 合计 in the first, the money totals of the whole
 * filter (computed by the server) in their columns, dashes in every other column from the fifth.
 */
function SummaryRow({ keys, money }: { keys: string[]; money: Record<string, string> }) {
  return (
    <Table.Summary fixed>
      <Table.Summary.Row>
        {keys.map((k, i) => {
          const sum = money[k];
          return (
            <Table.Summary.Cell
              key={k}
              index={i}
              align={sum !== undefined ? 'right' : i === 0 ? 'center' : undefined}
              className={i === 0 || sum !== undefined ? 'dzy-fee-sum' : 'dzy-fee-dash'}
            >
              {i === 0 ? '合计' : sum !== undefined ? showYuan(sum) : i >= 4 ? '-' : ''}
            </Table.Summary.Cell>
          );
        })}
      </Table.Summary.Row>
    </Table.Summary>
  );
}

/** 收费列表 (/contractFee/sfgl/sflb): receivable periods and payments of the agency's contracts. */
export function FeePage() {
  useDocumentTitle('收费列表');
  const can = useHasPerm();
  const queryClient = useQueryClient();
  const owners = useFeeOwners();
  const [tab, setTab] = useState<Tab>('receivable');
  const [receivableForm] = Form.useForm<SearchValues>();
  const [chargeForm] = Form.useForm<SearchValues>();
  const [values, setValues] = useState<Record<Tab, SearchValues>>({ receivable: {}, charge: {} });
  const [sorts, setSorts] = useState<Record<Tab, Sort>>({ receivable: {}, charge: {} });
  const [charging, setCharging] = useState<ReceivableItem | null>(null);
  const [schedule, setSchedule] = useState<number | null>(null);

  const rFilter = useMemo(() => receivableFilter(values.receivable, sorts.receivable), [values, sorts]);
  const cFilter = useMemo(() => chargeFilter(values.charge, sorts.charge), [values, sorts]);
  const receivables = usePagedList(receivableListCall, rFilter, {
    queryKey: [...FEE_KEYS.receivables],
    enabled: tab === 'receivable',
  });
  const charges = usePagedList(chargeListCall, cFilter, {
    queryKey: [...FEE_KEYS.charges],
    enabled: tab === 'charge',
  });
  const list = tab === 'receivable' ? receivables : charges;
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: FEE_KEYS.all }), [queryClient]);
  const revoke = useRevoke(() => void refresh());

  // A new filter starts at page 1 (usePagedList); the same one searched again is read again.
  const search = (v: SearchValues) => {
    const same = JSON.stringify(v) === JSON.stringify(values[tab]);
    if (same) void list.refetch();
    else setValues((all) => ({ ...all, [tab]: v }));
  };

  const exportTab = async () => {
    const body = tab === 'receivable' ? { tab, ...rFilter } : { tab, ...cFilter };
    const ok = await downloadPost(FEE_FILES.export, '收费列表.xlsx', body);
    if (ok) toast('success', FEE_MSG.exported);
  };

  // --- search bar -----------------------------------------------------------------------------

  const ownerSelect = (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder="全部"
      options={(owners.data ?? []).map((o) => ({ value: o.userId, label: o.hymc }))}
    />
  );
  const common: SearchField[] = [
    { name: 'keyword', label: '企业', node: <Input allowClear placeholder="企业名称或税号" maxLength={50} /> },
    { name: 'contractNo', label: '合同编号', node: <Input allowClear placeholder="合同编号" maxLength={30} /> },
  ];
  const receivableFields: SearchField[] = [
    ...common,
    {
      name: 'feeStatus',
      label: '收款状态',
      node: (
        <Select allowClear placeholder="全部" options={FEE_STATUS.map((s) => ({ value: s.value, label: s.label }))} />
      ),
    },
    { name: 'due', label: '应收日期', node: <DatePicker.RangePicker style={{ width: '100%' }} /> },
    { name: 'contractUserId', label: '合同负责人', node: ownerSelect },
  ];
  const chargeFields: SearchField[] = [
    ...common,
    {
      name: 'payMethod',
      label: '收款方式',
      node: <Select allowClear placeholder="全部" options={PAY_METHODS.map((m) => ({ ...m }))} />,
    },
    {
      name: 'pay',
      label: '收款日期',
      node: <DatePicker.RangePicker style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs(), 'day')} />,
    },
    { name: 'contractUserId', label: '合同负责人', node: ownerSelect },
    {
      name: 'revoked',
      label: '记录状态',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={[
            { value: '0', label: '有效' },
            { value: '1', label: '已撤销' },
          ]}
        />
      ),
    },
  ];
  const buttons: SearchButton[] = can(['fee:export'])
    ? [{ key: 'export', label: '导出', icon: <ExportOutlined />, onClick: () => void exportTab() }]
    : [];

  // --- tables ---------------------------------------------------------------------------------

  const sortOrderOf = (field: string) => (sorts[tab].sortField === field ? (sorts[tab].sortOrder ?? null) : null);
  const index = (i: number) => (list.pageNo - 1) * list.pageSize + i + 1;
  const enterpriseCell = (
    r: { qymc: string; qysh: string; contractId: number; contractNo: string; contractUserName: string },
    sub?: string,
  ) => (
    <div title={r.qysh ? `税号：${r.qysh}` : undefined}>
      <Button type="link" className="dzy-fee-link" onClick={() => setSchedule(r.contractId)}>
        {r.qymc}
      </Button>
      <div className="dzy-fee-sub">
        合同 {r.contractNo}
        {sub ? ` · ${sub}` : ''}
        {r.contractUserName ? ` · ${r.contractUserName}` : ''}
      </div>
    </div>
  );
  const money = { width: 96, align: 'right' as const, sorter: true };

  const receivableColumns: ListColumn<ReceivableItem>[] = [
    { title: '序号', key: 'no', width: 56, align: 'center', render: (_, _r, i) => index(i) },
    { title: '企业名称 / 合同 / 负责人', key: 'qymc', width: 220, render: (_, r) => enterpriseCell(r) },
    {
      title: '应收日期 / 账期',
      dataIndex: 'dueDate',
      key: 'dueDate',
      width: 150,
      sorter: true,
      sortOrder: sortOrderOf('dueDate'),
      render: (v: string, r) => (
        <div>
          <div>{v}</div>
          <div className="dzy-fee-sub">
            第{r.periodNo}期 · 至 {r.periodEnd}
          </div>
        </div>
      ),
    },
    {
      title: '应收金额',
      dataIndex: 'amount',
      key: 'amount',
      ...money,
      sortOrder: sortOrderOf('amount'),
      render: showYuan,
    },
    { title: '已收金额', dataIndex: 'paid', key: 'paid', ...money, sortOrder: sortOrderOf('paid'), render: showYuan },
    {
      title: '未收金额',
      dataIndex: 'unpaid',
      key: 'unpaid',
      ...money,
      sortOrder: sortOrderOf('unpaid'),
      render: (v: string) => (v === '0.00' ? showYuan(v) : <span className="dzy-fee-unpaid">{showYuan(v)}</span>),
    },
    {
      title: '收款状态',
      key: 'feeStatus',
      dataIndex: 'feeStatus',
      width: 88,
      render: (v: string) => <FeeStatusTag status={v} />,
    },
    {
      title: '欠费月数',
      key: 'qfys',
      dataIndex: 'qfys',
      width: 84,
      align: 'center',
      // The enterprise's months in arrears, shown on the periods still owing.
      render: (v: number, r) =>
        v > 0 && r.feeStatus !== 'paid' ? <Typography.Text type="danger">{v}</Typography.Text> : '—',
    },
    {
      title: '操作',
      key: 'op',
      width: 120,
      render: (_, r) => (
        <Space size={0}>
          {can(['fee:charge:add']) && r.editable && r.feeStatus !== 'paid' && (
            <Button type="link" size="small" onClick={() => setCharging(r)}>
              登记收款
            </Button>
          )}
          <Button type="link" size="small" onClick={() => setSchedule(r.contractId)}>
            明细
          </Button>
        </Space>
      ),
    },
  ];

  const chargeColumns: ListColumn<ChargeItem>[] = [
    { title: '序号', key: 'no', width: 56, align: 'center', render: (_, _r, i) => index(i) },
    {
      title: '收款日期',
      dataIndex: 'payDate',
      key: 'payDate',
      width: 104,
      sorter: true,
      sortOrder: sortOrderOf('payDate') ?? (sorts.charge.sortField ? null : 'descend'),
    },
    { title: '企业名称 / 合同', key: 'qymc', width: 220, render: (_, r) => enterpriseCell(r, `第${r.periodNo}期`) },
    {
      title: '收款方式',
      key: 'payMethod',
      dataIndex: 'payMethod',
      width: 80,
      render: (v: string) => PAY_METHOD_NAMES[v] ?? v,
    },
    {
      title: '收款金额',
      dataIndex: 'amount',
      key: 'amount',
      ...money,
      width: 104,
      sortOrder: sortOrderOf('amount'),
      render: (v: string, r) => (r.revoked ? <span className="dzy-fee-struck">{showYuan(v)}</span> : showYuan(v)),
    },
    { title: '付款人', key: 'payer', dataIndex: 'payer', width: 104, ellipsis: true },
    { title: '收据编号', key: 'receiptNo', dataIndex: 'receiptNo', width: 104, ellipsis: true },
    {
      title: '登记人',
      key: 'operator',
      width: 110,
      render: (_, r) => (
        <div>
          <div>{r.operatorName || '—'}</div>
          <div className="dzy-fee-sub">{dayjs(r.createdAt).format('YYYY-MM-DD HH:mm')}</div>
        </div>
      ),
    },
    {
      title: '状态',
      key: 'state',
      width: 68,
      render: (_, r) =>
        r.revoked ? (
          <div>
            <Tag>已撤销</Tag>
            <div className="dzy-fee-sub">{r.revokedByName}</div>
          </div>
        ) : (
          <Tag color="success">有效</Tag>
        ),
    },
    {
      title: '操作',
      key: 'op',
      width: 64,
      render: (_, r) =>
        can(['fee:charge:delete']) && r.editable ? (
          <Button type="link" size="small" danger onClick={() => revoke(r)}>
            撤销
          </Button>
        ) : null,
    },
  ];

  // Page moves go through the pagination (usePagedList); a new sort is part of the filter, so page 1.
  const onTableChange =
    (which: Tab): TableProps<never>['onChange'] =>
    (_pg, _filters, sorter, extra) => {
      if (extra.action !== 'sort') return;
      const s = sortOf(sorter);
      setSorts((all) => ({ ...all, [which]: s.field ? { sortField: s.field, sortOrder: s.order } : {} }));
    };

  const pagination = { ...list.pagination, showQuickJumper: true, pageSizeOptions: FEE_PAGE_SIZES.map(String) };

  const rData = receivables.data;
  const cData = charges.data;
  const loading = (q: { isFetching: boolean; isLoading: boolean }) =>
    q.isFetching && !q.isLoading ? { delay: 300 } : q.isLoading;

  return (
    <div>
      <div className="dzy-card dzy-fee-tabs">
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as Tab)}
          items={[
            { key: 'receivable', label: '应收' },
            { key: 'charge', label: '收款记录' },
          ]}
        />
      </div>
      {tab === 'receivable' ? (
        <SearchBar<SearchValues>
          key="receivable"
          theme="shrink"
          form={receivableForm}
          fields={receivableFields}
          buttons={buttons}
          onSearch={search}
        />
      ) : (
        <SearchBar<SearchValues>
          key="charge"
          theme="shrink"
          form={chargeForm}
          fields={chargeFields}
          buttons={buttons}
          onSearch={search}
        />
      )}
      <div className="dzy-card dzy-fee-card">
        {tab === 'receivable' ? (
          <ListTable<ReceivableItem>
            pageKey="fee-receivable"
            nameKey="qymc"
            actionKey="op"
            className="dzy-fee-table"
            rowKey="id"
            loading={loading(receivables)}
            columns={receivableColumns}
            dataSource={rData?.list ?? []}
            empty="暂无应收记录"
            onChange={onTableChange('receivable') as TableProps<ReceivableItem>['onChange']}
            pagination={pagination}
            summary={(keys) =>
              rData && rData.total > 0 ? (
                <SummaryRow
                  keys={keys}
                  money={{ amount: rData.totals.amount, paid: rData.totals.paid, unpaid: rData.totals.unpaid }}
                />
              ) : null
            }
          />
        ) : (
          <ListTable<ChargeItem>
            pageKey="fee-charge"
            nameKey="qymc"
            actionKey="op"
            className="dzy-fee-table"
            rowKey="id"
            loading={loading(charges)}
            columns={chargeColumns}
            dataSource={cData?.list ?? []}
            rowClassName={(r) => (r.revoked ? 'dzy-fee-revoked' : '')}
            empty="暂无收款记录"
            onChange={onTableChange('charge') as TableProps<ChargeItem>['onChange']}
            pagination={pagination}
            summary={(keys) =>
              cData && cData.total > 0 ? <SummaryRow keys={keys} money={{ amount: cData.totals.amount }} /> : null
            }
          />
        )}
      </div>

      <ChargeDialog period={charging} onClose={() => setCharging(null)} onDone={() => void refresh()} />
      <ScheduleDrawer
        contractId={schedule}
        onClose={() => setSchedule(null)}
        onCharge={(p) => setCharging(p)}
        onChanged={() => void refresh()}
      />
    </div>
  );
}
