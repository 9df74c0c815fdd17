import { POOL_DEDUCT_STATE_NAMES, POOL_INVOICE_STATE_NAMES, POOL_KIND_NAMES, type PoolInvoice } from '@dzy/shared';
import { Tag } from 'antd';
import type { ListColumn } from '../../../components/list-page/list-table';
import { fenText } from '../api';

const STATE_COLORS = { normal: 'success', reversed: 'warning', void: 'default', red: 'error' } as const;
const DEDUCT_COLORS = { none: 'default', selected: 'processing', confirmed: 'success' } as const;

export const Money = ({ fen }: { fen: number }) => (
  <span className={`dzy-pool-money${fen < 0 ? ' dzy-pool-neg' : ''}`}>{fenText(fen)}</span>
);

export const StateTag = ({ state }: { state: PoolInvoice['state'] }) => (
  <Tag color={STATE_COLORS[state]}>{POOL_INVOICE_STATE_NAMES[state]}</Tag>
);

export const DeductTag = ({ state }: { state: PoolInvoice['deductState'] }) => (
  <Tag color={DEDUCT_COLORS[state]}>{POOL_DEDUCT_STATE_NAMES[state]}</Tag>
);

/** The columns every invoice list shares; `party` names the other party (购买方 or 销售方). */
export function invoiceColumns(party: string, withClient: boolean): ListColumn<PoolInvoice>[] {
  return [
    ...(withClient ? [{ title: '企业名称', key: 'qymc', dataIndex: 'qymc', width: 200, ellipsis: true }] : []),
    { title: '发票号码', key: 'fphm', dataIndex: 'fphm', width: 190 },
    { title: '开票日期', key: 'kprq', dataIndex: 'kprq', width: 105 },
    {
      title: '票种',
      key: 'fplx',
      width: 70,
      render: (_, r) => <Tag color={r.fplx === 'zp' ? 'blue' : 'default'}>{POOL_KIND_NAMES[r.fplx]}</Tag>,
    },
    { title: '状态', key: 'state', width: 90, render: (_, r) => <StateTag state={r.state} /> },
    { title: `${party}名称`, key: 'cpName', dataIndex: 'cpName', width: 200, ellipsis: true },
    { title: `${party}税号`, key: 'cpTaxNo', dataIndex: 'cpTaxNo', width: 180 },
    { title: '金额', key: 'amount', width: 120, align: 'right', render: (_, r) => <Money fen={r.amount} /> },
    { title: '税额', key: 'tax', width: 110, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
    { title: '价税合计', key: 'total', width: 130, align: 'right', render: (_, r) => <Money fen={r.total} /> },
  ];
}
