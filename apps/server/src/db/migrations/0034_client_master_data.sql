-- Issue 19 points 1 and 2: the client book's master data against the bureau's registration, and the
-- rest of the client book's settings (docs/decisions-19-clients.md).
-- enterprise_profiles: what the book records beside the enterprise row: the legal representative and the
-- registered tax types (compared with the bureau when filled in), the invoicing method (kpfs, read by the
-- invoices module) and the institution type (jglx).
CREATE TABLE "enterprise_profiles" (
  "agency_id" integer NOT NULL REFERENCES "organisations"("id"),
  "enterprise_id" integer NOT NULL REFERENCES "enterprises"("id") ON DELETE CASCADE,
  "fddbrxm" text DEFAULT '' NOT NULL,
  "tax_types" text DEFAULT '' NOT NULL,
  "kpfs" text DEFAULT '' NOT NULL,
  "jglx" text DEFAULT '' NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "enterprise_profiles_pk" PRIMARY KEY ("agency_id", "enterprise_id")
);
--> statement-breakpoint
ALTER TABLE "enterprise_profiles" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "enterprise_profiles_tenant" ON "enterprise_profiles" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("enterprise_profiles"."agency_id" = app_agency()) WITH CHECK ("enterprise_profiles"."agency_id" = app_agency());
--> statement-breakpoint
-- The bureau's registered data last seen for a client (qymc, qyxz, fddbrxm, region, taxTypes) and the
-- fields where the book differs: [{field, book, bureau}]. need_update drives the 需更新 tag and filter.
CREATE TABLE "enterprise_bureau_diffs" (
  "agency_id" integer NOT NULL REFERENCES "organisations"("id"),
  "enterprise_id" integer NOT NULL REFERENCES "enterprises"("id") ON DELETE CASCADE,
  "bureau" jsonb NOT NULL,
  "diffs" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "need_update" boolean DEFAULT false NOT NULL,
  "checked_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "enterprise_bureau_diffs_pk" PRIMARY KEY ("agency_id", "enterprise_id")
);
--> statement-breakpoint
CREATE INDEX "enterprise_bureau_diffs_need_idx" ON "enterprise_bureau_diffs" ("agency_id", "enterprise_id") WHERE "need_update";
--> statement-breakpoint
ALTER TABLE "enterprise_bureau_diffs" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "enterprise_bureau_diffs_tenant" ON "enterprise_bureau_diffs" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("enterprise_bureau_diffs"."agency_id" = app_agency()) WITH CHECK ("enterprise_bureau_diffs"."agency_id" = app_agency());
--> statement-breakpoint
-- Per agency: the default invoicing method of new clients and the print settings/preferences.
CREATE TABLE "agency_client_settings" (
  "agency_id" integer PRIMARY KEY NOT NULL REFERENCES "organisations"("id"),
  "def_kpfs" text DEFAULT '' NOT NULL,
  "print_settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agency_client_settings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "agency_client_settings_tenant" ON "agency_client_settings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("agency_client_settings"."agency_id" = app_agency()) WITH CHECK ("agency_client_settings"."agency_id" = app_agency());
--> statement-breakpoint
-- A half-written note (user/note/staging): one per member and client, gone once the note is saved.
CREATE TABLE "note_drafts" (
  "agency_id" integer NOT NULL REFERENCES "organisations"("id"),
  "user_id" integer NOT NULL REFERENCES "users"("id"),
  "enterprise_id" integer NOT NULL REFERENCES "enterprises"("id") ON DELETE CASCADE,
  "content" text NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "note_drafts_pk" PRIMARY KEY ("agency_id", "user_id", "enterprise_id")
);
--> statement-breakpoint
ALTER TABLE "note_drafts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "note_drafts_tenant" ON "note_drafts" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("note_drafts"."agency_id" = app_agency()) WITH CHECK ("note_drafts"."agency_id" = app_agency());
--> statement-breakpoint
-- The differences of one client from the stored bureau snapshot. A book value left blank (legal
-- representative, tax types) is not a difference: it was never recorded.
CREATE OR REPLACE FUNCTION bureau_diff_compute(p_agency integer, p_ent integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b jsonb;
  e record;
  p record;
  d jsonb := '[]'::jsonb;
BEGIN
  SELECT bureau INTO b FROM enterprise_bureau_diffs WHERE agency_id = p_agency AND enterprise_id = p_ent;
  IF b IS NULL THEN RETURN; END IF;
  SELECT qymc, qyxz, ssqx INTO e FROM enterprises WHERE id = p_ent AND agency_id = p_agency;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT fddbrxm, tax_types INTO p FROM enterprise_profiles WHERE agency_id = p_agency AND enterprise_id = p_ent;
  IF coalesce(b->>'qymc', '') <> '' AND e.qymc <> b->>'qymc' THEN
    d := d || jsonb_build_array(jsonb_build_object('field', 'qymc', 'book', e.qymc, 'bureau', b->>'qymc'));
  END IF;
  IF coalesce(b->>'qyxz', '') IN ('0', '1') AND e.qyxz <> b->>'qyxz' THEN
    d := d || jsonb_build_array(jsonb_build_object('field', 'qyxz', 'book', e.qyxz, 'bureau', b->>'qyxz'));
  END IF;
  IF coalesce(b->>'region', '') <> '' AND e.ssqx <> '' AND e.ssqx <> b->>'region' THEN
    d := d || jsonb_build_array(jsonb_build_object('field', 'region', 'book', e.ssqx, 'bureau', b->>'region'));
  END IF;
  IF coalesce(b->>'fddbrxm', '') <> '' AND coalesce(p.fddbrxm, '') <> '' AND p.fddbrxm <> b->>'fddbrxm' THEN
    d := d || jsonb_build_array(jsonb_build_object('field', 'fddbrxm', 'book', p.fddbrxm, 'bureau', b->>'fddbrxm'));
  END IF;
  IF coalesce(b->>'taxTypes', '') <> '' AND coalesce(p.tax_types, '') <> '' AND p.tax_types <> b->>'taxTypes' THEN
    d := d || jsonb_build_array(jsonb_build_object('field', 'taxTypes', 'book', p.tax_types, 'bureau', b->>'taxTypes'));
  END IF;
  UPDATE enterprise_bureau_diffs SET diffs = d, need_update = jsonb_array_length(d) > 0
   WHERE agency_id = p_agency AND enterprise_id = p_ent;
END $$;
--> statement-breakpoint
-- Keeps what the bureau registered (nsrjcxx + sfzhd) and compares it with the book.
CREATE OR REPLACE FUNCTION bureau_diff_store(p_agency integer, p_ent integer, p_info jsonb, p_sfzhd jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b jsonb;
BEGIN
  IF p_info IS NULL OR jsonb_typeof(p_info) <> 'object' THEN RETURN; END IF;
  b := jsonb_build_object(
    'qymc', coalesce(p_info->>'qymc', ''),
    'qyxz', coalesce(p_info->>'qyxz', ''),
    'fddbrxm', coalesce(p_info->>'fddbrxm', ''),
    -- the tax office code is 1 + the six-digit district code + 0000
    'region', CASE WHEN coalesce(p_info->>'swjgdm', '') ~ '^1[0-9]{6}' THEN substr(p_info->>'swjgdm', 2, 6) ELSE '' END,
    'taxTypes', coalesce((SELECT string_agg(t, '、' ORDER BY t) FROM (
        SELECT DISTINCT x->>'zsxmMc' AS t FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p_sfzhd) = 'array' THEN p_sfzhd ELSE '[]'::jsonb END) x
         WHERE coalesce(x->>'zsxmMc', '') <> '') s), ''));
  INSERT INTO enterprise_bureau_diffs (agency_id, enterprise_id, bureau, checked_at) VALUES (p_agency, p_ent, b, now())
  ON CONFLICT (agency_id, enterprise_id) DO UPDATE SET bureau = EXCLUDED.bureau, checked_at = now();
  PERFORM bureau_diff_compute(p_agency, p_ent);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bureau_diff_from_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bureau_diff_store(NEW.agency_id, NEW.enterprise_id, NEW.collected->'nsrjcxx', NEW.collected->'sfzhd');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "enterprise_tax_data_bureau_diff" AFTER INSERT OR UPDATE ON "enterprise_tax_data"
  FOR EACH ROW EXECUTE FUNCTION bureau_diff_from_check();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bureau_diff_from_query() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.tab = 'nsrxx' THEN
    PERFORM bureau_diff_store(NEW.agency_id, NEW.enterprise_id, NEW.result->'info', NEW.result->'sfzhd');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "tax_data_queries_bureau_diff" AFTER INSERT OR UPDATE ON "tax_data_queries"
  FOR EACH ROW EXECUTE FUNCTION bureau_diff_from_query();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bureau_diff_recompute_enterprise() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bureau_diff_compute(NEW.agency_id, NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bureau_diff_recompute_profile() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bureau_diff_compute(NEW.agency_id, NEW.enterprise_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "enterprises_bureau_diff" AFTER UPDATE OF "qymc", "qyxz", "ssqx" ON "enterprises"
  FOR EACH ROW EXECUTE FUNCTION bureau_diff_recompute_enterprise();
--> statement-breakpoint
CREATE TRIGGER "enterprise_profiles_bureau_diff" AFTER INSERT OR UPDATE ON "enterprise_profiles"
  FOR EACH ROW EXECUTE FUNCTION bureau_diff_recompute_profile();
--> statement-breakpoint
-- A saved note ends its author's draft on that client.
CREATE OR REPLACE FUNCTION note_draft_done() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM note_drafts WHERE agency_id = NEW.agency_id AND user_id = NEW.user_id AND enterprise_id = NEW.enterprise_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "notes_draft_done" AFTER INSERT ON "notes" FOR EACH ROW EXECUTE FUNCTION note_draft_done();
