import { PrinterOutlined } from '@ant-design/icons';
import { fenToYuanText, rmbUpper, type Voucher, vouchersCall } from '@dzy/shared';
import { Alert, Button, DatePicker, Empty, Progress, Radio, Space } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { call } from '../../../lib/request';
import { useBookInfo, useChosenBook } from '../../books/api';
import { BookChooser } from '../../books/components/book-chooser';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import '../book-close.css';

type Layout = 'a4' | 'a5';

/**
 * 批量打印 (/account/print): a book's vouchers of a period range laid out as 记账凭证 (A4: two a page; A5:
 * one a page), read page by page with progress, then printed (or saved as PDF) by the browser.
 * The background PDF/zip job of many clients is not built yet (docs/decisions-16-close.md).
 */
export function PrintPage() {
  useDocumentTitle('批量打印');
  return (
    <LinkedAgencyGuard>
      <PrintBody />
    </LinkedAgencyGuard>
  );
}

function PrintBody() {
  const [bookId, setBookId] = useChosenBook();
  const info = useBookInfo(bookId);
  const [range, setRange] = useState<[string, string]>(() => {
    const m = dayjs().subtract(1, 'month').format('YYYY-MM');
    return [m, m];
  });
  const [layout, setLayout] = useState<Layout>('a4');
  const [loaded, setLoaded] = useState<{ list: Voucher[]; total: number } | null>(null);
  const [loading, setLoading] = useState(false);
  const load = async () => {
    if (!bookId) return;
    setLoading(true);
    setLoaded({ list: [], total: 0 });
    try {
      const all: Voucher[] = [];
      for (let page = 1; ; page++) {
        const data = await call(vouchersCall, {
          bookId,
          periodFrom: range[0],
          periodTo: range[1],
          pageNum: page,
          pageSize: 100,
        });
        if (!data) break;
        all.push(...data.list);
        setLoaded({ list: [...all], total: data.total });
        if (all.length >= data.total || data.list.length === 0) break;
      }
    } finally {
      setLoading(false);
    }
  };
  const qymc = info.data?.qymc ?? '';
  const percent = loaded && loaded.total > 0 ? Math.floor((loaded.list.length * 100) / loaded.total) : 0;
  return (
    <div className="dzy-close-page dzy-print-page">
      <div className="dzy-close-bar dzy-print-controls">
        <Space wrap>
          <BookChooser bookId={bookId} onChange={setBookId} />
          <DatePicker.RangePicker
            picker="month"
            allowClear={false}
            value={[dayjs(`${range[0]}-01`), dayjs(`${range[1]}-01`)]}
            onChange={(v) => {
              if (v?.[0] && v[1]) setRange([v[0].format('YYYY-MM'), v[1].format('YYYY-MM')]);
            }}
          />
          <Radio.Group value={layout} onChange={(e) => setLayout(e.target.value as Layout)} optionType="button">
            <Radio.Button value="a4">A4（每页两张）</Radio.Button>
            <Radio.Button value="a5">A5（每页一张）</Radio.Button>
          </Radio.Group>
        </Space>
        <Space>
          <Button disabled={!bookId} loading={loading} onClick={() => void load()}>
            生成打印预览
          </Button>
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            disabled={!loaded || loading || loaded.list.length === 0}
            onClick={() => window.print()}
          >
            打印 / 另存为PDF
          </Button>
        </Space>
      </div>
      {loading && loaded ? <Progress percent={percent} className="dzy-print-controls" /> : null}
      {!bookId ? (
        <div className="dzy-close-empty">
          <Empty description="请选择账套" />
        </div>
      ) : !loaded ? (
        <Alert
          className="dzy-print-controls"
          type="info"
          showIcon
          message="选择期间和版式后生成打印预览；打印时可在浏览器中选择“另存为PDF”。"
        />
      ) : loaded.list.length === 0 && !loading ? (
        <div className="dzy-close-empty">
          <Empty description="所选期间没有凭证" />
        </div>
      ) : (
        <div className={`dzy-print-sheets dzy-print-${layout}`}>
          <style>{`@media print { @page { size: ${layout === 'a4' ? 'A4 portrait' : 'A5 landscape'}; margin: 10mm; } }`}</style>
          {loaded.list.map((v) => (
            <VoucherSheet key={v.id} v={v} qymc={qymc} />
          ))}
        </div>
      )}
    </div>
  );
}

function VoucherSheet({ v, qymc }: { v: Voucher; qymc: string }) {
  return (
    <div className="dzy-print-sheet">
      <div className="dzy-print-title">记账凭证</div>
      <div className="dzy-print-head">
        <span>核算单位：{qymc}</span>
        <span>日期：{v.vdate}</span>
        <span>
          凭证号：{v.word}-{v.number}
        </span>
        <span>附单据 {v.attachments} 张</span>
      </div>
      <table className="dzy-print-table">
        <thead>
          <tr>
            <th style={{ width: '32%' }}>摘要</th>
            <th style={{ width: '36%' }}>会计科目</th>
            <th>借方金额</th>
            <th>贷方金额</th>
          </tr>
        </thead>
        <tbody>
          {v.lines.map((l) => (
            <tr key={l.seq}>
              <td>{l.summary}</td>
              <td>
                {l.accountCode} {l.accountName}
                {l.auxName ? `（${l.auxName}）` : ''}
              </td>
              <td className="dzy-close-amount">{l.debit ? fenToYuanText(l.debit) : ''}</td>
              <td className="dzy-close-amount">{l.credit ? fenToYuanText(l.credit) : ''}</td>
            </tr>
          ))}
          <tr>
            <td colSpan={2}>合计：{rmbUpper(v.total)}</td>
            <td className="dzy-close-amount">{fenToYuanText(v.total)}</td>
            <td className="dzy-close-amount">{fenToYuanText(v.total)}</td>
          </tr>
        </tbody>
      </table>
      <div className="dzy-print-foot">
        <span>审核：{v.reviewerName}</span>
        <span>制单：{v.creatorName}</span>
      </div>
    </div>
  );
}
