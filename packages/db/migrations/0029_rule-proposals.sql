ALTER TABLE "rule_actions" ADD COLUMN "proposal" text;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "rule_actions_pending_proposal_idx" ON "rule_actions" USING btree ("workspace_id","expires_at") WHERE "rule_actions"."proposal" = 'pending';