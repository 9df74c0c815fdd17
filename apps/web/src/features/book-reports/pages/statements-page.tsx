import {
  BOOK_REPORT_FILES,
  prevPeriod,
  type ReportBook,
  STATEMENT_COLUMNS,
  STATEMENT_NAMES,
  type StatementKind,
  type StatementLine,
  statementCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Drawer, Empty, Grid, Segmented, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useState } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { call } from '../../../lib/request';
import { downloadPost, money, useRememberedBook } from '../api';
import { DetailTable } from '../components/detail-table';
import { ReportBookChooser } from '../components/report-book-chooser';
import '../book-reports.css';

interface Drill {
  title: string;
  codes: string[];
  from: string;
  to: string;
}

/** 财务报表 /account/statements: 资产负债表, 利润表, 现金流量表 of a period, with drill-down and export. */
export function StatementsPage() {
  useDocumentTitle('财务报表');
  const [bookId, setBookId] = useRememberedBook();
  const [book, setBook] = useState<ReportBook | null>(null);
  const [month, setMonth] = useState<Dayjs | null>(null);
  const [kind, setKind] = useState<StatementKind>('balance');
  const [drill, setDrill] = useState<Drill | null>(null);
  const wide = Grid.useBreakpoint().xl !== false;
  const onBook = useCallback((b: ReportBook | null) => {
    setBook(b);
    // The last closed period, or the current one when none is closed yet.
    if (b) setMonth(dayjs(`${b.currentPeriod > b.startPeriod ? prevPeriod(b.currentPeriod) : b.currentPeriod}-01`));
  }, []);
  const period = month ? month.format('YYYY-MM') : '';
  const ready = Boolean(bookId && book && month);
  const q = useQuery({
    queryKey: [statementCall.path, bookId, period, kind],
    queryFn: () => call(statementCall, { bookId: bookId ?? 0, period, kind }),
    enabled: ready,
  });
  const s = q.data;
  const [ca, cb] = STATEMENT_COLUMNS[kind];
  const yearStart = book
    ? `${period.slice(0, 4)}-01` < book.startPeriod
      ? book.startPeriod
      : `${period.slice(0, 4)}-01`
    : '';

  /** The range behind a figure: a balance from the books' start, a year's amount from January, a month's alone. */
  const figure = (l: StatementLine, col: 'a' | 'b') => {
    const v = l[col];
    if (l.no === 0) return '';
    if (l.codes.length === 0 || v === 0 || kind === 'cashflow' || !book) return money(v);
    const range =
      kind === 'balance'
        ? col === 'a'
          ? { from: book.startPeriod, to: period }
          : null
        : col === 'a'
          ? { from: yearStart, to: period }
          : { from: period, to: period };
    if (!range) return money(v);
    const open = () => setDrill({ title: l.name.replace(/^[其中：减加]+：?/, ''), codes: l.codes, ...range });
    return (
      <button type="button" className="dzy-report-link" onClick={open}>
        {money(v)}
      </button>
    );
  };
  const nameCell = (l: StatementLine) => (
    <span style={{ paddingLeft: l.indent * 16, fontWeight: l.bold ? 600 : undefined }}>{l.name}</span>
  );

  const lineTable = (lines: StatementLine[], nameTitle = '项目') => (
    <Table<StatementLine>
      className="dzy-statement-table"
      data-testid="statement-table"
      size="small"
      bordered
      rowKey={(l) => `${l.no}-${l.name}`}
      rowClassName={(l) => (l.bold ? 'dzy-statement-bold' : '')}
      loading={q.isFetching}
      dataSource={lines}
      pagination={false}
      columns={[
        { title: nameTitle, key: 'name', render: (_, l) => nameCell(l) },
        { title: '行次', dataIndex: 'no', width: 56, align: 'center', render: (n: number) => (n ? n : '') },
        { title: ca, key: 'a', width: 140, align: 'right', render: (_, l) => figure(l, 'a') },
        { title: cb, key: 'b', width: 140, align: 'right', render: (_, l) => figure(l, 'b') },
      ]}
    />
  );
  const single = lineTable(s?.lines ?? []);
  const left = (s?.lines ?? []).filter((l) => l.side === 'left');
  const right = (s?.lines ?? []).filter((l) => l.side === 'right');
  const pairs = Array.from({ length: Math.max(left.length, right.length) }, (_, i) => ({
    key: i,
    l: left[i],
    r: right[i],
  }));
  type Pair = (typeof pairs)[number];
  const half = (side: 'l' | 'r', title: string) => [
    { title, key: `${side}n`, render: (_: unknown, p: Pair) => (p[side] ? nameCell(p[side]) : '') },
    {
      title: '行次',
      key: `${side}no`,
      width: 56,
      align: 'center' as const,
      render: (_: unknown, p: Pair) => (p[side]?.no ? p[side].no : ''),
    },
    {
      title: ca,
      key: `${side}a`,
      width: 124,
      align: 'right' as const,
      render: (_: unknown, p: Pair) => (p[side] ? figure(p[side], 'a') : ''),
    },
    {
      title: cb,
      key: `${side}b`,
      width: 124,
      align: 'right' as const,
      render: (_: unknown, p: Pair) => (p[side] ? figure(p[side], 'b') : ''),
    },
  ];
  // Side by side (as printed) when the page is wide; below 1200 px the two halves stack, so nothing scrolls
  // sideways or squeezes the 项目 names at 1024 px.
  const balance = !wide ? (
    <div className="dzy-statement-stack">
      {lineTable(left, '资产')}
      {lineTable(right, '负债和所有者权益（或股东权益）')}
    </div>
  ) : (
    <Table<Pair>
      className="dzy-statement-table"
      data-testid="statement-table"
      size="small"
      bordered
      loading={q.isFetching}
      dataSource={pairs}
      pagination={false}
      scroll={{ x: 1000 }}
      columns={[...half('l', '资产'), ...half('r', '负债和所有者权益（或股东权益）')]}
    />
  );

  const exportAs = (format: 'xlsx' | 'pdf') =>
    bookId &&
    void downloadPost(BOOK_REPORT_FILES.statement, `${STATEMENT_NAMES[kind]}.${format}`, {
      bookId,
      period,
      kind,
      format,
    });

  return (
    <Card variant="borderless" title="财务报表">
      <div className="dzy-report-toolbar">
        <ReportBookChooser bookId={bookId} onChange={setBookId} onBook={onBook} />
        <DatePicker
          picker="month"
          allowClear={false}
          value={month}
          onChange={(v) => v && setMonth(v)}
          disabledDate={(d) => (book ? d.isBefore(dayjs(`${book.startPeriod}-01`), 'month') : false)}
          data-testid="statement-period"
        />
        <Segmented
          value={kind}
          onChange={(v) => setKind(v as StatementKind)}
          options={(['balance', 'income', 'cashflow'] as const).map((k) => ({ value: k, label: STATEMENT_NAMES[k] }))}
          data-testid="statement-kind"
        />
        <span className="dzy-report-spacer" />
        <Button disabled={!s} onClick={() => exportAs('xlsx')} data-testid="statement-export-xlsx">
          导出Excel
        </Button>
        <Button disabled={!s} onClick={() => exportAs('pdf')} data-testid="statement-export-pdf">
          导出PDF
        </Button>
      </div>
      {!ready ? (
        <Empty description="请选择账套" />
      ) : (
        <>
          {s ? (
            <>
              <div className="dzy-statement-head">
                <h3>{STATEMENT_NAMES[kind]}</h3>
              </div>
              <div className="dzy-statement-meta">
                <span>编制单位：{s.qymc}</span>
                <span>
                  {s.period}　{s.closed ? <Tag color="success">已结账</Tag> : <Tag color="warning">未结账</Tag>}
                </span>
                <span>{s.form}　单位：元</span>
              </div>
              {s.checks.map((c) => (
                <Alert
                  key={c.name}
                  style={{ marginBottom: 8 }}
                  type={c.ok ? 'success' : 'error'}
                  showIcon
                  message={`${c.name}（${c.detail}）${c.ok ? '' : '：请检查科目余额与凭证'}`}
                  data-testid="statement-check"
                />
              ))}
            </>
          ) : null}
          {kind === 'balance' ? balance : single}
        </>
      )}
      <Drawer
        open={drill !== null}
        onClose={() => setDrill(null)}
        width={1040}
        title={drill ? `${drill.title}　${drill.from} 至 ${drill.to} 的凭证分录` : ''}
        destroyOnHidden
      >
        {drill && bookId ? <DetailTable bookId={bookId} from={drill.from} to={drill.to} codes={drill.codes} /> : null}
      </Drawer>
    </Card>
  );
}
