import { useState } from 'react';
import { useSessionInfo } from '../../lib/session';

/**
 * The columns a user hid on a page, kept in local storage under the user's id: another user of the same
 * browser has their own, and signing out keeps them (they are preferences, not data). The prefix is
 * `dzy-`, so 清除缓存 (lib/local-cache.ts) resets them with the rest of the product's storage.
 */
const key = (userId: number, pageKey: string) => `dzy-columns:${userId}:${pageKey}`;

function readHidden(k: string): string[] {
  try {
    const v = JSON.parse(window.localStorage.getItem(k) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** The hidden column keys of `pageKey` for the signed-in user, and a setter that remembers them. */
export function useHiddenColumns(pageKey: string): [string[], (hidden: string[]) => void] {
  const userId = useSessionInfo().token.id;
  const k = key(userId, pageKey);
  const [state, setState] = useState(() => ({ k, hidden: readHidden(k) }));
  const hidden = state.k === k ? state.hidden : readHidden(k);
  const set = (next: string[]) => {
    setState({ k, hidden: next });
    try {
      if (next.length) window.localStorage.setItem(k, JSON.stringify(next));
      else window.localStorage.removeItem(k);
    } catch {
      // Storage full or disabled: the choice lasts until the page is left.
    }
  };
  return [hidden, set];
}
