import { MSG_TYPE_NAMES, type MsgType } from '@dzy/shared';
import { Tag } from 'antd';

/** Tag colours per msg_type: success green, incomplete data orange, login failures red, busy gold, expired grey. */
export const MSG_TYPE_COLORS: Readonly<Record<MsgType, string>> = {
  1: 'success',
  2: 'orange',
  3: 'orange',
  4: 'red',
  5: 'volcano',
  6: 'gold',
  7: 'magenta',
  8: 'default',
};

/** One enterprise's outcome (tax-bureau.md §4 msg_type); null (待检查) while it waits its turn. */
export function MsgTypeTag({ value }: { value: number | null }) {
  if (value === null) return <Tag>待检查</Tag>;
  const t = value as MsgType;
  return (
    <Tag color={MSG_TYPE_COLORS[t]} data-testid={`msg-type-${t}`}>
      {MSG_TYPE_NAMES[t] ?? `类型${value}`}
    </Tag>
  );
}
