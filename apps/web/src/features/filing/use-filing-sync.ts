import {
  FILING_MSG,
  FILING_POLL_MS,
  FILING_SYNC_PUSH_TYPE,
  type FilingSyncRate,
  type FilingSyncStartReply,
  filingSyncRateCall,
  filingSyncStartCall,
  filingSyncStopCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/feedback';
import { onPush } from '../../lib/push';
import { call } from '../../lib/request';
import { FILING_KEYS } from './api';

/**
 * 同步申报状态 on the page: the running sync polled every 3 s (tax-bureau.md §9 overview poll) and pushed;
 * the roster and counts are read again as clients finish and when the sync ends.
 */
export function useFilingSync(opts: { onLeftOut?: (reply: FilingSyncStartReply) => void } = {}) {
  const queryClient = useQueryClient();
  const [rate, setRate] = useState<FilingSyncRate | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const alive = useRef(true);
  const lastDone = useRef(-1);
  const running = rate?.state === 'running';

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: FILING_KEYS.all }), [queryClient]);

  const apply = useCallback(
    (r: FilingSyncRate | null) => {
      if (!alive.current || !r) return;
      setRate((prev) => {
        if (prev && prev.batchId === r.batchId && prev.state !== 'running') return prev;
        if (prev?.state === 'running' && prev.batchId === r.batchId && r.state !== 'running') {
          toast(
            r.state === 'stopped' ? 'info' : 'success',
            r.state === 'stopped' ? FILING_MSG.stopped : FILING_MSG.finished,
          );
        }
        return r;
      });
      if (r.completeNum !== lastDone.current) {
        lastDone.current = r.completeNum;
        void refresh();
      }
    },
    [refresh],
  );

  const poll = useCallback(
    (batchId: number) => {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(async () => {
        const r = await call(filingSyncRateCall, { batchId }, { handle: 'all' }).catch(() => null);
        if (!alive.current) return;
        apply(r);
        if (!r || r.state === 'running') poll(batchId);
      }, FILING_POLL_MS);
    },
    [apply],
  );

  // On opening: the user's latest sync (a running one is followed).
  useEffect(() => {
    alive.current = true;
    void call(filingSyncRateCall, {}, { handle: 'all' })
      .then((r) => {
        if (!alive.current || !r) return;
        lastDone.current = r.completeNum;
        setRate(r);
        if (r.state === 'running') poll(r.batchId);
      })
      .catch(() => null);
    const off = onPush(FILING_SYNC_PUSH_TYPE, (data) => apply(data as FilingSyncRate));
    return () => {
      alive.current = false;
      window.clearTimeout(timer.current);
      off();
    };
  }, [apply, poll]);

  const start = useCallback(
    async (body: { filingMonth: string; scope: 'all' | 'selected'; aeiIds: number[] }) => {
      try {
        const r = await call(filingSyncStartCall, body);
        if (!r) return false;
        lastDone.current = r.completeNum;
        setRate(r);
        toast('success', FILING_MSG.started);
        if (r.blocked.length > 0 || r.noQysh.length > 0) opts.onLeftOut?.(r);
        poll(r.batchId);
        return true;
      } catch {
        return false;
      }
    },
    [poll, opts.onLeftOut],
  );

  const stop = useCallback(async () => {
    if (!rate) return;
    const r = await call(filingSyncStopCall, { batchId: rate.batchId }).catch(() => null);
    if (r) apply(r);
  }, [rate, apply]);

  return { rate, running, start, stop };
}
