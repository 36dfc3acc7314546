CREATE TABLE "anomaly_episodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"ad_account_id" uuid NOT NULL,
	"metric" text NOT NULL,
	"entity_external_id" text DEFAULT '' NOT NULL,
	"direction" text NOT NULL,
	"day" date NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"notified" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "anomaly_episodes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "monthly_budgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"ad_account_id" uuid NOT NULL,
	"campaign_external_id" text DEFAULT '' NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"over_alerted_month" text,
	"under_alerted_month" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monthly_budgets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "ad_accounts" ADD COLUMN "anomaly_sensitivity" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_accounts" ADD COLUMN "anomaly_muted_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "anomaly_episodes" ADD CONSTRAINT "anomaly_episodes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "anomaly_episodes" ADD CONSTRAINT "anomaly_episodes_ad_account_id_ad_accounts_id_fk" FOREIGN KEY ("ad_account_id") REFERENCES "public"."ad_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_budgets" ADD CONSTRAINT "monthly_budgets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_budgets" ADD CONSTRAINT "monthly_budgets_ad_account_id_ad_accounts_id_fk" FOREIGN KEY ("ad_account_id") REFERENCES "public"."ad_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "anomaly_episodes_open_unique" ON "anomaly_episodes" USING btree ("ad_account_id","metric","entity_external_id") WHERE "anomaly_episodes"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "anomaly_episodes_workspace_idx" ON "anomaly_episodes" USING btree ("workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_budgets_account_campaign_unique" ON "monthly_budgets" USING btree ("ad_account_id","campaign_external_id");--> statement-breakpoint
CREATE INDEX "monthly_budgets_workspace_idx" ON "monthly_budgets" USING btree ("workspace_id");--> statement-breakpoint
CREATE POLICY "anomaly_episodes_workspace_isolation" ON "anomaly_episodes" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("anomaly_episodes"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("anomaly_episodes"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));--> statement-breakpoint
CREATE POLICY "anomaly_episodes_system_access" ON "anomaly_episodes" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "monthly_budgets_workspace_isolation" ON "monthly_budgets" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("monthly_budgets"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("monthly_budgets"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));--> statement-breakpoint
CREATE POLICY "monthly_budgets_system_access" ON "monthly_budgets" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
ALTER TABLE "monthly_budgets" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "anomaly_episodes" FORCE ROW LEVEL SECURITY;
