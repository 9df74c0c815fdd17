import { Tag } from 'antd';

const COLORS: Readonly<Record<string, string>> = {
  待提交: 'default',
  执行中: 'green',
  即将到期: 'orange',
  已到期: 'red',
  已终止: 'volcano',
  已删除: 'default',
};

/** A contract's state in words (statusText), coloured. */
export function StatusTag({ text }: { text: string }) {
  return <Tag color={COLORS[text] ?? 'default'}>{text}</Tag>;
}
