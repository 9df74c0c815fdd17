import {
  insertServiceLogCall,
  SERVICE_ENT_PAGE_SIZE,
  SERVICE_REQUEST_OK,
  type ServiceEnt,
  serviceEntListCall,
} from '@dzy/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Alert, Empty, Input, Modal, Radio, Spin } from 'antd';
import { type UIEvent, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';

/** Infinite scroll loads the next page this close to the bottom (foundation.md §9: distance 10). */
const SCROLL_DISTANCE = 10;

/**
 * 请选择企业 (foundation.md §2): the enterprise online service is about; 500 px, search by name or tax
 * number, an infinite-scroll radio list of name(tax number).
 */
export function EntChooserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [q, setQ] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const ents = useInfiniteQuery({
    queryKey: ['message', 'service-ents', q],
    queryFn: async ({ pageParam }) =>
      (await call(serviceEntListCall, {
        pageNum: pageParam,
        pageSize: SERVICE_ENT_PAGE_SIZE,
        ...(q ? { qymc: q } : {}),
      })) ?? {
        list: [],
        total: 0,
      },
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.list.length, 0) < last.total ? pages.length + 1 : undefined,
    enabled: open,
  });
  const rows: ServiceEnt[] = ents.data?.pages.flatMap((p) => p.list) ?? [];

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

  const close = () => {
    setChosen(null);
    setQ('');
    onClose();
  };

  const confirm = async () => {
    if (!chosen) {
      toast('warning', '请选择企业');
      return;
    }
    setSending(true);
    try {
      await call(insertServiceLogCall, { qysh: chosen });
      toast('success', SERVICE_REQUEST_OK);
      close();
    } catch {
      // Told by the request client.
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      title="请选择企业"
      open={open}
      width={500}
      onCancel={close}
      onOk={() => void confirm()}
      okText="联系客服"
      confirmLoading={sending}
      destroyOnHidden
    >
      <Input.Search
        allowClear
        placeholder="企业名称或税号"
        onSearch={(v) => {
          setQ(v.trim());
          setChosen(null);
        }}
        style={{ marginBottom: 12 }}
      />
      <div className="dzy-ent-list" onScroll={onScroll} data-testid="ent-list">
        {ents.isPending ? (
          <Spin className="dzy-msg-spin" />
        ) : rows.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无企业" />
        ) : (
          <Radio.Group value={chosen} onChange={(e) => setChosen(e.target.value as string)} className="dzy-ent-radios">
            {rows.map((r) => (
              <Radio key={r.id} value={r.qysh} disabled={!r.qysh}>
                {r.qymc}({r.qysh || '无税号'})
              </Radio>
            ))}
          </Radio.Group>
        )}
        {ents.isFetchingNextPage && <Spin size="small" className="dzy-msg-spin" />}
      </div>
      <Alert
        type="info"
        showIcon
        style={{ marginTop: 12 }}
        title="客服暂不能发起远程邀请；提交后客服接入时，页面会弹出会话提示。"
      />
    </Modal>
  );
}
