import { CHOOSER_PAGE_SIZE, type ChooserItem, chooserListCall } from '@dzy/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Empty, Input, Modal, Radio, Spin, Typography } from 'antd';
import { type ReactNode, type UIEvent, useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { CUSTOMER_KEYS } from '../api';

/** The next page loads this close to the bottom of the list (foundation.md §9: distance 10). */
const SCROLL_DISTANCE = 10;

/**
 * 请选择企业 (foundation.md §2, customer service): 500 px, search by name or tax number, an
 * infinite-scroll radio list of name(tax number), 20 a page. Reusable: `onOk` gets the chosen one.
 */
export function EnterpriseChooser({
  open,
  onCancel,
  onOk,
  title = '请选择企业',
  note,
  okText = '确定',
}: {
  open: boolean;
  onCancel: () => void;
  onOk: (e: ChooserItem) => void | Promise<void>;
  title?: string;
  note?: ReactNode;
  okText?: string;
}) {
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const [chosen, setChosen] = useState<ChooserItem | null>(null);
  useEffect(() => {
    if (!open) {
      setInput('');
      setQ('');
      setChosen(null);
    }
  }, [open]);
  const ents = useInfiniteQuery({
    queryKey: CUSTOMER_KEYS.chooser(q),
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
      el.scrollHeight - el.scrollTop - el.clientHeight <= SCROLL_DISTANCE &&
      ents.hasNextPage &&
      !ents.isFetchingNextPage
    ) {
      void ents.fetchNextPage();
    }
  };
  const ok = async () => {
    if (!chosen) {
      toast('warning', '请选择企业');
      return;
    }
    await onOk(chosen);
  };
  return (
    <Modal
      open={open}
      title={title}
      width={500}
      onCancel={onCancel}
      onOk={ok}
      okText={okText}
      cancelText="取消"
      destroyOnHidden
    >
      <Input.Search
        value={input}
        onChange={(e) => setInput(e.target.value)}
        onSearch={(v) => setQ(v.trim())}
        placeholder="企业名称或税号"
        allowClear
        enterButton="搜索"
        style={{ marginBottom: 12 }}
      />
      <div className="dzy-chooser-list" onScroll={onScroll} data-testid="enterprise-chooser-list">
        {ents.isPending ? (
          <div style={{ textAlign: 'center', padding: 24 }}>
            <Spin />
          </div>
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无企业" />
        ) : (
          <Radio.Group
            value={chosen?.id}
            onChange={(e) => setChosen(items.find((i) => i.id === e.target.value) ?? null)}
            style={{ width: '100%' }}
          >
            {items.map((e) => (
              <Radio key={e.id} value={e.id} className="dzy-chooser-item">
                {e.qymc}({e.qysh || e.qybm || '无税号'})
              </Radio>
            ))}
          </Radio.Group>
        )}
        {ents.isFetchingNextPage && (
          <div style={{ textAlign: 'center', padding: 8 }}>
            <Spin size="small" />
          </div>
        )}
        {!ents.hasNextPage && items.length > CHOOSER_PAGE_SIZE && (
          <Typography.Text type="secondary" style={{ display: 'block', textAlign: 'center', padding: 8 }}>
            已全部加载（{items.length} 家）
          </Typography.Text>
        )}
      </div>
      {note && <div style={{ marginTop: 12 }}>{note}</div>}
    </Modal>
  );
}
