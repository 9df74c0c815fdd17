-- Issue 14: filing in batch — plans, their runs and items, the agency's ledger of filed returns, client
-- confirmations, and the batch's settings on agency_filing_settings.
ALTER TABLE "agency_filing_settings" ADD COLUMN "confirm_threshold" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "agency_filing_settings" ADD COLUMN "confirm_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "agency_filing_settings" ADD COLUMN "confirm_days" smallint DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "agency_filing_settings" ADD COLUMN "diff_percent" smallint DEFAULT 30 NOT NULL;--> statement-breakpoint
-- The default role 普通员工 of existing agencies gets 申报计划 and its buttons (new agencies get them from DEFAULT_STAFF_PERMS).
UPDATE "roles" SET "perms" = "perms" || ARRAY['declare:filing:view', 'declare:filing:plan', 'declare:filing:submit', 'declare:filing:pay', 'declare:filing:confirm']::text[]
WHERE "is_default" AND NOT ("perms" @> ARRAY['declare:filing:view']::text[]);
--> statement-breakpoint
CREATE TABLE "filing_plans" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filing_plans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"filing_month" text NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'generating' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filing_plans" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filing_plans" ADD CONSTRAINT "filing_plans_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_plans" ADD CONSTRAINT "filing_plans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filing_plans_agency_user_idx" ON "filing_plans" USING btree ("agency_id","user_id","id");--> statement-breakpoint
CREATE INDEX "filing_plans_agency_idx" ON "filing_plans" USING btree ("agency_id","id");--> statement-breakpoint
CREATE POLICY "filing_plans_tenant" ON "filing_plans" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_plans"."agency_id" = app_agency()) WITH CHECK ("filing_plans"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filing_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filing_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"total_num" integer NOT NULL,
	"late_notice" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "filing_runs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filing_runs" ADD CONSTRAINT "filing_runs_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_runs" ADD CONSTRAINT "filing_runs_plan_id_filing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."filing_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_runs" ADD CONSTRAINT "filing_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filing_runs_agency_plan_idx" ON "filing_runs" USING btree ("agency_id","plan_id","id");--> statement-breakpoint
CREATE POLICY "filing_runs_tenant" ON "filing_runs" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_runs"."agency_id" = app_agency()) WITH CHECK ("filing_runs"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filing_run_clients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filing_run_clients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"state" text,
	"msg" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filing_run_clients" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filing_run_clients" ADD CONSTRAINT "filing_run_clients_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_run_clients" ADD CONSTRAINT "filing_run_clients_run_id_filing_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."filing_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_run_clients" ADD CONSTRAINT "filing_run_clients_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "filing_run_clients_run_ent_uq" ON "filing_run_clients" USING btree ("run_id","enterprise_id");--> statement-breakpoint
CREATE INDEX "filing_run_clients_pending_idx" ON "filing_run_clients" USING btree ("run_id") WHERE "filing_run_clients"."state" is null;--> statement-breakpoint
CREATE POLICY "filing_run_clients_tenant" ON "filing_run_clients" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_run_clients"."agency_id" = app_agency()) WITH CHECK ("filing_run_clients"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filing_plan_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filing_plan_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"tax_type" text NOT NULL,
	"cycle" text NOT NULL,
	"skssqq" text NOT NULL,
	"skssqz" text NOT NULL,
	"sbqx" text DEFAULT '' NOT NULL,
	"overdue" boolean DEFAULT false NOT NULL,
	"nsrlx" text DEFAULT '1' NOT NULL,
	"source" text DEFAULT 'typed' NOT NULL,
	"sbsj" jsonb,
	"srze" bigint DEFAULT 0 NOT NULL,
	"ybtse" bigint DEFAULT 0 NOT NULL,
	"estimate" boolean DEFAULT false NOT NULL,
	"prev_srze" bigint,
	"prev_ybtse" bigint,
	"flagged" boolean DEFAULT false NOT NULL,
	"diff" jsonb,
	"state" text DEFAULT 'pending' NOT NULL,
	"msg" text DEFAULT '' NOT NULL,
	"pzxh" text DEFAULT '' NOT NULL,
	"sbrq" text DEFAULT '' NOT NULL,
	"pay_state" text DEFAULT 'none' NOT NULL,
	"pay_msg" text DEFAULT '' NOT NULL,
	"jkrq" text DEFAULT '' NOT NULL,
	"confirm_state" text DEFAULT 'none' NOT NULL,
	"run_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filing_plan_items" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filing_plan_items" ADD CONSTRAINT "filing_plan_items_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_plan_items" ADD CONSTRAINT "filing_plan_items_plan_id_filing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."filing_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_plan_items" ADD CONSTRAINT "filing_plan_items_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "filing_plan_items_key_uq" ON "filing_plan_items" USING btree ("plan_id","enterprise_id","tax_type","skssqq");--> statement-breakpoint
CREATE INDEX "filing_plan_items_agency_plan_idx" ON "filing_plan_items" USING btree ("agency_id","plan_id","enterprise_id","id");--> statement-breakpoint
CREATE INDEX "filing_plan_items_run_idx" ON "filing_plan_items" USING btree ("run_id","enterprise_id");--> statement-breakpoint
CREATE POLICY "filing_plan_items_tenant" ON "filing_plan_items" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_plan_items"."agency_id" = app_agency()) WITH CHECK ("filing_plan_items"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filed_returns" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filed_returns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"tax_type" text NOT NULL,
	"skssqq" text NOT NULL,
	"skssqz" text NOT NULL,
	"state" text NOT NULL,
	"plan_item_id" integer,
	"pzxh" text DEFAULT '' NOT NULL,
	"sbrq" text DEFAULT '' NOT NULL,
	"srze" bigint DEFAULT 0 NOT NULL,
	"ybtse" bigint DEFAULT 0 NOT NULL,
	"lsb" boolean DEFAULT false NOT NULL,
	"yqsb" boolean DEFAULT false NOT NULL,
	"receipt" jsonb,
	"receipt_pdf" bytea,
	"filed_by" integer,
	"filed_at" timestamp with time zone,
	"jkrq" text DEFAULT '' NOT NULL,
	"dzsphm" text DEFAULT '' NOT NULL,
	"sjje" bigint,
	"znj" bigint,
	"paid_by" integer,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "filed_returns" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filed_returns" ADD CONSTRAINT "filed_returns_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filed_returns" ADD CONSTRAINT "filed_returns_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filed_returns" ADD CONSTRAINT "filed_returns_filed_by_users_id_fk" FOREIGN KEY ("filed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filed_returns" ADD CONSTRAINT "filed_returns_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "filed_returns_key_uq" ON "filed_returns" USING btree ("agency_id","enterprise_id","tax_type","skssqq");--> statement-breakpoint
CREATE POLICY "filed_returns_tenant" ON "filed_returns" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filed_returns"."agency_id" = app_agency()) WITH CHECK ("filed_returns"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "filing_confirmations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "filing_confirmations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'sent' NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"answered_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filing_confirmations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "filing_confirmations" ADD CONSTRAINT "filing_confirmations_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_confirmations" ADD CONSTRAINT "filing_confirmations_plan_id_filing_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."filing_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_confirmations" ADD CONSTRAINT "filing_confirmations_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_confirmations" ADD CONSTRAINT "filing_confirmations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filing_confirmations_agency_plan_idx" ON "filing_confirmations" USING btree ("agency_id","plan_id","enterprise_id");--> statement-breakpoint
CREATE POLICY "filing_confirmations_tenant" ON "filing_confirmations" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("filing_confirmations"."agency_id" = app_agency()) WITH CHECK ("filing_confirmations"."agency_id" = app_agency());
