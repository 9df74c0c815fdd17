-- Abuse limits (issue 11): fixed-window counters shared by every server process, a sign-in lock per
-- account AND address (an outsider can no longer lock anybody's phone number out), and the agency an
-- SMS was sent for (daily budgets per agency and for the platform).
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_locks" ADD COLUMN "ip" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "login_locks" DROP CONSTRAINT "login_locks_pkey";
--> statement-breakpoint
ALTER TABLE "login_locks" ADD CONSTRAINT "login_locks_account_ip_pk" PRIMARY KEY ("account", "ip");
--> statement-breakpoint
CREATE INDEX "login_attempts_account_ip_at_idx" ON "login_attempts" ("account", "ip", "at");
--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD COLUMN "agency_id" integer;
--> statement-breakpoint
CREATE INDEX "sms_outbox_created_at_idx" ON "sms_outbox" ("created_at");
--> statement-breakpoint
CREATE INDEX "sms_outbox_agency_created_at_idx" ON "sms_outbox" ("agency_id", "created_at") WHERE "agency_id" IS NOT NULL;
