CREATE TABLE "notification_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email_errors_since" timestamp with time zone,
	"email_digest_since" timestamp with time zone,
	"digest_hour" integer DEFAULT 8 NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"webhook_url" text,
	"webhook_secret_enc" text,
	"webhook_secret_hint" text,
	"webhook_since" timestamp with time zone,
	"scanned_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "notification_settings_tenant_isolation" ON "notification_settings" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("notification_settings"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid) WITH CHECK ("notification_settings"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "notification_settings_system_access" ON "notification_settings" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);