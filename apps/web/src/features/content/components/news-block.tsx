import { RightOutlined } from '@ant-design/icons';
import { videoListCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Skeleton } from 'antd';
import { Link } from 'react-router';
import { call } from '../../../lib/request';
import { CONTENT_KEYS, dayOf } from '../api';
import '../content.css';

/** The portal's news block: the operator's latest news, each opening in 财税课堂. */
export function NewsBlock() {
  const news = useQuery({
    queryKey: [...CONTENT_KEYS.all, 'news-block'],
    queryFn: () => call(videoListCall, { kind: 'news', pageSize: 5 }),
    staleTime: 60_000,
  });
  return (
    <Card
      title="财税资讯"
      variant="borderless"
      className="dzy-news-block"
      extra={
        <Link to="/classroom?kind=news">
          更多 <RightOutlined />
        </Link>
      }
    >
      {news.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} title={false} />
      ) : (news.data?.list.length ?? 0) === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无资讯" />
      ) : (
        <ul className="dzy-news-list">
          {news.data?.list.map((n) => (
            <li key={n.id}>
              <Link to={`/classroom?kind=news&id=${n.id}`} title={n.title}>
                {n.title}
              </Link>
              <span className="dzy-news-day">{dayOf(n.publishedAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
