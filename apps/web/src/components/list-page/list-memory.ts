import { getMemoryCall, updateMemoryCall } from '@dzy/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { call } from '../../lib/request';

/**
 * A list page's remembered last query (user/userLastQuery getMemory/updateMemory, per user and page,
 * on the server): `restore` gets what was remembered once, before the page's first list request
 * (`ready` turns true after the answer, or after a failure, so the list never waits for ever);
 * `remember` stores the query the user searched with. `pageKey` is the page's route path.
 * `enabled: false` (the same list embedded elsewhere, e.g. a client's drawer) remembers nothing.
 */
export function useListMemory<M extends object>(
  pageKey: string,
  restore: (remembered: M) => void,
  enabled = true,
): { ready: boolean; remember: (query: M) => void } {
  const [ready, setReady] = useState(!enabled);
  const restoreRef = useRef(restore);
  restoreRef.current = restore;
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    call(getMemoryCall, { pageKey }, { handle: 'all' })
      .then((r) => {
        const m = (r?.query ?? null) as M | null;
        if (live && m) restoreRef.current(m);
      })
      .catch(() => undefined)
      .finally(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [pageKey, enabled]);
  const remember = useCallback(
    (query: M) => {
      if (!enabled) return;
      void call(updateMemoryCall, { pageKey, query: { ...query } as Record<string, unknown> }, { handle: 'all' }).catch(
        () => undefined,
      );
    },
    [pageKey, enabled],
  );
  return { ready, remember };
}
