import {
  confirmPlanCall,
  FILING_BATCH_MSG,
  FILING_WIZARD_STORAGE_KEY,
  GRSDS_INCOME_MONTH_MIN,
  grsdsIncomeMonthMax,
  grsdsSsqOfIncomeMonth,
  type IitDiff,
  type ReportRow,
  runDeleteCall,
  runReportCall,
  saveSbqcCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Button, DatePicker, Empty, Progress, Space, Steps, Table, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { formatMoney } from '../../../lib/money';
import { call } from '../../../lib/request';
import { BATCH_KEYS } from '../api';
import { runDone, useRunRate } from '../use-run';
import { showLeftOut } from './left-out';
import { ProgressBall, RateFigures } from './progress-ball';
import type { FollowedRun } from './run-ball';

/** What the wizard keeps across a reload while a generation runs (FILING_WIZARD_STORAGE_KEY). */
interface Stored {
  redisKey: string;
  planId: number;
  ssq: string;
}

function readStored(): Stored | null {
  try {
    const raw = window.localStorage.getItem(FILING_WIZARD_STORAGE_KEY);
    const v = raw ? (JSON.parse(raw) as Stored) : null;
    return v && typeof v.redisKey === 'string' && typeof v.planId === 'number' ? v : null;
  } catch {
    return null;
  }
}
const writeStored = (v: Stored | null) => {
  try {
    if (v) window.localStorage.setItem(FILING_WIZARD_STORAGE_KEY, JSON.stringify(v));
    else window.localStorage.removeItem(FILING_WIZARD_STORAGE_KEY);
  } catch {
    // storage disabled: the wizard just does not resume
  }
};

/** Whether a generation of the wizard is stored (the roster shows the ball again after a reload). */
export const wizardStored = () => readStored() !== null;

const today = () => dayjs().format('YYYY-MM-DD');

/** The changes from the copied month: 人数 and 工资 differences, per client (details in the tooltip). */
export function DiffText({ diff }: { diff: IitDiff | null }) {
  if (!diff) return <span className="dzy-plan-sub">—</span>;
  if (!diff.fromSsq) return <span className="dzy-batch-diff">无往期申报，按人员信息生成</span>;
  const parts: string[] = [];
  parts.push(diff.rs === diff.fromRs ? `人数不变（${diff.rs}人）` : `人数 ${diff.fromRs}→${diff.rs}`);
  if (diff.added.length) parts.push(`新增${diff.added.length}人`);
  if (diff.removed.length) parts.push(`减少${diff.removed.length}人`);
  if (diff.changed.length) parts.push(`工资变动${diff.changed.length}人`);
  const details = [
    ...diff.added.map((p) => `新增 ${p.xm} ${formatMoney(p.sre)}`),
    ...diff.removed.map((p) => `减少 ${p.xm} ${formatMoney(p.sre)}`),
    ...diff.changed.map((p) => `${p.xm} ${formatMoney(p.from)} → ${formatMoney(p.to)}`),
  ];
  return (
    <Tooltip
      title={details.length ? <div style={{ whiteSpace: 'pre-line' }}>{details.join('\n')}</div> : undefined}
      placement="topLeft"
    >
      <span className="dzy-batch-diff" data-testid="iit-diff">
        复制{diff.fromSsq}：{parts.join('，')}
      </span>
    </Tooltip>
  );
}

function ReportTable({ rows, fail, loading }: { rows: ReportRow[]; fail?: boolean; loading: boolean }) {
  return (
    <Table<ReportRow>
      size="small"
      rowKey={(r) => `${r.aeiId}-${r.itemId ?? ''}`}
      dataSource={rows}
      loading={loading}
      pagination={rows.length > 10 ? { pageSize: 10, size: 'small', showSizeChanger: false } : false}
      scroll={{ x: fail ? 680 : 870 }}
      locale={{
        emptyText: (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={fail ? '没有失败的企业' : '没有成功的企业'} />
        ),
      }}
      columns={[
        { title: '企业名称', dataIndex: 'qymcSh', key: 'qymcSh', width: 220, fixed: 'left' as const },
        {
          title: '状态',
          dataIndex: 'state_text',
          key: 'state_text',
          width: 90,
          render: (v: string) => <Tag color={fail ? 'error' : 'success'}>{v}</Tag>,
        },
        {
          title: '说明',
          dataIndex: 'message',
          key: 'message',
          width: 140,
          render: (v: string) => <span className={fail ? 'dzy-plan-msg' : undefined}>{v || '—'}</span>,
        },
        {
          title: '收入总额',
          dataIndex: 'srze',
          key: 'srze',
          width: 110,
          align: 'right',
          render: (v: string) => <span className="dzy-plan-money">{formatMoney(v)}</span>,
        },
        {
          title: '应补(退)税额',
          dataIndex: 'ybtse',
          key: 'ybtse',
          width: 110,
          align: 'right',
          render: (v: string) => <span className="dzy-plan-money">{formatMoney(v)}</span>,
        },
        ...(fail
          ? []
          : [
              {
                title: '与复制月份相比',
                key: 'diff',
                width: 200,
                render: (_: unknown, r: ReportRow) => <DiffText diff={r.diff} />,
              },
            ]),
      ]}
    />
  );
}

/**
 * 个税批量申报 (tax-bureau.md §2, §4 batch wizard): 1 the 所属期 month → 2 generating (polled about every
 * 2.5 s until success + fail = total; the dialog shrinks to a ball) → 3 success and failure tables with
 * the changes from the copied month, 确认申报. Cancel or close resets to step 1 and deletes the stored
 * progress key (localStorage and deleteYcsGsZcxzWqsjJSON: a running generation stops, the plan is
 * cancelled). Reopening during a generation resumes it.
 */
export function GrsdsWizard({
  open,
  onClose,
  onFiling,
}: {
  open: boolean;
  onClose: () => void;
  /** 确认申报 started a file run: the page follows it. */
  onFiling: (run: FollowedRun) => void;
}) {
  const { modal } = App.useApp();
  const max = grsdsIncomeMonthMax(today());
  const [stored, setStored] = useState<Stored | null>(() => readStored());
  // The picker is the 所得月份 (spec §5: up to two months before now); the plan is for its 税款所属期.
  const [incomeMonth, setIncomeMonth] = useState(max);
  const ssq = grsdsSsqOfIncomeMonth(incomeMonth);
  const [shrunk, setShrunk] = useState(false);
  const [busy, setBusy] = useState(false);
  const rate = useRunRate(stored?.redisKey ?? null);
  const r = rate.data;
  const done = runDone(r);
  const step = !stored ? 0 : done ? 2 : 1;
  const report = useQuery({
    queryKey: [...BATCH_KEYS.report, stored?.redisKey],
    queryFn: () => call(runReportCall, { redisKey: stored?.redisKey ?? '' }),
    enabled: Boolean(stored) && done,
  });

  // Opened again: a stored generation resumes (another tab may have started or ended one).
  useEffect(() => {
    if (open) setStored(readStored());
  }, [open]);
  // A stored key the server no longer knows (another browser cancelled it): back to step 1.
  useEffect(() => {
    if (stored && rate.isError) {
      writeStored(null);
      setStored(null);
    }
  }, [stored, rate.isError]);

  const reset = (stopServer: boolean) => {
    const key = stored?.redisKey;
    writeStored(null);
    setStored(null);
    setShrunk(false);
    if (stopServer && key) void call(runDeleteCall, { redisKey: key }, { handle: 'all' }).catch(() => null);
  };
  const close = () => {
    reset(true);
    onClose();
  };

  const generate = async () => {
    setBusy(true);
    try {
      const res = await call(saveSbqcCall, { filingMonth: ssq, kind: 'grsds', scope: 'all', aeiIds: [], taxTypes: [] });
      if (!res) return;
      const next = { redisKey: res.redisKey, planId: res.planId, ssq };
      writeStored(next);
      setStored(next);
      if (res.blocked.length > 0 || res.noQysh.length > 0) showLeftOut(modal, res);
    } catch {
      // told by the request client
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    if (!stored) return;
    const ids = (report.data?.success ?? []).map((x) => x.itemId).filter((x): x is number => x !== null);
    if (ids.length === 0) return;
    setBusy(true);
    try {
      const res = await call(confirmPlanCall, { planId: stored.planId, itemIds: ids, lateNotice: true });
      if (!res) return;
      toast('success', FILING_BATCH_MSG.confirmStarted);
      const run: FollowedRun = { redisKey: res.redisKey, planId: stored.planId, kind: 'file' };
      reset(false);
      onClose();
      onFiling(run);
    } catch {
      // told by the request client
    } finally {
      setBusy(false);
    }
  };

  const success = report.data?.success ?? [];
  const fail = report.data?.fail ?? [];
  const footer =
    step === 0 ? (
      <Space>
        <Button onClick={close}>取消</Button>
        <Button type="primary" loading={busy} onClick={() => void generate()} data-testid="wizard-generate">
          下一步
        </Button>
      </Space>
    ) : step === 1 ? (
      <Space>
        <Button onClick={close}>取消</Button>
        <Button onClick={() => setShrunk(true)}>后台运行</Button>
      </Space>
    ) : (
      <Space>
        <Button onClick={close}>取消</Button>
        <Button
          type="primary"
          loading={busy}
          disabled={success.length === 0}
          onClick={() => void confirm()}
          data-testid="wizard-confirm"
        >
          确认申报{success.length > 0 ? `（${success.length}户）` : ''}
        </Button>
      </Space>
    );

  return (
    <ProgressBall
      open={open || Boolean(stored && shrunk)}
      shrunk={shrunk && step > 0}
      shrinkable={step > 0}
      onShrink={() => setShrunk(true)}
      onExpand={() => setShrunk(false)}
      onClose={close}
      title="个税批量申报"
      percent={r ? (done ? 100 : Math.min(99, r.rate)) : 0}
      done={done}
      wide={step === 2}
      wideWidth="min(1200px, 94vw)"
      width={720}
      footer={footer}
      testId="grsds-wizard"
    >
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 24 }}
        items={[{ title: '选择所得月份' }, { title: '生成申报数据' }, { title: '核对并申报' }]}
      />
      {step === 0 && (
        <div className="dzy-batch-progress">
          <Space size={8} wrap>
            <span>所得月份</span>
            <DatePicker
              picker="month"
              allowClear={false}
              value={dayjs(`${incomeMonth}-01`)}
              onChange={(v) => v && setIncomeMonth(v.format('YYYY-MM'))}
              disabledDate={(d) =>
                d.isBefore(dayjs(`${GRSDS_INCOME_MONTH_MIN}-01`), 'month') || d.isAfter(dayjs(`${max}-01`), 'month')
              }
              data-testid="wizard-ssq"
            />
            <span className="dzy-plan-sub" data-testid="wizard-ssq-of">
              税款所属期 {ssq}（次月发放工资）
            </span>
          </Space>
          <Typography.Text type="secondary" className="dzy-batch-hint">
            为您负责的全部企业生成该所属期的个人所得税（工资薪金）申报数据：复制最近一次已申报月份的人员和工资，
            生成后先核对人数和工资的变化，确认后才提交到电子税务局。
          </Typography.Text>
        </div>
      )}
      {step === 1 && (
        <div className="dzy-batch-progress" data-testid="wizard-progress">
          <Typography.Text>
            所属期 <b>{stored?.ssq}</b>，正在逐户取数……
          </Typography.Text>
          <Progress percent={r ? Math.min(99, r.rate) : 0} status="active" />
          {r && <RateFigures rate={r} />}
          <Typography.Text type="secondary" className="dzy-batch-hint">
            可缩小为悬浮球继续其他工作，双击悬浮球展开；取消将停止生成。
          </Typography.Text>
        </div>
      )}
      {step === 2 && (
        <div data-testid="wizard-result">
          {r && <RateFigures rate={r} />}
          <div className="dzy-batch-section">
            <div className="dzy-batch-section-title">
              成功 <Tag color="success">{success.length}</Tag>
              <Typography.Text type="secondary" className="dzy-batch-hint">
                应补(退)税额为预估，申报后以税务局计算为准
              </Typography.Text>
            </div>
            <ReportTable rows={success} loading={report.isLoading} />
          </div>
          <div className="dzy-batch-section">
            <div className="dzy-batch-section-title">
              失败 <Tag color="error">{fail.length}</Tag>
            </div>
            <ReportTable rows={fail} fail loading={report.isLoading} />
          </div>
        </div>
      )}
    </ProgressBall>
  );
}
