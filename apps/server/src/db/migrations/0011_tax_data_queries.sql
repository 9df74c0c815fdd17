CREATE TABLE "tax_data_queries" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"tab" text NOT NULL,
	"params" jsonb NOT NULL,
	"result" jsonb NOT NULL,
	"user_id" integer,
	"queried_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_data_queries_agency_id_enterprise_id_tab_pk" PRIMARY KEY("agency_id","enterprise_id","tab")
);
--> statement-breakpoint
ALTER TABLE "tax_data_queries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "tax_data_queries" ADD CONSTRAINT "tax_data_queries_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_data_queries" ADD CONSTRAINT "tax_data_queries_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_data_queries" ADD CONSTRAINT "tax_data_queries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tax_data_queries_ent_idx" ON "tax_data_queries" USING btree ("enterprise_id");--> statement-breakpoint
CREATE POLICY "tax_data_queries_tenant" ON "tax_data_queries" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("tax_data_queries"."agency_id" = app_agency()) WITH CHECK ("tax_data_queries"."agency_id" = app_agency());