import { FILING_TAX_TYPE_NAMES, FILING_TAX_TYPE_SHORT, type FilingTaxType } from '@dzy/shared';
import { Tag, Tooltip, Typography } from 'antd';
import { formatMoney } from '../../../lib/money';
import { periodLabel } from '../../filing-check/period';
import {
  CONFIRM_STATE_COLORS,
  CONFIRM_STATE_NAMES,
  ITEM_STATE_COLORS,
  ITEM_STATE_NAMES,
  PAY_STATE_COLORS,
  PAY_STATE_NAMES,
  type PlanItem,
  SOURCE_NAMES,
  sbjtylHref,
} from '../api';

export const taxName = (t: string) => FILING_TAX_TYPE_NAMES[t as FilingTaxType] ?? t;
export const taxShort = (t: string) => FILING_TAX_TYPE_SHORT[t as FilingTaxType] ?? t;
/** States whose message is a problem (shown in red). */
const BAD: readonly string[] = ['planFailed', 'rejected', 'needsInput'];
export const periodOf = (item: Pick<PlanItem, 'skssqq' | 'skssqz'>) => periodLabel(item.skssqq, item.skssqz);

/** 来源: where the figures came from. */
export function SourceTag({ item }: { item: PlanItem }) {
  const name = SOURCE_NAMES[item.source as keyof typeof SOURCE_NAMES] ?? item.source;
  const color = item.source === 'zero' ? 'default' : item.source === 'typed' ? 'purple' : 'blue';
  return (
    <Tag color={color} className="dzy-batch-tag">
      {name}
      {item.taxType === 'grsds' && item.source === 'wages' && item.state !== 'filed' ? '·预估' : ''}
    </Tag>
  );
}

/** 申报状态 with the bureau's or the plan's message under it, and the receipt link once filed. */
export function ItemStateCell({
  item,
  receipt = true,
  pay = false,
}: {
  item: PlanItem;
  receipt?: boolean;
  /** The payment under it (the plan's table has no column of its own for it). */
  pay?: boolean;
}) {
  const name = ITEM_STATE_NAMES[item.state as keyof typeof ITEM_STATE_NAMES] ?? item.state;
  return (
    <div>
      <Tag color={ITEM_STATE_COLORS[item.state as keyof typeof ITEM_STATE_COLORS]} className="dzy-batch-tag">
        {name}
      </Tag>
      {item.overdue && item.state !== 'filed' && <Tag color="error">逾期</Tag>}
      {receipt && item.state === 'filed' && item.pzxh && (
        <a href={sbjtylHref(item)} target="_blank" rel="noreferrer" data-testid="receipt-link">
          回执
        </a>
      )}
      {item.msg && item.msg !== name && (
        <div className={BAD.includes(item.state) ? 'dzy-plan-msg' : 'dzy-plan-msg-ok'} data-testid="item-msg">
          {item.msg}
        </div>
      )}
      {pay && item.payState !== 'none' && (
        <div className="dzy-plan-pay">
          <PayCell item={item} />
        </div>
      )}
    </div>
  );
}

export function PayCell({ item }: { item: PlanItem }) {
  if (!item.payState || item.payState === 'none') return <span className="dzy-plan-sub">—</span>;
  return (
    <div>
      <Tag color={PAY_STATE_COLORS[item.payState as keyof typeof PAY_STATE_COLORS]} className="dzy-batch-tag">
        {PAY_STATE_NAMES[item.payState as keyof typeof PAY_STATE_NAMES] ?? item.payState}
      </Tag>
      {item.payMsg && (
        <div className={item.payState === 'refused' ? 'dzy-plan-msg' : 'dzy-plan-msg-ok'} data-testid="pay-msg">
          {item.payMsg}
        </div>
      )}
    </div>
  );
}

export function ConfirmCell({ item }: { item: PlanItem }) {
  if (!item.confirmState || item.confirmState === 'none') return <span className="dzy-plan-sub">未发送</span>;
  return (
    <Tag color={CONFIRM_STATE_COLORS[item.confirmState as keyof typeof CONFIRM_STATE_COLORS]}>
      {CONFIRM_STATE_NAMES[item.confirmState as keyof typeof CONFIRM_STATE_NAMES] ?? item.confirmState}
    </Tag>
  );
}

/** An amount with last period's under it. */
export function MoneyCell({ value, prev, noTax }: { value: string; prev?: string | null; noTax?: boolean }) {
  if (noTax) return <span className="dzy-plan-sub">—</span>;
  return (
    <div>
      <div className="dzy-plan-money">{formatMoney(value)}</div>
      {prev !== undefined && (
        <Tooltip title="上期">
          <div className="dzy-plan-prev">上期 {prev === null ? '—' : formatMoney(prev)}</div>
        </Tooltip>
      )}
    </div>
  );
}

export function ClientCell({ item }: { item: Pick<PlanItem, 'qymc' | 'qysh'> }) {
  return (
    <div className="dzy-plan-name">
      <div>{item.qymc}</div>
      <Typography.Text type="secondary" className="dzy-plan-sub">
        {item.qysh}
      </Typography.Text>
    </div>
  );
}
