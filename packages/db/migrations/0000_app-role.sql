-- The application role: queries made on behalf of a user run as it, so row-level security applies.
-- Roles are cluster-wide, so creation tolerates a role made by another database or a concurrent migration.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'adpilot_app') THEN
    CREATE ROLE adpilot_app NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT adpilot_app TO %I', current_user);
EXCEPTION WHEN others THEN
  NULL;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO adpilot_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO adpilot_app;
