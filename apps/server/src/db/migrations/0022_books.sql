-- Issue 16: bookkeeping — one set of books per client (账套), its chart of accounts and auxiliary items, opening
-- balances, vouchers and their lines, per-period balances the voucher store keeps, closed periods, voucher
-- templates, document-to-voucher rules, and batch runs (close, print).
-- The default role 普通员工 of existing agencies gets the everyday 账务 pages and buttons (new agencies get them from DEFAULT_STAFF_PERMS).
UPDATE "roles" SET "perms" = "perms" || ARRAY['account:book:view', 'account:book:setup', 'account:book:edit', 'account:voucher:view', 'account:voucher:edit', 'account:voucher:review', 'account:voucher:delete', 'account:ledger:view', 'account:statement:view', 'account:close:view', 'account:close:run', 'account:print:view', 'account:setting:view', 'account:setting:edit']::text[]
WHERE "is_default" AND NOT ("perms" @> ARRAY['account:book:view']::text[]);
--> statement-breakpoint
CREATE TABLE "book_accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "book_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"parent_id" integer,
	"level" smallint NOT NULL,
	"category" text NOT NULL,
	"direction" text NOT NULL,
	"aux_kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_leaf" boolean DEFAULT true NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"preset" boolean DEFAULT false NOT NULL
);

--> statement-breakpoint
ALTER TABLE "book_accounts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "book_aux_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "book_aux_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"tax_no" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL
);

--> statement-breakpoint
ALTER TABLE "book_aux_items" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "book_balances" (
	"agency_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"aux_item_id" integer DEFAULT 0 NOT NULL,
	"period" text NOT NULL,
	"debit" bigint DEFAULT 0 NOT NULL,
	"credit" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "book_balances_book_id_account_id_aux_item_id_period_pk" PRIMARY KEY("book_id","account_id","aux_item_id","period")
);

--> statement-breakpoint
ALTER TABLE "book_balances" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "book_closes" (
	"agency_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"period" text NOT NULL,
	"closed_by" integer NOT NULL,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "book_closes_book_id_period_pk" PRIMARY KEY("book_id","period")
);

--> statement-breakpoint
ALTER TABLE "book_closes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "book_openings" (
	"agency_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"aux_item_id" integer DEFAULT 0 NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"ytd_debit" bigint DEFAULT 0 NOT NULL,
	"ytd_credit" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "book_openings_book_id_account_id_aux_item_id_pk" PRIMARY KEY("book_id","account_id","aux_item_id")
);

--> statement-breakpoint
ALTER TABLE "book_openings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "book_run_clients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "book_run_clients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"state" text,
	"msg" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "book_run_clients" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "book_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "book_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"total_num" integer NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);

--> statement-breakpoint
ALTER TABLE "book_runs" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "books" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "books_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"standard" text DEFAULT 'small2013' NOT NULL,
	"start_period" text NOT NULL,
	"vat_kind" text DEFAULT 'small' NOT NULL,
	"current_period" text NOT NULL,
	"opening_balanced" boolean DEFAULT false NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "books" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "voucher_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "voucher_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"voucher_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"period" text NOT NULL,
	"seq" smallint NOT NULL,
	"summary" text NOT NULL,
	"account_id" integer NOT NULL,
	"aux_item_id" integer DEFAULT 0 NOT NULL,
	"debit" bigint DEFAULT 0 NOT NULL,
	"credit" bigint DEFAULT 0 NOT NULL
);

--> statement-breakpoint
ALTER TABLE "voucher_lines" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "voucher_rules" (
	"agency_id" integer NOT NULL,
	"kind" text NOT NULL,
	"rules" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voucher_rules_agency_id_kind_pk" PRIMARY KEY("agency_id","kind")
);

--> statement-breakpoint
ALTER TABLE "voucher_rules" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "voucher_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "voucher_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"name" text NOT NULL,
	"lines" jsonb NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "voucher_templates" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "vouchers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vouchers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"period" text NOT NULL,
	"word" text DEFAULT '记' NOT NULL,
	"number" integer NOT NULL,
	"vdate" text NOT NULL,
	"attachments" smallint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"review" text DEFAULT 'unreviewed' NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"source" text DEFAULT 'manual' NOT NULL,
	"source_ref" text DEFAULT '' NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

--> statement-breakpoint
ALTER TABLE "vouchers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "book_accounts" ADD CONSTRAINT "book_accounts_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_accounts" ADD CONSTRAINT "book_accounts_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_aux_items" ADD CONSTRAINT "book_aux_items_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_aux_items" ADD CONSTRAINT "book_aux_items_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_balances" ADD CONSTRAINT "book_balances_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_balances" ADD CONSTRAINT "book_balances_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_balances" ADD CONSTRAINT "book_balances_account_id_book_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."book_accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_closes" ADD CONSTRAINT "book_closes_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_closes" ADD CONSTRAINT "book_closes_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_closes" ADD CONSTRAINT "book_closes_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_openings" ADD CONSTRAINT "book_openings_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_openings" ADD CONSTRAINT "book_openings_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_openings" ADD CONSTRAINT "book_openings_account_id_book_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."book_accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_run_clients" ADD CONSTRAINT "book_run_clients_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_run_clients" ADD CONSTRAINT "book_run_clients_run_id_book_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."book_runs"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_run_clients" ADD CONSTRAINT "book_run_clients_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_runs" ADD CONSTRAINT "book_runs_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_runs" ADD CONSTRAINT "book_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voucher_lines" ADD CONSTRAINT "voucher_lines_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voucher_lines" ADD CONSTRAINT "voucher_lines_voucher_id_vouchers_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."vouchers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voucher_lines" ADD CONSTRAINT "voucher_lines_account_id_book_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."book_accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voucher_rules" ADD CONSTRAINT "voucher_rules_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voucher_rules" ADD CONSTRAINT "voucher_rules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voucher_templates" ADD CONSTRAINT "voucher_templates_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voucher_templates" ADD CONSTRAINT "voucher_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "book_accounts_code_uq" ON "book_accounts" USING btree ("book_id","code");
--> statement-breakpoint
CREATE UNIQUE INDEX "book_aux_items_code_uq" ON "book_aux_items" USING btree ("book_id","kind","code");
--> statement-breakpoint
CREATE INDEX "book_balances_period_idx" ON "book_balances" USING btree ("book_id","period");
--> statement-breakpoint
CREATE INDEX "book_closes_agency_period_idx" ON "book_closes" USING btree ("agency_id","period");
--> statement-breakpoint
CREATE UNIQUE INDEX "book_run_clients_run_book_uq" ON "book_run_clients" USING btree ("run_id","book_id");
--> statement-breakpoint
CREATE INDEX "book_run_clients_pending_idx" ON "book_run_clients" USING btree ("run_id") WHERE "book_run_clients"."state" is null;
--> statement-breakpoint
CREATE INDEX "book_runs_agency_idx" ON "book_runs" USING btree ("agency_id","kind","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "books_enterprise_uq" ON "books" USING btree ("agency_id","enterprise_id");
--> statement-breakpoint
CREATE INDEX "books_agency_period_idx" ON "books" USING btree ("agency_id","current_period","id");
--> statement-breakpoint
CREATE INDEX "voucher_lines_voucher_idx" ON "voucher_lines" USING btree ("voucher_id","seq");
--> statement-breakpoint
CREATE INDEX "voucher_lines_account_idx" ON "voucher_lines" USING btree ("book_id","account_id","period","voucher_id");
--> statement-breakpoint
CREATE INDEX "voucher_templates_agency_idx" ON "voucher_templates" USING btree ("agency_id","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "vouchers_number_uq" ON "vouchers" USING btree ("book_id","period","word","number");
--> statement-breakpoint
CREATE UNIQUE INDEX "vouchers_source_uq" ON "vouchers" USING btree ("book_id","period","source","source_ref") WHERE "vouchers"."source_ref" <> '';
--> statement-breakpoint
CREATE INDEX "vouchers_list_idx" ON "vouchers" USING btree ("agency_id","book_id","period","number","id");
--> statement-breakpoint
CREATE POLICY "book_accounts_tenant" ON "book_accounts" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("book_accounts"."agency_id" = app_agency()) WITH CHECK ("book_accounts"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "book_aux_items_tenant" ON "book_aux_items" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("book_aux_items"."agency_id" = app_agency()) WITH CHECK ("book_aux_items"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "book_balances_tenant" ON "book_balances" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("book_balances"."agency_id" = app_agency()) WITH CHECK ("book_balances"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "book_closes_tenant" ON "book_closes" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("book_closes"."agency_id" = app_agency()) WITH CHECK ("book_closes"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "book_openings_tenant" ON "book_openings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("book_openings"."agency_id" = app_agency()) WITH CHECK ("book_openings"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "book_run_clients_tenant" ON "book_run_clients" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("book_run_clients"."agency_id" = app_agency()) WITH CHECK ("book_run_clients"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "book_runs_tenant" ON "book_runs" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("book_runs"."agency_id" = app_agency()) WITH CHECK ("book_runs"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "books_tenant" ON "books" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("books"."agency_id" = app_agency()) WITH CHECK ("books"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "voucher_lines_tenant" ON "voucher_lines" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("voucher_lines"."agency_id" = app_agency()) WITH CHECK ("voucher_lines"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "voucher_rules_tenant" ON "voucher_rules" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("voucher_rules"."agency_id" = app_agency()) WITH CHECK ("voucher_rules"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "voucher_templates_tenant" ON "voucher_templates" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("voucher_templates"."agency_id" = app_agency()) WITH CHECK ("voucher_templates"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "vouchers_tenant" ON "vouchers" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("vouchers"."agency_id" = app_agency()) WITH CHECK ("vouchers"."agency_id" = app_agency());
