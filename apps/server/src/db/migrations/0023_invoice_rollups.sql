-- Issue 15 point 7: the agency's statistics of a month read fixed-size rollups. invoice_month_counts is each
-- client-month's invoices counted once by direction and kind (the trend's counts summed the per-client party rows,
-- and the by-kind counts counted an invoice once per rate it has lines at); invoice_agency_stats,
-- invoice_agency_counts and invoice_agency_parties are the per-client rollups summed over the agency's clients (the
-- top buyers and sellers grouped 100,000 per-client rows before). The invoice store keeps them with the other
-- rollups (the agency's as net deltas); all are filled here from what is stored.
CREATE TABLE "invoice_agency_counts" (
	"agency_id" integer NOT NULL,
	"month" text NOT NULL,
	"direction" text NOT NULL,
	"fplx" text NOT NULL,
	"count" integer NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_agency_counts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoice_agency_parties" (
	"agency_id" integer NOT NULL,
	"month" text NOT NULL,
	"direction" text NOT NULL,
	"cp_tax_no" text NOT NULL,
	"cp_name" text NOT NULL,
	"count" integer NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_agency_parties" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoice_agency_stats" (
	"agency_id" integer NOT NULL,
	"month" text NOT NULL,
	"direction" text NOT NULL,
	"fplx" text NOT NULL,
	"rate" text NOT NULL,
	"count" integer NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"tax" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"deduct_tax" bigint DEFAULT 0 NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_agency_stats" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "invoice_month_counts" (
	"agency_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"month" text NOT NULL,
	"direction" text NOT NULL,
	"fplx" text NOT NULL,
	"count" integer NOT NULL
);

--> statement-breakpoint
ALTER TABLE "invoice_month_counts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "invoice_agency_counts" ADD CONSTRAINT "invoice_agency_counts_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_agency_parties" ADD CONSTRAINT "invoice_agency_parties_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_agency_stats" ADD CONSTRAINT "invoice_agency_stats_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_month_counts" ADD CONSTRAINT "invoice_month_counts_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_month_counts" ADD CONSTRAINT "invoice_month_counts_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_agency_counts_key_uq" ON "invoice_agency_counts" USING btree ("agency_id","month","direction","fplx");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_agency_parties_key_uq" ON "invoice_agency_parties" USING btree ("agency_id","month","direction","cp_tax_no");
--> statement-breakpoint
CREATE INDEX "invoice_agency_parties_top_idx" ON "invoice_agency_parties" USING btree ("agency_id","month","direction","total" DESC,"cp_tax_no");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_agency_stats_key_uq" ON "invoice_agency_stats" USING btree ("agency_id","month","direction","fplx","rate");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_month_counts_key_uq" ON "invoice_month_counts" USING btree ("agency_id","month","direction","enterprise_id","fplx");
--> statement-breakpoint
CREATE POLICY "invoice_agency_counts_tenant" ON "invoice_agency_counts" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_agency_counts"."agency_id" = app_agency()) WITH CHECK ("invoice_agency_counts"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoice_agency_parties_tenant" ON "invoice_agency_parties" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_agency_parties"."agency_id" = app_agency()) WITH CHECK ("invoice_agency_parties"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoice_agency_stats_tenant" ON "invoice_agency_stats" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_agency_stats"."agency_id" = app_agency()) WITH CHECK ("invoice_agency_stats"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "invoice_month_counts_tenant" ON "invoice_month_counts" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("invoice_month_counts"."agency_id" = app_agency()) WITH CHECK ("invoice_month_counts"."agency_id" = app_agency());
--> statement-breakpoint
INSERT INTO "invoice_agency_parties" ("agency_id", "month", "direction", "cp_tax_no", "cp_name", "count", "total")
SELECT "agency_id", "month", "direction", "cp_tax_no", max("cp_name"), sum("count")::int, sum("total")
FROM "invoice_month_parties"
GROUP BY "agency_id", "month", "direction", "cp_tax_no";
--> statement-breakpoint
INSERT INTO "invoice_month_counts" ("agency_id", "enterprise_id", "month", "direction", "fplx", "count")
SELECT "agency_id", "enterprise_id", "month", "direction", "fplx", count(*)::int
FROM "invoices"
WHERE "state" <> 'void'
GROUP BY "agency_id", "enterprise_id", "month", "direction", "fplx";
--> statement-breakpoint
INSERT INTO "invoice_agency_stats" ("agency_id", "month", "direction", "fplx", "rate", "count", "amount", "tax", "total", "deduct_tax")
SELECT "agency_id", "month", "direction", "fplx", "rate", sum("count")::int, sum("amount"), sum("tax"), sum("total"), sum("deduct_tax")
FROM "invoice_month_stats"
GROUP BY "agency_id", "month", "direction", "fplx", "rate";
--> statement-breakpoint
INSERT INTO "invoice_agency_counts" ("agency_id", "month", "direction", "fplx", "count")
SELECT "agency_id", "month", "direction", "fplx", sum("count")::int
FROM "invoice_month_counts"
GROUP BY "agency_id", "month", "direction", "fplx";
