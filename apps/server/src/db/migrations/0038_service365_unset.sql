-- 365基础服务 is now enforced (docs/decisions.md, issue 19 point 5): e-tax login through the helper is refused
-- for an agency whose service is switched off or expired. '' means "not set by the operator" and refuses
-- nothing, so that an account row made for another reason (a provider assigned, a reminder setting) does not
-- switch the helper off. Rows that were '0' only by the old default become ''; an operator's recorded
-- switch-off (audited as account.service365) stays '0'.
ALTER TABLE "agency_accounts" DROP CONSTRAINT "agency_accounts_service365_valid";
--> statement-breakpoint
ALTER TABLE "agency_accounts" ALTER COLUMN "service365" SET DEFAULT '';
--> statement-breakpoint
UPDATE "agency_accounts" a SET "service365" = '' WHERE a."service365" = '0' AND NOT EXISTS (
  SELECT 1 FROM "audit_log" l WHERE l."action" = 'account.service365' AND l."target" = 'agency:' || a."agency_id"
);
--> statement-breakpoint
ALTER TABLE "agency_accounts" ADD CONSTRAINT "agency_accounts_service365_valid" CHECK ("service365" in ('', '0', '1'));
