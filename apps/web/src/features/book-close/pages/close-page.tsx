import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import {
  type BookRunRow,
  batchCloseCall,
  batchCloseReportCall,
  CJS_RATE_NAMES,
  CJS_RATES,
  type CjsRate,
  type CloseRow,
  type CloseState,
  closeBookCall,
  closeListCall,
  fenToYuanText,
  reopenBookCall,
  TRANSFER_NAMES,
  type TransferKind,
  transferCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Input,
  List,
  Modal,
  Progress,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { useChosenBook } from '../../books/api';
import { BookChooser } from '../../books/components/book-chooser';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { useCloseState, useRunRate } from '../api';
import { ProposalsPanel } from '../components/proposals-panel';
import '../book-close.css';

const yuan = (fen: number) => `${fenToYuanText(fen)} 元`;

/** 期末结账 (/account/close): one book's period end, batch close, and documents to vouchers. */
export function ClosePage() {
  useDocumentTitle('期末结账');
  return (
    <LinkedAgencyGuard>
      <div className="dzy-close-page">
        <Tabs
          className="dzy-close-tabs"
          items={[
            { key: 'one', label: '期末结转与结账', children: <OneBook /> },
            { key: 'batch', label: '批量结账', children: <BatchClose /> },
            { key: 'docs', label: '单据生成凭证', children: <DocsToVouchers /> },
          ]}
        />
      </div>
    </LinkedAgencyGuard>
  );
}

function OneBook() {
  const [bookId, setBookId] = useChosenBook();
  const [cjsRate, setCjsRate] = useState<CjsRate | undefined>(undefined);
  const state = useCloseState(bookId, cjsRate);
  const s = state.data ?? null;
  return (
    <div className="dzy-close-body">
      <div className="dzy-close-bar">
        <Space wrap>
          <BookChooser bookId={bookId} onChange={setBookId} />
          {s ? (
            <Typography.Text type="secondary">
              当前期间 <strong data-testid="close-period">{s.currentPeriod}</strong>
              {s.closedPeriods.length > 0 ? `（已结账至 ${s.closedPeriods[s.closedPeriods.length - 1]}）` : ''}
            </Typography.Text>
          ) : null}
        </Space>
        <Space>
          <span>城建税税率</span>
          <Select<CjsRate>
            style={{ width: 160 }}
            value={cjsRate ?? ((s?.surtax.cjsRate ?? 7) as CjsRate)}
            onChange={setCjsRate}
            options={CJS_RATES.map((r) => ({ value: r, label: CJS_RATE_NAMES[r] }))}
          />
        </Space>
      </div>
      {!bookId ? (
        <div className="dzy-close-empty">
          <Empty description="请选择要结账的账套" />
        </div>
      ) : s ? (
        <CloseBody s={s} cjsRate={cjsRate} />
      ) : (
        <Card loading={state.isLoading} />
      )}
    </div>
  );
}

function CloseBody({ s, cjsRate }: { s: CloseState; cjsRate: CjsRate | undefined }) {
  const can = useHasPerm();
  const qc = useQueryClient();
  const { modal } = App.useApp();
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = (data: CloseState | null) => {
    if (data) qc.setQueryData(['busi/qmJz/state', s.bookId, cjsRate], data);
    void qc.invalidateQueries();
  };
  const transfer = async (kind: TransferKind) => {
    setBusy(kind);
    try {
      const data = await call(transferCall, { bookId: s.bookId, kind, ...(cjsRate ? { cjsRate } : {}) });
      const step = data?.steps.find((x) => x.kind === kind);
      toast(
        'success',
        step?.voucherNo ? `已生成${TRANSFER_NAMES[kind]}凭证 ${step.voucherNo}` : `本期无需${TRANSFER_NAMES[kind]}`,
      );
      refresh(data);
    } finally {
      setBusy(null);
    }
  };
  const close = async () => {
    setBusy('close');
    try {
      const data = await call(closeBookCall, { bookId: s.bookId });
      toast('success', `${s.currentPeriod}结账成功`);
      refresh(data);
    } finally {
      setBusy(null);
    }
  };
  const reopen = () => {
    const last = s.closedPeriods[s.closedPeriods.length - 1];
    modal.confirm({
      title: '反结账',
      content: `确定反结账${last}吗？反结账后该期间可以修改凭证，需重新结账。`,
      okText: '反结账',
      onOk: async () => {
        const data = await call(reopenBookCall, { bookId: s.bookId });
        toast('success', `已反结账${last}`);
        refresh(data);
      },
    });
  };
  const st = s.surtax;
  const it = s.incomeTax;
  return (
    <div className="dzy-close-grid">
      <Card title={`第一步 期末结转（${s.period}）`} size="small">
        <List
          dataSource={s.steps}
          renderItem={(step) => (
            <List.Item
              data-testid={`step-${step.kind}`}
              actions={[
                can(['account:close:run']) ? (
                  <Button
                    key="go"
                    type={step.voucherId ? 'default' : 'primary'}
                    loading={busy === step.kind}
                    onClick={() => void transfer(step.kind)}
                  >
                    {step.voucherId ? '重新生成' : '生成凭证'}
                  </Button>
                ) : null,
              ]}
            >
              <List.Item.Meta
                title={
                  <Space>
                    {step.name}
                    {step.voucherId ? <Tag color="green">已生成 {step.voucherNo}</Tag> : <Tag>未生成</Tag>}
                  </Space>
                }
                description={
                  step.kind === 'surtax'
                    ? `本期应交增值税 ${yuan(st.vat)}：城建税 ${yuan(st.cjs)}，教育费附加 ${yuan(st.edu)}，地方教育附加 ${yuan(st.localEdu)}，合计 ${yuan(st.total)}${st.halved ? '（小规模纳税人减半征收）' : ''}${st.eduExempt && st.vat > 0 ? '（月销售额不超过10万元，免征教育费附加、地方教育附加）' : ''}`
                    : step.kind === 'incomeTax'
                      ? `季末可选：本年累计利润总额 ${yuan(it.profit)}，${it.smallMicro ? '小型微利企业（实际税负5%）' : '税率25%'}，本年应纳 ${yuan(it.cumTax)}，已计提 ${yuan(it.accrued)}，本期应计提 ${yuan(it.tax)}`
                      : step.kind === 'yearEnd'
                        ? `年末将本年利润余额 ${yuan(s.yearProfit)} 结转至利润分配—未分配利润（先结转损益）`
                        : `损益类科目结转至本年利润，本期利润 ${yuan(s.profit)}${step.voucherId ? `，凭证金额 ${yuan(step.voucherTotal)}` : ''}`
                }
              />
            </List.Item>
          )}
        />
      </Card>
      <Card title="第二步 结账检查" size="small">
        <List
          dataSource={s.checks}
          renderItem={(c) => (
            <List.Item data-testid={`check-${c.key}`}>
              <Space align="start">
                {c.ok ? (
                  <CheckCircleFilled style={{ color: 'var(--ant-color-success, #52c41a)' }} />
                ) : (
                  <CloseCircleFilled style={{ color: 'var(--ant-color-error, #ff4d4f)' }} />
                )}
                <span>{c.label}</span>
                {c.ok ? null : <Typography.Text type="danger">{c.msg}</Typography.Text>}
              </Space>
            </List.Item>
          )}
        />
      </Card>
      <Card title="第三步 结账" size="small">
        <Descriptions size="small" column={1}>
          <Descriptions.Item label="账套">{s.qymc}</Descriptions.Item>
          <Descriptions.Item label="启用期间">{s.startPeriod}</Descriptions.Item>
          <Descriptions.Item label="已结账期间">
            {s.closedPeriods.length ? s.closedPeriods.join('、') : '无'}
          </Descriptions.Item>
        </Descriptions>
        <Space style={{ marginTop: 12 }}>
          {can(['account:close:run']) ? (
            <Button
              type="primary"
              disabled={!s.canClose}
              loading={busy === 'close'}
              onClick={() => void close()}
              data-testid="close-book"
            >
              结账 {s.currentPeriod}
            </Button>
          ) : null}
          {can(['account:close:reverse']) && s.closedPeriods.length > 0 ? (
            <Button danger onClick={reopen}>
              反结账 {s.closedPeriods[s.closedPeriods.length - 1]}
            </Button>
          ) : null}
        </Space>
        {!s.canClose ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            结账检查全部通过后才能结账。
          </Typography.Paragraph>
        ) : null}
      </Card>
    </div>
  );
}

const STATE_TAGS: Record<CloseRow['state'], [string, string]> = {
  closed: ['已结账', 'green'],
  open: ['未结账', 'blue'],
  early: ['前期未结账', 'orange'],
  future: ['期间已过', 'default'],
};

function BatchClose() {
  const can = useHasPerm();
  const [period, setPeriod] = useState(dayjs().subtract(1, 'month').format('YYYY-MM'));
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [runId, setRunId] = useState<string | null>(null);
  const list = usePagedList(closeListCall, { period, ...(keyword ? { keyword } : {}) });
  const columns: ListColumn<CloseRow>[] = [
    { key: 'qymc', title: '企业名称', width: 260, dataIndex: 'qymc', ellipsis: true },
    { key: 'qysh', title: '税号', width: 190, dataIndex: 'qysh' },
    { key: 'currentPeriod', title: '当前期间', width: 100, dataIndex: 'currentPeriod' },
    {
      key: 'state',
      title: `${period} 状态`,
      width: 120,
      render: (_: unknown, r: CloseRow) => <Tag color={STATE_TAGS[r.state][1]}>{STATE_TAGS[r.state][0]}</Tag>,
    },
    { key: 'vouchers', title: '本期凭证数', width: 110, dataIndex: 'vouchers', align: 'right' },
  ];
  const start = async () => {
    const data = await call(batchCloseCall, { period, bookIds: selected });
    if (data) {
      setRunId(data.runId);
      setSelected([]);
    }
  };
  return (
    <div className="dzy-close-body">
      <div className="dzy-close-bar">
        <Space wrap>
          <DatePicker
            picker="month"
            allowClear={false}
            value={dayjs(`${period}-01`)}
            onChange={(d) => d && setPeriod(d.format('YYYY-MM'))}
          />
          <Input.Search
            allowClear
            placeholder="企业名称或税号"
            style={{ width: 240 }}
            onSearch={(v) => setKeyword(v.trim())}
          />
        </Space>
        {can(['account:close:batch']) ? (
          <Button
            type="primary"
            disabled={selected.length === 0}
            onClick={() => void start()}
            data-testid="batch-close"
          >
            批量结账{selected.length ? `（${selected.length}）` : ''}
          </Button>
        ) : null}
      </div>
      <ListTable
        card
        pageKey="book-close-batch"
        rowKey="id"
        nameKey="qymc"
        size="small"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isLoading}
        pagination={list.pagination}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (k) => setSelected(k.map(Number)),
          getCheckboxProps: (r: CloseRow) => ({ disabled: r.state === 'closed' || r.state === 'future' }),
        }}
        selection={{ count: selected.length, unit: '个账套', onClear: () => setSelected([]) }}
        empty={<Empty description="没有已建账的企业，请先在账套管理中建账" />}
      />
      {runId ? <RunDialog runId={runId} onClose={() => setRunId(null)} /> : null}
    </div>
  );
}

function RunDialog({ runId, onClose }: { runId: string; onClose: () => void }) {
  const rate = useRunRate(runId);
  const qc = useQueryClient();
  const [filter, setFilter] = useState<'failed' | 'ok' | undefined>(undefined);
  const r = rate.data;
  const running = !r || r.state === 'running';
  const report = usePagedList(
    batchCloseReportCall,
    { runId, ...(filter ? { state: filter } : {}) },
    { queryKey: [batchCloseReportCall.path, r?.completeNum ?? 0] },
  );
  return (
    <Modal
      open
      width={760}
      title="批量结账"
      onCancel={() => {
        void qc.invalidateQueries();
        onClose();
      }}
      footer={
        <Button
          type="primary"
          onClick={() => {
            void qc.invalidateQueries();
            onClose();
          }}
        >
          {running ? '后台运行' : '完成'}
        </Button>
      }
    >
      <Progress percent={r?.rate ?? 0} status={running ? 'active' : r?.failNum ? 'exception' : 'success'} />
      <Space style={{ margin: '8px 0' }} data-testid="run-summary">
        <span>共 {r?.totalNum ?? 0} 户</span>
        <Typography.Text type="success">成功 {r?.successNum ?? 0}</Typography.Text>
        <Typography.Text type="danger">不能结账 {r?.failNum ?? 0}</Typography.Text>
        {running ? <Typography.Text type="secondary">处理中…</Typography.Text> : null}
      </Space>
      <Select
        style={{ width: 140, marginBottom: 8, display: 'block' }}
        value={filter ?? 'all'}
        onChange={(v) => setFilter(v === 'all' ? undefined : (v as 'failed' | 'ok'))}
        options={[
          { value: 'all', label: '全部' },
          { value: 'failed', label: '不能结账' },
          { value: 'ok', label: '成功' },
        ]}
      />
      <Table<BookRunRow>
        size="small"
        rowKey="id"
        dataSource={report.data?.list ?? []}
        pagination={report.pagination}
        columns={[
          { key: 'qymc', title: '企业名称', dataIndex: 'qymc', width: 240, ellipsis: true },
          {
            key: 'state',
            title: '结果',
            width: 90,
            render: (_: unknown, x) =>
              x.state === 'ok' ? (
                <Tag color="green">成功</Tag>
              ) : x.state === 'failed' ? (
                <Tag color="red">不能结账</Tag>
              ) : (
                <Tag>等待中</Tag>
              ),
          },
          { key: 'msg', title: '说明', dataIndex: 'msg' },
        ]}
      />
    </Modal>
  );
}

function DocsToVouchers() {
  const [bookId, setBookId] = useChosenBook();
  return (
    <div className="dzy-close-body">
      <div className="dzy-close-bar">
        <BookChooser bookId={bookId} onChange={setBookId} />
      </div>
      {bookId ? (
        <ProposalsPanel bookId={bookId} />
      ) : (
        <div className="dzy-close-empty">
          <Empty description="请选择账套" />
        </div>
      )}
    </div>
  );
}
