import { CheckSquareOutlined } from '@ant-design/icons';
import {
  BENEFIT_MENU,
  INVOICE_POOL_MSG,
  inputConfirmV3Call,
  insertOrUpdateBatchFpJxfpZpCall,
  POOL_DEDUCT_STATE_NAMES,
  POOL_DEDUCT_STATES,
  POOL_RATE_NAMES,
  type PoolDeductState,
  type PoolInvoice,
  selectFpJxfpZpDetailListCall,
  selectFpJxfpZpListCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Descriptions, Drawer, Empty, Input, Select, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { useEquityGate } from '../../customer/components/equity-gate';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { fenText, POOL_KEYS, runDone, thisMonth, useInvoiceRun } from '../api';
import { ClientSelect } from '../components/client-select';
import { DeductTag, invoiceColumns, Money } from '../components/invoice-columns';
import { RunProgress } from '../components/run-progress';
import '../invoice-pool.css';

/** 进项发票 (/moreModuleCloudInvoice/jxfp): a client's input invoices of a period, 勾选 and 用途确认. */
export function JxfpPage() {
  useDocumentTitle('进项发票');
  return (
    <LinkedAgencyGuard>
      <Input_ />
    </LinkedAgencyGuard>
  );
}

function Sum({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div className="dzy-pool-sum" data-testid={testId}>
      <span className="dzy-pool-sum-label">{label}</span>
      <span className="dzy-pool-sum-value">{value}</span>
    </div>
  );
}

interface Filter {
  deductState?: PoolDeductState | undefined;
  fplx?: 'zp' | 'pp' | undefined;
  keyword: string;
}

function Input_() {
  const { modal } = App.useApp();
  const can = useHasPerm();
  const gate = useEquityGate();
  const qc = useQueryClient();
  const [aeiId, setAeiId] = useState<number | undefined>();
  const [name, setName] = useState('');
  const [ssq, setSsq] = useState(thisMonth());
  const [f, setF] = useState<Filter>({ keyword: '' });
  const [kw, setKw] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [detail, setDetail] = useState<PoolInvoice | null>(null);

  const body = {
    aeiId: aeiId ?? 0,
    ssq,
    keyword: f.keyword,
    ...(f.deductState ? { deductState: f.deductState } : {}),
    ...(f.fplx ? { fplx: f.fplx } : {}),
  };
  const list = usePagedList(selectFpJxfpZpListCall, body, { queryKey: [...POOL_KEYS.input], enabled: Boolean(aeiId) });
  const data = aeiId ? list.data : undefined;
  const confirmed = Boolean(data?.confirmed);
  const canTick = can(['invoice:input:confirm']) && !confirmed;

  // The period's latest confirmation run (when the list says so), followed until it ends.
  useEffect(() => {
    setTaskId(data?.taskId ?? null);
  }, [data?.taskId]);
  const run = useInvoiceRun(taskId).data ?? null;
  const runEnded = runDone(run);
  useEffect(() => {
    if (runEnded) void qc.invalidateQueries({ queryKey: POOL_KEYS.input });
  }, [runEnded, qc]);

  const refresh = () => {
    setChosen([]);
    void qc.invalidateQueries({ queryKey: POOL_KEYS.input });
  };

  // 勾选 and 用途确认 ask the benefit check (权益) of the client first.
  const tick = (gx: boolean, all: boolean) => {
    if (!aeiId) return;
    if (!all && chosen.length === 0) {
      toast('warning', '请先勾选发票');
      return;
    }
    return gate(BENEFIT_MENU.invoiceInput, [aeiId], () => sendTick(gx, all));
  };

  const sendTick = async (gx: boolean, all: boolean) => {
    if (!aeiId) return;
    setBusy(true);
    try {
      const r = await call(insertOrUpdateBatchFpJxfpZpCall, {
        aeiId,
        ssq,
        gx,
        ids: all ? [] : chosen,
        all,
        keyword: f.keyword,
        ...(all && f.deductState ? { deductState: f.deductState } : {}),
        ...(all && f.fplx ? { fplx: f.fplx } : {}),
      });
      if (r) {
        const what = gx ? '勾选' : '取消勾选';
        toast(
          r.failNum > 0 ? 'warning' : 'success',
          `${what}成功 ${r.okNum} 张${r.failNum > 0 ? `，失败 ${r.failNum} 张：${r.fail[0]?.msg ?? ''}` : ''}`,
        );
        refresh();
      }
    } finally {
      setBusy(false);
    }
  };

  const confirm = () => {
    if (!aeiId || !data) return;
    return gate(BENEFIT_MENU.invoiceInput, [aeiId], askConfirm);
  };

  const askConfirm = () => {
    if (!aeiId || !data) return;
    modal.confirm({
      title: '确认用途',
      content: `确认 ${name} ${ssq} 所属期已勾选的 ${data.sums.selectedCount} 张发票用于抵扣，税额合计 ${fenText(data.sums.selectedTax)} 元？确认后本所属期不能再勾选。`,
      okText: '确认',
      cancelText: '取消',
      onOk: async () => {
        const r = await call(inputConfirmV3Call, { aeiIds: [aeiId], ssq });
        if (r) {
          toast('success', '已提交用途确认，正在后台处理');
          setTaskId(r.taskId);
        }
      },
    });
  };

  const columns: ListColumn<PoolInvoice>[] = [
    ...invoiceColumns('销售方', false).map((c) =>
      c.key === 'fphm'
        ? {
            ...c,
            render: (_: unknown, r: PoolInvoice) => (
              <Typography.Link onClick={() => setDetail(r)} data-testid={`jx-${r.fphm}`}>
                {r.fphm}
              </Typography.Link>
            ),
          }
        : c,
    ),
    { title: '勾选状态', key: 'deductState', width: 100, render: (_, r) => <DeductTag state={r.deductState} /> },
    { title: '所属期', key: 'deductPeriod', dataIndex: 'deductPeriod', width: 90 },
  ];

  const tickable = (r: PoolInvoice) =>
    (r.deductState === 'none' && r.fplx === 'zp' && r.state === 'normal') || r.deductState === 'selected';

  return (
    <div className="dzy-pool-page">
      <div className="dzy-pool-bar">
        <span>企业</span>
        <ClientSelect
          value={aeiId}
          onChange={(id, n) => {
            setAeiId(id);
            setName(n);
            setChosen([]);
          }}
          testId="jx-client"
        />
        <span>所属期</span>
        <DatePicker
          picker="month"
          allowClear={false}
          value={dayjs(`${ssq}-01`)}
          onChange={(d) => {
            if (d) setSsq(d.format('YYYY-MM'));
            setChosen([]);
          }}
          disabledDate={(d) => d.isAfter(dayjs(), 'month')}
        />
        <Select
          allowClear
          placeholder="勾选状态"
          style={{ width: 120 }}
          value={f.deductState}
          onChange={(v) => setF({ ...f, deductState: v })}
          options={POOL_DEDUCT_STATES.map((s) => ({ value: s, label: POOL_DEDUCT_STATE_NAMES[s] }))}
        />
        <Select
          allowClear
          placeholder="票种"
          style={{ width: 100 }}
          value={f.fplx}
          onChange={(v) => setF({ ...f, fplx: v })}
          options={[
            { value: 'zp', label: '专票' },
            { value: 'pp', label: '普票' },
          ]}
        />
        <Input.Search
          allowClear
          placeholder="销售方名称、税号或发票号码"
          style={{ width: 260 }}
          value={kw}
          onChange={(e) => setKw(e.target.value)}
          onSearch={(v) => setF({ ...f, keyword: v.trim() })}
        />
      </div>
      {!aeiId ? (
        <div className="dzy-pool-bar" style={{ justifyContent: 'center', padding: 48 }}>
          <Empty description="请选择企业，查看其所属期的进项发票与勾选状态" />
        </div>
      ) : (
        <>
          <div className="dzy-pool-sums">
            <Sum label="发票份数" value={data?.sums.count ?? 0} />
            <Sum label="已勾选" value={`${data?.sums.selectedCount ?? 0} 张`} testId="jx-selected-count" />
            <Sum label="已勾选税额" value={fenText(data?.sums.selectedTax ?? 0)} testId="jx-selected-tax" />
            <Sum label="已确认税额" value={fenText(data?.sums.confirmedTax ?? 0)} testId="jx-confirmed-tax" />
            <Sum label="可抵扣税额合计" value={fenText(data?.sums.deductibleTax ?? 0)} testId="jx-deductible-tax" />
            <Sum label="所属期状态" value={confirmed ? '已确认' : '未确认'} testId="jx-period-state" />
          </div>
          {run && <RunProgress run={run} />}
          <ListTable<PoolInvoice>
            card
            pageKey="invoice-input"
            nameKey="fphm"
            rowKey="id"
            size="small"
            loading={list.isLoading}
            columns={columns}
            dataSource={data?.list ?? []}
            empty={`${ssq} 暂无进项发票，请先在发票池采集`}
            pagination={list.pagination}
            rowSelection={
              canTick
                ? {
                    selectedRowKeys: chosen,
                    onChange: (keys) => setChosen(keys.map(Number)),
                    getCheckboxProps: (r) => ({ disabled: !tickable(r) }),
                  }
                : undefined
            }
            selection={{ count: chosen.length, unit: '张发票', onClear: () => setChosen([]) }}
            extra={
              can(['invoice:input:confirm']) ? (
                <Space>
                  <Button disabled={!canTick} loading={busy} onClick={() => tick(true, false)} data-testid="jx-tick">
                    勾选
                  </Button>
                  <Button disabled={!canTick} loading={busy} onClick={() => tick(false, false)}>
                    取消勾选
                  </Button>
                  <Button disabled={!canTick} loading={busy} onClick={() => tick(true, true)} data-testid="jx-tick-all">
                    全部勾选
                  </Button>
                  <Button
                    type="primary"
                    icon={<CheckSquareOutlined />}
                    disabled={confirmed || !data || data.sums.selectedCount === 0 || Boolean(run && !runEnded)}
                    onClick={confirm}
                    data-testid="jx-confirm"
                  >
                    确认
                  </Button>
                </Space>
              ) : undefined
            }
          />
          {confirmed && <Typography.Text type="secondary">{INVOICE_POOL_MSG.periodConfirmed}</Typography.Text>}
        </>
      )}
      <DetailDrawer invoice={detail} onClose={() => setDetail(null)} />
    </div>
  );
}

function DetailDrawer({ invoice, onClose }: { invoice: PoolInvoice | null; onClose: () => void }) {
  const q = useQuery({
    queryKey: [...POOL_KEYS.input, 'detail', invoice?.id],
    queryFn: () => call(selectFpJxfpZpDetailListCall, { aeiId: invoice?.aeiId ?? 0, id: invoice?.id ?? 0 }),
    enabled: Boolean(invoice),
  });
  return (
    <Drawer title="发票明细" open={Boolean(invoice)} onClose={onClose} size="large">
      {invoice && (
        <>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label="发票号码">{invoice.fphm}</Descriptions.Item>
            <Descriptions.Item label="开票日期">{invoice.kprq}</Descriptions.Item>
            <Descriptions.Item label="销售方">{invoice.cpName}</Descriptions.Item>
            <Descriptions.Item label="销售方税号">{invoice.cpTaxNo}</Descriptions.Item>
            <Descriptions.Item label="金额">
              <Money fen={invoice.amount} />
            </Descriptions.Item>
            <Descriptions.Item label="税额">
              <Money fen={invoice.tax} />
            </Descriptions.Item>
          </Descriptions>
          <Table
            style={{ marginTop: 16 }}
            size="small"
            rowKey="xh"
            pagination={false}
            loading={q.isLoading}
            dataSource={q.data?.lines ?? []}
            scroll={{ x: 760 }}
            columns={[
              { title: '项目名称', dataIndex: 'spmc', key: 'spmc', width: 200 },
              { title: '税收分类编码', dataIndex: 'ssflbm', key: 'ssflbm', width: 170 },
              { title: '数量', dataIndex: 'sl', key: 'sl', width: 70 },
              { title: '单价', dataIndex: 'dj', key: 'dj', width: 80 },
              { title: '金额', key: 'amount', width: 100, align: 'right', render: (_, l) => fenText(l.amount) },
              { title: '税率', key: 'rate', width: 60, render: (_, l) => POOL_RATE_NAMES[l.rate] ?? l.rate },
              { title: '税额', key: 'tax', width: 90, align: 'right', render: (_, l) => fenText(l.tax) },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
