-- Every change that can end a session or change what it may do announces the user's id on adpilot_sessions once
-- its transaction commits, so each process's session cache forgets that user (ADR 0014). Triggers, not calls in
-- the code: a revocation by any path (sign-out, reset, an operator's SQL) is heard.
CREATE OR REPLACE FUNCTION adpilot_notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('adpilot_sessions', to_jsonb(COALESCE(NEW, OLD)) ->> TG_ARGV[0]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER users_session_change AFTER UPDATE OF role OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION adpilot_notify_session_change('id');--> statement-breakpoint
CREATE OR REPLACE TRIGGER refresh_tokens_session_change AFTER UPDATE OF revoked_at, expires_at, user_id OR DELETE ON refresh_tokens
  FOR EACH ROW EXECUTE FUNCTION adpilot_notify_session_change('user_id');
