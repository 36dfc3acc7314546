CREATE POLICY "users_system_access" ON "users" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "password_resets_system_access" ON "password_resets" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "refresh_tokens_system_access" ON "refresh_tokens" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "ad_accounts_system_access" ON "ad_accounts" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "ad_entities_system_access" ON "ad_entities" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "insights_daily_system_access" ON "insights_daily" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "oauth_states_system_access" ON "oauth_states" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "activity_logs_system_access" ON "activity_logs" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);