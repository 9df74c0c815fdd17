-- The job runner's one poll for its idle queues (issue 30 points 4 and 6): of the given queues, those with a
-- job to take now (queued and due, or running with its lease run out). Before, every idle worker called
-- claim_job twice a second: ~35 calls a second on one server, which on PGlite ran on the server's own thread
-- beside every request. Queue names only, no row data; jobs_waiting_idx (queue, id) serves each probe.
CREATE OR REPLACE FUNCTION job_ready_queues(p_queues text[])
RETURNS SETOF text LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT q FROM unnest(p_queues) AS q
   WHERE EXISTS (
     SELECT 1 FROM jobs j
      WHERE j.queue = q AND j.state IN ('queued', 'running')
        AND ((j.state = 'queued' AND j.run_after <= now()) OR (j.state = 'running' AND j.locked_until < now())))
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION job_ready_queues(text[]) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION job_ready_queues(text[]) TO dzy_app;
