-- Indexes the 100,000-row benches asked for (bench/README.md, "Lists built in issue 18/19"): each ends in the
-- id the list pages by and holds the tenant column, so the count and the page are index-only walks.
-- 会计工厂 clients: by factory and agency, newest hand-over first (replaces the index without created_at).
DROP INDEX IF EXISTS "kjgc_handovers_kjgc_idx";
--> statement-breakpoint
CREATE INDEX "kjgc_handovers_kjgc_idx" ON "kjgc_handovers" ("kjgc_id", "agency_id", "created_at", "enterprise_id");
--> statement-breakpoint
CREATE INDEX "kjgc_handovers_agency_idx" ON "kjgc_handovers" ("agency_id", "created_at", "enterprise_id");
--> statement-breakpoint
-- Webhook delivery log of one endpoint under the agency's policy.
CREATE INDEX "webhook_deliveries_endpoint_agency_idx" ON "webhook_deliveries" ("endpoint_id", "agency_id", "id");
--> statement-breakpoint
-- 操作日志 filtered by member.
CREATE INDEX "audit_log_agency_user_idx" ON "audit_log" ("agency_id", "user_id", "id");
