CREATE TABLE "etax_login_grants" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"redeemed_at" timestamp with time zone,
	"reported_at" timestamp with time zone,
	"status" smallint,
	"msg" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "etax_login_grants" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "etax_login_grants" ADD CONSTRAINT "etax_login_grants_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "etax_login_grants" ADD CONSTRAINT "etax_login_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "etax_login_grants" ADD CONSTRAINT "etax_login_grants_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "etax_login_grants_agency_ent_idx" ON "etax_login_grants" USING btree ("agency_id","enterprise_id");--> statement-breakpoint
CREATE POLICY "etax_login_grants_tenant" ON "etax_login_grants" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("etax_login_grants"."agency_id" = app_agency()) WITH CHECK ("etax_login_grants"."agency_id" = app_agency());