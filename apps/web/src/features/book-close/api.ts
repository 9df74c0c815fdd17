import {
  BOOK_RUN_POLL_MS,
  BOOK_RUN_PUSH_TYPE,
  type BookRunRate,
  batchCloseRateCall,
  type CjsRate,
  closeStateCall,
  proposalsCall,
  voucherRulesCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onPush } from '../../lib/push';
import { call } from '../../lib/request';

export function useCloseState(bookId: number | null, cjsRate: CjsRate | undefined) {
  return useQuery({
    queryKey: [closeStateCall.path, bookId, cjsRate],
    queryFn: () => call(closeStateCall, { bookId: bookId ?? 0, ...(cjsRate ? { cjsRate } : {}) }, { handle: [404] }),
    enabled: bookId !== null,
    retry: false,
  });
}

/** A batch close's progress: polled while running, and refreshed at once by the push. */
export function useRunRate(runId: string | null) {
  const qc = useQueryClient();
  useEffect(
    () =>
      onPush(BOOK_RUN_PUSH_TYPE, (data) => {
        const rate = data as BookRunRate;
        if (rate.runId === runId) qc.setQueryData([batchCloseRateCall.path, runId], rate);
      }),
    [qc, runId],
  );
  return useQuery({
    queryKey: [batchCloseRateCall.path, runId],
    queryFn: () => call(batchCloseRateCall, { runId: runId ?? '0' }),
    enabled: runId !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.state !== 'running' ? false : BOOK_RUN_POLL_MS),
  });
}

export function useProposals(bookId: number | null) {
  return useQuery({
    queryKey: [proposalsCall.path, bookId],
    queryFn: () => call(proposalsCall, { bookId: bookId ?? 0 }, { handle: [404] }),
    enabled: bookId !== null,
    retry: false,
  });
}

export function useVoucherRules() {
  return useQuery({ queryKey: [voucherRulesCall.path], queryFn: () => call(voucherRulesCall, {}) });
}
