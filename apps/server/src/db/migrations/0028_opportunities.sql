-- Issue 17: opportunities (商机) — the agency's stages, its automatic-release setting, opportunities (owned by a
-- staff member or in the public pool 公海 when owner_id is null), their follow-up logs and owner-change logs.
CREATE TABLE "opportunity_stages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "opportunity_stages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"sort" smallint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "opportunity_stages" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "opportunity_settings" (
	"agency_id" integer PRIMARY KEY NOT NULL,
	"auto_release_days" smallint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "opportunity_settings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "opportunities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "opportunities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"company_name" text NOT NULL,
	"contact_name" text NOT NULL,
	"phone" text NOT NULL,
	"source" text NOT NULL,
	"service_ids" integer[] DEFAULT '{}' NOT NULL,
	"amount_fen" bigint DEFAULT 0 NOT NULL,
	"stage_id" integer NOT NULL,
	"owner_id" integer,
	"remark" text DEFAULT '' NOT NULL,
	"followed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"next_follow_at" timestamp with time zone,
	"reminded_for" timestamp with time zone,
	"release_warned_on" date,
	"released_at" timestamp with time zone,
	"enterprise_id" integer,
	"contract_id" integer,
	"converted_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "opportunities" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "opportunity_followups" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "opportunity_followups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"opportunity_id" integer NOT NULL,
	"user_id" integer,
	"content" text NOT NULL,
	"way" text NOT NULL,
	"next_follow_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "opportunity_followups" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "opportunity_transfers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "opportunity_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"opportunity_id" integer NOT NULL,
	"kind" text NOT NULL,
	"from_user_id" integer,
	"to_user_id" integer,
	"by_user_id" integer,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "opportunity_transfers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "opportunity_stages" ADD CONSTRAINT "opportunity_stages_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunity_settings" ADD CONSTRAINT "opportunity_settings_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_stage_id_opportunity_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."opportunity_stages"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunity_followups" ADD CONSTRAINT "opportunity_followups_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunity_followups" ADD CONSTRAINT "opportunity_followups_opportunity_id_opportunities_id_fk" FOREIGN KEY ("opportunity_id") REFERENCES "public"."opportunities"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunity_followups" ADD CONSTRAINT "opportunity_followups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunity_transfers" ADD CONSTRAINT "opportunity_transfers_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunity_transfers" ADD CONSTRAINT "opportunity_transfers_opportunity_id_opportunities_id_fk" FOREIGN KEY ("opportunity_id") REFERENCES "public"."opportunities"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunity_transfers" ADD CONSTRAINT "opportunity_transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunity_transfers" ADD CONSTRAINT "opportunity_transfers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "opportunity_transfers" ADD CONSTRAINT "opportunity_transfers_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "opportunity_stages_agency_name_uq" ON "opportunity_stages" USING btree ("agency_id","name");
--> statement-breakpoint
CREATE INDEX "opportunities_agency_id_idx" ON "opportunities" USING btree ("agency_id","id");
--> statement-breakpoint
CREATE INDEX "opportunities_agency_owner_idx" ON "opportunities" USING btree ("agency_id","owner_id","id");
--> statement-breakpoint
CREATE INDEX "opportunities_agency_followed_idx" ON "opportunities" USING btree ("agency_id","followed_at","id");
--> statement-breakpoint
CREATE INDEX "opportunities_agency_amount_idx" ON "opportunities" USING btree ("agency_id","amount_fen","id");
--> statement-breakpoint
CREATE INDEX "opportunities_agency_next_idx" ON "opportunities" USING btree ("agency_id","next_follow_at");
--> statement-breakpoint
CREATE INDEX "opportunity_followups_opp_idx" ON "opportunity_followups" USING btree ("opportunity_id","id");
--> statement-breakpoint
CREATE INDEX "opportunity_transfers_opp_idx" ON "opportunity_transfers" USING btree ("opportunity_id","id");
--> statement-breakpoint
CREATE POLICY "opportunity_stages_tenant" ON "opportunity_stages" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("opportunity_stages"."agency_id" = app_agency()) WITH CHECK ("opportunity_stages"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "opportunity_settings_tenant" ON "opportunity_settings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("opportunity_settings"."agency_id" = app_agency()) WITH CHECK ("opportunity_settings"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "opportunities_tenant" ON "opportunities" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("opportunities"."agency_id" = app_agency()) WITH CHECK ("opportunities"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "opportunity_followups_tenant" ON "opportunity_followups" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("opportunity_followups"."agency_id" = app_agency()) WITH CHECK ("opportunity_followups"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "opportunity_transfers_tenant" ON "opportunity_transfers" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("opportunity_transfers"."agency_id" = app_agency()) WITH CHECK ("opportunity_transfers"."agency_id" = app_agency());
