-- Issue 18 point 4: API keys (a program acting for an agency under chosen permissions; only the secret's
-- SHA-256 is stored) and webhooks (endpoints, and their deliveries: the outbox written in the transaction
-- of the change, sent by the job queue webhook.deliver). See docs/decisions-18-apikeys.md.
CREATE TABLE "api_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"perms" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer
);
--> statement-breakpoint
ALTER TABLE "api_keys" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_endpoints_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"url" text NOT NULL,
	"events" text[] DEFAULT '{}'::text[] NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"secret" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"endpoint_id" integer NOT NULL,
	"event" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"response_code" integer,
	"duration_ms" integer,
	"error" text DEFAULT '' NOT NULL,
	"replay_of" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"next_retry_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_token_hash_uq" ON "api_keys" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "api_keys_agency_idx" ON "api_keys" USING btree ("agency_id","id");
--> statement-breakpoint
CREATE INDEX "webhook_endpoints_agency_idx" ON "webhook_endpoints" USING btree ("agency_id","id");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_state_idx" ON "webhook_deliveries" USING btree ("endpoint_id","state","id");
--> statement-breakpoint
CREATE POLICY "api_keys_tenant" ON "api_keys" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("api_keys"."agency_id" = app_agency()) WITH CHECK ("api_keys"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "webhook_endpoints_tenant" ON "webhook_endpoints" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("webhook_endpoints"."agency_id" = app_agency()) WITH CHECK ("webhook_endpoints"."agency_id" = app_agency());
--> statement-breakpoint
CREATE POLICY "webhook_deliveries_tenant" ON "webhook_deliveries" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("webhook_deliveries"."agency_id" = app_agency()) WITH CHECK ("webhook_deliveries"."agency_id" = app_agency());
--> statement-breakpoint
-- A bearer key names its agency only through its hash: this is the one read of api_keys before the
-- transaction has a tenant. It answers the key's id and agency, nothing else.
CREATE OR REPLACE FUNCTION api_key_agency(p_hash text)
RETURNS TABLE (id integer, agency_id integer) LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
AS $$
  SELECT k.id, k.agency_id FROM api_keys k WHERE k.token_hash = p_hash
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION api_key_agency(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION api_key_agency(text) TO dzy_app;
