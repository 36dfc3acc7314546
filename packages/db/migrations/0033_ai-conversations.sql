CREATE TABLE "ai_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_conversations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "ai_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" integer NOT NULL,
	"workspace_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"citations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"proposals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"model_calls" integer DEFAULT 0 NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_messages" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "ai_conversations" ADD CONSTRAINT "ai_conversations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_conversations" ADD CONSTRAINT "ai_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_messages" ADD CONSTRAINT "ai_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_messages" ADD CONSTRAINT "ai_messages_conversation_id_ai_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."ai_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_conversations_member_idx" ON "ai_conversations" USING btree ("workspace_id","user_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_messages_conversation_seq_unique" ON "ai_messages" USING btree ("conversation_id","seq");--> statement-breakpoint
CREATE INDEX "ai_messages_workspace_idx" ON "ai_messages" USING btree ("workspace_id");--> statement-breakpoint
CREATE POLICY "ai_conversations_workspace_isolation" ON "ai_conversations" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("ai_conversations"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("ai_conversations"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));--> statement-breakpoint
CREATE POLICY "ai_conversations_system_access" ON "ai_conversations" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "ai_messages_workspace_isolation" ON "ai_messages" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("ai_messages"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("ai_messages"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));--> statement-breakpoint
CREATE POLICY "ai_messages_system_access" ON "ai_messages" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
-- hand-written:
-- Workspace tables: row-level security binds their owner too (drizzle-kit only writes ENABLE).
ALTER TABLE "ai_conversations" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "ai_messages" FORCE ROW LEVEL SECURITY;
