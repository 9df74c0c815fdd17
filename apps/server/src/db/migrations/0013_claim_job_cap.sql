-- claim_job, same contract, built for long queues (a batch check enqueues thousands of jobs at once):
-- the agencies at their cap are found once per claim instead of counting for every waiting row, and
-- claims of one queue take turns (a transaction-scoped advisory lock), so two workers never both see
-- room for one more job and the per-agency cap is never exceeded. The jobs still to do get their own
-- index in id order, so a claim does not step over the thousands already done.
CREATE INDEX IF NOT EXISTS jobs_waiting_idx ON jobs (queue, id) WHERE state IN ('queued', 'running');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION claim_job(p_queue text, p_lease_seconds integer, p_agency_cap integer)
RETURNS SETOF jobs LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('claim_job:' || p_queue));
  RETURN QUERY
  WITH full_agencies AS (
    SELECT r.agency_id FROM jobs r
     WHERE r.queue = p_queue AND r.state IN ('queued', 'running') AND r.state = 'running' AND r.locked_until >= now()
     GROUP BY r.agency_id
    HAVING count(*) >= p_agency_cap
  )
  UPDATE jobs
     SET state = 'running', attempts = jobs.attempts + 1,
         locked_until = now() + make_interval(secs => p_lease_seconds)
   WHERE jobs.id = (
     SELECT j.id FROM jobs j
      WHERE j.queue = p_queue AND j.state IN ('queued', 'running')
        AND ((j.state = 'queued' AND j.run_after <= now()) OR (j.state = 'running' AND j.locked_until < now()))
        AND j.agency_id NOT IN (SELECT f.agency_id FROM full_agencies f)
      ORDER BY j.id
      FOR UPDATE SKIP LOCKED
      LIMIT 1)
  RETURNING jobs.*;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION claim_job(text, integer, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION claim_job(text, integer, integer) TO dzy_app;
