ALTER TABLE "ad_accounts" ADD COLUMN "backfill_days" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_accounts" ADD COLUMN "history_from" date;