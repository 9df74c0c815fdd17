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
