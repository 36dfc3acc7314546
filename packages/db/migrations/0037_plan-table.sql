ALTER TABLE "subscription_plans" ADD COLUMN "backtest_days" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
-- hand-written:
-- The rows follow the contracts' PLAN_TABLE (ADR 0113): the backtest range by plan, viewers free on every plan.
UPDATE "subscription_plans" SET
  "backtest_days" = CASE "id" WHEN 'free' THEN 7 WHEN 'pro' THEN 30 ELSE 90 END,
  "features" = CASE "id"
    WHEN 'free' THEN '["ad_accounts","active_rules","ai_requests","rule_check","backtest","free_viewers","activity_log","community_support"]'::jsonb
    WHEN 'pro' THEN '["ad_accounts","active_rules","ai_requests","rule_check","backtest","free_viewers","activity_log","email_alerts","email_support"]'::jsonb
    WHEN 'business' THEN '["ad_accounts","active_rules","ai_requests","rule_check","backtest","free_viewers","activity_log","email_alerts","priority_support"]'::jsonb
    ELSE '["ad_accounts","active_rules","ai_requests","rule_check","backtest","free_viewers","activity_log","email_alerts","dedicated_manager"]'::jsonb
  END;
