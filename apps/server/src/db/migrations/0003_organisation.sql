CREATE TABLE "agency_applications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agency_applications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"applicant_id" integer NOT NULL,
	"agency_name" text NOT NULL,
	"agency_tax" text NOT NULL,
	"agency_type" text DEFAULT 'dls' NOT NULL,
	"sssf" text NOT NULL,
	"ssds" text NOT NULL,
	"ssqx" text NOT NULL,
	"address" text NOT NULL,
	"agency_scale" smallint NOT NULL,
	"staff_num" smallint NOT NULL,
	"link" text DEFAULT '' NOT NULL,
	"link_phone" text DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"reviewer_id" integer,
	"reviewed_at" timestamp with time zone,
	"agency_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "departments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "departments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"director_user_id" integer,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "departments" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "invites" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invites_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"phone" text NOT NULL,
	"hymc" text DEFAULT '' NOT NULL,
	"inviter_id" integer NOT NULL,
	"role" smallint DEFAULT 0 NOT NULL,
	"department_id" integer,
	"status" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invites" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "membership_roles" (
	"agency_id" integer NOT NULL,
	"membership_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "membership_roles_membership_id_role_id_pk" PRIMARY KEY("membership_id","role_id")
);
--> statement-breakpoint
ALTER TABLE "membership_roles" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "roles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "roles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"perms" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "roles" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "station_members" (
	"agency_id" integer NOT NULL,
	"station_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "station_members_station_id_user_id_pk" PRIMARY KEY("station_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "station_members" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "stations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "whitelist_orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "whitelist_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"busi_val" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "department_id" integer;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "scale" smallint;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "staff_num" smallint;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "link" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "link_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "quit_set" text DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "agency_applications" ADD CONSTRAINT "agency_applications_applicant_id_users_id_fk" FOREIGN KEY ("applicant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agency_applications" ADD CONSTRAINT "agency_applications_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agency_applications" ADD CONSTRAINT "agency_applications_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_parent_id_departments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_director_user_id_users_id_fk" FOREIGN KEY ("director_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_inviter_id_users_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_roles" ADD CONSTRAINT "membership_roles_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_roles" ADD CONSTRAINT "membership_roles_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_roles" ADD CONSTRAINT "membership_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_members" ADD CONSTRAINT "station_members_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_members" ADD CONSTRAINT "station_members_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_members" ADD CONSTRAINT "station_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stations" ADD CONSTRAINT "stations_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agency_applications_status_idx" ON "agency_applications" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "departments_agency_idx" ON "departments" USING btree ("agency_id");--> statement-breakpoint
CREATE INDEX "invites_agency_idx" ON "invites" USING btree ("agency_id","created_at");--> statement-breakpoint
CREATE INDEX "invites_phone_idx" ON "invites" USING btree ("phone");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_agency_name_uq" ON "roles" USING btree ("agency_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "stations_agency_name_uq" ON "stations" USING btree ("agency_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "whitelist_orders_uq" ON "whitelist_orders" USING btree ("type","busi_val");--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "departments_tenant" ON "departments" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("departments"."agency_id" = app_agency()) WITH CHECK ("departments"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "invites_tenant" ON "invites" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invites"."agency_id" = app_agency() or "invites"."phone" = (select u.phone from users u where u.id = app_user())) WITH CHECK ("invites"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "membership_roles_tenant" ON "membership_roles" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("membership_roles"."agency_id" = app_agency()) WITH CHECK ("membership_roles"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "roles_tenant" ON "roles" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("roles"."agency_id" = app_agency()) WITH CHECK ("roles"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "station_members_tenant" ON "station_members" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("station_members"."agency_id" = app_agency()) WITH CHECK ("station_members"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "stations_tenant" ON "stations" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("stations"."agency_id" = app_agency()) WITH CHECK ("stations"."agency_id" = app_agency());