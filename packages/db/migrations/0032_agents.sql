CREATE TABLE "agent_policies" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"max_budget_change_percent" integer NOT NULL,
	"max_changes_per_day" integer NOT NULL,
	"protected_campaign_ids" uuid[] NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_policies_limits_check" CHECK ("agent_policies"."max_budget_change_percent" between 1 and 100 and "agent_policies"."max_changes_per_day" >= 0)
);
--> statement-breakpoint
ALTER TABLE "agent_policies" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"scopes" text[] NOT NULL,
	"token_hash" text NOT NULL,
	"hint" text,
	"token_expires_at" timestamp with time zone,
	"refresh_hash" text,
	"client_id" uuid,
	"resource" text,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_tokens_kind_check" CHECK (("api_tokens"."kind" = 'oauth') = ("api_tokens"."client_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "oauth_clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"redirect_uris" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code_hash" text NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"scopes" text[] NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"resource" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_codes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "agent_policies" ADD CONSTRAINT "agent_policies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_policies" ADD CONSTRAINT "agent_policies_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_token_hash_unique" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_refresh_hash_unique" ON "api_tokens" USING btree ("refresh_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_workspace_idx" ON "api_tokens" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_codes_code_hash_unique" ON "oauth_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "oauth_codes_expires_idx" ON "oauth_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE POLICY "agent_policies_workspace_isolation" ON "agent_policies" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("agent_policies"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("agent_policies"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));--> statement-breakpoint
CREATE POLICY "agent_policies_system_access" ON "agent_policies" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "api_tokens_workspace_isolation" ON "api_tokens" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("api_tokens"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("api_tokens"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));--> statement-breakpoint
CREATE POLICY "api_tokens_system_access" ON "api_tokens" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "oauth_codes_system_access" ON "oauth_codes" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
-- hand-written:
-- Workspace tables: row-level security binds their owner too (drizzle-kit only writes ENABLE).
ALTER TABLE "api_tokens" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "agent_policies" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "oauth_codes" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- OAuth clients and codes belong to no workspace yet: only the system path reaches them (ADR 0153).
REVOKE ALL ON TABLE "oauth_clients" FROM adpilot_app;--> statement-breakpoint
REVOKE ALL ON TABLE "oauth_codes" FROM adpilot_app;
