import { CloseOutlined, DownOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { STORAGE_PREFIX } from '../../lib/client-state';
import { isPortalPath, usePortalPath } from '../../lib/layout-settings';
import { useSessionInfo } from '../../lib/session';

interface VisitedTag {
  path: string;
  title: string;
}

/** Per user: a tab's restored pages are never another user's, even if this tab's storage survived. */
const keyOf = (userId: number) => `${STORAGE_PREFIX}tags-view:${userId}`;
const MAX_TAGS = 12;

function load(key: string): VisitedTag[] {
  try {
    const raw = JSON.parse(window.sessionStorage.getItem(key) ?? '[]') as VisitedTag[];
    return Array.isArray(raw) ? raw.filter((t) => typeof t.path === 'string' && typeof t.title === 'string') : [];
  } catch {
    return [];
  }
}

/** 标签页 (tagsView setting): the pages visited in this tab, to go back to one or close it. */
export function TagsView({ title }: { title: string | null }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const KEY = keyOf(useSessionInfo().token.id);
  const [tags, setTags] = useState<VisitedTag[]>(() => load(KEY));
  // The first tab is the portal of the chosen version (门户版本).
  const home: VisitedTag = { path: usePortalPath(), title: '门户' };

  useEffect(() => {
    if (!title || isPortalPath(pathname)) return;
    setTags((list) => {
      if (list.some((t) => t.path === pathname)) return list;
      const next = [...list, { path: pathname, title }].slice(-MAX_TAGS);
      window.sessionStorage.setItem(KEY, JSON.stringify(next));
      return next;
    });
  }, [pathname, title, KEY]);

  // Tabs past the width scroll (the open one is brought into view) and are all listed in the menu at
  // the right, which shows only when some tab is out of sight.
  const strip = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState(false);
  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    const measure = () => setOverflow(el.scrollWidth > el.clientWidth + 1);
    measure();
    const seen = new ResizeObserver(measure);
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again whenever the tabs change
  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    setOverflow(el.scrollWidth > el.clientWidth + 1);
    el.querySelector('.dzy-tag-active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [tags, pathname]);

  const close = (path: string) => {
    const next = tags.filter((t) => t.path !== path);
    setTags(next);
    window.sessionStorage.setItem(KEY, JSON.stringify(next));
    if (path === pathname) navigate(next.at(-1)?.path ?? home.path);
  };

  const all = [home, ...tags];
  return (
    <div className="dzy-tags">
      <div
        className="dzy-tags-strip"
        ref={strip}
        role="tablist"
        aria-label="已打开的页面"
        onWheel={(e) => {
          if (strip.current && e.deltaY !== 0) strip.current.scrollLeft += e.deltaY;
        }}
      >
        {all.map((t) => {
          const active = t.path === pathname;
          return (
            <div key={t.path} className={active ? 'dzy-tag dzy-tag-active' : 'dzy-tag'}>
              <button
                type="button"
                role="tab"
                aria-selected={active}
                className="dzy-tag-link"
                onClick={() => !active && navigate(t.path)}
              >
                {active && <span className="dzy-tag-dot" />}
                {t.title}
              </button>
              {t.path !== home.path && (
                <button
                  type="button"
                  className="dzy-tag-close"
                  aria-label={`关闭 ${t.title}`}
                  onClick={() => close(t.path)}
                >
                  <CloseOutlined />
                </button>
              )}
            </div>
          );
        })}
      </div>
      {overflow && (
        <Dropdown
          trigger={['click']}
          placement="bottomRight"
          menu={{
            selectedKeys: [pathname],
            items: all.map((t) => ({ key: t.path, label: t.title })),
            onClick: ({ key }) => key !== pathname && navigate(key),
          }}
        >
          <Button size="small" className="dzy-tags-more" aria-label="全部已打开的页面">
            全部 {all.length} <DownOutlined />
          </Button>
        </Dropdown>
      )}
    </div>
  );
}
