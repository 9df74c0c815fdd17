import { acceptProposalsCall, fenToYuanText, type Proposal } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useProposals } from '../api';

/**
 * 单据生成凭证: the book's current period's invoices (and wages from the filed IIT return) proposed as
 * vouchers by the agency's rules; the user accepts all or some, each once.
 */
export function ProposalsPanel({ bookId }: { bookId: number }) {
  const can = useHasPerm();
  const qc = useQueryClient();
  const q = useProposals(bookId);
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const list = q.data?.list ?? [];
  const open = list.filter((p) => !p.voucherNo && !p.problem);
  const accept = async (keys: string[]) => {
    setBusy(true);
    try {
      const data = await call(acceptProposalsCall, { bookId, keys });
      if (data) {
        toast('success', `已生成${data.made}张凭证`);
        setSelected([]);
        void qc.invalidateQueries();
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="dzy-close-body">
      {q.data && q.data.invoiceCount === 0 ? (
        <Alert
          type="info"
          showIcon
          message={`${q.data.period} 没有采集到该企业的发票`}
          description="请先在发票池采集本月发票（销项、进项），再回到这里生成凭证。"
        />
      ) : null}
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text type="secondary">
          {q.data
            ? `会计期间 ${q.data.period}：${list.length} 张拟生成凭证，${list.filter((p) => p.voucherNo).length} 张已生成`
            : ''}
        </Typography.Text>
        {can(['account:voucher:edit']) ? (
          <Space>
            <Button disabled={selected.length === 0} loading={busy} onClick={() => void accept(selected)}>
              生成所选（{selected.length}）
            </Button>
            <Button
              type="primary"
              disabled={open.length === 0}
              loading={busy}
              onClick={() => void accept(open.map((p) => p.key))}
              data-testid="accept-all"
            >
              全部生成
            </Button>
          </Space>
        ) : null}
      </Space>
      <Table<Proposal>
        size="small"
        rowKey="key"
        loading={q.isLoading}
        dataSource={list}
        pagination={false}
        scroll={{ y: 520 }}
        locale={{ emptyText: <Empty description="本期没有可生成凭证的单据" /> }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (k) => setSelected(k.map(String)),
          getCheckboxProps: (p) => ({ disabled: Boolean(p.voucherNo || p.problem) }),
        }}
        expandable={{
          expandedRowRender: (p) => (
            <Table
              size="small"
              rowKey={(_, i) => String(i)}
              pagination={false}
              dataSource={p.lines}
              columns={[
                { key: 'summary', title: '摘要', dataIndex: 'summary' },
                { key: 'acc', title: '科目', render: (_: unknown, l) => `${l.code} ${l.name}` },
                {
                  key: 'd',
                  title: '借方',
                  align: 'right',
                  render: (_: unknown, l) => (l.debit ? fenToYuanText(l.debit) : ''),
                },
                {
                  key: 'c',
                  title: '贷方',
                  align: 'right',
                  render: (_: unknown, l) => (l.credit ? fenToYuanText(l.credit) : ''),
                },
              ]}
            />
          ),
        }}
        columns={[
          { key: 'title', title: '单据', dataIndex: 'title', ellipsis: true },
          { key: 'vdate', title: '日期', dataIndex: 'vdate', width: 110 },
          {
            key: 'total',
            title: '金额',
            width: 140,
            align: 'right',
            render: (_: unknown, p) => <span className="dzy-close-amount">{fenToYuanText(p.total)}</span>,
          },
          {
            key: 'state',
            title: '状态',
            width: 220,
            render: (_: unknown, p) =>
              p.voucherNo ? (
                <Tag color="green">已生成 {p.voucherNo}</Tag>
              ) : p.problem ? (
                <Typography.Text type="warning">{p.problem}</Typography.Text>
              ) : (
                <Tag color="blue">待生成</Tag>
              ),
          },
        ]}
      />
    </div>
  );
}
