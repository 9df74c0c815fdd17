-- Issue 18 points 5 and 6: two-factor sign-in (TOTP, recovery codes, remembered devices), the agency's
-- security settings (who must use two factors, how long the audit log is kept), and the audit log viewer.
-- The second-factor tables are per user, not per tenant, like sessions (read and written on the user's
-- own id by the sign-in and account code). The audit log gains: platform operators read platform events
-- (rows of no agency), a retention function that never deletes a row younger than 180 days (the app role
-- itself still cannot delete), and an index ending in id for paging.
CREATE TABLE "user_two_factor" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id"),
	"secret_enc" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_step" integer,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "two_factor_recovery_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "two_factor_recovery_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "two_factor_recovery_user_idx" ON "two_factor_recovery_codes" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "two_factor_devices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "two_factor_devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "two_factor_devices_token_uq" ON "two_factor_devices" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "two_factor_devices_user_idx" ON "two_factor_devices" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "agency_security" (
	"agency_id" integer PRIMARY KEY NOT NULL REFERENCES "organisations"("id"),
	"require_two_factor" text DEFAULT 'none' NOT NULL,
	"audit_retention_days" integer DEFAULT 180 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agency_security_require_valid" CHECK ("agency_security"."require_two_factor" in ('none', 'admins', 'all')),
	CONSTRAINT "agency_security_retention_min" CHECK ("agency_security"."audit_retention_days" >= 180)
);
--> statement-breakpoint
ALTER TABLE "agency_security" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "agency_security_tenant" ON "agency_security" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("agency_security"."agency_id" = app_agency()) WITH CHECK ("agency_security"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "agency_security_member_read" ON "agency_security" AS PERMISSIVE FOR SELECT TO "dzy_app" USING (exists (select 1 from memberships m where m.agency_id = "agency_security"."agency_id" and m.user_id = app_user()));
--> statement-breakpoint
CREATE INDEX "audit_log_agency_id_idx" ON "audit_log" USING btree ("agency_id", "id");
--> statement-breakpoint
CREATE POLICY "audit_log_platform_read" ON "audit_log" AS PERMISSIVE FOR SELECT TO "dzy_app" USING ("audit_log"."agency_id" is null and exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
-- Retention: the app role still never deletes audit rows itself. This one narrow door deletes, for an agency
-- (or for the platform's rows when p_agency is null), up to p_batch rows older than the agency's setting,
-- never younger than 180 days whatever the setting says; any caller can only apply the retention.
CREATE OR REPLACE FUNCTION purge_audit_log(p_agency integer, p_batch integer)
RETURNS integer LANGUAGE sql SECURITY DEFINER SET search_path = public AS $$
  WITH gone AS (
    DELETE FROM audit_log WHERE id IN (
      SELECT a.id FROM audit_log a
       WHERE (CASE WHEN p_agency IS NULL THEN a.agency_id IS NULL ELSE a.agency_id = p_agency END)
         AND a.at < now() - make_interval(days => greatest(180, coalesce(
               (SELECT s.audit_retention_days FROM agency_security s WHERE s.agency_id = p_agency), 180)))
       ORDER BY a.id
       LIMIT least(greatest(p_batch, 1), 10000))
    RETURNING 1)
  SELECT count(*)::integer FROM gone
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION purge_audit_log(integer, integer) TO dzy_app;
