-- Issue 19 points 4-6: service-provider branding (fwsid), the agency's account (plan, expiry, authorised
-- clients, 365 service) managed by the platform operator, and third-party sign-in bindings.
-- service_providers: platform-wide; anyone reads (the sign-in page at /login/{fwsid} is public), only a
-- platform operator writes.
CREATE TABLE "service_providers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_providers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"fwsid" text NOT NULL,
	"name" text NOT NULL,
	"logo_file" text DEFAULT '' NOT NULL,
	"primary_color" text DEFAULT '#1677ff' NOT NULL,
	"login_title" text DEFAULT '' NOT NULL,
	"hotline" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_providers_fwsid_valid" CHECK ("fwsid" ~ '^[a-z0-9][a-z0-9-]{1,31}$'),
	CONSTRAINT "service_providers_color_valid" CHECK ("primary_color" ~ '^#[0-9a-f]{6}$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX "service_providers_fwsid_uq" ON "service_providers" ("fwsid");
--> statement-breakpoint
ALTER TABLE "service_providers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "service_providers_read" ON "service_providers" AS PERMISSIVE FOR SELECT TO "dzy_app" USING (true);
--> statement-breakpoint
CREATE POLICY "service_providers_write" ON "service_providers" AS PERMISSIVE FOR ALL TO "dzy_app" USING (exists (select 1 from users u where u.id = app_user() and u.is_operator)) WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
-- agency_accounts: one row per agency once the operator granted it a plan or a provider. The agency reads
-- its own row (and saves its reminder setting); a platform operator reads and writes every row.
CREATE TABLE "agency_accounts" (
	"agency_id" integer PRIMARY KEY NOT NULL,
	"plan" text DEFAULT '' NOT NULL,
	"starts_on" date,
	"expires_on" date,
	"client_count" integer,
	"remind_days" integer DEFAULT 30 NOT NULL,
	"service365" text DEFAULT '0' NOT NULL,
	"service365_expires_on" date,
	"provider_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agency_accounts_plan_valid" CHECK ("plan" in ('', 'trial', 'standard', 'pro', 'flagship')),
	CONSTRAINT "agency_accounts_service365_valid" CHECK ("service365" in ('0', '1')),
	CONSTRAINT "agency_accounts_remind_valid" CHECK ("remind_days" between 1 and 90),
	CONSTRAINT "agency_accounts_clients_valid" CHECK ("client_count" is null or "client_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "agency_accounts" ADD CONSTRAINT "agency_accounts_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "agency_accounts" ADD CONSTRAINT "agency_accounts_provider_id_service_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."service_providers"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "agency_accounts_provider_idx" ON "agency_accounts" ("provider_id");
--> statement-breakpoint
ALTER TABLE "agency_accounts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "agency_accounts_tenant" ON "agency_accounts" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("agency_accounts"."agency_id" = app_agency() or exists (select 1 from users u where u.id = app_user() and u.is_operator)) WITH CHECK ("agency_accounts"."agency_id" = app_agency() or exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
-- benefit_grants: every plan the operator granted or extended, newest last (the agency reads its own).
CREATE TABLE "benefit_grants" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "benefit_grants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"plan" text NOT NULL,
	"starts_on" date NOT NULL,
	"expires_on" date NOT NULL,
	"client_count" integer,
	"remark" text DEFAULT '' NOT NULL,
	"granted_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "benefit_grants" ADD CONSTRAINT "benefit_grants_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "benefit_grants" ADD CONSTRAINT "benefit_grants_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "benefit_grants_agency_idx" ON "benefit_grants" ("agency_id", "id");
--> statement-breakpoint
ALTER TABLE "benefit_grants" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "benefit_grants_tenant" ON "benefit_grants" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("benefit_grants"."agency_id" = app_agency() or exists (select 1 from users u where u.id = app_user() and u.is_operator)) WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
-- third_bindings: a user's accounts at third-party sign-in providers (WeChat, DingTalk, the development one).
-- A user reads and changes only their own; sign-in finds the user of an account through third_binding_user().
CREATE TABLE "third_bindings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "third_bindings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"openid" text NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "third_bindings" ADD CONSTRAINT "third_bindings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "third_bindings_account_uq" ON "third_bindings" ("provider", "openid");
--> statement-breakpoint
CREATE UNIQUE INDEX "third_bindings_user_provider_uq" ON "third_bindings" ("user_id", "provider");
--> statement-breakpoint
ALTER TABLE "third_bindings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "third_bindings_own" ON "third_bindings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("third_bindings"."user_id" = app_user()) WITH CHECK ("third_bindings"."user_id" = app_user());
--> statement-breakpoint
-- Sign-in with a provider account, before any session: the user bound to it (null when none), and its last
-- sign-in noted. The one read of another user's binding a request can make.
CREATE OR REPLACE FUNCTION third_binding_user(p_provider text, p_openid text)
RETURNS integer LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
AS $$
  UPDATE third_bindings SET last_login_at = now() WHERE provider = p_provider AND openid = p_openid RETURNING user_id;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION third_binding_user(text, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION third_binding_user(text, text) TO dzy_app;
--> statement-breakpoint
-- The uniqueness of an account across users is checked on bind without reading others' rows.
CREATE OR REPLACE FUNCTION third_account_taken(p_provider text, p_openid text)
RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
AS $$
  SELECT exists (SELECT 1 FROM third_bindings WHERE provider = p_provider AND openid = p_openid AND user_id <> app_user());
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION third_account_taken(text, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION third_account_taken(text, text) TO dzy_app;
--> statement-breakpoint
-- Clients (not deleted) of the given agencies, for the account status: the caller's own agency, or any for a
-- platform operator (the operator's grant page shows authorised against used).
CREATE OR REPLACE FUNCTION agency_client_counts(p_agencies integer[])
RETURNS TABLE (agency_id integer, n integer) LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
AS $$
  SELECT e.agency_id, count(*)::int FROM enterprises e
  WHERE e.agency_id = ANY (p_agencies) AND e.deleted_at IS NULL
    AND (e.agency_id = app_agency() OR exists (select 1 from users u where u.id = app_user() and u.is_operator))
  GROUP BY e.agency_id;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION agency_client_counts(integer[]) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION agency_client_counts(integer[]) TO dzy_app;
--> statement-breakpoint
-- The daily sweep: every agency's benefit status qyzt from its account's expiry on the given China date
-- (business.md §4: '1' active, '2' within the reminder days, '3' expired). Returns how many changed.
CREATE OR REPLACE FUNCTION refresh_benefit_status(p_today date)
RETURNS integer LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
AS $$
  WITH target AS (
    SELECT a.agency_id,
      CASE WHEN a.expires_on < p_today THEN '3' WHEN a.expires_on - p_today <= a.remind_days THEN '2' ELSE '1' END AS qyzt
    FROM agency_accounts a WHERE a.expires_on IS NOT NULL
  ), changed AS (
    UPDATE organisations o SET qyzt = t.qyzt FROM target t WHERE t.agency_id = o.id AND o.qyzt <> t.qyzt RETURNING 1
  )
  SELECT count(*)::int FROM changed;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION refresh_benefit_status(date) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION refresh_benefit_status(date) TO dzy_app;
