-- Issue 17: work-order templates (named, ordered steps with a default station and expected days, linked to
-- service items) and work orders (a client's own copy of the steps, completed strictly in order), their
-- per-agency per-day numbers and the steps' attachments. See docs/decisions-17-17-wo.md.
--> statement-breakpoint
CREATE TABLE "work_order_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "work_order_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"status" text DEFAULT '1' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "work_order_templates" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "work_order_template_steps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "work_order_template_steps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"sort" integer NOT NULL,
	"name" text NOT NULL,
	"station_id" integer,
	"days" integer NOT NULL
);

--> statement-breakpoint
ALTER TABLE "work_order_template_steps" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "work_order_template_services" (
	"agency_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	CONSTRAINT "work_order_template_services_template_id_service_id_pk" PRIMARY KEY("template_id","service_id")
);

--> statement-breakpoint
ALTER TABLE "work_order_template_services" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "work_order_numbers" (
	"agency_id" integer NOT NULL,
	"day" text NOT NULL,
	"last_no" integer NOT NULL,
	CONSTRAINT "work_order_numbers_agency_id_day_pk" PRIMARY KEY("agency_id","day")
);

--> statement-breakpoint
ALTER TABLE "work_order_numbers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "work_orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "work_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"enterprise_id" integer NOT NULL,
	"template_id" integer,
	"template_name" text NOT NULL,
	"contract_id" integer,
	"contract_line_id" integer,
	"state" text DEFAULT 'pending' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);

--> statement-breakpoint
ALTER TABLE "work_orders" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "work_order_steps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "work_order_steps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"sort" integer NOT NULL,
	"name" text NOT NULL,
	"station_name" text DEFAULT '' NOT NULL,
	"assignee_id" integer,
	"days" integer NOT NULL,
	"due_date" date,
	"state" text DEFAULT 'todo' NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"done_by" integer,
	"done_at" timestamp with time zone,
	"overdue_notified_at" timestamp with time zone
);

--> statement-breakpoint
ALTER TABLE "work_order_steps" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "work_order_attachments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "work_order_attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"step_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"stored_name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "work_order_attachments" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "work_order_templates" ADD CONSTRAINT "work_order_templates_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_templates" ADD CONSTRAINT "work_order_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_template_steps" ADD CONSTRAINT "work_order_template_steps_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_template_steps" ADD CONSTRAINT "work_order_template_steps_template_id_work_order_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."work_order_templates"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_template_steps" ADD CONSTRAINT "work_order_template_steps_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_template_services" ADD CONSTRAINT "work_order_template_services_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_template_services" ADD CONSTRAINT "work_order_template_services_template_id_work_order_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."work_order_templates"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_template_services" ADD CONSTRAINT "work_order_template_services_service_id_service_items_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."service_items"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_numbers" ADD CONSTRAINT "work_order_numbers_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_template_id_work_order_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."work_order_templates"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_contract_line_id_contract_lines_id_fk" FOREIGN KEY ("contract_line_id") REFERENCES "public"."contract_lines"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_steps" ADD CONSTRAINT "work_order_steps_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_steps" ADD CONSTRAINT "work_order_steps_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_steps" ADD CONSTRAINT "work_order_steps_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_steps" ADD CONSTRAINT "work_order_steps_done_by_users_id_fk" FOREIGN KEY ("done_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_attachments" ADD CONSTRAINT "work_order_attachments_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_attachments" ADD CONSTRAINT "work_order_attachments_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_attachments" ADD CONSTRAINT "work_order_attachments_step_id_work_order_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."work_order_steps"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "work_order_attachments" ADD CONSTRAINT "work_order_attachments_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "work_order_templates_agency_name_uq" ON "work_order_templates" USING btree ("agency_id","name");
--> statement-breakpoint
CREATE INDEX "work_order_template_steps_tpl_idx" ON "work_order_template_steps" USING btree ("template_id","sort");
--> statement-breakpoint
CREATE UNIQUE INDEX "work_order_template_services_service_uq" ON "work_order_template_services" USING btree ("agency_id","service_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "work_orders_agency_no_uq" ON "work_orders" USING btree ("agency_id","order_no");
--> statement-breakpoint
CREATE UNIQUE INDEX "work_orders_line_uq" ON "work_orders" USING btree ("contract_line_id") WHERE "work_orders"."contract_line_id" is not null;
--> statement-breakpoint
CREATE INDEX "work_orders_agency_id_idx" ON "work_orders" USING btree ("agency_id","id");
--> statement-breakpoint
CREATE INDEX "work_orders_agency_state_idx" ON "work_orders" USING btree ("agency_id","state","id");
--> statement-breakpoint
CREATE INDEX "work_orders_agency_ent_idx" ON "work_orders" USING btree ("agency_id","enterprise_id","id");
--> statement-breakpoint
CREATE INDEX "work_order_steps_order_idx" ON "work_order_steps" USING btree ("work_order_id","sort");
--> statement-breakpoint
CREATE INDEX "work_order_steps_assignee_idx" ON "work_order_steps" USING btree ("agency_id","assignee_id","state");
--> statement-breakpoint
CREATE INDEX "work_order_steps_due_idx" ON "work_order_steps" USING btree ("agency_id","due_date") WHERE "work_order_steps"."state" = 'doing';
--> statement-breakpoint
CREATE INDEX "work_order_attachments_step_idx" ON "work_order_attachments" USING btree ("step_id");
--> statement-breakpoint
CREATE POLICY "work_order_templates_tenant" ON "work_order_templates" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("work_order_templates"."agency_id" = app_agency()) WITH CHECK ("work_order_templates"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "work_order_template_steps_tenant" ON "work_order_template_steps" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("work_order_template_steps"."agency_id" = app_agency()) WITH CHECK ("work_order_template_steps"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "work_order_template_services_tenant" ON "work_order_template_services" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("work_order_template_services"."agency_id" = app_agency()) WITH CHECK ("work_order_template_services"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "work_order_numbers_tenant" ON "work_order_numbers" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("work_order_numbers"."agency_id" = app_agency()) WITH CHECK ("work_order_numbers"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "work_orders_tenant" ON "work_orders" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("work_orders"."agency_id" = app_agency()) WITH CHECK ("work_orders"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "work_order_steps_tenant" ON "work_order_steps" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("work_order_steps"."agency_id" = app_agency()) WITH CHECK ("work_order_steps"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "work_order_attachments_tenant" ON "work_order_attachments" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("work_order_attachments"."agency_id" = app_agency()) WITH CHECK ("work_order_attachments"."agency_id" = app_agency());
