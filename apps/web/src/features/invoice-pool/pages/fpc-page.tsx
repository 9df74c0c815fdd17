import { CloudDownloadOutlined } from '@ant-design/icons';
import {
  BENEFIT_MENU,
  INVOICE_POOL_MSG,
  latestPoolRunCall,
  POOL_INVOICE_STATE_NAMES,
  POOL_INVOICE_STATES,
  type PoolInvoice,
  type PoolInvoiceState,
  poolClientsCall,
  queryFpJxfpCall,
  queryFpXxfpCall,
  sendTaskToFpPoolCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Input, Radio, Select, Space, Tabs, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { ListTable } from '../../../components/list-page/list-table';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { useEquityGate } from '../../customer/components/equity-gate';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { fenText, lastMonth, POOL_KEYS, runDone, useInvoiceRun } from '../api';
import { ClientSelect } from '../components/client-select';
import { invoiceColumns } from '../components/invoice-columns';
import { FailDialog, RunProgress } from '../components/run-progress';
import '../invoice-pool.css';

/** 发票池 (/moreModuleCloudInvoice/fpc): collect a month for chosen or all clients, then the invoices collected. */
export function FpcPage() {
  useDocumentTitle('发票池');
  return (
    <LinkedAgencyGuard>
      <Pool />
    </LinkedAgencyGuard>
  );
}

function ClientsSelect({ value, onChange }: { value: number[]; onChange: (ids: number[]) => void }) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({
    queryKey: ['invoice-pool', 'clients', keyword],
    queryFn: () => call(poolClientsCall, { keyword, pageNo: 1, pageSize: 50 }),
    staleTime: 30_000,
  });
  return (
    <Select
      mode="multiple"
      data-testid="pool-clients"
      showSearch
      filterOption={false}
      onSearch={(v) => setKeyword(v.trim())}
      placeholder="选择企业（可多选）"
      style={{ minWidth: 320, maxWidth: 520 }}
      maxTagCount="responsive"
      value={value}
      onChange={(v: number[]) => onChange(v)}
      options={(q.data?.list ?? []).map((c) => ({ value: c.id, label: c.qymc }))}
      notFoundContent={q.isFetching ? '加载中…' : '没有符合条件的企业'}
    />
  );
}

function Pool() {
  const can = useHasPerm();
  const gate = useEquityGate();
  const qc = useQueryClient();
  const [month, setMonth] = useState(lastMonth());
  const [scope, setScope] = useState<'all' | 'selected'>('all');
  const [chosen, setChosen] = useState<number[]>([]);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [failOpen, setFailOpen] = useState(false);
  const shownFailures = useRef<string>('');
  /** The run started (or retried) on this page: its failures open the dialog when it ends. */
  const followed = useRef<string>('');

  const latest = useQuery({
    queryKey: [...POOL_KEYS.run, 'latest'],
    queryFn: () => call(latestPoolRunCall, { kind: 'collect' }),
  });
  useEffect(() => {
    if (taskId === null && latest.data?.taskId) setTaskId(latest.data.taskId);
  }, [latest.data, taskId]);
  const run = useInvoiceRun(taskId).data ?? null;
  const done = runDone(run);
  // A run that ends with failures opens the dialog once (and the list refreshes).
  useEffect(() => {
    if (!run || !done) return;
    void qc.invalidateQueries({ queryKey: POOL_KEYS.xx });
    void qc.invalidateQueries({ queryKey: POOL_KEYS.jx });
    const key = `${run.taskId}:${run.completeNum}:${run.failNum}`;
    if (run.fail.length > 0 && shownFailures.current !== key && followed.current === run.taskId) {
      shownFailures.current = key;
      setFailOpen(true);
    }
  }, [run, done, qc]);

  const start = async () => {
    if (scope === 'selected' && chosen.length === 0) {
      toast('warning', INVOICE_POOL_MSG.chooseEnterprise);
      return;
    }
    // The chosen clients pass the benefit check (权益) first; 全部企业 is checked by the server.
    if (scope === 'selected') return gate(BENEFIT_MENU.invoiceCollect, chosen, (ids) => collect(ids));
    return collect([]);
  };

  const collect = async (ids: number[]) => {
    setStarting(true);
    try {
      const r = await call(sendTaskToFpPoolCall, { month, scope, aeiIds: ids });
      if (!r) return;
      const left = r.blocked.length + r.noQysh.length;
      toast(
        'success',
        `已开始采集 ${r.total} 户企业 ${r.month} 的发票${left > 0 ? `（${left} 户未采集：合同限制或无税号）` : ''}`,
      );
      shownFailures.current = '';
      followed.current = r.taskId;
      setTaskId(r.taskId);
      void qc.invalidateQueries({ queryKey: [...POOL_KEYS.run, 'latest'] });
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className="dzy-pool-page">
      <div className="dzy-pool-bar">
        <span>采集月份</span>
        <DatePicker
          picker="month"
          allowClear={false}
          value={dayjs(`${month}-01`)}
          onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
          disabledDate={(d) => d.isAfter(dayjs(), 'month') || d.isBefore(dayjs('2020-01-01'))}
          data-testid="pool-month"
        />
        <Radio.Group value={scope} onChange={(e) => setScope(e.target.value)} optionType="button">
          <Radio.Button value="all">全部企业</Radio.Button>
          <Radio.Button value="selected">所选企业</Radio.Button>
        </Radio.Group>
        {scope === 'selected' && <ClientsSelect value={chosen} onChange={setChosen} />}
        <span className="dzy-pool-spacer" />
        {can(['invoice:pool:collect']) && (
          <Button
            type="primary"
            icon={<CloudDownloadOutlined />}
            loading={starting}
            disabled={Boolean(run && !done)}
            onClick={start}
            data-testid="pool-collect"
          >
            采集
          </Button>
        )}
      </div>
      {run && <RunProgress run={run} onShowFailures={() => setFailOpen(true)} />}
      {run && (
        <FailDialog
          run={run}
          open={failOpen}
          onClose={() => setFailOpen(false)}
          canRetry={can(['invoice:pool:collect'])}
          onRetried={(id) => {
            setFailOpen(false);
            followed.current = id;
            setTaskId(id);
            void qc.invalidateQueries({ queryKey: [...POOL_KEYS.run, id] });
          }}
        />
      )}
      <PoolLists month={month} />
    </div>
  );
}

interface ListFilter {
  aeiId?: number | undefined;
  fplx?: 'zp' | 'pp' | undefined;
  state?: PoolInvoiceState | undefined;
  keyword: string;
}

function PoolLists({ month }: { month: string }) {
  const [tab, setTab] = useState<'xx' | 'jx'>('xx');
  const [f, setF] = useState<ListFilter>({ keyword: '' });
  const [kw, setKw] = useState('');
  return (
    <div className="dzy-pool-bar" style={{ display: 'block' }}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as 'xx' | 'jx')}
        items={[
          { key: 'xx', label: '销项发票' },
          { key: 'jx', label: '进项发票' },
        ]}
      />
      <Space wrap style={{ marginBottom: 12 }}>
        <ClientSelect
          allowClear
          placeholder="全部企业"
          value={f.aeiId}
          onChange={(id) => setF({ ...f, aeiId: id })}
          testId="pool-list-client"
        />
        <Select
          allowClear
          placeholder="票种"
          style={{ width: 110 }}
          value={f.fplx}
          onChange={(v) => setF({ ...f, fplx: v })}
          options={[
            { value: 'zp', label: '专票' },
            { value: 'pp', label: '普票' },
          ]}
        />
        <Select
          allowClear
          placeholder="发票状态"
          style={{ width: 120 }}
          value={f.state}
          onChange={(v) => setF({ ...f, state: v })}
          options={POOL_INVOICE_STATES.map((s) => ({ value: s, label: POOL_INVOICE_STATE_NAMES[s] }))}
        />
        <Input.Search
          allowClear
          placeholder={tab === 'xx' ? '购买方名称、税号或发票号码' : '销售方名称、税号或发票号码'}
          style={{ width: 280 }}
          value={kw}
          onChange={(e) => setKw(e.target.value)}
          onSearch={(v) => setF({ ...f, keyword: v.trim() })}
        />
      </Space>
      {tab === 'xx' ? (
        <InvoiceList kind="xx" month={month} filter={f} />
      ) : (
        <InvoiceList kind="jx" month={month} filter={f} />
      )}
    </div>
  );
}

function InvoiceList({ kind, month, filter }: { kind: 'xx' | 'jx'; month: string; filter: ListFilter }) {
  const def = kind === 'xx' ? queryFpXxfpCall : queryFpJxfpCall;
  const body = {
    month,
    keyword: filter.keyword,
    ...(filter.aeiId ? { aeiId: filter.aeiId } : {}),
    ...(filter.fplx ? { fplx: filter.fplx } : {}),
    ...(filter.state ? { state: filter.state } : {}),
  };
  const list = usePagedList(def, body, { queryKey: [...(kind === 'xx' ? POOL_KEYS.xx : POOL_KEYS.jx)] });
  const sums = list.data?.sums;
  return (
    <>
      <div className="dzy-pool-listsums">
        <Typography.Text type="secondary" data-testid={`pool-${kind}-sums`}>
          {month} 共 {list.total} 张，金额 {fenText(sums?.amount ?? 0)}，税额 {fenText(sums?.tax ?? 0)}，价税合计{' '}
          {fenText(sums?.total ?? 0)}
        </Typography.Text>
      </div>
      <ListTable<PoolInvoice>
        pageKey={`invoice-pool-${kind}`}
        nameKey="qymc"
        rowKey="id"
        size="small"
        loading={list.isLoading}
        columns={invoiceColumns(kind === 'xx' ? '购买方' : '销售方', true)}
        dataSource={list.data?.list ?? []}
        empty={`${month} 暂无已采集的${kind === 'xx' ? '销项' : '进项'}发票，请先采集`}
        pagination={list.pagination}
      />
    </>
  );
}
