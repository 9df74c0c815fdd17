import { ExportOutlined, PauseCircleOutlined, SyncOutlined } from '@ant-design/icons';
import {
  currentFilingMonth,
  FILING_FILES,
  FILING_MONTH_MIN,
  FILING_MSG,
  FILING_PAGE_SIZES,
  FILING_STATE_COLORS,
  FILING_STATE_NAMES,
  FILING_STATES,
  FILING_TAX_TYPE_NAMES,
  FILING_TAX_TYPE_SHORT,
  FILING_TAX_TYPES,
  type FilingCell,
  type FilingRow,
  type FilingState,
  type FilingSyncStartReply,
  type FilingTaxType,
  filingCountsCall,
  filingMonthMax,
  filingRosterCall,
  filingScheduleCall,
  NO_TAX_NUMBER_PROMPT,
  TAXPAYER_KIND_NAMES,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, Progress, Select, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { FilteredMarker, SearchBar, type SearchButton, type SearchField } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { formatMoney } from '../../../lib/money';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { downloadPost } from '../../contract-fee/api';
import { ReceiptLink, RosterBatchActions } from '../../filing-batch/components/roster-actions';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { FILING_KEYS, type RosterQuery, rosterQueryOf, rosterSearch } from '../api';
import { useFilingSync } from '../use-filing-sync';
import '../filing.css';

/** The filters typed in the bar (the month and the state tags sit above it). */
interface SearchValues {
  keyword?: string;
  taxType?: FilingTaxType;
  state?: FilingState;
  allocateUser?: number;
  nsrlx?: '0' | '1';
  cycle?: 'month' | 'quarter';
}

const RECURRING: FilingTaxType[] = ['zzs', 'qysds', 'grsds', 'cwbb', 'yhs'];
const NO_TAX: readonly FilingTaxType[] = ['cwbb', 'gsnb'];
const syncTime = (iso: string | null) => (iso ? dayjs(iso).format('MM-DD HH:mm') : '');

/** 申报清册 (/declare/sbqc): each client's returns of a filing month, synced from the e-tax bureau. */
export function RosterPage() {
  useDocumentTitle('申报清册');
  return (
    <LinkedAgencyGuard>
      <RosterBody />
    </LinkedAgencyGuard>
  );
}

/** One return on the roster: its state, the amount to pay, the deadline and, once filed, the date. */
function CellView({ cell, type, aeiId }: { cell: FilingCell | undefined; type: FilingTaxType; aeiId: number }) {
  if (!cell) return <span className="dzy-filing-none">—</span>;
  // 财务报表 and 工商年报 carry no tax: an amount of 0.00 there would read as a zero return.
  const hasTax = cell.state !== 'wxsb' && !NO_TAX.includes(type);
  const tip = [
    cell.skssqq ? `所属期 ${cell.skssqq} 至 ${cell.skssqz}` : '',
    cell.srze !== '0.00' ? `收入总额 ${formatMoney(cell.srze)}` : '',
    cell.pzxh ? `凭证序号 ${cell.pzxh}` : '',
    cell.jkrq ? `缴款日期 ${cell.jkrq}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <Tooltip title={tip ? <span style={{ whiteSpace: 'pre-line' }}>{tip}</span> : undefined} placement="topLeft">
      <div className="dzy-filing-cell" data-state={cell.state}>
        <div className="dzy-filing-cell-top">
          <Tag color={FILING_STATE_COLORS[cell.state]} className="dzy-filing-tag">
            {FILING_STATE_NAMES[cell.state]}
          </Tag>
          {hasTax && <span className="dzy-filing-money">{formatMoney(cell.ybtse)}</span>}
        </div>
        {cell.state !== 'wxsb' && (
          <div className="dzy-filing-sub">
            {cell.sbrq ? `申报 ${cell.sbrq.slice(5)}` : `期限 ${cell.sbqx.slice(5)}`}
            {cell.yqts > 0 && <span className="dzy-filing-overdue"> 逾期{cell.yqts}天</span>}
            <ReceiptLink aeiId={aeiId} type={type} cell={cell} />
          </div>
        )}
      </div>
    </Tooltip>
  );
}

function RosterBody() {
  const { modal } = App.useApp();
  const can = useHasPerm();
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => rosterQueryOf(params), [params]);
  const month = query.filingMonth ?? currentFilingMonth();
  const [form] = Form.useForm<SearchValues>();
  const [selected, setSelected] = useState<number[]>([]);

  // The URL holds the filters: the overview's numbers link here, a reload keeps them.
  const go = (next: RosterQuery) => setParams(new URLSearchParams(rosterSearch(next).slice(1)), { replace: false });
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue({
      keyword: query.keyword,
      taxType: query.taxType,
      state: query.state,
      allocateUser: query.allocateUser,
      nsrlx: query.nsrlx,
      cycle: query.cycle,
    });
  }, [form, query]);

  const filter = { ...query, filingMonth: month, keyword: query.keyword ?? '' };
  const list = usePagedList(filingRosterCall, filter, { queryKey: [...FILING_KEYS.roster] });
  const { state: _state, ...countFilter } = filter;
  const counts = useQuery({
    queryKey: [...FILING_KEYS.counts, countFilter],
    queryFn: () => call(filingCountsCall, countFilter),
  });
  // The staff filter offers the people with clients in the caller's scope (from the schedule).
  const staff = useQuery({
    queryKey: [...FILING_KEYS.schedule, month],
    queryFn: () => call(filingScheduleCall, { filingMonth: month }),
    staleTime: 60_000,
  });

  const leftOut = (r: FilingSyncStartReply) =>
    modal.warning({
      title: '提示',
      width: 650,
      content: (
        <div className="dzy-filing-leftout">
          {r.noQysh.length > 0 && (
            <>
              <Typography.Paragraph>{NO_TAX_NUMBER_PROMPT}</Typography.Paragraph>
              <Typography.Text strong>{FILING_MSG.noQyshTitle}：</Typography.Text>
              <ul>
                {r.noQysh.map((b) => (
                  <li key={b.aeiId}>{b.qymc}</li>
                ))}
              </ul>
            </>
          )}
          {r.blocked.length > 0 && (
            <>
              <Typography.Text strong>{FILING_MSG.blockedTitle}：</Typography.Text>
              <ul>
                {r.blocked.map((b) => (
                  <li key={b.aeiId}>
                    {b.qymc} <Typography.Text type="danger">{b.warning}</Typography.Text>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ),
      okText: '知道了',
    });
  const sync = useFilingSync({ onLeftOut: leftOut });
  const r = sync.rate;

  const startSync = (scope: 'all' | 'selected') =>
    void sync.start({ filingMonth: month, scope, aeiIds: scope === 'selected' ? selected : [] }).then((ok) => {
      if (ok) setSelected([]);
    });
  const stopSync = () =>
    modal.confirm({
      title: '停止同步',
      content: '停止后，尚未同步的企业不再同步，已同步的结果会保留。确定停止吗？',
      okText: '停止同步',
      okButtonProps: { danger: true },
      cancelText: '继续同步',
      onOk: () => sync.stop(),
    });
  const exportRoster = async () => {
    const ok = await downloadPost(FILING_FILES.rosterExport, `申报清册_${month}.xlsx`, filter);
    if (ok) toast('success', '已导出');
  };

  // --- search bar -------------------------------------------------------------------------------
  const fields: SearchField[] = [
    { name: 'keyword', label: '企业', node: <Input allowClear placeholder="企业名称或税号" maxLength={50} /> },
    {
      name: 'taxType',
      label: '税种',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={FILING_TAX_TYPES.map((t) => ({ value: t, label: FILING_TAX_TYPE_NAMES[t] }))}
        />
      ),
    },
    {
      name: 'state',
      label: '申报状态',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={FILING_STATES.map((s) => ({ value: s, label: FILING_STATE_NAMES[s] }))}
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
          options={(staff.data?.list ?? []).map((s) => ({ value: s.userId, label: s.userName }))}
        />
      ),
    },
    {
      name: 'nsrlx',
      label: '纳税人类型',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={(['0', '1'] as const).map((k) => ({ value: k, label: TAXPAYER_KIND_NAMES[k] }))}
        />
      ),
    },
    {
      name: 'cycle',
      label: '所属期',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={[
            { value: 'month', label: '按月' },
            { value: 'quarter', label: '按季' },
          ]}
        />
      ),
    },
  ];
  const buttons: SearchButton[] = can(['declare:roster:export'])
    ? [{ key: 'export', label: '导出', icon: <ExportOutlined />, onClick: () => void exportRoster() }]
    : [];
  const search = (v: SearchValues) => {
    const next: RosterQuery = { filingMonth: query.filingMonth, failedOnly: query.failedOnly };
    if (v.keyword?.trim()) next.keyword = v.keyword.trim();
    if (v.taxType) next.taxType = v.taxType;
    if (v.state) next.state = v.state;
    if (v.allocateUser !== undefined && v.allocateUser !== null) next.allocateUser = v.allocateUser;
    if (v.nsrlx) next.nsrlx = v.nsrlx;
    if (v.cycle) next.cycle = v.cycle;
    if (rosterSearch(next) === rosterSearch(query)) void list.refetch();
    else go(next);
  };
  const { filingMonth: _m, ...shownFilter } = query;

  // --- table ------------------------------------------------------------------------------------
  const rows = list.data?.list ?? [];
  // The recurring types always; an annual item (汇算, 年报, 残保金) when a client on the page owes it this month.
  const types = FILING_TAX_TYPES.filter(
    (t) =>
      RECURRING.includes(t) ||
      t === query.taxType ||
      rows.some((row) => row.cells[t] && row.cells[t]?.state !== 'wxsb'),
  );
  const columns: ListColumn<FilingRow>[] = [
    {
      title: '企业名称',
      key: 'qymc',
      width: 210,
      render: (_, row) => (
        <div className="dzy-filing-name">
          <div className="dzy-filing-qymc">{row.qymc}</div>
          <div className="dzy-filing-sub">
            {row.qysh || <Typography.Text type="warning">未填税号</Typography.Text>}{' '}
            <span className="dzy-filing-kind">· {TAXPAYER_KIND_NAMES[row.nsrlx]}</span>
          </div>
        </div>
      ),
    },
    ...types.map(
      (t): ListColumn<FilingRow> => ({
        title: FILING_TAX_TYPE_SHORT[t],
        key: t,
        width: 136,
        render: (_, row) => <CellView cell={row.cells[t]} type={t} aeiId={row.aeiId} />,
      }),
    ),
    {
      title: '往期逾期',
      key: 'yqCount',
      width: 80,
      align: 'center',
      render: (_, row) => (row.yqCount > 0 ? <Typography.Text type="danger">{row.yqCount} 项</Typography.Text> : '—'),
    },
    { title: '负责人', key: 'allocateUserName', dataIndex: 'allocateUserName', width: 80, ellipsis: true },
    {
      title: '同步情况',
      key: 'sync',
      width: 168,
      render: (_, row) => (
        <div className="dzy-filing-sync">
          {row.syncedAt ? (
            <div>同步于 {syncTime(row.syncedAt)}</div>
          ) : (
            <Typography.Text type="secondary">{row.qysh ? '未同步' : '无税号，无法同步'}</Typography.Text>
          )}
          {row.failMsg && (
            <Tooltip title={`${syncTime(row.failAt)} ${row.failMsg}`}>
              <div className="dzy-filing-fail">失败：{row.failMsg}</div>
            </Tooltip>
          )}
        </div>
      ),
    },
  ];

  const c = counts.data;
  const tag = (
    key: string,
    label: string,
    n: number | undefined,
    next: RosterQuery,
    active: boolean,
    color?: string,
  ) => (
    <Tag.CheckableTag
      key={key}
      checked={active}
      onChange={() => go(next)}
      className={`dzy-filing-count${color ? ` dzy-filing-count-${color}` : ''}`}
      data-testid={`count-${key}`}
    >
      {label} <b>{n ?? '-'}</b>
    </Tag.CheckableTag>
  );
  const base: RosterQuery = { ...query, state: undefined, failedOnly: undefined };
  const loading = list.isFetching && !list.isLoading ? { delay: 300 } : list.isLoading;

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
              onChange={(v) => v && go({ ...query, filingMonth: v.format('YYYY-MM') })}
              disabledDate={(d) =>
                d.isBefore(dayjs(`${FILING_MONTH_MIN}-01`), 'month') ||
                d.isAfter(dayjs(`${filingMonthMax(dayjs().format('YYYY-MM-DD'))}-01`), 'month')
              }
              data-testid="filing-month"
            />
            {c && (
              <Typography.Text type="secondary">
                共 {c.total} 户，已同步 {c.total - c.unsynced} 户
              </Typography.Text>
            )}
          </Space>
          {(can(['declare:roster:sync']) || can(['declare:filing:plan'])) && (
            <Space size={8} wrap>
              <RosterBatchActions filingMonth={month} selected={selected} onStarted={() => setSelected([])} />
              {!can(['declare:roster:sync']) ? null : sync.running ? (
                <Button danger icon={<PauseCircleOutlined />} onClick={stopSync}>
                  停止同步
                </Button>
              ) : (
                <>
                  {selected.length > 0 && (
                    <Button icon={<SyncOutlined />} onClick={() => startSync('selected')}>
                      同步所选（{selected.length}）
                    </Button>
                  )}
                  <Button type="primary" icon={<SyncOutlined />} onClick={() => startSync('all')}>
                    同步申报状态
                  </Button>
                </>
              )}
            </Space>
          )}
        </div>
        {r && (r.state === 'running' || r.filingMonth === month) && (
          <div className="dzy-filing-progress" data-testid="sync-progress">
            <Tag color={r.state === 'running' ? 'processing' : r.state === 'stopped' ? 'default' : 'success'}>
              {r.state === 'running' ? '同步中' : r.state === 'stopped' ? '已停止' : '同步完成'}
            </Tag>
            <Progress percent={r.rate} status={r.state === 'running' ? 'active' : 'normal'} />
            <span className="dzy-filing-figures">
              <span>
                {r.filingMonth} 已完成 <b data-testid="sync-complete">{r.completeNum}</b> / {r.totalNum}
              </span>
              <span>
                成功 <b className="dzy-filing-ok">{r.successNum}</b>
              </span>
              <span>
                失败 <b className="dzy-filing-bad">{r.failNum}</b>
              </span>
            </span>
          </div>
        )}
        <div className="dzy-filing-counts" data-testid="state-counts">
          {tag('all', '全部', c?.total, base, !query.state && !query.failedOnly)}
          {FILING_STATES.map((s) =>
            tag(
              s,
              FILING_STATE_NAMES[s],
              c?.byState[s],
              { ...base, state: s },
              query.state === s,
              FILING_STATE_COLORS[s],
            ),
          )}
          {tag('failed', '同步失败', c?.failed, { ...base, failedOnly: true }, Boolean(query.failedOnly), 'failed')}
        </div>
      </div>
      <SearchBar<SearchValues>
        theme="shrink"
        form={form}
        fields={fields}
        buttons={buttons}
        onSearch={search}
        onReset={() => go({ filingMonth: query.filingMonth })}
        marker={<FilteredMarker values={shownFilter} onClear={() => go({ filingMonth: query.filingMonth })} />}
      />
      <ListTable<FilingRow>
        card
        pageKey="filing-roster"
        nameKey="qymc"
        className="dzy-filing-table"
        rowKey="aeiId"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={rows}
        empty={query.state || query.keyword ? '没有符合条件的企业' : '暂无企业，请先在我的客户中添加企业'}
        rowSelection={
          can(['declare:roster:sync']) || can(['declare:filing:plan'])
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                onChange: (keys) => setSelected(keys as number[]),
                getCheckboxProps: (row) => ({ disabled: !row.qysh }),
              }
            : undefined
        }
        selection={
          selected.length > 0 ? { count: selected.length, unit: '家企业', onClear: () => setSelected([]) } : undefined
        }
        pagination={{ ...list.pagination, showQuickJumper: true, pageSizeOptions: FILING_PAGE_SIZES.map(String) }}
      />
    </div>
  );
}
