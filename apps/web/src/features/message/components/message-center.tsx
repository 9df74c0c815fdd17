import {
  type Announcement,
  MESSAGE_KEEP_NOTE,
  MESSAGE_PAGE_SIZE,
  MESSAGE_TABS,
  type MessageListItem,
  markNewsKnownCall,
  messageLink,
  type NewsItem,
  NO_MESSAGE_TEXT,
  selectAnnouncementsCall,
  selectMsgListCall,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Empty, Modal, Pagination, Spin, Tabs } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useMenuJump } from '../../../lib/menu';
import { ApiError, call } from '../../../lib/request';
import { closeMessageCenter, MESSAGE_KEYS, useMessageCenterOpen } from '../api';
import { AnnouncementDialog } from './announcement-dialog';
import { MsgSettingsTab } from './msg-settings-tab';
import '../message.css';

type Tab = '0' | '1' | '2' | '3';
const time = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm:ss');

function Pager({ page, total, onChange }: { page: number; total: number; onChange: (p: number) => void }) {
  if (total <= MESSAGE_PAGE_SIZE) return null;
  // Pager count 7 (foundation.md §9): first, last and the pages around the current one.
  return (
    <Pagination
      className="dzy-msg-pager"
      size="small"
      current={page}
      pageSize={MESSAGE_PAGE_SIZE}
      total={total}
      showLessItems
      showSizeChanger={false}
      showTotal={(n) => `共 ${n} 条`}
      onChange={onChange}
    />
  );
}

function MessageList({ big, page, onPage }: { big: 1 | 2; page: number; onPage: (p: number) => void }) {
  const jump = useMenuJump();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: MESSAGE_KEYS.list(big, page),
    // A failed list shows 暂无消息 (foundation.md §8).
    queryFn: () =>
      call(
        selectMsgListCall,
        { msg_style_big: big, pageNo: page, pageSize: MESSAGE_PAGE_SIZE },
        { handle: 'all' },
      ).catch(() => null),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.list ?? [];

  const open = (m: MessageListItem, link: string) => {
    if (!m.known) {
      void call(markNewsKnownCall, { ids: String(m.id) }, { handle: 'all' })
        .then(() => queryClient.invalidateQueries({ queryKey: MESSAGE_KEYS.all }))
        .catch(() => undefined);
    }
    closeMessageCenter();
    jump(link);
  };

  if (list.isPending) return <Spin className="dzy-msg-spin" />;
  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={NO_MESSAGE_TEXT} />;
  return (
    <>
      <ul className="dzy-msg-list" aria-label={MESSAGE_TABS[big - 1]}>
        {rows.map((m) => {
          const link = messageLink(m);
          return (
            <li key={m.id} className="dzy-msg-item">
              <div className="dzy-msg-content">
                {!m.known && <Badge status="processing" className="dzy-msg-dot" />}
                <span>{m.content}</span>
              </div>
              <div className="dzy-msg-meta">
                <span className="dzy-msg-time">{time(m.createTime)}</span>
                {link && (
                  <button type="button" className="dzy-link-button" onClick={() => open(m, link)}>
                    查看详情
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <Pager page={page} total={list.data?.total ?? 0} onChange={onPage} />
    </>
  );
}

function AnnouncementList({ page, onPage }: { page: number; onPage: (p: number) => void }) {
  const [shown, setShown] = useState<Announcement | null>(null);
  const list = useQuery({
    queryKey: MESSAGE_KEYS.announcements(page),
    // 406 is an empty list; other failures were already shown as a warning by the request client.
    queryFn: () =>
      call(selectAnnouncementsCall, { pageNo: page, pageSize: MESSAGE_PAGE_SIZE }).catch((err: unknown) => {
        if (err instanceof ApiError) return null;
        throw err;
      }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.list ?? [];
  if (list.isPending) return <Spin className="dzy-msg-spin" />;
  return (
    <>
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={NO_MESSAGE_TEXT} />
      ) : (
        <ul className="dzy-msg-list" aria-label="系统公告">
          {rows.map((a) => (
            <li key={a.id} className="dzy-msg-item">
              <div className="dzy-msg-content">
                <button type="button" className="dzy-msg-title" onClick={() => setShown(a)}>
                  {a.messageTitle}
                </button>
              </div>
              <div className="dzy-msg-meta">
                <span className="dzy-msg-time">{time(a.fbTime)}</span>
                <button type="button" className="dzy-link-button" onClick={() => setShown(a)}>
                  查看详情
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} total={list.data?.total ?? 0} onChange={onPage} />
      <AnnouncementDialog announcement={shown} onClose={() => setShown(null)} />
    </>
  );
}

/**
 * The tab to open on: 派工消息 (the spec's default) unless the unread messages the bell knows of are all
 * 系统消息, so that a user opening the centre for an unread message lands where it is.
 */
function unreadTab(unread: readonly NewsItem[]): Tab {
  if (unread.some((m) => m.msgStyleBig === 1)) return '0';
  return unread.some((m) => m.msgStyleBig === 2) ? '1' : '0';
}

/**
 * 消息管理 (foundation.md §2): 870 px, closed only by its close button, four tabs; opens on 派工消息 or, when the unread are all 系统消息, there; a tab
 * switch starts again at page 1 and reloads.
 */
export function MessageCenter() {
  const open = useMessageCenterOpen();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('0');
  const [page, setPage] = useState(1);

  useEffect(() => {
    if (!open) return;
    setTab(unreadTab(queryClient.getQueryData<{ list: NewsItem[] } | null>(MESSAGE_KEYS.news)?.list ?? []));
    setPage(1);
    void queryClient.invalidateQueries({ queryKey: MESSAGE_KEYS.all });
  }, [open, queryClient]);

  const switchTab = (key: string) => {
    setTab(key as Tab);
    setPage(1);
    void queryClient.invalidateQueries({ queryKey: MESSAGE_KEYS.all });
  };

  const body = (key: Tab) => {
    if (key !== tab) return null;
    if (key === '0' || key === '1') return <MessageList big={key === '0' ? 1 : 2} page={page} onPage={setPage} />;
    if (key === '2') return <AnnouncementList page={page} onPage={setPage} />;
    return <MsgSettingsTab />;
  };

  return (
    <Modal
      title="消息管理"
      open={open}
      width={870}
      onCancel={closeMessageCenter}
      mask={{ closable: false }}
      keyboard={false}
      footer={<div className="dzy-msg-footer">{MESSAGE_KEEP_NOTE}</div>}
      destroyOnHidden
      className="dzy-msg-center"
    >
      <Tabs
        activeKey={tab}
        onChange={switchTab}
        items={MESSAGE_TABS.map((label, i) => ({
          key: String(i),
          label,
          children: <div className="dzy-msg-body">{body(String(i) as Tab)}</div>,
        }))}
      />
    </Modal>
  );
}
