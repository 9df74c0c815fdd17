import { LinkOutlined } from '@ant-design/icons';
import { addWatchNowCall, addWatchOldCall, type ContentDetail, videoInfoCall } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Modal, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { call } from '../../../lib/request';
import { CONTENT_KEYS, dayOf, durationText, itemMeta, kindColor, playableLink } from '../api';

/** Counts one view (once per user, item and day on the server). */
function useCountView(item: ContentDetail | undefined) {
  const queryClient = useQueryClient();
  const counted = useRef<number | null>(null);
  return () => {
    if (!item || counted.current === item.id) return;
    counted.current = item.id;
    void call(addWatchNowCall, { id: item.id }, { handle: 'all' })
      .then(() => queryClient.invalidateQueries({ queryKey: CONTENT_KEYS.all }))
      .catch(() => undefined);
  };
}

function Player({ item, onView }: { item: ContentDetail; onView: () => void }) {
  const ref = useRef<HTMLVideoElement>(null);
  const lastSaved = useRef(0);
  // The position is kept when paused, every 15 s of playing, and when the viewer closes.
  useEffect(() => {
    const v = ref.current;
    const save = () => {
      if (!v || !Number.isFinite(v.currentTime)) return;
      lastSaved.current = Date.now();
      void call(
        addWatchOldCall,
        { id: item.id, position: v.currentTime, duration: Number.isFinite(v.duration) ? v.duration : 0 },
        { handle: 'all' },
      ).catch(() => undefined);
    };
    const tick = () => {
      if (Date.now() - lastSaved.current > 15_000) save();
    };
    v?.addEventListener('pause', save);
    v?.addEventListener('timeupdate', tick);
    return () => {
      v?.removeEventListener('pause', save);
      v?.removeEventListener('timeupdate', tick);
      if (v && v.currentTime > 0) save();
    };
  }, [item.id]);
  return (
    <video
      ref={ref}
      className="dzy-content-video"
      controls
      preload="metadata"
      src={item.mediaUrl}
      poster={item.coverUrl || undefined}
      onPlay={onView}
      onLoadedMetadata={(e) => {
        // Resume where this user stopped (unless at the very end).
        const v = e.currentTarget;
        if (item.myPosition > 0 && item.myPosition < v.duration - 5) v.currentTime = item.myPosition;
      }}
    >
      <track kind="captions" />
    </video>
  );
}

/** 财税课堂 player (uploaded video or playable link), external-link page, or news reader, in a dialog. */
export function ContentViewer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const info = useQuery({
    queryKey: [...CONTENT_KEYS.all, 'info', id],
    queryFn: () => call(videoInfoCall, { id: id as number }),
    enabled: id !== null,
  });
  const item = info.data ?? undefined;
  const countView = useCountView(item);
  // Opening a news item counts as reading it.
  useEffect(() => {
    if (item?.kind === 'news') countView();
  }, [item, countView]);

  const body = () => {
    if (info.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
    if (!item) return <Empty description="内容不存在或已下架" />;
    const meta = (
      <Space size={8} wrap className="dzy-content-meta">
        <Tag color={kindColor[item.kind]}>{itemMeta(item)}</Tag>
        {item.publishedAt && <span>发布于 {dayOf(item.publishedAt)}</span>}
        {item.durationSec > 0 && <span>时长 {durationText(item.durationSec)}</span>}
        <span>
          {item.watchCount} 次{item.kind === 'news' ? '阅读' : '观看'}
        </span>
      </Space>
    );
    if (item.kind === 'news') {
      return (
        <article className="dzy-content-article">
          {meta}
          {item.summary && <Typography.Paragraph type="secondary">{item.summary}</Typography.Paragraph>}
          {item.body.split(/\n{2,}/).map((p) => (
            <Typography.Paragraph key={p.slice(0, 40)}>{p}</Typography.Paragraph>
          ))}
        </article>
      );
    }
    if (item.source === 'upload' || playableLink(item.mediaUrl)) {
      return (
        <div>
          <Player item={item} onView={countView} />
          {meta}
          {item.myPosition > 0 && (
            <Typography.Text type="secondary" className="dzy-content-resume">
              已从上次看到的 {durationText(item.myPosition)} 继续播放
            </Typography.Text>
          )}
          {item.summary && <Typography.Paragraph style={{ marginTop: 8 }}>{item.summary}</Typography.Paragraph>}
        </div>
      );
    }
    return (
      <div>
        {meta}
        {item.summary && <Typography.Paragraph style={{ marginTop: 12 }}>{item.summary}</Typography.Paragraph>}
        <Typography.Paragraph type="secondary">该讲座由外部平台提供，将在新窗口中打开观看。</Typography.Paragraph>
        <Button
          type="primary"
          icon={<LinkOutlined />}
          href={item.mediaUrl}
          target="_blank"
          rel="noopener noreferrer"
          onClick={countView}
        >
          前往观看
        </Button>
      </div>
    );
  };

  return (
    <Modal
      open={id !== null}
      title={item?.title ?? '财税课堂'}
      width={item?.kind === 'news' ? 760 : 880}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      {body()}
    </Modal>
  );
}
