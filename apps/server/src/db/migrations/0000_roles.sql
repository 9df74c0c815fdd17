-- The role requests run as: not superuser, no BYPASSRLS, so row-level security applies to it.
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'dzy_app') THEN
    CREATE ROLE dzy_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END $$;
--> statement-breakpoint
-- The tenant and user of the current transaction, set by the data layer with set_config(..., true).
CREATE OR REPLACE FUNCTION app_agency() RETURNS integer LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.agency_id', true), '')::integer $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_user() RETURNS integer LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.user_id', true), '')::integer $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO dzy_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO dzy_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO dzy_app;
