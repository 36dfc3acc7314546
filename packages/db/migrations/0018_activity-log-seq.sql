CREATE TABLE "activity_log_counters" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_log_counters" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "activity_logs" ADD COLUMN "seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_logs" ADD COLUMN "rule_id" uuid;--> statement-breakpoint
ALTER TABLE "activity_log_counters" ADD CONSTRAINT "activity_log_counters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_logs_user_seq_idx" ON "activity_logs" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "activity_logs_user_level_seq_idx" ON "activity_logs" USING btree ("user_id","level","seq");--> statement-breakpoint
CREATE INDEX "activity_logs_user_category_seq_idx" ON "activity_logs" USING btree ("user_id","category","seq");--> statement-breakpoint
CREATE INDEX "activity_logs_user_rule_seq_idx" ON "activity_logs" USING btree ("user_id","rule_id","seq") WHERE "activity_logs"."rule_id" is not null;--> statement-breakpoint
CREATE INDEX "activity_logs_user_account_seq_idx" ON "activity_logs" USING btree ("user_id","ad_account_id","seq") WHERE "activity_logs"."ad_account_id" is not null;--> statement-breakpoint
CREATE INDEX "activity_logs_created_idx" ON "activity_logs" USING btree ("created_at");--> statement-breakpoint
CREATE POLICY "activity_log_counters_tenant_isolation" ON "activity_log_counters" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("activity_log_counters"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid) WITH CHECK ("activity_log_counters"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "activity_log_counters_system_access" ON "activity_log_counters" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);