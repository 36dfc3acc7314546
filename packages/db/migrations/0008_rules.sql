CREATE TABLE "automation_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"definition" jsonb NOT NULL,
	"last_triggered" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_rules" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "rule_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"ad_account_id" uuid NOT NULL,
	"slot" text NOT NULL,
	"action_type" text NOT NULL,
	"entity_level" text NOT NULL,
	"entity_external_id" text NOT NULL,
	"entity_name" text NOT NULL,
	"target_level" text NOT NULL,
	"target_external_id" text NOT NULL,
	"target_name" text NOT NULL,
	"holder_reason" text,
	"field" text,
	"currency" text NOT NULL,
	"before_minor" bigint,
	"after_minor" bigint,
	"before_status" text,
	"after_status" text,
	"state" text DEFAULT 'planned' NOT NULL,
	"explanation" jsonb NOT NULL,
	"error" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"applied_at" timestamp with time zone,
	"reverted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rule_actions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "rule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"slot" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"planned_at" timestamp with time zone,
	"entities_evaluated" integer DEFAULT 0 NOT NULL,
	"entities_matched" integer DEFAULT 0 NOT NULL,
	"skipped" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" jsonb,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rule_runs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "automation_rules" ADD CONSTRAINT "automation_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD CONSTRAINT "rule_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD CONSTRAINT "rule_actions_rule_id_automation_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."automation_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD CONSTRAINT "rule_actions_run_id_rule_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."rule_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD CONSTRAINT "rule_actions_ad_account_id_ad_accounts_id_fk" FOREIGN KEY ("ad_account_id") REFERENCES "public"."ad_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_rule_id_automation_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."automation_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_rules_user_created_idx" ON "automation_rules" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "automation_rules_active_idx" ON "automation_rules" USING btree ("is_active") WHERE "automation_rules"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "rule_actions_ledger_unique" ON "rule_actions" USING btree ("rule_id","target_external_id","action_type","slot");--> statement-breakpoint
CREATE INDEX "rule_actions_user_idx" ON "rule_actions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rule_actions_run_idx" ON "rule_actions" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "rule_actions_target_idx" ON "rule_actions" USING btree ("ad_account_id","target_external_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rule_runs_rule_slot_unique" ON "rule_runs" USING btree ("rule_id","slot");--> statement-breakpoint
CREATE INDEX "rule_runs_user_idx" ON "rule_runs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rule_runs_rule_created_idx" ON "rule_runs" USING btree ("rule_id","created_at");--> statement-breakpoint
CREATE POLICY "automation_rules_tenant_isolation" ON "automation_rules" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("automation_rules"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid) WITH CHECK ("automation_rules"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "automation_rules_system_access" ON "automation_rules" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "rule_actions_tenant_isolation" ON "rule_actions" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("rule_actions"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid) WITH CHECK ("rule_actions"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "rule_actions_system_access" ON "rule_actions" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "rule_runs_tenant_isolation" ON "rule_runs" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("rule_runs"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid) WITH CHECK ("rule_runs"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "rule_runs_system_access" ON "rule_runs" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);