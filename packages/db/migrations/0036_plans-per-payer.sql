ALTER TABLE "usage_counters" ADD COLUMN "pooled_ai_requests" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "payer_id" uuid;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_payer_id_users_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspaces_payer_idx" ON "workspaces" USING btree ("payer_id");--> statement-breakpoint
-- hand-written:
-- A plan belongs to its payer and covers every workspace they own (ADR 0110). Through the system path: forced
-- row-level security binds the owner too. Running it again changes nothing.
SET LOCAL ROLE "adpilot_system";
--> statement-breakpoint
-- The payer of a personal workspace is its person; of a shared one, its first owner.
UPDATE "workspaces" w SET "payer_id" = COALESCE(w."personal_owner_id", (
  SELECT m."user_id" FROM "workspace_members" m
  WHERE m."workspace_id" = w."id" AND m."role" = 'owner'
  ORDER BY m."created_at", m."user_id" LIMIT 1))
WHERE w."payer_id" IS NULL;
--> statement-breakpoint
-- Every payer's personal workspace holds the plan: a row for it where one of their workspaces has a subscription.
INSERT INTO "subscriptions" ("workspace_id", "plan_id", "current_period_start")
SELECT h."id", 'free', now() FROM "workspaces" h
WHERE h."personal" AND EXISTS (
  SELECT 1 FROM "workspaces" w JOIN "subscriptions" s ON s."workspace_id" = w."id"
  WHERE w."payer_id" = h."personal_owner_id")
ON CONFLICT ("workspace_id") DO NOTHING;
--> statement-breakpoint
-- The highest plan among each payer's workspaces (the holder's own on a tie), where it is not the holder's already.
CREATE TEMP TABLE "plan_merge" ON COMMIT DROP AS
WITH ranked AS (
  SELECT h."id" AS "holder_id", s."workspace_id" AS "source_id",
    row_number() OVER (PARTITION BY h."id" ORDER BY p."sort_order" DESC, (s."workspace_id" = h."id") DESC,
      s."created_at", s."workspace_id") AS "rank"
  FROM "subscriptions" s
  JOIN "workspaces" w ON w."id" = s."workspace_id"
  JOIN "workspaces" h ON h."personal_owner_id" = w."payer_id"
  JOIN "subscription_plans" p ON p."id" = s."plan_id"
)
SELECT r."holder_id", r."source_id",
  b."plan_id" AS "b_plan", b."status" AS "b_status", b."current_period_start" AS "b_start",
  b."current_period_end" AS "b_end", b."cancel_at_period_end" AS "b_cancel", b."provider" AS "b_provider",
  b."stripe_customer_id" AS "b_customer", b."stripe_subscription_id" AS "b_subscription",
  b."provider_updated_at" AS "b_updated",
  o."plan_id" AS "o_plan", o."status" AS "o_status", o."current_period_start" AS "o_start",
  o."current_period_end" AS "o_end", o."cancel_at_period_end" AS "o_cancel", o."provider" AS "o_provider",
  o."stripe_customer_id" AS "o_customer", o."stripe_subscription_id" AS "o_subscription",
  o."provider_updated_at" AS "o_updated"
FROM ranked r
JOIN "subscriptions" b ON b."workspace_id" = r."source_id"
JOIN "subscriptions" o ON o."workspace_id" = r."holder_id"
WHERE r."rank" = 1 AND r."source_id" <> r."holder_id";
--> statement-breakpoint
-- The two rows swap their billing state, so nothing is lost: the holder takes the best, the source keeps the
-- holder's old state (no longer read, its Stripe ids still found by the webhooks). Ids are cleared first: unique.
UPDATE "subscriptions" s SET "stripe_customer_id" = NULL, "stripe_subscription_id" = NULL
FROM "plan_merge" m WHERE s."workspace_id" IN (m."holder_id", m."source_id");
--> statement-breakpoint
UPDATE "subscriptions" s SET "plan_id" = m."b_plan", "status" = m."b_status", "current_period_start" = m."b_start",
  "current_period_end" = m."b_end", "cancel_at_period_end" = m."b_cancel", "provider" = m."b_provider",
  "stripe_customer_id" = m."b_customer", "stripe_subscription_id" = m."b_subscription",
  "provider_updated_at" = m."b_updated", "updated_at" = now()
FROM "plan_merge" m WHERE s."workspace_id" = m."holder_id";
--> statement-breakpoint
UPDATE "subscriptions" s SET "plan_id" = m."o_plan", "status" = m."o_status", "current_period_start" = m."o_start",
  "current_period_end" = m."o_end", "cancel_at_period_end" = m."o_cancel", "provider" = m."o_provider",
  "stripe_customer_id" = m."o_customer", "stripe_subscription_id" = m."o_subscription",
  "provider_updated_at" = m."o_updated", "updated_at" = now()
FROM "plan_merge" m WHERE s."workspace_id" = m."source_id";
--> statement-breakpoint
-- The pool's AI count of each period: the sum of its workspaces' own counts.
INSERT INTO "usage_counters" ("workspace_id", "period_start", "ai_requests", "pooled_ai_requests")
SELECT h."id", u."period_start", 0, sum(u."ai_requests")::int
FROM "usage_counters" u
JOIN "workspaces" w ON w."id" = u."workspace_id"
JOIN "workspaces" h ON h."personal_owner_id" = w."payer_id"
GROUP BY h."id", u."period_start"
ON CONFLICT ("workspace_id", "period_start") DO UPDATE SET "pooled_ai_requests" = excluded."pooled_ai_requests";
--> statement-breakpoint
SET LOCAL ROLE NONE;
