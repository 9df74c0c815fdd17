DROP INDEX "users_account_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "users_account_uq" ON "users" USING btree (lower("account"));