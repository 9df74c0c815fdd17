-- Issue 16 point 6: 批量打印 — a print run's clients (book_runs kind 'print'), each with its outcome, its reason
-- (未建账, 没有凭证, left out by the batch rule) and its PDF until the run is downloaded.
CREATE TABLE "book_print_clients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "book_print_clients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"book_id" integer,
	"state" text,
	"msg" text DEFAULT '' NOT NULL,
	"pages" integer DEFAULT 0 NOT NULL,
	"pdf" bytea,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "book_print_clients" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "book_print_clients" ADD CONSTRAINT "book_print_clients_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_print_clients" ADD CONSTRAINT "book_print_clients_run_id_book_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."book_runs"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_print_clients" ADD CONSTRAINT "book_print_clients_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "book_print_clients" ADD CONSTRAINT "book_print_clients_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "book_print_clients_run_ent_uq" ON "book_print_clients" USING btree ("run_id","enterprise_id");
--> statement-breakpoint
CREATE INDEX "book_print_clients_pending_idx" ON "book_print_clients" USING btree ("run_id") WHERE "book_print_clients"."state" is null;
--> statement-breakpoint
CREATE POLICY "book_print_clients_tenant" ON "book_print_clients" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("book_print_clients"."agency_id" = app_agency()) WITH CHECK ("book_print_clients"."agency_id" = app_agency());
