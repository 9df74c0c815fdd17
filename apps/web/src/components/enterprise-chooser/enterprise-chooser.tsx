import { CHOOSER_PAGE_SIZE, type ChooserItem, chooserListCall } from '@dzy/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Alert, Checkbox, Empty, Input, Modal, Radio, Spin, Typography } from 'antd';
import { type ReactNode, type UIEvent, useState } from 'react';
import { toast } from '../../lib/feedback';
import { call } from '../../lib/request';
import './enterprise-chooser.css';

/** The next page loads this close to the bottom of the list (foundation.md §9: distance 10). */
export const CHOOSER_SCROLL_DISTANCE = 10;

/** The enterprise's tax number as shown and sent: qysh, or qybm when it has none (foundation.md §3). */
export const chooserTaxNo = (e: ChooserItem): string => e.qysh || e.qybm;

interface CommonProps {
  open: boolean;
  onCancel: () => void;
  title?: string;
  /** Shown under the list (e.g. online service's note on remote invitations). */
  note?: ReactNode;
  /** Text of the confirm button; in multiple mode the count chosen follows it. */
  okText?: string;
  /** Items that cannot be chosen (shown, greyed). */
  isDisabled?: (e: ChooserItem) => boolean;
}
interface SingleProps extends CommonProps {
  multiple?: false;
  onOk: (e: ChooserItem) => void | Promise<void>;
}
interface MultipleProps extends CommonProps {
  multiple: true;
  /** Chosen when the chooser opens. */
  initial?: ChooserItem[];
  /** At most this many at once. */
  max?: number;
  onOk: (chosen: ChooserItem[]) => void | Promise<void>;
}
export type EnterpriseChooserProps = SingleProps | MultipleProps;

const NONE: ChooserItem[] = [];

/**
 * 请选择企业 (foundation.md §2 and §9), the one enterprise chooser of the product: 500 px, search by name
 * or tax number, an infinite-scroll list of name(tax number), 20 a page, the next page 10 px before the
 * bottom. Radios by default; `multiple` gives checkboxes for the pages that act on several (报税检查).
 */
export function EnterpriseChooser(props: EnterpriseChooserProps) {
  const { open, onCancel, title = '请选择企业', note, okText = '确定', isDisabled } = props;
  const initial = props.multiple ? (props.initial ?? NONE) : NONE;
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const [chosen, setChosen] = useState<ChooserItem[]>(initial);
  const [busy, setBusy] = useState(false);
  // Opening starts afresh (the initial choice, no search); adjusted while rendering, not in an effect.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    setInput('');
    setQ('');
    setChosen(open ? initial : NONE);
  }
  const ents = useInfiniteQuery({
    queryKey: ['enterprise-chooser', q],
    queryFn: async ({ pageParam }) =>
      (await call(chooserListCall, { ...pageParam, pageSize: CHOOSER_PAGE_SIZE, ...(q ? { qymc: q } : {}) })) ?? {
        list: [],
        total: 0,
        cursor: { next: null, prev: null },
      },
    initialPageParam: { pageNum: 1 } as { pageNum: number; cursor?: string },
    // The next page walks on from the last one's cursor (keyset paging on the server).
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.list.length, 0) < last.total
        ? { pageNum: pages.length + 1, ...(last.cursor.next ? { cursor: last.cursor.next } : {}) }
        : undefined,
    enabled: open,
  });
  const items = ents.data?.pages.flatMap((p) => p.list) ?? [];
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (
      el.scrollHeight - el.scrollTop - el.clientHeight <= CHOOSER_SCROLL_DISTANCE &&
      ents.hasNextPage &&
      !ents.isFetchingNextPage
    ) {
      void ents.fetchNextPage();
    }
  };
  const ok = async () => {
    const [first] = chosen;
    if (!first) {
      toast('warning', '请选择企业');
      return;
    }
    setBusy(true);
    try {
      if (props.multiple) await props.onOk(chosen);
      else await props.onOk(first);
    } finally {
      setBusy(false);
    }
  };
  const label = (e: ChooserItem) => `${e.qymc}(${chooserTaxNo(e) || '无税号'})`;
  const list = props.multiple ? (
    <Checkbox.Group
      className="dzy-chooser-group"
      value={chosen.map((c) => c.id)}
      onChange={(ids) => {
        // Ids chosen before a search stay chosen though their rows are not on screen.
        const known = new Map([...chosen, ...items].map((c) => [c.id, c]));
        const next = ids.flatMap((id) => known.get(id) ?? []);
        if (props.max !== undefined && next.length > props.max) toast('warning', `一次最多选择${props.max}家企业`);
        else setChosen(next);
      }}
    >
      {items.map((e) => (
        <Checkbox key={e.id} value={e.id} disabled={isDisabled?.(e)} className="dzy-chooser-item">
          {label(e)}
        </Checkbox>
      ))}
    </Checkbox.Group>
  ) : (
    <Radio.Group
      className="dzy-chooser-group"
      value={chosen[0]?.id}
      onChange={(e) => setChosen(items.filter((i) => i.id === e.target.value))}
    >
      {items.map((e) => (
        <Radio key={e.id} value={e.id} disabled={isDisabled?.(e)} className="dzy-chooser-item">
          {label(e)}
        </Radio>
      ))}
    </Radio.Group>
  );
  return (
    <Modal
      open={open}
      title={title}
      width={500}
      onCancel={onCancel}
      onOk={() => void ok()}
      okText={props.multiple && chosen.length > 0 ? `${okText}（已选 ${chosen.length} 家）` : okText}
      cancelText="取消"
      confirmLoading={busy}
      destroyOnHidden
    >
      <Input.Search
        value={input}
        onChange={(e) => setInput(e.target.value)}
        onSearch={(v) => setQ(v.trim())}
        placeholder="企业名称或税号"
        maxLength={50}
        allowClear
        enterButton="搜索"
        style={{ marginBottom: 12 }}
      />
      <div className="dzy-chooser-list" onScroll={onScroll} data-testid="enterprise-chooser-list">
        {ents.isPending ? (
          <div className="dzy-chooser-center" style={{ padding: 24 }}>
            <Spin />
          </div>
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无企业" />
        ) : (
          list
        )}
        {ents.isFetchingNextPage && (
          <div className="dzy-chooser-center">
            <Spin size="small" />
          </div>
        )}
        {!ents.hasNextPage && items.length > CHOOSER_PAGE_SIZE && (
          <Typography.Text type="secondary" className="dzy-chooser-center" style={{ display: 'block' }}>
            已全部加载（{items.length} 家）
          </Typography.Text>
        )}
      </div>
      {note && <Alert type="info" showIcon style={{ marginTop: 12 }} title={note} />}
    </Modal>
  );
}
