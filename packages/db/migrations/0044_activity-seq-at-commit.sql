-- Activity entries are numbered as their transaction commits, not as they are inserted (ADR 0200, amending ADR 0035).
-- The number was taken by a BEFORE INSERT trigger that kept the workspace's counter row locked from the insert to
-- the end of the transaction: every other writer of that workspace's log waited for the whole unit of work, Meta
-- calls included. A deferred constraint trigger now takes the number at commit, when nothing is left to do but
-- commit: the counter row is locked only for the end of the commit, so entries still become visible in seq order
-- and a reader that has seen seq k has seen every lower number. The notification leaves in the same step.
DROP TRIGGER IF EXISTS "activity_logs_assign_seq" ON "activity_logs";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "activity_logs_notify" ON "activity_logs";
--> statement-breakpoint
DROP FUNCTION IF EXISTS "activity_logs_assign_seq"();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "activity_logs_notify"();
--> statement-breakpoint
-- Numbers in the entry's own workspace, then gives the writer's settings back: at commit the writer may be on the
-- application role with no workspace set (a person's unit of work that wrote the entries of several workspaces through
-- the system path, ADR 0110), where the counter's row-level security would refuse the upsert. The insert itself was
-- checked against the writer's policies; the numbering touches only that entry's row and its workspace's counter.
CREATE FUNCTION "activity_logs_number"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_seq bigint;
  writer_workspace text := coalesce(current_setting('app.workspace_id', true), '');
  writer_user text := coalesce(current_setting('app.user_id', true), '');
BEGIN
  PERFORM set_config('app.workspace_id', NEW."workspace_id"::text, true);
  PERFORM set_config('app.user_id', '', true);
  INSERT INTO "activity_log_counters" AS c ("workspace_id", "last_seq") VALUES (NEW."workspace_id", 1)
  ON CONFLICT ("workspace_id") DO UPDATE SET "last_seq" = c."last_seq" + 1
  RETURNING c."last_seq" INTO next_seq;
  -- An entry deleted before its commit keeps nothing; its number is simply never used.
  UPDATE "activity_logs" SET "seq" = next_seq WHERE "id" = NEW."id";
  IF FOUND THEN
    PERFORM pg_notify('activity_logs', NEW."workspace_id"::text || ':' || next_seq::text);
  END IF;
  PERFORM set_config('app.workspace_id', writer_workspace, true);
  PERFORM set_config('app.user_id', writer_user, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "activity_logs_number" AFTER INSERT ON "activity_logs"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "activity_logs_number"();
