-- Issue 18 points 1-2: accounting factories (kjgc) for real. A factory is bound to agencies with the
-- agency's consent (kjgc_bindings), acts for the one selected in organisations.kjgc_dls_id, and sees only
-- the clients the agency handed over to it (kjgc_handovers, enforced on enterprises by a restrictive policy).
-- The factory of the current transaction, set by the session with set_config('app.kjgc_id', ..., true).
CREATE OR REPLACE FUNCTION app_kjgc() RETURNS integer LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.kjgc_id', true), '')::integer $$;
--> statement-breakpoint
CREATE TABLE "kjgc_bindings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "kjgc_bindings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kjgc_id" integer NOT NULL REFERENCES "organisations"("id"),
	"agency_id" integer NOT NULL REFERENCES "organisations"("id"),
	"status" smallint DEFAULT 0 NOT NULL,
	"requested_by" integer NOT NULL REFERENCES "users"("id"),
	"decided_by" integer REFERENCES "users"("id"),
	"ended_by" integer REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "kjgc_binding_status_valid" CHECK ("status" in (0, 1, 2, 3)),
	CONSTRAINT "kjgc_binding_not_self" CHECK ("kjgc_id" <> "agency_id")
);
--> statement-breakpoint
-- One live (pending or bound) relation per factory and agency.
CREATE UNIQUE INDEX "kjgc_bindings_live_uq" ON "kjgc_bindings" ("kjgc_id", "agency_id") WHERE "status" in (0, 1);
--> statement-breakpoint
CREATE INDEX "kjgc_bindings_agency_idx" ON "kjgc_bindings" ("agency_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "kjgc_bindings_kjgc_idx" ON "kjgc_bindings" ("kjgc_id", "created_at", "id");
--> statement-breakpoint
ALTER TABLE "kjgc_bindings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "kjgc_bindings_parties" ON "kjgc_bindings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("kjgc_bindings"."agency_id" = app_agency() or "kjgc_bindings"."kjgc_id" = app_kjgc()) WITH CHECK ("kjgc_bindings"."agency_id" = app_agency() or "kjgc_bindings"."kjgc_id" = app_kjgc());
--> statement-breakpoint
CREATE TABLE "kjgc_handovers" (
	"enterprise_id" integer PRIMARY KEY NOT NULL REFERENCES "enterprises"("id") ON DELETE CASCADE,
	"agency_id" integer NOT NULL REFERENCES "organisations"("id"),
	"kjgc_id" integer NOT NULL REFERENCES "organisations"("id"),
	"binding_id" integer NOT NULL REFERENCES "kjgc_bindings"("id"),
	"created_by" integer NOT NULL REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "kjgc_handovers_kjgc_idx" ON "kjgc_handovers" ("kjgc_id", "agency_id", "enterprise_id");
--> statement-breakpoint
CREATE INDEX "kjgc_handovers_binding_idx" ON "kjgc_handovers" ("binding_id", "enterprise_id");
--> statement-breakpoint
ALTER TABLE "kjgc_handovers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "kjgc_handovers_parties" ON "kjgc_handovers" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("kjgc_handovers"."agency_id" = app_agency() or "kjgc_handovers"."kjgc_id" = app_kjgc()) WITH CHECK ("kjgc_handovers"."agency_id" = app_agency());
--> statement-breakpoint
-- A factory acting for an agency sees and changes only the clients handed over to it.
CREATE POLICY "enterprises_kjgc_handover" ON "enterprises" AS RESTRICTIVE FOR ALL TO "dzy_app" USING (app_kjgc() is null or exists (select 1 from "kjgc_handovers" h where h."enterprise_id" = "enterprises"."id" and h."kjgc_id" = app_kjgc())) WITH CHECK (app_kjgc() is null or exists (select 1 from "kjgc_handovers" h where h."enterprise_id" = "enterprises"."id" and h."kjgc_id" = app_kjgc()));
--> statement-breakpoint
-- A factory applies like an agency and is reviewed by the platform operator.
ALTER TABLE "agency_applications" ADD CONSTRAINT "agency_applications_type_valid" CHECK ("agency_type" in ('dls', 'kd', 'kjgc'));
--> statement-breakpoint
-- Existing factories bound through kjgc_dls_id keep working: their binding is recorded as accepted and
-- every client of the agency stays handed over (what they could see before).
INSERT INTO "kjgc_bindings" ("kjgc_id", "agency_id", "status", "requested_by", "decided_at")
SELECT o."id", o."kjgc_dls_id", 1, m."user_id", now()
FROM "organisations" o
JOIN LATERAL (select "user_id" from "memberships" where "org_id" = o."id" order by "is_admin" desc, "id" limit 1) m ON true
WHERE o."org_type" = 'kjgc' AND o."kjgc_dls_id" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "kjgc_handovers" ("enterprise_id", "agency_id", "kjgc_id", "binding_id", "created_by")
SELECT DISTINCT ON (e."id") e."id", e."agency_id", b."kjgc_id", b."id", b."requested_by"
FROM "kjgc_bindings" b JOIN "enterprises" e ON e."agency_id" = b."agency_id"
WHERE b."status" = 1
ORDER BY e."id", b."id";
