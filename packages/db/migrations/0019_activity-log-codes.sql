-- The counters are a tenant table: row-level security binds their owner too (drizzle-kit only writes ENABLE).
ALTER TABLE "activity_log_counters" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- Each new entry takes the next number of its user's log (ADR 0035). The counter row stays locked until the
-- inserting transaction ends, so a user's entries commit in the order of their numbers.
CREATE FUNCTION "activity_logs_assign_seq"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "activity_log_counters" AS c ("user_id", "last_seq") VALUES (NEW."user_id", 1)
  ON CONFLICT ("user_id") DO UPDATE SET "last_seq" = c."last_seq" + 1
  RETURNING c."last_seq" INTO NEW."seq";
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "activity_logs_assign_seq" BEFORE INSERT ON "activity_logs"
  FOR EACH ROW EXECUTE FUNCTION "activity_logs_assign_seq"();
--> statement-breakpoint
-- Every API process listens on this channel (the live stream); the notification leaves at commit, in commit order.
CREATE FUNCTION "activity_logs_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('activity_logs', NEW."user_id"::text || ':' || NEW."seq"::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "activity_logs_notify" AFTER INSERT ON "activity_logs"
  FOR EACH ROW EXECUTE FUNCTION "activity_logs_notify"();
--> statement-breakpoint
-- The rows already stored, through the system path (forced row-level security binds the owner).
SET LOCAL ROLE "adpilot_system";
--> statement-breakpoint
UPDATE "activity_logs" AS a SET "seq" = n.rn
FROM (SELECT "id", row_number() OVER (PARTITION BY "user_id" ORDER BY "created_at", "id") AS rn FROM "activity_logs") AS n
WHERE a."id" = n."id";
--> statement-breakpoint
INSERT INTO "activity_log_counters" ("user_id", "last_seq")
SELECT "user_id", max("seq") FROM "activity_logs" GROUP BY "user_id";
--> statement-breakpoint
UPDATE "activity_logs" SET "rule_id" = ("metadata"->>'ruleId')::uuid
WHERE "metadata"->>'ruleId' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
--> statement-breakpoint
-- Entries written as English sentences get their code and parameters, so they read in either language.
UPDATE "activity_logs" AS a SET "metadata" = a."metadata" || jsonb_build_object(
  'code', CASE m.parts[1] WHEN 'Connected' THEN 'account_connected' ELSE 'account_disconnected' END,
  'params', jsonb_build_object('accountName', m.parts[2], 'accountId', m.parts[3]))
FROM (SELECT "id", regexp_match("description", '^(Connected|Disconnected) ad account (.*) \(([^()]*)\)$') AS parts
      FROM "activity_logs" WHERE "category" = 'ad_account') AS m
WHERE a."id" = m."id" AND m.parts IS NOT NULL;
--> statement-breakpoint
UPDATE "activity_logs" SET "category" = 'connection' WHERE "category" = 'ad_account';
--> statement-breakpoint
UPDATE "activity_logs" AS a SET "metadata" = jsonb_build_object(
  'code', 'sync_access_expired', 'params', jsonb_build_object('accountName', m.parts[1]), 'metaError', a."metadata")
FROM (SELECT "id", regexp_match("description", '^Facebook access for (.*) expired; reconnect') AS parts
      FROM "activity_logs" WHERE "category" = 'sync' AND NOT ("metadata" ? 'params')) AS m
WHERE a."id" = m."id" AND m.parts IS NOT NULL;
--> statement-breakpoint
UPDATE "activity_logs" AS a SET "metadata" = jsonb_build_object(
  'code', 'sync_failed',
  'params', jsonb_build_object(
    'accountName', m.parts[1],
    'reason', CASE WHEN m.parts[2] = 'Unexpected error while syncing' THEN 'unexpected' ELSE 'meta_error' END,
    'detail', CASE WHEN m.parts[2] = 'Unexpected error while syncing' THEN NULL ELSE m.parts[2] END),
  'metaError', a."metadata")
FROM (SELECT "id", regexp_match("description", '^Sync of (.*) failed: (.*)$') AS parts
      FROM "activity_logs" WHERE "category" = 'sync' AND NOT ("metadata" ? 'params')) AS m
WHERE a."id" = m."id" AND m.parts IS NOT NULL;
--> statement-breakpoint
UPDATE "ad_accounts" SET "last_sync_error" = CASE
  WHEN "last_sync_error" = 'Facebook access expired: reconnect this account' THEN 'access_expired'
  WHEN "last_sync_error" = 'Unexpected error while syncing' THEN 'unexpected'
  ELSE 'meta_error' END
WHERE "last_sync_error" IS NOT NULL AND "last_sync_error" NOT IN
  ('access_expired', 'meta_rate_limited', 'meta_unavailable', 'meta_permission', 'meta_error', 'unexpected', 'sync_stalled');
--> statement-breakpoint
SET LOCAL ROLE NONE;
