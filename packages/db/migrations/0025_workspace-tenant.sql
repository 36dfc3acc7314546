-- The tenant of every workspace-owned table moves from the user to the workspace (ADR 0070): each row goes to its
-- user's personal workspace (made by 0024), the policies admit a workspace's members (or its jobs), and the activity
-- log's numbering and live-stream channel are per workspace. Hand-ordered: the columns are filled before they are
-- required, and the old policies go before the columns they read.
CREATE TABLE "workspace_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_invitations_role_check" CHECK ("workspace_invitations"."role" in ('owner', 'admin', 'editor', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "workspace_invitations" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "ad_accounts" DROP CONSTRAINT "ad_accounts_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "ad_entities" DROP CONSTRAINT "ad_entities_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "insights_daily" DROP CONSTRAINT "insights_daily_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "activity_log_counters" DROP CONSTRAINT "activity_log_counters_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "activity_logs" DROP CONSTRAINT "activity_logs_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "automation_rules" DROP CONSTRAINT "automation_rules_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "rule_actions" DROP CONSTRAINT "rule_actions_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "rule_runs" DROP CONSTRAINT "rule_runs_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "billing_events" DROP CONSTRAINT "billing_events_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "usage_counters" DROP CONSTRAINT "usage_counters_user_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "ad_accounts_user_fb_unique";
--> statement-breakpoint
DROP INDEX "ad_accounts_user_idx";
--> statement-breakpoint
DROP INDEX "ad_entities_user_idx";
--> statement-breakpoint
DROP INDEX "insights_daily_user_idx";
--> statement-breakpoint
DROP INDEX "activity_logs_user_seq_idx";
--> statement-breakpoint
DROP INDEX "activity_logs_user_level_seq_idx";
--> statement-breakpoint
DROP INDEX "activity_logs_user_category_seq_idx";
--> statement-breakpoint
DROP INDEX "activity_logs_user_rule_seq_idx";
--> statement-breakpoint
DROP INDEX "activity_logs_user_account_seq_idx";
--> statement-breakpoint
DROP INDEX "activity_logs_user_created_idx";
--> statement-breakpoint
DROP INDEX "automation_rules_user_created_idx";
--> statement-breakpoint
DROP INDEX "rule_actions_user_idx";
--> statement-breakpoint
DROP INDEX "rule_runs_user_idx";
--> statement-breakpoint
DROP INDEX "billing_events_user_idx";
--> statement-breakpoint
DROP POLICY "ad_accounts_tenant_isolation" ON "ad_accounts" CASCADE;
--> statement-breakpoint
DROP POLICY "ad_entities_tenant_isolation" ON "ad_entities" CASCADE;
--> statement-breakpoint
DROP POLICY "insights_daily_tenant_isolation" ON "insights_daily" CASCADE;
--> statement-breakpoint
DROP POLICY "activity_log_counters_tenant_isolation" ON "activity_log_counters" CASCADE;
--> statement-breakpoint
DROP POLICY "activity_logs_tenant_isolation" ON "activity_logs" CASCADE;
--> statement-breakpoint
DROP POLICY "automation_rules_tenant_isolation" ON "automation_rules" CASCADE;
--> statement-breakpoint
DROP POLICY "rule_actions_tenant_isolation" ON "rule_actions" CASCADE;
--> statement-breakpoint
DROP POLICY "rule_runs_tenant_isolation" ON "rule_runs" CASCADE;
--> statement-breakpoint
DROP POLICY "billing_events_tenant_isolation" ON "billing_events" CASCADE;
--> statement-breakpoint
DROP POLICY "subscriptions_tenant_isolation" ON "subscriptions" CASCADE;
--> statement-breakpoint
DROP POLICY "usage_counters_tenant_isolation" ON "usage_counters" CASCADE;
--> statement-breakpoint
ALTER TABLE "usage_counters" DROP CONSTRAINT "usage_counters_user_id_period_start_pk";
--> statement-breakpoint
ALTER TABLE "ad_accounts" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "ad_entities" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "insights_daily" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "activity_log_counters" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "activity_logs" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "activity_logs" ADD COLUMN "actor_user_id" uuid;
--> statement-breakpoint
ALTER TABLE "automation_rules" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "rule_actions" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "billing_events" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
SET LOCAL ROLE "adpilot_system";
--> statement-breakpoint
UPDATE "ad_accounts" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "ad_entities" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "insights_daily" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "oauth_states" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "activity_log_counters" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "activity_logs" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "automation_rules" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "rule_actions" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "rule_runs" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "billing_events" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "subscriptions" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
UPDATE "usage_counters" AS t SET "workspace_id" = w."id" FROM "workspaces" w WHERE w."personal_owner_id" = t."user_id";
--> statement-breakpoint
SET LOCAL ROLE NONE;
--> statement-breakpoint
ALTER TABLE "ad_accounts" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "ad_entities" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "insights_daily" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "activity_log_counters" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "activity_logs" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "automation_rules" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "rule_actions" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "rule_runs" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "billing_events" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "subscriptions" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "usage_counters" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "ad_accounts" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "ad_entities" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "insights_daily" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "oauth_states" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "activity_log_counters" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "activity_logs" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "automation_rules" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "rule_actions" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "rule_runs" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "subscriptions" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "usage_counters" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "activity_log_counters" ADD CONSTRAINT "activity_log_counters_pkey" PRIMARY KEY ("workspace_id");
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("workspace_id");
--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_workspace_id_period_start_pk" PRIMARY KEY("workspace_id","period_start");
--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ad_accounts" ADD CONSTRAINT "ad_accounts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ad_entities" ADD CONSTRAINT "ad_entities_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "insights_daily" ADD CONSTRAINT "insights_daily_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "activity_log_counters" ADD CONSTRAINT "activity_log_counters_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "automation_rules" ADD CONSTRAINT "automation_rules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "rule_actions" ADD CONSTRAINT "rule_actions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "billing_events" ADD CONSTRAINT "billing_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_invitations_token_unique" ON "workspace_invitations" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "workspace_invitations_workspace_idx" ON "workspace_invitations" USING btree ("workspace_id","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "ad_accounts_workspace_fb_unique" ON "ad_accounts" USING btree ("workspace_id","facebook_account_id");
--> statement-breakpoint
CREATE INDEX "ad_accounts_workspace_idx" ON "ad_accounts" USING btree ("workspace_id");
--> statement-breakpoint
CREATE INDEX "ad_entities_workspace_idx" ON "ad_entities" USING btree ("workspace_id");
--> statement-breakpoint
CREATE INDEX "insights_daily_workspace_idx" ON "insights_daily" USING btree ("workspace_id");
--> statement-breakpoint
CREATE INDEX "activity_logs_workspace_seq_idx" ON "activity_logs" USING btree ("workspace_id","seq");
--> statement-breakpoint
CREATE INDEX "activity_logs_workspace_level_seq_idx" ON "activity_logs" USING btree ("workspace_id","level","seq");
--> statement-breakpoint
CREATE INDEX "activity_logs_workspace_category_seq_idx" ON "activity_logs" USING btree ("workspace_id","category","seq");
--> statement-breakpoint
CREATE INDEX "activity_logs_workspace_rule_seq_idx" ON "activity_logs" USING btree ("workspace_id","rule_id","seq") WHERE "activity_logs"."rule_id" is not null;
--> statement-breakpoint
CREATE INDEX "activity_logs_workspace_account_seq_idx" ON "activity_logs" USING btree ("workspace_id","ad_account_id","seq") WHERE "activity_logs"."ad_account_id" is not null;
--> statement-breakpoint
CREATE INDEX "activity_logs_workspace_created_idx" ON "activity_logs" USING btree ("workspace_id","created_at");
--> statement-breakpoint
CREATE INDEX "automation_rules_workspace_created_idx" ON "automation_rules" USING btree ("workspace_id","created_at");
--> statement-breakpoint
CREATE INDEX "rule_actions_workspace_idx" ON "rule_actions" USING btree ("workspace_id");
--> statement-breakpoint
CREATE INDEX "rule_runs_workspace_idx" ON "rule_runs" USING btree ("workspace_id");
--> statement-breakpoint
CREATE INDEX "billing_events_workspace_idx" ON "billing_events" USING btree ("workspace_id");
--> statement-breakpoint
CREATE POLICY "ad_accounts_workspace_isolation" ON "ad_accounts" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("ad_accounts"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("ad_accounts"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "ad_entities_workspace_isolation" ON "ad_entities" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("ad_entities"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("ad_entities"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "insights_daily_workspace_isolation" ON "insights_daily" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("insights_daily"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("insights_daily"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "activity_log_counters_workspace_isolation" ON "activity_log_counters" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("activity_log_counters"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("activity_log_counters"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "activity_logs_workspace_isolation" ON "activity_logs" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("activity_logs"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("activity_logs"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "automation_rules_workspace_isolation" ON "automation_rules" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("automation_rules"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("automation_rules"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "rule_actions_workspace_isolation" ON "rule_actions" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("rule_actions"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("rule_actions"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "rule_runs_workspace_isolation" ON "rule_runs" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("rule_runs"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("rule_runs"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "billing_events_workspace_isolation" ON "billing_events" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("billing_events"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("billing_events"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "subscriptions_workspace_isolation" ON "subscriptions" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("subscriptions"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("subscriptions"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "usage_counters_workspace_isolation" ON "usage_counters" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("usage_counters"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("usage_counters"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "workspace_invitations_workspace_isolation" ON "workspace_invitations" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("workspace_invitations"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("workspace_invitations"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));
--> statement-breakpoint
CREATE POLICY "workspace_invitations_system_access" ON "workspace_invitations" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "activity_logs_assign_seq"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "activity_log_counters" AS c ("workspace_id", "last_seq") VALUES (NEW."workspace_id", 1)
  ON CONFLICT ("workspace_id") DO UPDATE SET "last_seq" = c."last_seq" + 1
  RETURNING c."last_seq" INTO NEW."seq";
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "activity_logs_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('activity_logs', NEW."workspace_id"::text || ':' || NEW."seq"::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A membership removed or its role changed is heard by every process's session cache at commit (ADR 0014): the
-- member's next request, and open streams, see the change at once.
CREATE OR REPLACE TRIGGER workspace_members_session_change AFTER UPDATE OF role OR DELETE ON workspace_members
  FOR EACH ROW EXECUTE FUNCTION adpilot_notify_session_change('user_id');
--> statement-breakpoint
-- A tenant table: row-level security binds its owner too (drizzle-kit only writes ENABLE).
ALTER TABLE "workspace_invitations" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "seats" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
-- Seats per plan (members plus pending invitations; -1 is unlimited), ADR 0070.
UPDATE "subscription_plans" SET "seats" = CASE "id" WHEN 'free' THEN 1 WHEN 'pro' THEN 3 WHEN 'business' THEN 10 ELSE -1 END;
