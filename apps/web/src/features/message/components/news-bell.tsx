import { BellOutlined } from '@ant-design/icons';
import { bellText, markNewsKnownCall, messageLink, type NewsItem } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, Popover, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useMenuJump } from '../../../lib/menu';
import { call } from '../../../lib/request';
import { MESSAGE_KEYS, openMessageCenter, useNews } from '../api';
// The shell shows these on every page: their styles cannot wait for 消息管理 (loaded when opened).
import '../message.css';

/** The news bell: up to 3 messages not yet seen, polled every 60 s and pushed in between. */
export function NewsBell() {
  const news = useNews();
  const queryClient = useQueryClient();
  const jump = useMenuJump();
  const [open, setOpen] = useState(false);
  const list = news.data?.list ?? [];
  const total = news.data?.total ?? 0;

  const markKnown = async (ids: number[]) => {
    if (ids.length === 0) return;
    try {
      await call(markNewsKnownCall, { ids: ids.join('@') });
    } finally {
      void queryClient.invalidateQueries({ queryKey: MESSAGE_KEYS.all });
    }
  };

  const openItem = (m: NewsItem) => {
    void markKnown([m.id]).catch(() => undefined);
    const link = messageLink(m);
    setOpen(false);
    if (link) jump(link);
    else openMessageCenter();
  };

  const content = (
    <div className="dzy-bell-popup">
      <div className="dzy-bell-head">
        <span>消息通知{total > 0 ? `（${total}条未读）` : ''}</span>
        {list.length > 0 && (
          <Button type="link" size="small" onClick={() => void markKnown(list.map((m) => m.id)).catch(() => undefined)}>
            知道了
          </Button>
        )}
      </div>
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无新消息" />
      ) : (
        <ul className="dzy-bell-list">
          {list.map((m) => {
            const { label, rest } = bellText(m.content);
            return (
              <li key={m.id}>
                <button type="button" className="dzy-bell-item" onClick={() => openItem(m)}>
                  <span className={m.msgStyleBig === 1 ? 'dzy-bell-label' : 'dzy-bell-label dzy-bell-label-sys'}>
                    {label}
                  </span>
                  <span className="dzy-bell-text">{rest}</span>
                  <span className="dzy-bell-time">{dayjs(m.createTime).format('MM-DD HH:mm')}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="dzy-bell-foot">
        <Button
          type="link"
          size="small"
          onClick={() => {
            setOpen(false);
            openMessageCenter();
          }}
        >
          查看全部消息
        </Button>
      </div>
    </div>
  );

  return (
    <Popover content={content} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen} arrow={false}>
      <Tooltip title="消息通知" placement="bottom">
        <button type="button" className="dzy-header-icon" aria-label="消息通知" data-testid="news-bell">
          <Badge count={total} size="small" overflowCount={99}>
            <BellOutlined style={{ fontSize: 18 }} />
          </Badge>
        </button>
      </Tooltip>
    </Popover>
  );
}
