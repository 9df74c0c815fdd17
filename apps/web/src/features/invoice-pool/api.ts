import {
  fpPoolStatusCall,
  INVOICE_RUN_POLL_MS,
  INVOICE_RUN_PUSH_TYPE,
  type InvoiceRunStatus,
  taxFenToYuan,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { formatMoney } from '../../lib/money';
import { onPush } from '../../lib/push';
import { call } from '../../lib/request';

// The calls and constants of the pool live in packages/shared/src/invoice-pool.ts; this file adds the
// web's keys, money text and the run's progress.

/** Query keys of the feature; all start with 'invoice-pool'. */
export const POOL_KEYS = {
  all: ['invoice-pool'] as const,
  run: ['invoice-pool', 'run'] as const,
  xx: ['invoice-pool', 'xx'] as const,
  jx: ['invoice-pool', 'jx'] as const,
  input: ['invoice-pool', 'input'] as const,
  stats: ['invoice-pool', 'stats'] as const,
};

/** Fen as money text: 1234567 → "12,345.67". */
export const fenText = (fen: number | null | undefined) =>
  fen === null || fen === undefined ? '-' : formatMoney(taxFenToYuan(fen));

/** Last month (the usual month to collect and confirm early in a month). */
export const lastMonth = () => dayjs().subtract(1, 'month').format('YYYY-MM');
export const thisMonth = () => dayjs().format('YYYY-MM');

export const runDone = (r: InvoiceRunStatus | null | undefined) =>
  Boolean(r && (r.state !== 'running' || r.completeNum >= r.totalNum));

/**
 * A run's progress (collect or confirm): polled every 2.5 s while it runs and taken from the push as
 * clients finish (the push carries no failures: the poll after it brings them).
 */
export function useInvoiceRun(taskId: string | null) {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: [...POOL_KEYS.run, taskId],
    queryFn: async () =>
      (await call(fpPoolStatusCall, { taskIds: [taskId ?? ''] }, { handle: 'all' }))?.list[0] ?? null,
    enabled: Boolean(taskId),
    refetchInterval: (query) => (runDone(query.state.data) ? false : INVOICE_RUN_POLL_MS),
    refetchIntervalInBackground: true,
    retry: 1,
  });
  useEffect(() => {
    if (!taskId) return;
    return onPush(INVOICE_RUN_PUSH_TYPE, (data) => {
      const r = data as InvoiceRunStatus;
      if (!r || String(r.taskId) !== taskId) return;
      qc.setQueryData([...POOL_KEYS.run, taskId], (old: InvoiceRunStatus | null | undefined) => ({
        ...r,
        fail: old?.fail ?? [],
      }));
      if (runDone(r)) void qc.invalidateQueries({ queryKey: [...POOL_KEYS.run, taskId] });
    });
  }, [taskId, qc]);
  return q;
}
