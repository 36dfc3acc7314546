-- Every existing user gets a personal workspace, named after the user (the web words it), with the user as owner
-- (ADR 0070). A user who already has one is left alone, so running it again adds nothing. Through the system path:
-- forced row-level security binds the owner too.
SET LOCAL ROLE "adpilot_system";
--> statement-breakpoint
WITH made AS (
  INSERT INTO "workspaces" ("name", "personal", "personal_owner_id", "created_at")
  SELECT u."name", true, u."id", u."created_at"
  FROM "users" u
  WHERE NOT EXISTS (SELECT 1 FROM "workspaces" w WHERE w."personal_owner_id" = u."id")
  ON CONFLICT ("personal_owner_id") DO NOTHING
  RETURNING "id", "personal_owner_id", "created_at"
)
INSERT INTO "workspace_members" ("workspace_id", "user_id", "role", "created_at")
SELECT "id", "personal_owner_id", 'owner', "created_at" FROM made;
--> statement-breakpoint
SET LOCAL ROLE NONE;
