-- Issue 15: invoices — every invoice the agency knows of a client (issued or collected), their lines, month
-- rollups for the statistics, the bureau requests that change its books (at most once), remembered buyers,
-- and the batch runs (collect, confirm, issue).
-- The default role 普通员工 of existing agencies gets the everyday 发票 pages and buttons (new agencies get them from DEFAULT_STAFF_PERMS).
UPDATE "roles" SET "perms" = "perms" || ARRAY['invoice:output:view', 'invoice:output:issue', 'invoice:input:view', 'invoice:input:confirm', 'invoice:pool:view', 'invoice:pool:collect', 'invoice:stats:view']::text[]
WHERE "is_default" AND NOT ("perms" @> ARRAY['invoice:output:view']::text[]);
--> statement-breakpoint
CREATE TABLE "invoice_buyers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_buyers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"name" text NOT NULL,
	"tax_no" text NOT NULL,
	"address_phone" text DEFAULT '' NOT NULL,
	"bank_account" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_buyers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"xh" smallint NOT NULL,
	"spmc" text NOT NULL,
	"ssflbm" text DEFAULT '' NOT NULL,
	"ggxh" text DEFAULT '' NOT NULL,
	"dw" text DEFAULT '' NOT NULL,
	"sl" text DEFAULT '' NOT NULL,
	"dj" text DEFAULT '' NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"rate" text NOT NULL,
	"tax" bigint DEFAULT 0 NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_lines" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoice_month_parties" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"month" text NOT NULL,
	"direction" text NOT NULL,
	"cp_tax_no" text NOT NULL,
	"cp_name" text NOT NULL,
	"count" integer NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_month_parties" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoice_month_stats" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"month" text NOT NULL,
	"direction" text NOT NULL,
	"fplx" text NOT NULL,
	"rate" text NOT NULL,
	"count" integer NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"tax" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"deduct_tax" bigint DEFAULT 0 NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_month_stats" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoice_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"request_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"payload" jsonb NOT NULL,
	"invoice_id" integer,
	"qrdbh" text DEFAULT '' NOT NULL,
	"msg" text DEFAULT '' NOT NULL,
	"run_id" integer,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_requests" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoice_run_clients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_run_clients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"state" text,
	"msg" text DEFAULT '' NOT NULL,
	"invoice_num" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_run_clients" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoice_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"month" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"total_num" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);

--> statement-breakpoint
ALTER TABLE "invoice_runs" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"direction" text NOT NULL,
	"fphm" text NOT NULL,
	"kprq" text NOT NULL,
	"month" text NOT NULL,
	"fplx" text NOT NULL,
	"state" text DEFAULT 'normal' NOT NULL,
	"lzfphm" text DEFAULT '' NOT NULL,
	"cp_name" text DEFAULT '' NOT NULL,
	"cp_tax_no" text DEFAULT '' NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"tax" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"deduct_state" text DEFAULT 'none' NOT NULL,
	"deduct_period" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"issued_by" integer,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoices" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "invoice_buyers" ADD CONSTRAINT "invoice_buyers_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_buyers" ADD CONSTRAINT "invoice_buyers_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_month_parties" ADD CONSTRAINT "invoice_month_parties_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_month_parties" ADD CONSTRAINT "invoice_month_parties_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_month_stats" ADD CONSTRAINT "invoice_month_stats_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_month_stats" ADD CONSTRAINT "invoice_month_stats_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_requests" ADD CONSTRAINT "invoice_requests_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_requests" ADD CONSTRAINT "invoice_requests_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_requests" ADD CONSTRAINT "invoice_requests_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_requests" ADD CONSTRAINT "invoice_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_run_clients" ADD CONSTRAINT "invoice_run_clients_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_run_clients" ADD CONSTRAINT "invoice_run_clients_run_id_invoice_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."invoice_runs"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_run_clients" ADD CONSTRAINT "invoice_run_clients_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_runs" ADD CONSTRAINT "invoice_runs_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_runs" ADD CONSTRAINT "invoice_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_buyers_key_uq" ON "invoice_buyers" USING btree ("agency_id","enterprise_id","tax_no");
--> statement-breakpoint
CREATE INDEX "invoice_buyers_recent_idx" ON "invoice_buyers" USING btree ("agency_id","enterprise_id","last_used_at","id");
--> statement-breakpoint
CREATE INDEX "invoice_lines_invoice_idx" ON "invoice_lines" USING btree ("invoice_id","xh");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_month_parties_key_uq" ON "invoice_month_parties" USING btree ("agency_id","month","direction","enterprise_id","cp_tax_no");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_month_stats_key_uq" ON "invoice_month_stats" USING btree ("agency_id","month","direction","enterprise_id","fplx","rate");
--> statement-breakpoint
CREATE INDEX "invoice_month_stats_client_idx" ON "invoice_month_stats" USING btree ("agency_id","enterprise_id","month");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_requests_request_uq" ON "invoice_requests" USING btree ("request_id");
--> statement-breakpoint
CREATE INDEX "invoice_requests_client_idx" ON "invoice_requests" USING btree ("agency_id","enterprise_id","id");
--> statement-breakpoint
CREATE INDEX "invoice_requests_run_idx" ON "invoice_requests" USING btree ("run_id","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_run_clients_run_ent_uq" ON "invoice_run_clients" USING btree ("run_id","enterprise_id");
--> statement-breakpoint
CREATE INDEX "invoice_run_clients_pending_idx" ON "invoice_run_clients" USING btree ("run_id") WHERE "invoice_run_clients"."state" is null;
--> statement-breakpoint
CREATE INDEX "invoice_runs_agency_idx" ON "invoice_runs" USING btree ("agency_id","kind","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_key_uq" ON "invoices" USING btree ("agency_id","enterprise_id","direction","fphm");
--> statement-breakpoint
CREATE INDEX "invoices_client_month_idx" ON "invoices" USING btree ("agency_id","enterprise_id","direction","month","id");
--> statement-breakpoint
CREATE INDEX "invoices_agency_month_idx" ON "invoices" USING btree ("agency_id","direction","month","id");
--> statement-breakpoint
CREATE POLICY "invoice_buyers_tenant" ON "invoice_buyers" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_buyers"."agency_id" = app_agency()) WITH CHECK ("invoice_buyers"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoice_lines_tenant" ON "invoice_lines" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_lines"."agency_id" = app_agency()) WITH CHECK ("invoice_lines"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoice_month_parties_tenant" ON "invoice_month_parties" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_month_parties"."agency_id" = app_agency()) WITH CHECK ("invoice_month_parties"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoice_month_stats_tenant" ON "invoice_month_stats" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_month_stats"."agency_id" = app_agency()) WITH CHECK ("invoice_month_stats"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoice_requests_tenant" ON "invoice_requests" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_requests"."agency_id" = app_agency()) WITH CHECK ("invoice_requests"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoice_run_clients_tenant" ON "invoice_run_clients" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_run_clients"."agency_id" = app_agency()) WITH CHECK ("invoice_run_clients"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoice_runs_tenant" ON "invoice_runs" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_runs"."agency_id" = app_agency()) WITH CHECK ("invoice_runs"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoices_tenant" ON "invoices" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoices"."agency_id" = app_agency()) WITH CHECK ("invoices"."agency_id" = app_agency());
