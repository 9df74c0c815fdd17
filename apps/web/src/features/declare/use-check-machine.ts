import {
  CHECK_MAX_IDLE_POLLS,
  CHECK_MSG,
  CHECK_POLL_MS,
  CHECK_PUSH_TYPE,
  CHECK_RESET_MS,
  type CheckRate,
  type CheckStartReply,
  checkRateCall,
  checkStartCall,
  checkStopCall,
  IS_CHECKS,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/feedback';
import { onPush } from '../../lib/push';
import { call } from '../../lib/request';
import { DECLARE_KEYS } from './api';

export type IsChecks = (typeof IS_CHECKS)[keyof typeof IS_CHECKS];

/**
 * The inspection status of tax-bureau.md §4: isChecks 0 idle, 1 started (polling every 2 s, and
 * pushed), 2 finished (polling stops; the UI resets to idle 3 s later). The wait is abandoned after
 * 10 polls without progress: 检查出错, the check is stopped and the UI reset.
 */
export type BlockedEnterprise = CheckStartReply['blocked'][number];

export function useCheckMachine(opts: { onBlocked?: (list: BlockedEnterprise[]) => void } = {}) {
  const queryClient = useQueryClient();
  const [isChecks, setIsChecks] = useState<IsChecks>(IS_CHECKS.idle);
  const [rate, setRate] = useState<CheckRate | null>(null);
  /** The batch whose results the page shows (the running one, else the last one). */
  const [batchId, setBatchId] = useState<number | null>(null);
  const idlePolls = useRef(0);
  const lastDone = useRef(-1);
  const timers = useRef<{ poll?: number; reset?: number }>({});
  const alive = useRef(true);
  const finished = useRef(false);

  const refreshLists = useCallback(() => queryClient.invalidateQueries({ queryKey: DECLARE_KEYS.all }), [queryClient]);

  const clearTimers = useCallback(() => {
    window.clearTimeout(timers.current.poll);
    window.clearTimeout(timers.current.reset);
  }, []);

  const finish = useCallback(
    (r: CheckRate) => {
      if (finished.current) return;
      finished.current = true;
      window.clearTimeout(timers.current.poll);
      setIsChecks(IS_CHECKS.finished);
      toast(r.state === 'stopped' ? 'info' : 'success', r.state === 'stopped' ? CHECK_MSG.stopped : CHECK_MSG.finished);
      void refreshLists();
      timers.current.reset = window.setTimeout(() => {
        if (alive.current) setIsChecks(IS_CHECKS.idle);
      }, CHECK_RESET_MS);
    },
    [refreshLists],
  );

  /** A newer figure for the running batch (from a poll or a push). */
  const apply = useCallback(
    (r: CheckRate) => {
      setRate(r);
      if (r.completeNum !== lastDone.current) {
        lastDone.current = r.completeNum;
        idlePolls.current = 0;
        void refreshLists();
      }
      if (r.isChecks === IS_CHECKS.finished) finish(r);
    },
    [finish, refreshLists],
  );

  const poll = useCallback(
    (id: number) => {
      timers.current.poll = window.setTimeout(async () => {
        if (!alive.current) return;
        let r: CheckRate | null = null;
        try {
          r = await call(checkRateCall, { batchId: id }, { handle: 'all' });
        } catch {
          r = null; // a failed poll counts as one without progress
        }
        if (!alive.current) return;
        const before = lastDone.current;
        if (r) apply(r);
        if (r?.isChecks === IS_CHECKS.finished) return;
        if (!r || r.completeNum === before) idlePolls.current += 1;
        if (idlePolls.current >= CHECK_MAX_IDLE_POLLS) {
          toast('error', CHECK_MSG.checkError);
          await call(checkStopCall, { batchId: id }, { handle: 'all' }).catch(() => null);
          setIsChecks(IS_CHECKS.idle);
          void refreshLists();
          return;
        }
        poll(id);
      }, CHECK_POLL_MS);
    },
    [apply, refreshLists],
  );

  const follow = useCallback(
    (r: CheckRate) => {
      clearTimers();
      finished.current = false;
      idlePolls.current = 0;
      lastDone.current = r.completeNum;
      setRate(r);
      setBatchId(r.batchId);
      setIsChecks(IS_CHECKS.started);
      poll(r.batchId);
    },
    [poll, clearTimers],
  );

  // On opening the page: pick up a check still running (after a reload, or started elsewhere).
  useEffect(() => {
    alive.current = true;
    void call(checkRateCall, {}, { handle: 'all' })
      .then((r) => {
        if (!alive.current || !r) return;
        if (r.isChecks === IS_CHECKS.started) follow(r);
        else {
          setRate(r);
          setBatchId(r.batchId);
        }
      })
      .catch(() => null);
    return () => {
      alive.current = false;
      clearTimers();
    };
  }, [follow, clearTimers]);

  // Pushed progress of the batch being followed.
  useEffect(
    () =>
      onPush(CHECK_PUSH_TYPE, (data) => {
        const r = data as unknown as CheckRate;
        if (isChecks === IS_CHECKS.started && r.batchId === batchId) apply(r);
      }),
    [apply, batchId, isChecks],
  );

  const start = async (body: { ssq: string; scope: 'all' | 'selected'; aeiIds: number[] }) => {
    const r = await call(checkStartCall, body).catch(() => null);
    if (!r) return false;
    toast('success', CHECK_MSG.started);
    if (r.blocked.length > 0) opts.onBlocked?.(r.blocked);
    follow(r);
    void refreshLists();
    return true;
  };

  const stop = async () => {
    if (batchId === null) return;
    const r = await call(checkStopCall, { batchId }).catch(() => null);
    if (r) apply(r);
  };

  return { isChecks, rate, batchId, setBatchId, start, stop };
}
