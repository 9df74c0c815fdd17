import {
  type BalanceRow,
  BOOK_REPORT_FILES,
  balanceSheetCall,
  columnLedgerCall,
  generalLedgerCall,
  LEDGER_NAMES,
  type LedgerKind,
  type ReportBook,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Drawer, Empty, Select, Space, Switch, Table, Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useState } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { call } from '../../../lib/request';
import { cell, downloadPost, money, useRememberedBook } from '../api';
import { DetailTable } from '../components/detail-table';
import { ReportBookChooser } from '../components/report-book-chooser';
import '../book-reports.css';

const KIND_LABEL = { opening: '期初余额', period: '本期合计', ytd: '本年累计' } as const;
const ym = (d: Dayjs) => d.format('YYYY-MM');

interface Drill {
  title: string;
  codes: string[];
}

/** 账簿 /account/ledgers: 科目余额表, 总账, 明细账, 多栏账 of a book for any period range. */
export function LedgersPage() {
  useDocumentTitle('账簿');
  const [bookId, setBookId] = useRememberedBook();
  const [book, setBook] = useState<ReportBook | null>(null);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [tab, setTab] = useState<LedgerKind>('balances');
  const [maxLevel, setMaxLevel] = useState(6);
  const [showZero, setShowZero] = useState(false);
  const [detailCode, setDetailCode] = useState<string | null>(null);
  const [columnAccount, setColumnAccount] = useState<number | null>(null);
  const [drill, setDrill] = useState<Drill | null>(null);
  const onBook = useCallback((b: ReportBook | null) => {
    setBook(b);
    // A new book: its current year up to its current period.
    if (b) {
      const to = dayjs(`${b.currentPeriod}-01`);
      const yearStart = to.startOf('year');
      const start = dayjs(`${b.startPeriod}-01`);
      setRange([yearStart.isBefore(start) ? start : yearStart, to]);
    }
  }, []);
  const from = range ? ym(range[0]) : '';
  const to = range ? ym(range[1]) : '';
  const ready = Boolean(bookId && book && range);

  const balances = useQuery({
    queryKey: [balanceSheetCall.path, bookId, from, to, maxLevel, showZero],
    queryFn: () => call(balanceSheetCall, { bookId: bookId ?? 0, from, to, maxLevel, showZero }),
    enabled: ready,
  });
  // Every account of the book (for the account pickers).
  const chart = useQuery({
    queryKey: [balanceSheetCall.path, bookId, from, to, 'all'],
    queryFn: () => call(balanceSheetCall, { bookId: bookId ?? 0, from, to, maxLevel: 6, showZero: true }),
    enabled: ready && (tab === 'detail' || tab === 'columns'),
  });
  const general = useQuery({
    queryKey: [generalLedgerCall.path, bookId, from, to],
    queryFn: () => call(generalLedgerCall, { bookId: bookId ?? 0, from, to }),
    enabled: ready && tab === 'general',
  });
  const columns = useQuery({
    queryKey: [columnLedgerCall.path, bookId, from, to, columnAccount],
    queryFn: () => call(columnLedgerCall, { bookId: bookId ?? 0, from, to, accountId: columnAccount ?? 0 }),
    enabled: ready && tab === 'columns' && columnAccount !== null,
  });

  const accounts = chart.data?.rows ?? [];
  const exportAs = (format: 'xlsx' | 'pdf') => {
    if (!bookId) return;
    const body = {
      bookId,
      from,
      to,
      kind: tab,
      format,
      maxLevel,
      codes: tab === 'detail' && detailCode ? [detailCode] : [],
      ...(tab === 'columns' && columnAccount ? { accountId: columnAccount } : {}),
    };
    void downloadPost(BOOK_REPORT_FILES.ledger, `${LEDGER_NAMES[tab]}.${format}`, body);
  };
  const exportable =
    ready &&
    (tab === 'balances' ||
      tab === 'general' ||
      (tab === 'detail' && detailCode) ||
      (tab === 'columns' && columnAccount));

  const amount = (r: BalanceRow, v: number) =>
    v === 0 ? (
      ''
    ) : (
      <button
        type="button"
        className="dzy-report-link"
        onClick={() => setDrill({ title: `${r.code} ${r.name}`, codes: [r.code] })}
      >
        {money(v)}
      </button>
    );
  const pairCols = (
    title: string,
    d: keyof BalanceRow,
    c: keyof BalanceRow,
    link = false,
  ): ColumnsType<BalanceRow>[number] => ({
    title,
    children: [
      {
        title: '借方',
        key: `${String(d)}`,
        width: 130,
        align: 'right',
        render: (_, r) => (link ? amount(r, r[d] as number) : cell(r[d] as number)),
      },
      {
        title: '贷方',
        key: `${String(c)}`,
        width: 130,
        align: 'right',
        render: (_, r) => (link ? amount(r, r[c] as number) : cell(r[c] as number)),
      },
    ],
  });
  const t = balances.data?.totals;

  const balanceTab = (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <span>科目级次</span>
        <Select
          value={maxLevel}
          onChange={setMaxLevel}
          style={{ width: 120 }}
          options={[1, 2, 3, 6].map((n) => ({ value: n, label: n === 6 ? '全部级次' : `${n}级` }))}
          data-testid="ledger-level"
        />
        <Switch checked={showZero} onChange={setShowZero} /> <span>显示无发生额的科目</span>
        {balances.data ? (
          <span className={balances.data.balanced ? 'dzy-report-summary' : ''} data-testid="trial-state">
            {balances.data.balanced ? '试算平衡' : '试算不平衡'}
          </span>
        ) : null}
      </Space>
      <Table<BalanceRow>
        data-testid="balances-table"
        size="small"
        bordered
        rowKey="accountId"
        loading={balances.isFetching}
        dataSource={balances.data?.rows ?? []}
        pagination={false}
        scroll={{ x: 1300, y: 560 }}
        locale={{ emptyText: '所选期间没有余额或发生额' }}
        columns={[
          { title: '科目编码', dataIndex: 'code', width: 110, fixed: 'left' },
          {
            title: '科目名称',
            dataIndex: 'name',
            width: 180,
            fixed: 'left',
            render: (v: string, r) => <span style={{ paddingLeft: (r.level - 1) * 12 }}>{v}</span>,
          },
          pairCols('期初余额', 'openingDebit', 'openingCredit'),
          pairCols('本期发生额', 'periodDebit', 'periodCredit', true),
          pairCols('本年累计发生额', 'ytdDebit', 'ytdCredit'),
          pairCols('期末余额', 'closingDebit', 'closingCredit'),
        ]}
        summary={() =>
          t ? (
            <Table.Summary fixed>
              <Table.Summary.Row className="dzy-report-total">
                <Table.Summary.Cell index={0} colSpan={2}>
                  合计
                </Table.Summary.Cell>
                {[
                  t.openingDebit,
                  t.openingCredit,
                  t.periodDebit,
                  t.periodCredit,
                  t.ytdDebit,
                  t.ytdCredit,
                  t.closingDebit,
                  t.closingCredit,
                ].map((v, i) => (
                  <Table.Summary.Cell key={String(i)} index={i + 2} align="right">
                    {money(v)}
                  </Table.Summary.Cell>
                ))}
              </Table.Summary.Row>
            </Table.Summary>
          ) : null
        }
      />
    </>
  );

  const generalRows = (general.data?.accounts ?? []).flatMap((a) =>
    a.rows.map((r, i) => ({ key: `${a.accountId}-${i}`, first: i === 0, code: a.code, name: a.name, ...r })),
  );
  const generalTab = (
    <Table
      data-testid="general-table"
      size="small"
      bordered
      loading={general.isFetching}
      dataSource={generalRows}
      pagination={false}
      scroll={{ x: 900, y: 560 }}
      locale={{ emptyText: '所选期间没有余额或发生额' }}
      columns={[
        { title: '科目编码', dataIndex: 'code', width: 100, render: (v: string, r) => (r.first ? v : '') },
        { title: '科目名称', dataIndex: 'name', width: 160, render: (v: string, r) => (r.first ? v : '') },
        { title: '期间', dataIndex: 'period', width: 90 },
        { title: '摘要', dataIndex: 'kind', width: 90, render: (k: keyof typeof KIND_LABEL) => KIND_LABEL[k] },
        { title: '借方', dataIndex: 'debit', width: 140, align: 'right', render: cell },
        { title: '贷方', dataIndex: 'credit', width: 140, align: 'right', render: cell },
        { title: '方向', dataIndex: 'dir', width: 60, align: 'center' },
        { title: '余额', dataIndex: 'balance', width: 150, align: 'right', render: money },
      ]}
    />
  );

  const accountOptions = (onlyParents: boolean) =>
    accounts
      .filter((a) => !onlyParents || !a.isLeaf)
      .map((a) => ({ value: onlyParents ? a.accountId : a.code, label: `${a.code} ${a.name}` }));
  const detailTab = (
    <>
      <Space style={{ marginBottom: 12 }}>
        <span>科目</span>
        <Select
          data-testid="detail-account"
          showSearch
          optionFilterProp="label"
          placeholder="选择科目（含下级科目）"
          style={{ width: 320 }}
          value={detailCode ?? undefined}
          onChange={setDetailCode}
          options={accountOptions(false)}
          loading={chart.isFetching}
        />
      </Space>
      {bookId && detailCode ? (
        <DetailTable bookId={bookId} from={from} to={to} codes={[detailCode]} />
      ) : (
        <Empty description="请选择科目查看明细账" />
      )}
    </>
  );

  const c = columns.data;
  const columnsTab = (
    <>
      <Space style={{ marginBottom: 12 }}>
        <span>科目</span>
        <Select
          data-testid="columns-account"
          showSearch
          optionFilterProp="label"
          placeholder="选择有下级科目的科目，如 5602 管理费用"
          style={{ width: 320 }}
          value={columnAccount ?? undefined}
          onChange={setColumnAccount}
          options={accountOptions(true)}
          loading={chart.isFetching}
        />
      </Space>
      {c ? (
        <Table
          data-testid="columns-table"
          size="small"
          bordered
          rowKey={(r) => `${r.kind}-${r.period}`}
          loading={columns.isFetching}
          dataSource={c.rows}
          pagination={false}
          scroll={{ x: 560 + c.columns.length * 130, y: 560 }}
          columns={[
            { title: '期间', dataIndex: 'period', width: 90, fixed: 'left' },
            {
              title: '摘要',
              dataIndex: 'kind',
              width: 90,
              fixed: 'left',
              render: (k: keyof typeof KIND_LABEL) => KIND_LABEL[k],
            },
            { title: '借方', dataIndex: 'debit', width: 130, align: 'right', render: cell },
            { title: '贷方', dataIndex: 'credit', width: 130, align: 'right', render: cell },
            { title: '方向', dataIndex: 'dir', width: 60, align: 'center' },
            { title: '余额', dataIndex: 'balance', width: 130, align: 'right', render: money },
            {
              title: `${c.account.direction === 'debit' ? '借方' : '贷方'}分析`,
              children: c.columns.map((col, i) => ({
                title: col.name,
                key: col.code,
                width: 130,
                align: 'right' as const,
                render: (_: unknown, r: (typeof c.rows)[number]) => cell(r.amounts[i] ?? 0),
              })),
            },
          ]}
        />
      ) : (
        <Empty description="请选择科目查看多栏账" />
      )}
    </>
  );

  return (
    <Card variant="borderless" title="账簿">
      <div className="dzy-report-toolbar">
        <ReportBookChooser bookId={bookId} onChange={setBookId} onBook={onBook} />
        <DatePicker.RangePicker
          picker="month"
          allowClear={false}
          value={range}
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          disabledDate={(d) => (book ? d.isBefore(dayjs(`${book.startPeriod}-01`), 'month') : false)}
          data-testid="ledger-range"
        />
        <span className="dzy-report-spacer" />
        <Button disabled={!exportable} onClick={() => exportAs('xlsx')} data-testid="ledger-export-xlsx">
          导出Excel
        </Button>
        <Button disabled={!exportable} onClick={() => exportAs('pdf')} data-testid="ledger-export-pdf">
          导出PDF
        </Button>
      </div>
      {ready ? (
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as LedgerKind)}
          items={[
            { key: 'balances', label: '科目余额表', children: balanceTab },
            { key: 'general', label: '总账', children: generalTab },
            { key: 'detail', label: '明细账', children: detailTab },
            { key: 'columns', label: '多栏账', children: columnsTab },
          ]}
        />
      ) : (
        <Empty description="请选择账套" />
      )}
      <Drawer
        open={drill !== null}
        onClose={() => setDrill(null)}
        width={1040}
        title={drill ? `${drill.title}　${from} 至 ${to} 的凭证分录` : ''}
        destroyOnHidden
      >
        {drill && bookId ? <DetailTable bookId={bookId} from={from} to={to} codes={drill.codes} /> : null}
      </Drawer>
    </Card>
  );
}
