CREATE TABLE "workspace_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"from_user_id" uuid NOT NULL,
	"to_user_id" uuid NOT NULL,
	"accepted_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_transfers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "workspace_transfers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "ip_address" text;--> statement-breakpoint
ALTER TABLE "workspace_transfers" ADD CONSTRAINT "workspace_transfers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_transfers" ADD CONSTRAINT "workspace_transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_transfers" ADD CONSTRAINT "workspace_transfers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_transfers_workspace_idx" ON "workspace_transfers" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "workspace_transfers_to_idx" ON "workspace_transfers" USING btree ("to_user_id");--> statement-breakpoint
CREATE POLICY "workspace_transfers_system_access" ON "workspace_transfers" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);