CREATE TABLE "access_log" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"enterprise_id" integer,
	"cpbm" text NOT NULL,
	"qysh" text DEFAULT '' NOT NULL,
	"qymc" text DEFAULT '' NOT NULL,
	"sssf" text DEFAULT '' NOT NULL,
	"ssds" text DEFAULT '' NOT NULL,
	"ssqx" text DEFAULT '' NOT NULL,
	"qyxz" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "access_log" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "enterprise_attachments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enterprise_attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"stored_name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enterprise_attachments" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "enterprise_contacts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enterprise_contacts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"name" text NOT NULL,
	"position" text DEFAULT '' NOT NULL,
	"mobile" text DEFAULT '' NOT NULL,
	"landline" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enterprise_contacts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "enterprise_labels" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"label_id" integer NOT NULL,
	CONSTRAINT "enterprise_labels_enterprise_id_label_id_pk" PRIMARY KEY("enterprise_id","label_id")
);
--> statement-breakpoint
ALTER TABLE "enterprise_labels" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "enterprise_shareholders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enterprise_shareholders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"name" text NOT NULL,
	"share" numeric(5, 2) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enterprise_shareholders" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "grades" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "grades_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "grades" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "labels" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "labels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"name" text NOT NULL,
	"color" text DEFAULT 'blue' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "labels" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "notes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"content" text NOT NULL,
	"concern" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "user_last_query" (
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"page_key" text NOT NULL,
	"query" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_last_query_agency_id_user_id_page_key_pk" PRIMARY KEY("agency_id","user_id","page_key")
);
--> statement-breakpoint
ALTER TABLE "user_last_query" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"queue" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"progress" jsonb,
	"result" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "jobs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "announcements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"message_title" text NOT NULL,
	"message_info" text NOT NULL,
	"sssf" text,
	"publisher_id" integer,
	"fb_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"qysh" text DEFAULT '' NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_sessions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "hotlines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hotlines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"rxmc" text NOT NULL,
	"rxnr" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hotlines" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "message_settings" (
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"msg_fp" smallint DEFAULT 1 NOT NULL,
	"msg_xjht" smallint DEFAULT 1 NOT NULL,
	"msg_xjgd" smallint DEFAULT 1 NOT NULL,
	"msg_sftx" smallint DEFAULT 1 NOT NULL,
	CONSTRAINT "message_settings_agency_id_user_id_pk" PRIMARY KEY("agency_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "message_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"msg_style_big" smallint NOT NULL,
	"msg_style_small" text NOT NULL,
	"content" text NOT NULL,
	"target_id" integer,
	"known" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "qybm" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "fjh" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "remark" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "grade_id" integer;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "service_status" text DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "hydj_real" smallint;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "hydqsj" date;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "qyzt" text DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "qylb" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "xdzswj_dlzh" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "xdzswj_pass_enc" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "xdzswj_sfbm" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "dlfs" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "dl_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "dl_password_enc" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "report_password_enc" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "agent_login_account" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "agent_login_password_enc" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "agent_login_qysh" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "login_type" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "is_verify_set" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "access_log" ADD CONSTRAINT "access_log_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_log" ADD CONSTRAINT "access_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_log" ADD CONSTRAINT "access_log_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_attachments" ADD CONSTRAINT "enterprise_attachments_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_attachments" ADD CONSTRAINT "enterprise_attachments_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_attachments" ADD CONSTRAINT "enterprise_attachments_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_contacts" ADD CONSTRAINT "enterprise_contacts_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_contacts" ADD CONSTRAINT "enterprise_contacts_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_labels" ADD CONSTRAINT "enterprise_labels_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_labels" ADD CONSTRAINT "enterprise_labels_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_labels" ADD CONSTRAINT "enterprise_labels_label_id_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_shareholders" ADD CONSTRAINT "enterprise_shareholders_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_shareholders" ADD CONSTRAINT "enterprise_shareholders_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grades" ADD CONSTRAINT "grades_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_last_query" ADD CONSTRAINT "user_last_query_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_last_query" ADD CONSTRAINT "user_last_query_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlines" ADD CONSTRAINT "hotlines_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_settings" ADD CONSTRAINT "message_settings_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_settings" ADD CONSTRAINT "message_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_log_agency_at_idx" ON "access_log" USING btree ("agency_id","at");--> statement-breakpoint
CREATE INDEX "enterprise_attachments_ent_idx" ON "enterprise_attachments" USING btree ("enterprise_id");--> statement-breakpoint
CREATE INDEX "enterprise_contacts_ent_idx" ON "enterprise_contacts" USING btree ("enterprise_id");--> statement-breakpoint
CREATE INDEX "enterprise_labels_label_idx" ON "enterprise_labels" USING btree ("label_id");--> statement-breakpoint
CREATE INDEX "enterprise_shareholders_ent_idx" ON "enterprise_shareholders" USING btree ("enterprise_id");--> statement-breakpoint
CREATE UNIQUE INDEX "grades_agency_name_uq" ON "grades" USING btree ("agency_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "labels_agency_name_uq" ON "labels" USING btree ("agency_id","name");--> statement-breakpoint
CREATE INDEX "notes_ent_idx" ON "notes" USING btree ("enterprise_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_queue_key_uq" ON "jobs" USING btree ("queue","key");--> statement-breakpoint
CREATE INDEX "jobs_ready_idx" ON "jobs" USING btree ("state","run_after");--> statement-breakpoint
CREATE INDEX "jobs_agency_idx" ON "jobs" USING btree ("agency_id","queue","state");--> statement-breakpoint
CREATE INDEX "announcements_fb_time_idx" ON "announcements" USING btree ("fb_time");--> statement-breakpoint
CREATE INDEX "chat_sessions_user_idx" ON "chat_sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "hotlines_agency_idx" ON "hotlines" USING btree ("agency_id");--> statement-breakpoint
CREATE INDEX "messages_user_idx" ON "messages" USING btree ("user_id","msg_style_big","created_at");--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "enterprises" ADD CONSTRAINT "enterprises_grade_id_grades_id_fk" FOREIGN KEY ("grade_id") REFERENCES "public"."grades"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enterprises_agency_user_idx" ON "enterprises" USING btree ("agency_id","allocate_user","id");--> statement-breakpoint
CREATE INDEX "enterprises_agency_name_idx" ON "enterprises" USING btree ("agency_id","qymc");--> statement-breakpoint
CREATE POLICY "access_log_tenant" ON "access_log" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("access_log"."agency_id" = app_agency()) WITH CHECK ("access_log"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "enterprise_attachments_tenant" ON "enterprise_attachments" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("enterprise_attachments"."agency_id" = app_agency()) WITH CHECK ("enterprise_attachments"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "enterprise_contacts_tenant" ON "enterprise_contacts" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("enterprise_contacts"."agency_id" = app_agency()) WITH CHECK ("enterprise_contacts"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "enterprise_labels_tenant" ON "enterprise_labels" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("enterprise_labels"."agency_id" = app_agency()) WITH CHECK ("enterprise_labels"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "enterprise_shareholders_tenant" ON "enterprise_shareholders" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("enterprise_shareholders"."agency_id" = app_agency()) WITH CHECK ("enterprise_shareholders"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "grades_tenant" ON "grades" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("grades"."agency_id" = app_agency()) WITH CHECK ("grades"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "labels_tenant" ON "labels" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("labels"."agency_id" = app_agency()) WITH CHECK ("labels"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "notes_tenant" ON "notes" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("notes"."agency_id" = app_agency()) WITH CHECK ("notes"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "user_last_query_tenant" ON "user_last_query" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("user_last_query"."agency_id" = app_agency()) WITH CHECK ("user_last_query"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "jobs_tenant" ON "jobs" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("jobs"."agency_id" = app_agency()) WITH CHECK ("jobs"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "chat_sessions_tenant" ON "chat_sessions" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("chat_sessions"."agency_id" = app_agency()) WITH CHECK ("chat_sessions"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "hotlines_tenant" ON "hotlines" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("hotlines"."agency_id" = app_agency()) WITH CHECK ("hotlines"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "message_settings_tenant" ON "message_settings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("message_settings"."agency_id" = app_agency()) WITH CHECK ("message_settings"."agency_id" = app_agency());--> statement-breakpoint
CREATE POLICY "messages_tenant" ON "messages" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("messages"."agency_id" = app_agency()) WITH CHECK ("messages"."agency_id" = app_agency());