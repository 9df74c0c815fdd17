import { DownloadOutlined } from '@ant-design/icons';
import {
  DATA_CONTRACT_STATES,
  DATA_FILING_STATES,
  DATA_LIST_FILES,
  DATA_LIST_PAGE_SIZES,
  type DataListFilter,
  type DataListItem,
  dataListCall,
} from '@dzy/shared';
import { Form, Input, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { SearchBar, type SearchButton, type SearchField } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { usePagedList } from '../../../lib/paging';
import { downloadFile, useAllocateUsers } from '../../customer/api';

type SearchValues = DataListFilter;

function toFilter(v: SearchValues): DataListFilter {
  return Object.fromEntries(
    Object.entries(v).filter(([, x]) => x !== undefined && x !== null && x !== ''),
  ) as DataListFilter;
}

const tagOf = (list: readonly { value: string; label: string; color: string }[], v: string) => {
  const s = list.find((x) => x.value === v);
  return <Tag color={s?.color ?? 'default'}>{s?.label ?? v}</Tag>;
};

/**
 * 数据列表 (/customer/swgl/sjlb): per client its contract state, arrears, this month's filing and open work
 * orders, filtered and exported (docs/decisions-17-content.md).
 */
export function DataListPage() {
  useDocumentTitle('数据列表');
  const can = useHasPerm();
  const [form] = Form.useForm<SearchValues>();
  const [values, setValues] = useState<SearchValues>({});
  const [exporting, setExporting] = useState(false);
  const users = useAllocateUsers();
  const list = usePagedList(dataListCall, toFilter(values), { queryKey: ['data-list'] });
  const month = list.data?.filingMonth ?? '';

  const fields: SearchField[] = [
    { name: 'keyword', label: '企业', node: <Input allowClear placeholder="企业名称或税号" maxLength={50} /> },
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
      name: 'contractState',
      label: '合同状态',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={DATA_CONTRACT_STATES.map((s) => ({ value: s.value, label: s.label }))}
        />
      ),
    },
    {
      name: 'arrears',
      label: '是否欠费',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={[
            { value: 'yes', label: '欠费' },
            { value: 'no', label: '未欠费' },
          ]}
        />
      ),
    },
    {
      name: 'filingState',
      label: '本月申报',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={DATA_FILING_STATES.map((s) => ({ value: s.value, label: s.label }))}
        />
      ),
    },
  ];
  const buttons: SearchButton[] = can(['customer:data:export'])
    ? [
        {
          key: 'export',
          label: exporting ? '正在导出…' : '导出',
          icon: <DownloadOutlined />,
          disabled: exporting,
          onClick: async () => {
            setExporting(true);
            try {
              await downloadFile(DATA_LIST_FILES.export, '数据列表.xlsx', toFilter(values));
            } finally {
              setExporting(false);
            }
          },
        },
      ]
    : [];

  const columns: ListColumn<DataListItem>[] = [
    {
      title: '企业名称',
      key: 'qymc',
      width: 200,
      render: (_v: unknown, r: DataListItem) => (
        <div style={{ minWidth: 0 }}>
          <Typography.Text ellipsis={{ tooltip: r.qymc }} style={{ display: 'block' }}>
            {r.qymc}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.qysh || '无税号'}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '负责人',
      key: 'allocateUserName',
      width: 80,
      render: (_v: unknown, r: DataListItem) => r.allocateUserName || '—',
    },
    {
      title: '合同状态',
      key: 'contractState',
      width: 140,
      render: (_v: unknown, r: DataListItem) => (
        <span>
          {tagOf(DATA_CONTRACT_STATES, r.contractState)}
          {r.contractEnd && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              至 {r.contractEnd}
            </Typography.Text>
          )}
        </span>
      ),
    },
    {
      title: '欠费（元）',
      key: 'arrearsAmount',
      width: 110,
      align: 'right' as const,
      render: (_v: unknown, r: DataListItem) =>
        r.arrearsAmount === '0.00' ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <div>
            <Typography.Text type="danger">{r.arrearsAmount}</Typography.Text>
            <div style={{ fontSize: 12, color: 'rgba(0,0,0,0.45)' }}>
              {r.arrearsMonths > 0 ? `欠费 ${r.arrearsMonths} 个月` : '逾期未满1个月'}
            </div>
          </div>
        ),
    },
    {
      title: month ? `${month} 申报` : '本月申报',
      key: 'filingState',
      width: 140,
      render: (_v: unknown, r: DataListItem) => (
        <span>
          {tagOf(DATA_FILING_STATES, r.filingState)}
          {r.filingTotal > 0 && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.filingPending > 0 ? `未报 ${r.filingPending}/${r.filingTotal}` : `共 ${r.filingTotal} 项`}
            </Typography.Text>
          )}
        </span>
      ),
    },
    {
      title: '未完成工单',
      key: 'openWorkOrders',
      width: 90,
      align: 'right' as const,
      render: (_v: unknown, r: DataListItem) =>
        r.openWorkOrders > 0 ? <Typography.Text strong>{r.openWorkOrders}</Typography.Text> : '0',
    },
  ];

  return (
    <div className="dzy-data-list-page">
      <SearchBar<SearchValues>
        theme="shrink"
        form={form}
        fields={fields}
        buttons={buttons}
        onSearch={(v) => {
          setValues(v);
          if (JSON.stringify(toFilter(v)) === JSON.stringify(toFilter(values))) void list.refetch();
        }}
      />
      <ListTable<DataListItem>
        card
        pageKey="data-list"
        nameKey="qymc"
        rowKey="id"
        loading={list.isFetching && !list.isLoading ? { delay: 300 } : list.isLoading}
        columns={columns}
        dataSource={list.data?.list ?? []}
        empty="暂无客户数据"
        pagination={{ ...list.pagination, showQuickJumper: true, pageSizeOptions: DATA_LIST_PAGE_SIZES.map(String) }}
      />
    </div>
  );
}
