import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';

export interface LoginTab {
  key: string;
  label: string;
  children: ReactNode;
}

/**
 * The sign-in card's two tabs, drawn like antd's Tabs (blue label and ink bar on the active one) with the
 * WAI-ARIA tab pattern (arrow keys move between them). antd's Tabs would bring its overflow menu, dropdown
 * and popup code to the first page a visitor loads. A pane stays mounted once shown, so a half-filled form
 * survives switching back and forth.
 */
export function LoginTabs({
  items,
  activeKey,
  onChange,
}: {
  items: LoginTab[];
  activeKey: string;
  onChange: (key: string) => void;
}) {
  const id = useId();
  const [visited, setVisited] = useState(() => new Set([activeKey]));
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  const select = (key: string) => {
    setVisited((v) => (v.has(key) ? v : new Set(v).add(key)));
    onChange(key);
  };

  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = (index + step + items.length) % items.length;
    const item = items[next];
    if (!item) return;
    select(item.key);
    buttons.current[next]?.focus();
  };

  return (
    <div className="dzy-login-tabs">
      <div className="dzy-login-tabs-nav" role="tablist">
        {items.map((item, index) => {
          const active = item.key === activeKey;
          return (
            <button
              key={item.key}
              ref={(el) => {
                buttons.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${item.key}`}
              aria-selected={active}
              aria-controls={`${id}-panel-${item.key}`}
              tabIndex={active ? 0 : -1}
              className={active ? 'dzy-login-tab dzy-login-tab-active' : 'dzy-login-tab'}
              onClick={() => select(item.key)}
              onKeyDown={(e) => onKeyDown(e, index)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) =>
        visited.has(item.key) || item.key === activeKey ? (
          <div
            key={item.key}
            role="tabpanel"
            id={`${id}-panel-${item.key}`}
            aria-labelledby={`${id}-tab-${item.key}`}
            hidden={item.key !== activeKey}
          >
            {item.children}
          </div>
        ) : null,
      )}
    </div>
  );
}
