import { CloseOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { STORAGE_PREFIX } from '../../lib/client-state';
import { HOME_PATH } from '../../lib/paths';

interface VisitedTag {
  path: string;
  title: string;
}

const KEY = `${STORAGE_PREFIX}tags-view`;
const MAX_TAGS = 12;
const HOME: VisitedTag = { path: HOME_PATH, title: '门户' };

function load(): VisitedTag[] {
  try {
    const raw = JSON.parse(window.sessionStorage.getItem(KEY) ?? '[]') as VisitedTag[];
    return Array.isArray(raw) ? raw.filter((t) => typeof t.path === 'string' && typeof t.title === 'string') : [];
  } catch {
    return [];
  }
}

/** 标签页 (tagsView setting): the pages visited in this tab, to go back to one or close it. */
export function TagsView({ title }: { title: string | null }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [tags, setTags] = useState<VisitedTag[]>(load);

  useEffect(() => {
    if (!title || pathname === HOME_PATH) return;
    setTags((list) => {
      if (list.some((t) => t.path === pathname)) return list;
      const next = [...list, { path: pathname, title }].slice(-MAX_TAGS);
      window.sessionStorage.setItem(KEY, JSON.stringify(next));
      return next;
    });
  }, [pathname, title]);

  const close = (path: string) => {
    const next = tags.filter((t) => t.path !== path);
    setTags(next);
    window.sessionStorage.setItem(KEY, JSON.stringify(next));
    if (path === pathname) navigate(next.at(-1)?.path ?? HOME_PATH);
  };

  return (
    <div className="dzy-tags" role="tablist" aria-label="已打开的页面">
      {[HOME, ...tags].map((t) => {
        const active = t.path === pathname;
        return (
          <div key={t.path} className={active ? 'dzy-tag dzy-tag-active' : 'dzy-tag'}>
            <button
              type="button"
              role="tab"
              aria-selected={active}
              className="dzy-tag-link"
              onClick={() => !active && navigate(t.path + (active ? search : ''))}
            >
              {active && <span className="dzy-tag-dot" />}
              {t.title}
            </button>
            {t.path !== HOME_PATH && (
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
  );
}
