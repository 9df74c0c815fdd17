-- Issue 26 point 2: a factory's scope fails closed. app.kjgc_id now has three states: a factory's id (that
-- factory: only the clients handed over to it), 'none' (set by every scope that is not a factory: an agency,
-- the operator, a public call, an agency's job) and unset or empty (a transaction that forgot the scope).
-- app_kjgc() gives NULL only for 'none', so the handover policies' `app_kjgc() is null or exists (...)`
-- admit everything only when a scope said so; unset gives 0, which no handover has: no client row is seen.
CREATE OR REPLACE FUNCTION app_kjgc() RETURNS integer LANGUAGE sql STABLE
  AS $$ SELECT CASE coalesce(current_setting('app.kjgc_id', true), '')
    WHEN 'none' THEN NULL
    WHEN '' THEN 0
    ELSE current_setting('app.kjgc_id', true)::integer END $$;
--> statement-breakpoint
-- The factory that started a job, taken from the enqueuing transaction (never passed by the code); the runner
-- runs the job as that factory. Unset gives NULL here, but the policy below refuses that insert to the app role.
ALTER TABLE "jobs" ADD COLUMN "kjgc_id" integer REFERENCES "organisations"("id") DEFAULT nullif(app_kjgc(), 0);
--> statement-breakpoint
CREATE POLICY "jobs_kjgc_starter" ON "jobs" AS RESTRICTIVE FOR INSERT TO "dzy_app"
  WITH CHECK ("kjgc_id" IS NOT DISTINCT FROM app_kjgc());
