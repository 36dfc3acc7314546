-- The system role: the one named cross-tenant path (database.system) runs as it. Roles are cluster-wide, so
-- creation tolerates a role made by another database or a concurrent migration.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'adpilot_system') THEN
    CREATE ROLE adpilot_system NOLOGIN;
  END IF;
EXCEPTION
  WHEN duplicate_object OR unique_violation THEN
    NULL;
  WHEN insufficient_privilege THEN
    RAISE EXCEPTION 'the database user % may not create the role adpilot_system; as a superuser run: CREATE ROLE adpilot_system NOLOGIN; GRANT adpilot_system TO %;',
      current_user, quote_ident(current_user);
END
$$;
--> statement-breakpoint
-- Every connection switches to adpilot_app, and the system path to adpilot_system: the user that migrates (and
-- connects) must be allowed to. If it is not, stop here with what to do, rather than report success and let every
-- query fail later with "permission denied to set role".
DO $$
DECLARE
  wanted text;
BEGIN
  FOREACH wanted IN ARRAY ARRAY['adpilot_app', 'adpilot_system'] LOOP
    IF NOT pg_has_role(current_user, wanted, 'MEMBER') THEN
      BEGIN
        EXECUTE format('GRANT %I TO %I', wanted, current_user);
      EXCEPTION WHEN insufficient_privilege OR invalid_grant_operation THEN
        RAISE EXCEPTION 'the database user % may not switch to the role %; as a superuser run: GRANT % TO %;',
          current_user, wanted, wanted, quote_ident(current_user);
      END;
    END IF;
  END LOOP;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO adpilot_system;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO adpilot_system;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO adpilot_system;
--> statement-breakpoint
-- Tables that belong to no user (mail waiting to be sent, limit counters keyed before sign-in) are reached only
-- through the system path: the application role, which every connection runs as, has no access at all.
REVOKE ALL ON TABLE "mail_outbox", "rate_limit_buckets" FROM adpilot_app;
--> statement-breakpoint
-- FORCE: row-level security also binds the tables' owner, so no connection sees another tenant's rows by accident.
-- (Superusers still bypass it, which is why connections never query as their login user; see ADR 0013.)
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "refresh_tokens" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "password_resets" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "oauth_states" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "ad_accounts" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "ad_entities" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "insights_daily" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "activity_logs" FORCE ROW LEVEL SECURITY;
