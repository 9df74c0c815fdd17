import { ExportOutlined } from '@ant-design/icons';
import {
  ANNUAL_FILING_TYPES,
  currentFilingMonth,
  FILING_FILES,
  FILING_MONTH_MIN,
  FILING_STATE_COLORS,
  FILING_STATE_NAMES,
  FILING_STATES,
  FILING_TAX_TYPE_NAMES,
  FILING_TAX_TYPE_SHORT,
  type FilingScheduleRow,
  type FilingState,
  type FilingTaxType,
  filingMonthMax,
  filingOverviewCall,
  filingScheduleCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Progress, Space, Table, type TableProps, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link, useSearchParams } from 'react-router';
import { useHasPerm } from '../../../components/auth';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { downloadPost } from '../../contract-fee/api';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { FILING_KEYS, type RosterQuery, rosterLink } from '../api';
import { useFilingSync } from '../use-filing-sync';
import '../filing.css';

/** 申报概览 (/declare/sbgl): the month's returns by tax type and state, and each staff member's progress. */
export function OverviewPage() {
  useDocumentTitle('申报概览');
  return (
    <LinkedAgencyGuard>
      <OverviewBody />
    </LinkedAgencyGuard>
  );
}

/** A number that opens the roster filtered to it (0 is shown plain). */
function Num({ n, to, testId }: { n: number; to: RosterQuery; testId?: string }) {
  if (n === 0) return <span className="dzy-filing-zero">0</span>;
  return (
    <Link to={rosterLink(to)} className="dzy-filing-num" data-testid={testId}>
      {n}
    </Link>
  );
}

type MatrixRow = { taxType: FilingTaxType | 'sum'; byState: Record<FilingState, number>; total: number };

function OverviewBody() {
  const can = useHasPerm();
  const [params, setParams] = useSearchParams();
  const raw = params.get('filingMonth');
  const month = raw && /^\d{4}-(0[1-9]|1[0-2])$/.test(raw) ? raw : currentFilingMonth();
  // A sync under way (started here or on the roster) is followed: every 3 s and pushed.
  const sync = useFilingSync();
  const overview = useQuery({
    queryKey: [...FILING_KEYS.overview, month],
    queryFn: () => call(filingOverviewCall, { filingMonth: month }),
  });
  const schedule = useQuery({
    queryKey: [...FILING_KEYS.schedule, month],
    queryFn: () => call(filingScheduleCall, { filingMonth: month }),
  });
  const o = overview.data;
  const s = schedule.data;

  const matrixRows: MatrixRow[] = o
    ? [
        // An annual item with nothing due this month (outside May and June) is left out; the recurring
        // types stay, 无需申报 included, so the month's shape is visible.
        ...o.rows.filter(
          (r) =>
            !(ANNUAL_FILING_TYPES as readonly string[]).includes(r.taxType) ||
            Object.entries(r.byState).some(([st, n]) => st !== 'wxsb' && n > 0),
        ),
        {
          taxType: 'sum',
          byState: o.byState,
          total: Object.values(o.byState).reduce((a, b) => a + b, 0),
        },
      ]
    : [];
  const matrixColumns: TableProps<MatrixRow>['columns'] = [
    {
      title: '税种',
      key: 'taxType',
      fixed: 'left',
      width: 112,
      render: (_, r) =>
        r.taxType === 'sum' ? (
          <b>合计</b>
        ) : (
          <span title={FILING_TAX_TYPE_NAMES[r.taxType]}>{FILING_TAX_TYPE_SHORT[r.taxType]}</span>
        ),
    },
    ...FILING_STATES.map((st) => ({
      title: <Tag color={FILING_STATE_COLORS[st]}>{FILING_STATE_NAMES[st]}</Tag>,
      key: st,
      width: 80,
      align: 'center' as const,
      render: (_: unknown, r: MatrixRow) => (
        <Num
          n={r.byState[st]}
          to={{ filingMonth: month, state: st, ...(r.taxType === 'sum' ? {} : { taxType: r.taxType }) }}
          testId={`matrix-${r.taxType}-${st}`}
        />
      ),
    })),
    {
      title: '合计',
      key: 'total',
      width: 64,
      align: 'center',
      render: (_, r) => (
        <Num n={r.total} to={{ filingMonth: month, ...(r.taxType === 'sum' ? {} : { taxType: r.taxType }) }} />
      ),
    },
  ];

  const staffTo = (r: FilingScheduleRow, extra: RosterQuery = {}): RosterQuery =>
    r.userName === '合计' ? { filingMonth: month, ...extra } : { filingMonth: month, allocateUser: r.userId, ...extra };
  const progress = (r: FilingScheduleRow) => (
    <Progress
      percent={r.percent}
      size="small"
      status={r.percent === 100 ? 'success' : r.overdueNum > 0 ? 'exception' : 'active'}
      format={(p) => `${p}%`}
    />
  );
  const scheduleColumns: TableProps<FilingScheduleRow>['columns'] = [
    {
      title: '负责人 / 申报进度',
      key: 'userName',
      fixed: 'left',
      width: 164,
      render: (_, r) => (
        <div className="dzy-filing-staff">
          <div>{r.userName}</div>
          {progress(r)}
        </div>
      ),
    },
    {
      title: '客户数',
      key: 'clientNum',
      width: 60,
      align: 'center',
      render: (_, r) => <Num n={r.clientNum} to={staffTo(r)} />,
    },
    { title: '应申报', key: 'dueNum', dataIndex: 'dueNum', width: 60, align: 'center' },
    { title: '已申报', key: 'filedNum', dataIndex: 'filedNum', width: 60, align: 'center' },
    {
      title: '已缴款',
      key: 'paidNum',
      width: 60,
      align: 'center',
      render: (_, r) => <Num n={r.paidNum} to={staffTo(r, { state: 'yjk' })} />,
    },
    {
      title: '待缴款',
      key: 'unpaid',
      width: 60,
      align: 'center',
      render: (_, r) => <Num n={r.filedNum - r.paidNum} to={staffTo(r, { state: 'ysb' })} />,
    },
    {
      title: '未申报',
      key: 'unfiledNum',
      width: 60,
      align: 'center',
      render: (_, r) => <Num n={r.unfiledNum - r.overdueNum} to={staffTo(r, { state: 'wsb' })} />,
    },
    {
      title: '逾期',
      key: 'overdueNum',
      width: 56,
      align: 'center',
      render: (_, r) => (
        <span className={r.overdueNum > 0 ? 'dzy-filing-overdue' : undefined}>
          <Num n={r.overdueNum} to={staffTo(r, { state: 'yqwsb' })} />
        </span>
      ),
    },
  ];

  const exportSchedule = async () => {
    const ok = await downloadPost(FILING_FILES.scheduleExport, `申报进度_${month}.xlsx`, { filingMonth: month });
    if (ok) toast('success', '已导出');
  };

  return (
    <div className="dzy-filing-page">
      <div className="dzy-filing-head">
        <div className="dzy-filing-head-row">
          <Space size={8} wrap>
            <span className="dzy-filing-label">申报月份</span>
            <DatePicker
              picker="month"
              allowClear={false}
              value={dayjs(`${month}-01`)}
              onChange={(v) => v && setParams(new URLSearchParams({ filingMonth: v.format('YYYY-MM') }))}
              disabledDate={(d) =>
                d.isBefore(dayjs(`${FILING_MONTH_MIN}-01`), 'month') ||
                d.isAfter(dayjs(`${filingMonthMax(dayjs().format('YYYY-MM-DD'))}-01`), 'month')
              }
            />
            {o && (
              <Typography.Text type="secondary">
                客户 {o.clientNum} 户，已同步 {o.syncedNum} 户
                {o.syncedNum < o.clientNum && (
                  <>
                    ，<Link to={rosterLink({ filingMonth: month })}>去申报清册同步</Link>
                  </>
                )}
              </Typography.Text>
            )}
          </Space>
          {sync.running && sync.rate && (
            <div className="dzy-filing-mini-progress">
              <span>同步中</span>
              <Progress percent={sync.rate.rate} size="small" status="active" />
            </div>
          )}
        </div>
      </div>
      <Card variant="borderless" title="申报概览" className="dzy-filing-section">
        <Table<MatrixRow>
          rowKey="taxType"
          size="small"
          loading={overview.isLoading}
          columns={matrixColumns}
          dataSource={matrixRows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          rowClassName={(r) => (r.taxType === 'sum' ? 'dzy-filing-sum' : '')}
          locale={{ emptyText: '本月暂无申报数据，请先在申报清册中同步申报状态' }}
        />
      </Card>
      <Card
        variant="borderless"
        title="申报进度"
        className="dzy-filing-section"
        extra={
          can(['declare:overview:view']) ? (
            <Button icon={<ExportOutlined />} onClick={() => void exportSchedule()}>
              导出
            </Button>
          ) : null
        }
      >
        <Table<FilingScheduleRow>
          rowKey={(r) => (r.userName === '合计' ? 'sum' : r.userId)}
          size="small"
          loading={schedule.isLoading}
          columns={scheduleColumns}
          dataSource={s ? [...s.list, s.sum] : []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          rowClassName={(r) => (r.userName === '合计' ? 'dzy-filing-sum' : '')}
          locale={{ emptyText: '暂无数据' }}
        />
      </Card>
    </div>
  );
}
