-- Subscriptions and usage counters are tenant tables: row-level security binds their owner too.
ALTER TABLE "subscriptions" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "usage_counters" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- The catalogue is read by everyone and written only by migrations.
REVOKE INSERT, UPDATE, DELETE ON TABLE "subscription_plans" FROM adpilot_app;
--> statement-breakpoint
ALTER TABLE "billing_events" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- The offer (ADR 0040): priced per plan; -1 is unlimited. Features are codes the web renders in English and Thai.
INSERT INTO "subscription_plans" ("id", "name", "price", "ad_accounts", "active_rules", "ai_requests", "fastest_check_minutes", "features", "badge", "sort_order") VALUES
  ('free', 'Free', 0, 1, 3, 30, 60, '["ad_accounts","active_rules","ai_requests","rule_check","activity_log","community_support"]', NULL, 0),
  ('pro', 'Pro', 29, 5, 25, 500, 15, '["ad_accounts","active_rules","ai_requests","rule_check","activity_log","backtest","email_alerts","email_support"]', 'popular', 1),
  ('business', 'Business', 79, 20, 100, 3000, 15, '["ad_accounts","active_rules","ai_requests","rule_check","activity_log","backtest","email_alerts","priority_support"]', NULL, 2),
  ('enterprise', 'Enterprise', 199, -1, -1, -1, 5, '["ad_accounts","active_rules","ai_requests","rule_check","activity_log","backtest","email_alerts","dedicated_manager"]', 'recommended', 3)
ON CONFLICT ("id") DO NOTHING;
