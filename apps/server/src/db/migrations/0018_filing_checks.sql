-- Issue 13: declaration settings (reminder days, 三方协议, logs), filing reminders sent, missed-filing checks.
CREATE TABLE "agency_filing_settings" (
	"agency_id" integer PRIMARY KEY NOT NULL,
	"remind_days" smallint DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agency_filing_settings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "agency_filing_settings" ADD CONSTRAINT "agency_filing_settings_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE POLICY "agency_filing_settings_tenant" ON "agency_filing_settings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("agency_filing_settings"."agency_id" = app_agency()) WITH CHECK ("agency_filing_settings"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "enterprise_filing_info" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"sfxy" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprise_filing_info_agency_id_enterprise_id_pk" PRIMARY KEY("agency_id","enterprise_id")
);
--> statement-breakpoint
ALTER TABLE "enterprise_filing_info" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "enterprise_filing_info" ADD CONSTRAINT "enterprise_filing_info_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "enterprise_filing_info" ADD CONSTRAINT "enterprise_filing_info_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE POLICY "enterprise_filing_info_tenant" ON "enterprise_filing_info" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("enterprise_filing_info"."agency_id" = app_agency()) WITH CHECK ("enterprise_filing_info"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filing_setting_logs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filing_setting_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"action" text NOT NULL,
	"enterprise_id" integer,
	"detail" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filing_setting_logs" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "filing_setting_logs" ADD CONSTRAINT "filing_setting_logs_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "filing_setting_logs" ADD CONSTRAINT "filing_setting_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "filing_setting_logs" ADD CONSTRAINT "filing_setting_logs_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "filing_setting_logs_agency_idx" ON "filing_setting_logs" USING btree ("agency_id","id");
--> statement-breakpoint
CREATE POLICY "filing_setting_logs_tenant" ON "filing_setting_logs" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_setting_logs"."agency_id" = app_agency()) WITH CHECK ("filing_setting_logs"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filing_reminders" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"tax_type" text NOT NULL,
	"skssqq" text NOT NULL,
	"sbqx" text NOT NULL,
	"user_id" integer,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "filing_reminders_agency_id_enterprise_id_tax_type_skssqq_pk" PRIMARY KEY("agency_id","enterprise_id","tax_type","skssqq")
);
--> statement-breakpoint
ALTER TABLE "filing_reminders" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "filing_reminders" ADD CONSTRAINT "filing_reminders_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "filing_reminders" ADD CONSTRAINT "filing_reminders_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "filing_reminders" ADD CONSTRAINT "filing_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE POLICY "filing_reminders_tenant" ON "filing_reminders" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_reminders"."agency_id" = app_agency()) WITH CHECK ("filing_reminders"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "lbsjc_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lbsjc_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"filing_month" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"total_num" integer NOT NULL,
	"success_num" integer DEFAULT 0 NOT NULL,
	"fail_num" integer DEFAULT 0 NOT NULL,
	"found_num" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "lbsjc_batches" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "lbsjc_batches" ADD CONSTRAINT "lbsjc_batches_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "lbsjc_batches" ADD CONSTRAINT "lbsjc_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "lbsjc_batches_agency_user_idx" ON "lbsjc_batches" USING btree ("agency_id","user_id","id");
--> statement-breakpoint
CREATE INDEX "lbsjc_batches_agency_idx" ON "lbsjc_batches" USING btree ("agency_id","id");
--> statement-breakpoint
CREATE POLICY "lbsjc_batches_tenant" ON "lbsjc_batches" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("lbsjc_batches"."agency_id" = app_agency()) WITH CHECK ("lbsjc_batches"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "lbsjc_results" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lbsjc_results_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"msg_type" smallint,
	"msg" text DEFAULT '' NOT NULL,
	"found_num" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lbsjc_results" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "lbsjc_results" ADD CONSTRAINT "lbsjc_results_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "lbsjc_results" ADD CONSTRAINT "lbsjc_results_batch_id_lbsjc_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."lbsjc_batches"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "lbsjc_results" ADD CONSTRAINT "lbsjc_results_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "lbsjc_results_batch_ent_uq" ON "lbsjc_results" USING btree ("batch_id","enterprise_id");
--> statement-breakpoint
CREATE INDEX "lbsjc_results_agency_batch_idx" ON "lbsjc_results" USING btree ("agency_id","batch_id","id");
--> statement-breakpoint
CREATE POLICY "lbsjc_results_tenant" ON "lbsjc_results" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("lbsjc_results"."agency_id" = app_agency()) WITH CHECK ("lbsjc_results"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "lbsjc_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lbsjc_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"tax_type" text NOT NULL,
	"skssqq" text NOT NULL,
	"skssqz" text NOT NULL,
	"sbqx" text DEFAULT '' NOT NULL,
	"state" text NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"znj" bigint DEFAULT 0 NOT NULL,
	"days_overdue" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lbsjc_items" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "lbsjc_items" ADD CONSTRAINT "lbsjc_items_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "lbsjc_items" ADD CONSTRAINT "lbsjc_items_batch_id_lbsjc_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."lbsjc_batches"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "lbsjc_items" ADD CONSTRAINT "lbsjc_items_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "lbsjc_items_key_uq" ON "lbsjc_items" USING btree ("batch_id","enterprise_id","tax_type","skssqq");
--> statement-breakpoint
CREATE INDEX "lbsjc_items_agency_batch_idx" ON "lbsjc_items" USING btree ("agency_id","batch_id","id");
--> statement-breakpoint
CREATE POLICY "lbsjc_items_tenant" ON "lbsjc_items" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("lbsjc_items"."agency_id" = app_agency()) WITH CHECK ("lbsjc_items"."agency_id" = app_agency());
