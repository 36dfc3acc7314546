ALTER TABLE "ad_entities" ADD COLUMN "external_change_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ad_entities" ADD COLUMN "external_change_by" text;