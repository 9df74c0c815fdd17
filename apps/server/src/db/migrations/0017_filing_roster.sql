-- Issue 13: the filing roster (申报清册) and its sync, and the per-client declaration settings.
CREATE TABLE "enterprise_filing_settings" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"ignored_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprise_filing_settings_agency_id_enterprise_id_pk" PRIMARY KEY("agency_id","enterprise_id")
);
--> statement-breakpoint
ALTER TABLE "enterprise_filing_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "enterprise_filing_settings" ADD CONSTRAINT "enterprise_filing_settings_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_filing_settings" ADD CONSTRAINT "enterprise_filing_settings_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "enterprise_filing_settings_tenant" ON "enterprise_filing_settings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("enterprise_filing_settings"."agency_id" = app_agency()) WITH CHECK ("enterprise_filing_settings"."agency_id" = app_agency());
--> statement-breakpoint
-- The default role 普通员工 of existing agencies gets the new 申报 pages (new agencies get them from DEFAULT_STAFF_PERMS).
UPDATE "roles" SET "perms" = "perms" || ARRAY['declare:roster:view', 'declare:roster:sync', 'declare:roster:export', 'declare:overview:view', 'declare:calendar:view', 'declare:lbsjc:view', 'declare:lbsjc:run', 'declare:setting:view', 'declare:setting:edit']::text[]
WHERE "is_default" AND NOT ("perms" @> ARRAY['declare:roster:view']::text[]);
--> statement-breakpoint
-- 申报清册: the returns per client and filing month, the per-client sync state, and the sync runs.
CREATE TABLE "filing_cells" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filing_cells_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"filing_month" text NOT NULL,
	"tax_type" text NOT NULL,
	"cycle" text NOT NULL,
	"skssqq" text DEFAULT '' NOT NULL,
	"skssqz" text DEFAULT '' NOT NULL,
	"state" text NOT NULL,
	"carried" boolean DEFAULT false NOT NULL,
	"srze" bigint DEFAULT 0 NOT NULL,
	"ybtse" bigint DEFAULT 0 NOT NULL,
	"sbqx" text DEFAULT '' NOT NULL,
	"sbrq" text DEFAULT '' NOT NULL,
	"pzxh" text DEFAULT '' NOT NULL,
	"jkrq" text DEFAULT '' NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filing_cells" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filing_cells" ADD CONSTRAINT "filing_cells_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_cells" ADD CONSTRAINT "filing_cells_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "filing_cells_key_uq" ON "filing_cells" USING btree ("agency_id","enterprise_id","filing_month","tax_type","skssqq");--> statement-breakpoint
CREATE INDEX "filing_cells_month_state_idx" ON "filing_cells" USING btree ("agency_id","filing_month","state","tax_type","enterprise_id");--> statement-breakpoint
CREATE POLICY "filing_cells_tenant" ON "filing_cells" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_cells"."agency_id" = app_agency()) WITH CHECK ("filing_cells"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filing_syncs" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"filing_month" text NOT NULL,
	"nsrlx" text DEFAULT '' NOT NULL,
	"synced_at" timestamp with time zone,
	"fail_msg" text DEFAULT '' NOT NULL,
	"fail_msg_type" smallint,
	"fail_at" timestamp with time zone,
	CONSTRAINT "filing_syncs_agency_id_filing_month_enterprise_id_pk" PRIMARY KEY("agency_id","filing_month","enterprise_id")
);
--> statement-breakpoint
ALTER TABLE "filing_syncs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filing_syncs" ADD CONSTRAINT "filing_syncs_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_syncs" ADD CONSTRAINT "filing_syncs_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "filing_syncs_tenant" ON "filing_syncs" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_syncs"."agency_id" = app_agency()) WITH CHECK ("filing_syncs"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filing_sync_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filing_sync_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"filing_month" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"total_num" integer NOT NULL,
	"success_num" integer DEFAULT 0 NOT NULL,
	"fail_num" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "filing_sync_batches" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filing_sync_batches" ADD CONSTRAINT "filing_sync_batches_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_sync_batches" ADD CONSTRAINT "filing_sync_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filing_sync_batches_agency_user_idx" ON "filing_sync_batches" USING btree ("agency_id","user_id","id");--> statement-breakpoint
CREATE POLICY "filing_sync_batches_tenant" ON "filing_sync_batches" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_sync_batches"."agency_id" = app_agency()) WITH CHECK ("filing_sync_batches"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filing_sync_results" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filing_sync_results_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"msg_type" smallint,
	"msg" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filing_sync_results" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filing_sync_results" ADD CONSTRAINT "filing_sync_results_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_sync_results" ADD CONSTRAINT "filing_sync_results_batch_id_filing_sync_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."filing_sync_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_sync_results" ADD CONSTRAINT "filing_sync_results_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "filing_sync_results_batch_ent_uq" ON "filing_sync_results" USING btree ("batch_id","enterprise_id");--> statement-breakpoint
CREATE INDEX "filing_sync_results_pending_idx" ON "filing_sync_results" USING btree ("batch_id") WHERE "filing_sync_results"."msg_type" is null;--> statement-breakpoint
CREATE POLICY "filing_sync_results_tenant" ON "filing_sync_results" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_sync_results"."agency_id" = app_agency()) WITH CHECK ("filing_sync_results"."agency_id" = app_agency());
