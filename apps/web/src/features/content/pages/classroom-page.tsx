import { PlayCircleFilled, ReadOutlined, SearchOutlined, VideoCameraOutlined } from '@ant-design/icons';
import {
  CONTENT_PAGE_SIZES,
  type ContentCategory,
  type ContentItem,
  type ContentKind,
  filterVideoListCall,
  videoListCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Input, Pagination, Segmented, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/document-title';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { CONTENT_KEYS, dayOf, durationText, itemMeta, kindColor } from '../api';
import { ContentViewer } from '../components/content-viewer';
import '../content.css';

function Cover({ item }: { item: ContentItem }) {
  const icon =
    item.kind === 'news' ? <ReadOutlined /> : item.kind === 'lecture' ? <VideoCameraOutlined /> : <PlayCircleFilled />;
  return (
    <div className={`dzy-content-cover dzy-content-cover-${item.kind}`}>
      {item.coverUrl ? (
        <img src={item.coverUrl} alt="" loading="lazy" />
      ) : (
        <span className="dzy-content-cover-icon">{icon}</span>
      )}
      {item.durationSec > 0 && <span className="dzy-content-duration">{durationText(item.durationSec)}</span>}
      {item.myPosition > 0 && item.durationSec > 0 && (
        <span
          className="dzy-content-progress"
          style={{ width: `${Math.min(100, (item.myPosition / item.durationSec) * 100)}%` }}
        />
      )}
    </div>
  );
}

/** 财税课堂 (/classroom): the operator's videos, lectures and news, filtered, searched, paged. */
export function ClassroomPage() {
  useDocumentTitle('财税课堂');
  const [params, setParams] = useSearchParams();
  const [kind, setKind] = useState<ContentKind | 'all'>(() => {
    const k = params.get('kind');
    return k === 'video' || k === 'lecture' || k === 'news' ? k : 'all';
  });
  const [category, setCategory] = useState<ContentCategory | undefined>();
  const [keyword, setKeyword] = useState('');
  const openId = Number(params.get('id')) || null;

  const filters = useQuery({
    queryKey: [...CONTENT_KEYS.all, 'filters'],
    queryFn: () => call(filterVideoListCall, {}),
    staleTime: 60_000,
  });
  const list = usePagedList(
    videoListCall,
    {
      ...(kind !== 'all' ? { kind } : {}),
      ...(category ? { category } : {}),
      ...(keyword ? { keyword } : {}),
    },
    { queryKey: [...CONTENT_KEYS.all, 'list'], pageSize: CONTENT_PAGE_SIZES[0] },
  );
  const total = (filters.data?.kinds ?? []).reduce((a, k) => a + k.count, 0);
  const open = (id: number | null) => {
    const next = new URLSearchParams(params);
    if (id === null) next.delete('id');
    else next.set('id', String(id));
    setParams(next, { replace: true });
  };

  return (
    <div className="dzy-classroom">
      <Card variant="borderless" className="dzy-classroom-bar">
        <Segmented<ContentKind | 'all'>
          value={kind}
          onChange={setKind}
          options={[
            { value: 'all', label: `全部 ${total || ''}`.trim() },
            ...(filters.data?.kinds ?? []).map((k) => ({
              value: k.value as ContentKind,
              label: `${k.label} ${k.count}`,
            })),
          ]}
        />
        <Space wrap>
          <Select<ContentCategory>
            allowClear
            placeholder="全部分类"
            style={{ width: 160 }}
            value={category}
            onChange={setCategory}
            options={(filters.data?.categories ?? []).map((c) => ({
              value: c.value as ContentCategory,
              label: `${c.value}（${c.count}）`,
            }))}
          />
          <Input.Search
            allowClear
            placeholder="搜索标题或简介"
            maxLength={50}
            style={{ width: 240 }}
            enterButton={<SearchOutlined />}
            onSearch={(v) => setKeyword(v.trim())}
          />
        </Space>
      </Card>

      {list.isLoading ? (
        <div className="dzy-classroom-grid">
          {['a', 'b', 'c', 'd'].map((k) => (
            <Card key={k} variant="borderless">
              <Skeleton active />
            </Card>
          ))}
        </div>
      ) : (list.data?.list.length ?? 0) === 0 ? (
        <Card variant="borderless">
          <Empty description={keyword || category || kind !== 'all' ? '没有符合条件的内容' : '暂无课堂内容'} />
        </Card>
      ) : (
        <div className="dzy-classroom-grid">
          {list.data?.list.map((item) => (
            <Card
              key={item.id}
              hoverable
              variant="borderless"
              className="dzy-classroom-card"
              cover={<Cover item={item} />}
              onClick={() => open(item.id)}
            >
              <Tag color={kindColor[item.kind]} className="dzy-classroom-tag">
                {itemMeta(item)}
              </Tag>
              <Typography.Paragraph strong ellipsis={{ rows: 2, tooltip: item.title }} className="dzy-classroom-title">
                {item.title}
              </Typography.Paragraph>
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="dzy-classroom-summary">
                {item.summary || '—'}
              </Typography.Paragraph>
              <div className="dzy-classroom-foot">
                <span>{dayOf(item.publishedAt)}</span>
                <span>
                  {item.watchCount} 次{item.kind === 'news' ? '阅读' : '观看'}
                </span>
              </div>
            </Card>
          ))}
        </div>
      )}
      {(list.data?.total ?? 0) > 0 && (
        <div className="dzy-classroom-pager">
          <Pagination
            {...list.pagination}
            showSizeChanger
            pageSizeOptions={CONTENT_PAGE_SIZES.map(String)}
            showTotal={(n) => `共 ${n} 条`}
          />
        </div>
      )}
      <ContentViewer id={openId} onClose={() => open(null)} />
    </div>
  );
}
