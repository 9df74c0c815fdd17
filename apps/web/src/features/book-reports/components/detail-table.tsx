import { type DetailRow, detailLedgerCall } from '@dzy/shared';
import { Table } from 'antd';
import { usePagedList } from '../../../lib/paging';
import { cell, money } from '../api';

/** 明细账 (and drill-down): the lines of accounts over a range, paged, with the running balance. */
export function DetailTable({
  bookId,
  from,
  to,
  codes,
}: {
  bookId: number;
  from: string;
  to: string;
  codes: string[];
}) {
  const list = usePagedList(detailLedgerCall, { bookId, from, to, codes }, { pageSize: 50, enabled: codes.length > 0 });
  const d = list.data;
  return (
    <>
      {d ? (
        <div className="dzy-report-summary" data-testid="detail-summary">
          期初余额：{d.openingDir} {money(d.opening)}　本期借方：{money(d.debit)}　本期贷方：{money(d.credit)}
          　期末余额：
          {d.closingDir} {money(d.closing)}
        </div>
      ) : null}
      <Table<DetailRow>
        data-testid="detail-table"
        size="small"
        rowKey="id"
        loading={list.isFetching}
        dataSource={d?.list ?? []}
        pagination={list.pagination}
        scroll={{ x: 960 }}
        locale={{ emptyText: '所选期间没有凭证分录' }}
        columns={[
          { title: '日期', dataIndex: 'vdate', width: 110 },
          { title: '凭证字号', dataIndex: 'voucherNo', width: 90 },
          { title: '科目', key: 'acc', width: 200, render: (_, r) => `${r.code} ${r.accountName}` },
          { title: '摘要', dataIndex: 'summary', ellipsis: true },
          { title: '借方', dataIndex: 'debit', width: 130, align: 'right', render: cell },
          { title: '贷方', dataIndex: 'credit', width: 130, align: 'right', render: cell },
          { title: '方向', dataIndex: 'dir', width: 60, align: 'center' },
          { title: '余额', dataIndex: 'balance', width: 140, align: 'right', render: money },
        ]}
      />
    </>
  );
}
