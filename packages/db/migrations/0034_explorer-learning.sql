ALTER TABLE "ad_accounts" ADD COLUMN "insights_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_entities" ADD COLUMN "learning_status" text;--> statement-breakpoint
CREATE INDEX "insights_daily_account_level_date_idx" ON "insights_daily" USING btree ("ad_account_id","level","date");