import {
  type KindRow,
  queryStatisticFpXxfpByFppzCall,
  type StatsParty,
  type StatsSlice,
  searchJXxDataCall,
  searchJxppDataCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, DatePicker, Input, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { useDocumentTitle } from '../../../lib/document-title';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { fenText, lastMonth, POOL_KEYS } from '../api';
import { ShareBars, TrendBars } from '../components/charts';
import { ClientSelect } from '../components/client-select';
import { Money } from '../components/invoice-columns';
import '../invoice-pool.css';

/** 发票统计 (/moreModuleCloudInvoice/fptj): the agency's (or one client's) sales and input from the month rollups. */
export function FptjPage() {
  useDocumentTitle('发票统计');
  return (
    <LinkedAgencyGuard>
      <Stats />
    </LinkedAgencyGuard>
  );
}

function Stats() {
  const [aeiId, setAeiId] = useState<number | undefined>();
  const [month, setMonth] = useState(lastMonth());
  const scope = aeiId ? { aeiId } : {};
  const trend = useQuery({
    queryKey: [...POOL_KEYS.stats, 'trend', aeiId, month],
    queryFn: () => call(searchJXxDataCall, { ...scope, month }),
  });
  const parts = useQuery({
    queryKey: [...POOL_KEYS.stats, 'parts', aeiId, month],
    queryFn: () => call(searchJxppDataCall, { ...scope, month }),
  });
  const months = trend.data?.months ?? [];
  const cur = months.at(-1);
  const p = parts.data;
  return (
    <div className="dzy-pool-page">
      <div className="dzy-pool-bar">
        <span>企业</span>
        <ClientSelect
          allowClear
          placeholder="全部企业"
          value={aeiId}
          onChange={(id) => setAeiId(id)}
          testId="tj-client"
        />
        <span>统计月份</span>
        <DatePicker
          picker="month"
          allowClear={false}
          value={dayjs(`${month}-01`)}
          onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
          disabledDate={(d) => d.isAfter(dayjs(), 'month')}
        />
        <Typography.Text type="secondary">数据来自发票池已采集与已开具的发票</Typography.Text>
      </div>
      {trend.isSuccess && months.every((m) => m.xxCount === 0 && m.jxCount === 0) && (
        <Alert
          type="info"
          showIcon
          data-testid="tj-none"
          title="近12个月还没有发票数据"
          description={
            <span>
              统计来自发票池中已采集和已开具的发票。请先到 <Link to="/moreModuleCloudInvoice/fpc">发票池</Link>{' '}
              选择月份和企业，点击「采集」从电子税务局取回发票。
            </span>
          }
        />
      )}
      <div className="dzy-pool-sums" data-testid="tj-sums">
        <Sum label={`${month} 销项金额`} value={fenText(cur?.xxAmount ?? 0)} />
        <Sum label="销项税额" value={fenText(cur?.xxTax ?? 0)} />
        <Sum label="销项发票" value={`${cur?.xxCount ?? 0} 张`} />
        <Sum label="进项金额" value={fenText(cur?.jxAmount ?? 0)} />
        <Sum label="进项税额" value={fenText(cur?.jxTax ?? 0)} />
        <Sum label="已确认进项税额" value={fenText(cur?.deductTax ?? 0)} />
      </div>
      <Card size="small" title="近12个月销项与进项金额" loading={trend.isLoading}>
        <TrendBars
          testId="tj-trend"
          names={['销项金额', '进项金额']}
          points={months.map((m) => ({ label: m.month.slice(2).replace('-', '/'), a: m.xxAmount, b: m.jxAmount }))}
        />
        <Table
          size="small"
          rowKey="month"
          pagination={false}
          scroll={{ x: 900 }}
          dataSource={[...months].reverse()}
          columns={[
            { title: '月份', dataIndex: 'month', key: 'month', width: 90 },
            { title: '销项张数', dataIndex: 'xxCount', key: 'xxCount', width: 90, align: 'right' },
            {
              title: '销项金额',
              key: 'xxAmount',
              width: 130,
              align: 'right',
              render: (_, m) => <Money fen={m.xxAmount} />,
            },
            { title: '销项税额', key: 'xxTax', width: 120, align: 'right', render: (_, m) => <Money fen={m.xxTax} /> },
            { title: '进项张数', dataIndex: 'jxCount', key: 'jxCount', width: 90, align: 'right' },
            {
              title: '进项金额',
              key: 'jxAmount',
              width: 130,
              align: 'right',
              render: (_, m) => <Money fen={m.jxAmount} />,
            },
            { title: '进项税额', key: 'jxTax', width: 120, align: 'right', render: (_, m) => <Money fen={m.jxTax} /> },
            {
              title: '已确认进项税额',
              key: 'deductTax',
              width: 130,
              align: 'right',
              render: (_, m) => <Money fen={m.deductTax} />,
            },
          ]}
        />
      </Card>
      <div className="dzy-pool-grid">
        <SliceCard title={`${month} 销项按税率`} slices={p?.xxByRate ?? []} tone="a" testId="tj-xx-rate" />
        <SliceCard title={`${month} 进项按税率`} slices={p?.jxByRate ?? []} tone="b" testId="tj-jx-rate" />
        <SliceCard title={`${month} 销项专票与普票`} slices={p?.xxByKind ?? []} tone="a" testId="tj-xx-kind" />
        <SliceCard title={`${month} 进项专票与普票`} slices={p?.jxByKind ?? []} tone="b" testId="tj-jx-kind" />
        <PartyCard title={`${month} 主要购买方（销项）`} parties={p?.topBuyers ?? []} testId="tj-buyers" />
        <PartyCard title={`${month} 主要销售方（进项）`} parties={p?.topSellers ?? []} testId="tj-sellers" />
      </div>
      {!aeiId && <ByClient month={month} />}
    </div>
  );
}

function Sum({ label, value }: { label: string; value: string }) {
  return (
    <div className="dzy-pool-sum">
      <span className="dzy-pool-sum-label">{label}</span>
      <span className="dzy-pool-sum-value">{value}</span>
    </div>
  );
}

function SliceCard({
  title,
  slices,
  tone,
  testId,
}: {
  title: string;
  slices: StatsSlice[];
  tone: 'a' | 'b';
  testId: string;
}) {
  return (
    <Card size="small" title={title} data-testid={testId}>
      <ShareBars tone={tone} parts={slices.map((s) => ({ key: s.key, name: s.name, value: s.amount }))} />
      {slices.length > 0 && (
        <Table
          style={{ marginTop: 12 }}
          size="small"
          rowKey="key"
          pagination={false}
          dataSource={slices}
          columns={[
            { title: '类别', dataIndex: 'name', key: 'name', width: 70 },
            { title: '张数', dataIndex: 'count', key: 'count', width: 70, align: 'right' },
            { title: '金额', key: 'amount', align: 'right', render: (_, s) => <Money fen={s.amount} /> },
            { title: '税额', key: 'tax', align: 'right', render: (_, s) => <Money fen={s.tax} /> },
          ]}
        />
      )}
    </Card>
  );
}

function PartyCard({ title, parties, testId }: { title: string; parties: StatsParty[]; testId: string }) {
  return (
    <Card size="small" title={title} data-testid={testId}>
      <Table
        size="small"
        rowKey="taxNo"
        pagination={false}
        dataSource={parties}
        locale={{ emptyText: '暂无数据' }}
        columns={[
          { title: '名称', dataIndex: 'name', key: 'name', ellipsis: true },
          { title: '张数', dataIndex: 'count', key: 'count', width: 60, align: 'right' },
          { title: '价税合计', key: 'total', width: 130, align: 'right', render: (_, r) => <Money fen={r.total} /> },
        ]}
      />
    </Card>
  );
}

function ByClient({ month }: { month: string }) {
  const [keyword, setKeyword] = useState('');
  const [kw, setKw] = useState('');
  const list = usePagedList(
    queryStatisticFpXxfpByFppzCall,
    { month, keyword },
    { queryKey: [...POOL_KEYS.stats, 'kind'] },
  );
  const columns: ListColumn<KindRow>[] = [
    { title: '企业名称', key: 'qymc', dataIndex: 'qymc', width: 220, ellipsis: true },
    { title: '专票张数', key: 'zpCount', dataIndex: 'zpCount', width: 90, align: 'right' },
    { title: '专票金额', key: 'zpAmount', width: 130, align: 'right', render: (_, r) => <Money fen={r.zpAmount} /> },
    { title: '专票税额', key: 'zpTax', width: 120, align: 'right', render: (_, r) => <Money fen={r.zpTax} /> },
    { title: '普票张数', key: 'ppCount', dataIndex: 'ppCount', width: 90, align: 'right' },
    { title: '普票金额', key: 'ppAmount', width: 130, align: 'right', render: (_, r) => <Money fen={r.ppAmount} /> },
    { title: '普票税额', key: 'ppTax', width: 120, align: 'right', render: (_, r) => <Money fen={r.ppTax} /> },
    { title: '进项税额', key: 'jxTax', width: 120, align: 'right', render: (_, r) => <Money fen={r.jxTax} /> },
    {
      title: '已确认进项税额',
      key: 'deductTax',
      width: 130,
      align: 'right',
      render: (_, r) => <Money fen={r.deductTax} />,
    },
  ];
  return (
    <Card
      size="small"
      title={`${month} 各企业销项（按票种）与进项`}
      extra={
        <Input.Search
          allowClear
          size="small"
          placeholder="企业名称或税号"
          style={{ width: 220 }}
          value={kw}
          onChange={(e) => setKw(e.target.value)}
          onSearch={(v) => setKeyword(v.trim())}
        />
      }
    >
      <ListTable<KindRow>
        pageKey="invoice-stats-kind"
        nameKey="qymc"
        rowKey="aeiId"
        size="small"
        loading={list.isLoading}
        columns={columns}
        dataSource={list.data?.list ?? []}
        empty={`${month} 暂无发票数据`}
        pagination={list.pagination}
      />
    </Card>
  );
}
