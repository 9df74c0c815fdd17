-- Workers take jobs across agencies through this one narrow door: it claims the oldest ready job of
-- a queue (or one whose worker's lease ran out), at most `p_agency_cap` running per agency, and
-- returns it; everything else about jobs stays behind row-level security.
CREATE OR REPLACE FUNCTION claim_job(p_queue text, p_lease_seconds integer, p_agency_cap integer)
RETURNS SETOF jobs LANGUAGE sql SECURITY DEFINER SET search_path = public AS $$
  UPDATE jobs
     SET state = 'running', attempts = attempts + 1,
         locked_until = now() + make_interval(secs => p_lease_seconds)
   WHERE id = (
     SELECT j.id FROM jobs j
      WHERE j.queue = p_queue
        AND ((j.state = 'queued' AND j.run_after <= now()) OR (j.state = 'running' AND j.locked_until < now()))
        AND (SELECT count(*) FROM jobs r
              WHERE r.agency_id = j.agency_id AND r.queue = p_queue
                AND r.state = 'running' AND r.locked_until >= now()) < p_agency_cap
      ORDER BY j.id
      FOR UPDATE SKIP LOCKED
      LIMIT 1)
  RETURNING *;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION claim_job(text, integer, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION claim_job(text, integer, integer) TO dzy_app;
