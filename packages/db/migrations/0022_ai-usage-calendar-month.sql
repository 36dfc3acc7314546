-- AI requests count per calendar month (UTC) unless a Stripe subscription is held (ADR 0061). Usage counted so far
-- in a user's current plan month moves to the calendar month under way, so nobody's count empties on the change.
-- Through the system path: forced row-level security binds the owner too.
SET LOCAL ROLE "adpilot_system";
--> statement-breakpoint
INSERT INTO "usage_counters" AS c ("user_id", "period_start", "ai_requests")
SELECT DISTINCT ON (u."user_id") u."user_id", date_trunc('month', now(), 'UTC'), u."ai_requests"
FROM "usage_counters" u
JOIN "subscriptions" s ON s."user_id" = u."user_id"
WHERE s."stripe_subscription_id" IS NULL
  AND u."period_start" <= now()
  AND u."period_start" > now() - interval '1 month'
ORDER BY u."user_id", u."period_start" DESC
ON CONFLICT ("user_id", "period_start") DO UPDATE SET "ai_requests" = greatest(c."ai_requests", excluded."ai_requests");
--> statement-breakpoint
SET LOCAL ROLE NONE;
