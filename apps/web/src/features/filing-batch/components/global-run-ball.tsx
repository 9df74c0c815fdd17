import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { FILING_KEYS } from '../../filing/api';
import { BATCH_KEYS } from '../api';
import { followRun, useFollowedRun } from '../followed-run';
import { useRunRate } from '../use-run';
import { RunBall } from './run-ball';

/**
 * The followed run's ball on whatever page the user is: when it ends, the roster and the plan read their
 * rows again. On the run's own plan page the dialog has no 查看申报计划.
 */
export default function GlobalRunBall() {
  const run = useFollowedRun();
  const qc = useQueryClient();
  const { pathname, search } = useLocation();
  // A run this session cannot read (another user signed in on this browser, a run gone): no ball.
  const rate = useRunRate(run?.redisKey ?? null);
  useEffect(() => {
    if (rate.isError) followRun(null);
  }, [rate.isError]);
  const onItsPlan =
    run !== null && pathname === '/declare/sbjh' && new URLSearchParams(search).get('planId') === String(run.planId);
  return (
    <RunBall
      key={run?.redisKey}
      run={run}
      inPlan={onItsPlan}
      onClose={() => followRun(null)}
      onDone={() => {
        void qc.invalidateQueries({ queryKey: FILING_KEYS.all });
        void qc.invalidateQueries({ queryKey: BATCH_KEYS.all });
      }}
    />
  );
}
