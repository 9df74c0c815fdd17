import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onPush } from '../../lib/push';
import { call } from '../../lib/request';
import { BATCH_KEYS, BATCH_POLL_MS, RUN_PUSH_TYPE, type RunRate, runRateCall } from './api';

/** Whether a run has nothing left: the server says so, or success + fail = total (tax-bureau.md §4). */
export const runDone = (r: RunRate | null | undefined) =>
  Boolean(r && (r.state !== 'running' || r.successNum + r.failNum >= r.totalNum));

/**
 * The progress of one run (generate, file, pay or update), polled every 2.5 s (tax-bureau.md §9 batch
 * poll) while it runs and taken from the push as clients finish; null key → nothing.
 */
export function useRunRate(redisKey: string | null) {
  const qc = useQueryClient();
  const key = [...BATCH_KEYS.rate, redisKey];
  const q = useQuery({
    queryKey: key,
    queryFn: () => call(runRateCall, { redisKey: redisKey ?? '' }, { handle: 'all' }),
    enabled: Boolean(redisKey),
    refetchInterval: (query) => (runDone(query.state.data) ? false : BATCH_POLL_MS),
    refetchIntervalInBackground: true,
    retry: 1,
  });
  useEffect(() => {
    if (!redisKey || !RUN_PUSH_TYPE) return;
    return onPush(RUN_PUSH_TYPE, (data) => {
      const r = data as RunRate;
      if (r && String(r.redisKey) === redisKey) qc.setQueryData([...BATCH_KEYS.rate, redisKey], r);
    });
  }, [redisKey, qc]);
  return q;
}
