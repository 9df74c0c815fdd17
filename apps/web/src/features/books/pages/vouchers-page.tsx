import { CopyOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import {
  BOOK_FILES,
  copyVoucherCall,
  deleteVouchersCall,
  fenToYuanText,
  reviewVouchersCall,
  type Voucher,
  type VoucherImportResult,
  type VoucherImportStart,
  voucherImportProgressCall,
  vouchersCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Empty, Input, Modal, Progress, Select, Space, Tag, Typography, Upload } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { ImportResultView } from '../../../components/import-result/import-result';
import { TABLE_FILE_ACCEPT, TABLE_FILE_LABEL } from '../../../components/import-result/table-file';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { downloadFile, uploadFile, useBookInfo, useChart, useChosenBook } from '../api';
import { BookChooser } from '../components/book-chooser';
import { VoucherEditor } from '../components/voucher-editor';
import '../books.css';

const SOURCE_NAMES: Record<string, string> = {
  manual: '手工',
  copy: '复制',
  template: '常用凭证',
  import: '导入',
  invoice: '票据',
  payroll: '工资',
  close: '结转',
};

/** 凭证 (/account/vouchers): the chosen book's vouchers by period, entry, review, delete, copy, import. */
export function VouchersPage() {
  useDocumentTitle('凭证');
  return (
    <LinkedAgencyGuard>
      <Vouchers />
    </LinkedAgencyGuard>
  );
}

function Vouchers() {
  const [bookId, setBookId] = useChosenBook();
  const info = useBookInfo(bookId);
  const book = info.data ?? null;
  return (
    <div className="dzy-books-page">
      <div className="dzy-books-bar">
        <Space wrap>
          <BookChooser bookId={bookId} onChange={setBookId} />
          {book ? (
            <Typography.Text type="secondary">
              当前期间 <strong>{book.currentPeriod}</strong>
              {book.lastClosed ? `（已结账至 ${book.lastClosed}）` : ''}
            </Typography.Text>
          ) : null}
        </Space>
      </div>
      {book ? (
        <VoucherList key={book.bookId} book={book} />
      ) : (
        <Empty
          className="dzy-books-empty"
          description={bookId && info.isError ? '账套不存在或无权查看，请重新选择' : '请选择账套'}
        />
      )}
    </div>
  );
}

function VoucherList({ book }: { book: NonNullable<ReturnType<typeof useBookInfo>['data']> }) {
  const can = useHasPerm();
  const { modal } = App.useApp();
  const qc = useQueryClient();
  const chart = useChart(book.bookId);
  const [range, setRange] = useState<[string, string]>([book.currentPeriod, book.currentPeriod]);
  const [review, setReview] = useState<'all' | 'unreviewed' | 'reviewed'>('all');
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<{ voucher: Voucher | null } | null>(null);
  const [copying, setCopying] = useState<Voucher | null>(null);
  const [copyDate, setCopyDate] = useState('');
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState<VoucherImportResult | null>(null);
  const [importJob, setImportJob] = useState<VoucherImportStart | null>(null);
  const list = usePagedList(
    vouchersCall,
    { bookId: book.bookId, periodFrom: range[0], periodTo: range[1], review, keyword, accountCode: '' },
    { queryKey: [vouchersCall.path], pageSize: 20 },
  );
  const refresh = () =>
    qc.invalidateQueries({
      predicate: (q) => String(q.queryKey[0]).startsWith('books/') || String(q.queryKey[0]).startsWith('user/setUp'),
    });

  const batch = async (kind: 'review' | 'unreview' | 'delete', ids: number[]) => {
    const run = async () => {
      const r =
        kind === 'delete'
          ? await call(deleteVouchersCall, { voucherIds: ids })
          : await call(reviewVouchersCall, { voucherIds: ids, reviewed: kind === 'review' });
      if (!r) return;
      const verb = { review: '审核', unreview: '反审核', delete: '删除' }[kind];
      if (r.failed.length === 0) toast('success', `已${verb}${r.done}张凭证`);
      else
        modal.warning({
          title: `${verb}完成：成功${r.done}张，失败${r.failed.length}张`,
          content: (
            <ul className="dzy-fail-list">
              {r.failed.map((f) => (
                <li key={f.voucherId}>
                  {f.label}：{f.msg}
                </li>
              ))}
            </ul>
          ),
        });
      setSelected([]);
      await refresh();
    };
    if (kind === 'delete')
      modal.confirm({
        title: '删除凭证',
        content: `确定删除所选的${ids.length}张凭证吗？删除后其后的凭证号将依次前移。`,
        okText: '删除',
        okButtonProps: { danger: true },
        onOk: run,
      });
    else if (kind === 'unreview')
      modal.confirm({ title: '反审核', content: `确定反审核${ids.length}张凭证吗？`, okText: '反审核', onOk: run });
    else await run();
  };

  const lineCell = (v: Voucher, f: (l: Voucher['lines'][number]) => string, cls = '') => (
    <div className={`dzy-vlines ${cls}`}>
      {v.lines.map((l) => (
        <div key={l.seq} title={f(l)}>
          {f(l) || '\u00a0'}
        </div>
      ))}
    </div>
  );

  const columns: ListColumn<Voucher>[] = [
    { key: 'vdate', title: '日期', dataIndex: 'vdate', width: 96 },
    {
      key: 'no',
      title: '凭证字号',
      width: 80,
      render: (_, v) => (
        <Button
          type="link"
          size="small"
          className="dzy-vno"
          onClick={() => setEditing({ voucher: v })}
          data-testid={`vno-${v.number}`}
        >
          {v.word}-{v.number}
        </Button>
      ),
    },
    { key: 'summary', title: '摘要', width: 140, render: (_, v) => lineCell(v, (l) => l.summary) },
    {
      key: 'account',
      title: '会计科目',
      width: 210,
      render: (_, v) => lineCell(v, (l) => `${l.accountCode} ${l.accountName}${l.auxName ? `（${l.auxName}）` : ''}`),
    },
    {
      key: 'debit',
      title: '借方金额',
      width: 110,
      align: 'right',
      render: (_, v) => lineCell(v, (l) => (l.debit ? fenToYuanText(l.debit) : ''), 'num'),
    },
    {
      key: 'credit',
      title: '贷方金额',
      width: 110,
      align: 'right',
      render: (_, v) => lineCell(v, (l) => (l.credit ? fenToYuanText(l.credit) : ''), 'num'),
    },
    {
      key: 'state',
      title: '状态',
      width: 76,
      render: (_, v) => (
        <Space direction="vertical" size={2}>
          {v.review === 'reviewed' ? <Tag color="green">已审核</Tag> : <Tag>未审核</Tag>}
          {v.source !== 'manual' ? (
            <Typography.Text type="secondary">{SOURCE_NAMES[v.source] ?? v.source}</Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'ops',
      title: '操作',
      width: 140,
      render: (_, v) => {
        const open = v.period >= book.currentPeriod;
        return (
          <Space size={0} wrap>
            {can(['account:voucher:review']) && open ? (
              <Button
                type="link"
                size="small"
                onClick={() => batch(v.review === 'reviewed' ? 'unreview' : 'review', [v.id])}
              >
                {v.review === 'reviewed' ? '反审核' : '审核'}
              </Button>
            ) : null}
            {can(['account:voucher:edit']) ? (
              <Button
                type="link"
                size="small"
                icon={<CopyOutlined />}
                onClick={() => {
                  setCopyDate(v.period >= book.currentPeriod ? v.vdate : `${book.currentPeriod}-01`);
                  setCopying(v);
                }}
              >
                复制
              </Button>
            ) : null}
            {can(['account:voucher:delete']) && open && v.review !== 'reviewed' ? (
              <Button type="link" size="small" danger onClick={() => batch('delete', [v.id])}>
                删除
              </Button>
            ) : null}
          </Space>
        );
      },
    },
  ];

  const sum = list.data?.sumTotal ?? 0;
  return (
    <>
      <div className="dzy-books-filters">
        <Space wrap>
          <DatePicker.RangePicker
            picker="month"
            allowClear={false}
            value={[dayjs(`${range[0]}-01`), dayjs(`${range[1]}-01`)]}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0].format('YYYY-MM'), v[1].format('YYYY-MM')])}
            data-testid="voucher-periods"
          />
          <Select
            value={review}
            onChange={setReview}
            style={{ width: 120 }}
            options={[
              { value: 'all', label: '全部状态' },
              { value: 'unreviewed', label: '未审核' },
              { value: 'reviewed', label: '已审核' },
            ]}
          />
          <Input.Search placeholder="摘要" allowClear onSearch={setKeyword} style={{ width: 200 }} />
          <Typography.Text type="secondary">
            共 {list.total} 张，借贷合计 <strong data-testid="voucher-sum">{fenToYuanText(sum)}</strong> 元
          </Typography.Text>
        </Space>
        <Space wrap>
          {can(['account:voucher:edit']) ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ voucher: null })}
              data-testid="new-voucher"
            >
              录入凭证
            </Button>
          ) : null}
          {can(['account:voucher:import']) ? (
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
              导入凭证
            </Button>
          ) : null}
        </Space>
      </div>
      <ListTable
        card
        pageKey="books-vouchers"
        rowKey="id"
        nameKey="no"
        actionKey="ops"
        size="small"
        className="dzy-voucher-table"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isLoading || chart.isLoading}
        pagination={list.pagination}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k.map(Number)) }}
        selection={{ count: selected.length, unit: '张凭证', onClear: () => setSelected([]) }}
        extra={
          selected.length ? (
            <Space>
              {can(['account:voucher:review']) ? (
                <>
                  <Button size="small" onClick={() => batch('review', selected)}>
                    审核
                  </Button>
                  <Button size="small" onClick={() => batch('unreview', selected)}>
                    反审核
                  </Button>
                </>
              ) : null}
              {can(['account:voucher:delete']) ? (
                <Button size="small" danger onClick={() => batch('delete', selected)}>
                  删除
                </Button>
              ) : null}
            </Space>
          ) : undefined
        }
        empty={`${range[0] === range[1] ? range[0] : `${range[0]} 至 ${range[1]}`} 暂无凭证`}
      />
      {editing && chart.data ? (
        <VoucherEditor
          open
          book={book}
          chart={chart.data}
          voucher={editing.voucher}
          onClose={() => {
            setEditing(null);
            void refresh();
          }}
        />
      ) : null}
      <Modal
        open={copying !== null}
        title={copying ? `复制凭证 ${copying.word}-${copying.number}` : ''}
        okText="复制"
        onCancel={() => setCopying(null)}
        onOk={async () => {
          if (!copying) return;
          const v = await call(copyVoucherCall, { voucherId: copying.id, vdate: copyDate }).catch(() => null);
          if (!v) return;
          toast('success', `已复制为 ${v.word}-${v.number}`);
          setCopying(null);
          await refresh();
        }}
      >
        <Space>
          新凭证日期
          <DatePicker
            allowClear={false}
            value={copyDate ? dayjs(copyDate) : null}
            disabledDate={(d) => d.format('YYYY-MM') < book.currentPeriod}
            onChange={(d) => d && setCopyDate(d.format('YYYY-MM-DD'))}
          />
        </Space>
      </Modal>
      <Modal
        open={importing}
        title="导入凭证"
        footer={null}
        onCancel={() => {
          setImporting(false);
          setImported(null);
          setImportJob(null);
        }}
        destroyOnHidden
      >
        {importJob && !imported ? (
          <ImportJobProgress
            job={importJob}
            onDone={(r) => {
              setImported(r);
              setImportJob(null);
              void refresh();
            }}
          />
        ) : imported ? (
          <ImportResultView
            result={{ successNum: imported.total - imported.failNum, failNum: imported.failNum, unExport: 0 }}
            onDownloadFailures={
              imported.failKey
                ? () => downloadFile(`${BOOK_FILES.importFailList}?key=${imported.failKey}`, '凭证导入失败记录.xlsx')
                : undefined
            }
          />
        ) : (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Paragraph type="secondary">
              每行一条分录，日期和凭证号相同的行组成一张凭证；保存时按期间依次编号。借贷不平衡、科目不存在的凭证不导入，可下载失败记录修改后重新导入。
            </Typography.Paragraph>
            <Button type="link" onClick={() => downloadFile(BOOK_FILES.importTemplate, '凭证导入模板.xlsx')}>
              下载导入模板
            </Button>
            <Upload.Dragger
              accept={TABLE_FILE_ACCEPT}
              maxCount={1}
              showUploadList={false}
              beforeUpload={async (file) => {
                const r = await uploadFile<VoucherImportStart>(
                  `${BOOK_FILES.importUpload}?bookId=${book.bookId}`,
                  file,
                );
                if (r) setImportJob(r.data);
                return false;
              }}
            >
              <p className="ant-upload-text">点击或拖拽 {TABLE_FILE_LABEL} 文件到此处</p>
              <p className="ant-upload-hint">一次最多2000行，不超过2MB</p>
            </Upload.Dragger>
          </Space>
        )}
      </Modal>
    </>
  );
}

/** A running voucher import (a background job): its rows worked through, polled until it ends. */
function ImportJobProgress({ job, onDone }: { job: VoucherImportStart; onDone: (r: VoucherImportResult) => void }) {
  const q = useQuery({
    queryKey: [voucherImportProgressCall.path, job.jobId],
    queryFn: () => call(voucherImportProgressCall, { jobId: job.jobId }),
    refetchInterval: (query) => {
      const st = query.state.data?.state;
      return st === 'done' || st === 'failed' || st === 'cancelled' ? false : 1000;
    },
  });
  const p = q.data;
  useEffect(() => {
    if (p?.state === 'done' && p.result) onDone(p.result);
  }, [p, onDone]);
  const total = p?.total ?? job.total;
  const done = p?.done ?? 0;
  if (p?.state === 'failed' || p?.state === 'cancelled')
    return <Typography.Text type="danger">{p.error ?? '导入失败，请稍后重试'}</Typography.Text>;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="voucher-import-progress">
      <Typography.Text>
        正在导入：已处理 {done} / {total} 行{p?.state === 'queued' ? '（排队中）' : ''}
      </Typography.Text>
      <Progress percent={total ? Math.floor((done * 100) / total) : 0} status="active" />
      <Typography.Text type="secondary">导入在后台进行，可关闭此窗口，稍后在凭证列表中查看结果。</Typography.Text>
    </Space>
  );
}
