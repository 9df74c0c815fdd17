-- One index per offered list sort, ending in the id (keyset paging, apps/server/src/db/paging.ts): a page
-- is a walk of pageSize index entries, and a jump an index-only walk, never a sort of the whole filter.
CREATE INDEX "enterprises_agency_name_id_idx" ON "enterprises" ("agency_id", "qymc", "id") WHERE "deleted_at" IS NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "enterprises_agency_name_idx";
--> statement-breakpoint
CREATE INDEX "enterprises_agency_deleted_idx" ON "enterprises" ("agency_id", "deleted_at", "id") WHERE "deleted_at" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "contracts_agency_id_idx" ON "contracts" ("agency_id", "id");
--> statement-breakpoint
CREATE INDEX "receivables_agency_due_id_idx" ON "receivables" ("agency_id", "due_date", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "receivables_agency_due_idx";
--> statement-breakpoint
CREATE INDEX "receivables_agency_amount_idx" ON "receivables" ("agency_id", "amount_fen", "id");
--> statement-breakpoint
CREATE INDEX "receivables_agency_paid_idx" ON "receivables" ("agency_id", "paid_fen", "id");
--> statement-breakpoint
CREATE INDEX "charges_agency_date_id_idx" ON "charges" ("agency_id", "pay_date", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "charges_agency_date_idx";
--> statement-breakpoint
CREATE INDEX "charges_agency_amount_idx" ON "charges" ("agency_id", "amount_fen", "id");
--> statement-breakpoint
CREATE INDEX "charges_agency_id_idx" ON "charges" ("agency_id", "id");
--> statement-breakpoint
CREATE INDEX "check_results_batch_order_idx" ON "check_results" ("batch_id", (case when "msg_type" is null then 0 else 1 end), "updated_at", "id");
--> statement-breakpoint
CREATE INDEX "check_batches_agency_id_idx" ON "check_batches" ("agency_id", "id");
--> statement-breakpoint
CREATE INDEX "contract_templates_agency_created_idx" ON "contract_templates" ("agency_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "messages_user_style_created_idx" ON "messages" ("user_id", "msg_style_big", "created_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "messages_user_idx";
--> statement-breakpoint
-- The keyword search (name or tax number, any part) as trigram indexes: pg_trgm is a trusted extension
-- (PostgreSQL 13+) and PGlite loads it as a contrib extension (db/client.ts); CJK names give trigrams.
CREATE EXTENSION IF NOT EXISTS "pg_trgm";
--> statement-breakpoint
CREATE INDEX "enterprises_qymc_trgm_idx" ON "enterprises" USING gin ("qymc" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "enterprises_qysh_trgm_idx" ON "enterprises" USING gin ("qysh" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "notes_ent_concern_idx" ON "notes" ("enterprise_id", "concern", "created_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "notes_ent_idx";
--> statement-breakpoint
CREATE INDEX "agency_applications_created_idx" ON "agency_applications" ("created_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "agency_applications_status_idx";
--> statement-breakpoint
CREATE INDEX "agency_applications_status_idx" ON "agency_applications" ("status", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "agency_applications_name_idx" ON "agency_applications" ("agency_name", "id");
--> statement-breakpoint
CREATE INDEX "whitelist_orders_created_idx" ON "whitelist_orders" ("created_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "invites_agency_idx";
--> statement-breakpoint
CREATE INDEX "invites_agency_idx" ON "invites" ("agency_id", "created_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "announcements_fb_time_idx";
--> statement-breakpoint
CREATE INDEX "announcements_fb_time_idx" ON "announcements" ("fb_time", "id");
--> statement-breakpoint
CREATE INDEX "receivables_agency_collect_idx" ON "receivables" ("agency_id", (case when "paid_fen" < "amount_fen" then 0 else 1 end), "due_date", "id");
