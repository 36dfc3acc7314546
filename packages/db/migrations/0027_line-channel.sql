ALTER TABLE "notification_settings" ADD COLUMN "line_token_enc" text;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "line_token_hint" text;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "line_target" text;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "line_since" timestamp with time zone;