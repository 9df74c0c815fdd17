CREATE TABLE "charges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "charges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"receivable_id" integer NOT NULL,
	"contract_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"amount_fen" bigint NOT NULL,
	"pay_date" date NOT NULL,
	"pay_method" text NOT NULL,
	"payer" text DEFAULT '' NOT NULL,
	"receipt_no" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer
);
--> statement-breakpoint
ALTER TABLE "charges" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "contract_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contract_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"contract_id" integer NOT NULL,
	"sort" integer NOT NULL,
	"service_id" integer,
	"service_name" text NOT NULL,
	"job_type" text NOT NULL,
	"is_give" smallint DEFAULT 0 NOT NULL,
	"price_fen" bigint NOT NULL,
	"discount_fen" bigint DEFAULT 0 NOT NULL,
	"now_price_fen" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_lines" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "contract_numbers" (
	"agency_id" integer NOT NULL,
	"year" smallint NOT NULL,
	"last_no" integer NOT NULL,
	CONSTRAINT "contract_numbers_agency_id_year_pk" PRIMARY KEY("agency_id","year")
);
--> statement-breakpoint
ALTER TABLE "contract_numbers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "contract_reminder_settings" (
	"agency_id" integer NOT NULL,
	"ly" text NOT NULL,
	"qf" smallint DEFAULT 0 NOT NULL,
	"dq" smallint DEFAULT 0 NOT NULL,
	"wyxht" smallint DEFAULT 0 NOT NULL,
	"qfyf" smallint DEFAULT 1 NOT NULL,
	"dqts" smallint DEFAULT 30 NOT NULL,
	CONSTRAINT "contract_reminder_settings_agency_id_ly_pk" PRIMARY KEY("agency_id","ly")
);
--> statement-breakpoint
ALTER TABLE "contract_reminder_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "contract_template_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contract_template_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"sort" integer NOT NULL,
	"service_id" integer NOT NULL,
	"is_give" smallint DEFAULT 0 NOT NULL,
	"price_fen" bigint NOT NULL,
	"discount_fen" bigint DEFAULT 0 NOT NULL,
	"now_price_fen" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_template_lines" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "contract_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contract_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"temp_name" text NOT NULL,
	"temp_illustration" text DEFAULT '' NOT NULL,
	"temp_total_price_fen" bigint DEFAULT 0 NOT NULL,
	"temp_static" text DEFAULT '1' NOT NULL,
	"is_verify_set" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_templates" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contracts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"contract_no" text NOT NULL,
	"enterprise_id" integer NOT NULL,
	"template_id" integer,
	"contract_user_id" integer NOT NULL,
	"htzt" text DEFAULT '1' NOT NULL,
	"sign_date" date NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"pay_cycle" smallint DEFAULT 12 NOT NULL,
	"total_price_fen" bigint NOT NULL,
	"discount_fen" bigint DEFAULT 0 NOT NULL,
	"amount_fen" bigint NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"renewed_from_id" integer,
	"end_reason" text DEFAULT '' NOT NULL,
	"ended_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contracts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "receivables" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "receivables_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"contract_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"period_no" smallint NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"due_date" date NOT NULL,
	"amount_fen" bigint NOT NULL,
	"paid_fen" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "receivables" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "service_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"service_name" text NOT NULL,
	"service_bri_name" text DEFAULT '' NOT NULL,
	"job_type" text NOT NULL,
	"price_fen" bigint DEFAULT 0 NOT NULL,
	"service_static" text DEFAULT '1' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service_items" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "special_permissions" (
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"area" text NOT NULL,
	"level" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "special_permissions_agency_id_user_id_area_pk" PRIMARY KEY("agency_id","user_id","area")
);
--> statement-breakpoint
ALTER TABLE "special_permissions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "check_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "check_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"ssq" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"total_num" integer NOT NULL,
	"success_num" integer DEFAULT 0 NOT NULL,
	"fail_num" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "check_batches" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "check_results" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "check_results_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"qysh" text NOT NULL,
	"qymc" text NOT NULL,
	"msg_type" smallint,
	"msg" text DEFAULT '' NOT NULL,
	"geshui_type" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "check_results" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "enterprise_tax_data" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"collected" jsonb NOT NULL,
	"batch_id" integer,
	"collected_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprise_tax_data_agency_id_enterprise_id_pk" PRIMARY KEY("agency_id","enterprise_id")
);
--> statement-breakpoint
ALTER TABLE "enterprise_tax_data" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "etax_sessions" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"kind" text NOT NULL,
	"session_enc" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "etax_sessions_agency_id_enterprise_id_kind_pk" PRIMARY KEY("agency_id","enterprise_id","kind")
);
--> statement-breakpoint
ALTER TABLE "etax_sessions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_receivable_id_receivables_id_fk" FOREIGN KEY ("receivable_id") REFERENCES "public"."receivables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_lines" ADD CONSTRAINT "contract_lines_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_lines" ADD CONSTRAINT "contract_lines_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_lines" ADD CONSTRAINT "contract_lines_service_id_service_items_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_numbers" ADD CONSTRAINT "contract_numbers_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_reminder_settings" ADD CONSTRAINT "contract_reminder_settings_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_template_lines" ADD CONSTRAINT "contract_template_lines_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_template_lines" ADD CONSTRAINT "contract_template_lines_template_id_contract_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."contract_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_template_lines" ADD CONSTRAINT "contract_template_lines_service_id_service_items_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_templates" ADD CONSTRAINT "contract_templates_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_templates" ADD CONSTRAINT "contract_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_template_id_contract_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."contract_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_contract_user_id_users_id_fk" FOREIGN KEY ("contract_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivables" ADD CONSTRAINT "receivables_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivables" ADD CONSTRAINT "receivables_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivables" ADD CONSTRAINT "receivables_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_items" ADD CONSTRAINT "service_items_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_permissions" ADD CONSTRAINT "special_permissions_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_permissions" ADD CONSTRAINT "special_permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_batches" ADD CONSTRAINT "check_batches_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_batches" ADD CONSTRAINT "check_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_results" ADD CONSTRAINT "check_results_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_results" ADD CONSTRAINT "check_results_batch_id_check_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."check_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_results" ADD CONSTRAINT "check_results_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_tax_data" ADD CONSTRAINT "enterprise_tax_data_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_tax_data" ADD CONSTRAINT "enterprise_tax_data_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "etax_sessions" ADD CONSTRAINT "etax_sessions_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "etax_sessions" ADD CONSTRAINT "etax_sessions_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charges_agency_date_idx" ON "charges" USING btree ("agency_id","pay_date");--> statement-breakpoint
CREATE INDEX "charges_receivable_idx" ON "charges" USING btree ("receivable_id");--> statement-breakpoint
CREATE INDEX "contract_lines_contract_idx" ON "contract_lines" USING btree ("contract_id","sort");--> statement-breakpoint
CREATE INDEX "contract_template_lines_tpl_idx" ON "contract_template_lines" USING btree ("template_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_templates_agency_name_uq" ON "contract_templates" USING btree ("agency_id","temp_name");--> statement-breakpoint
CREATE UNIQUE INDEX "contracts_agency_no_uq" ON "contracts" USING btree ("agency_id","contract_no");--> statement-breakpoint
CREATE INDEX "contracts_agency_ent_idx" ON "contracts" USING btree ("agency_id","enterprise_id");--> statement-breakpoint
CREATE INDEX "contracts_agency_user_idx" ON "contracts" USING btree ("agency_id","contract_user_id");--> statement-breakpoint
CREATE INDEX "contracts_agency_end_idx" ON "contracts" USING btree ("agency_id","end_date") WHERE "contracts"."htzt" = '2';--> statement-breakpoint
CREATE UNIQUE INDEX "receivables_contract_period_uq" ON "receivables" USING btree ("contract_id","period_no");--> statement-breakpoint
CREATE INDEX "receivables_agency_due_idx" ON "receivables" USING btree ("agency_id","due_date");--> statement-breakpoint
CREATE INDEX "receivables_agency_ent_idx" ON "receivables" USING btree ("agency_id","enterprise_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_items_agency_name_uq" ON "service_items" USING btree ("agency_id","service_name");--> statement-breakpoint
CREATE INDEX "check_batches_agency_user_idx" ON "check_batches" USING btree ("agency_id","user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "check_results_batch_ent_uq" ON "check_results" USING btree ("batch_id","enterprise_id");--> statement-breakpoint
CREATE INDEX "check_results_agency_ent_idx" ON "check_results" USING btree ("agency_id","enterprise_id");--> statement-breakpoint
CREATE POLICY "charges_tenant" ON "charges" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("charges"."agency_id" = app_agency()) WITH CHECK ("charges"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "contract_lines_tenant" ON "contract_lines" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("contract_lines"."agency_id" = app_agency()) WITH CHECK ("contract_lines"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "contract_numbers_tenant" ON "contract_numbers" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("contract_numbers"."agency_id" = app_agency()) WITH CHECK ("contract_numbers"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "contract_reminder_settings_tenant" ON "contract_reminder_settings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("contract_reminder_settings"."agency_id" = app_agency()) WITH CHECK ("contract_reminder_settings"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "contract_template_lines_tenant" ON "contract_template_lines" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("contract_template_lines"."agency_id" = app_agency()) WITH CHECK ("contract_template_lines"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "contract_templates_tenant" ON "contract_templates" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("contract_templates"."agency_id" = app_agency()) WITH CHECK ("contract_templates"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "contracts_tenant" ON "contracts" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("contracts"."agency_id" = app_agency()) WITH CHECK ("contracts"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "receivables_tenant" ON "receivables" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("receivables"."agency_id" = app_agency()) WITH CHECK ("receivables"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "service_items_tenant" ON "service_items" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("service_items"."agency_id" = app_agency()) WITH CHECK ("service_items"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "special_permissions_tenant" ON "special_permissions" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("special_permissions"."agency_id" = app_agency()) WITH CHECK ("special_permissions"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "check_batches_tenant" ON "check_batches" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("check_batches"."agency_id" = app_agency()) WITH CHECK ("check_batches"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "check_results_tenant" ON "check_results" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("check_results"."agency_id" = app_agency()) WITH CHECK ("check_results"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "enterprise_tax_data_tenant" ON "enterprise_tax_data" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("enterprise_tax_data"."agency_id" = app_agency()) WITH CHECK ("enterprise_tax_data"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "etax_sessions_tenant" ON "etax_sessions" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("etax_sessions"."agency_id" = app_agency()) WITH CHECK ("etax_sessions"."agency_id" = app_agency());