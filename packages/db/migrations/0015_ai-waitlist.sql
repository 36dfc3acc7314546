CREATE TABLE "feature_waitlist" (
	"user_id" uuid NOT NULL,
	"feature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feature_waitlist_user_id_feature_pk" PRIMARY KEY("user_id","feature")
);
--> statement-breakpoint
ALTER TABLE "feature_waitlist" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "feature_waitlist" ADD CONSTRAINT "feature_waitlist_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "feature_waitlist_tenant_isolation" ON "feature_waitlist" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("feature_waitlist"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid) WITH CHECK ("feature_waitlist"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "feature_waitlist_system_access" ON "feature_waitlist" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
-- A tenant table: row-level security binds its owner too (drizzle-kit only writes ENABLE).
ALTER TABLE "feature_waitlist" FORCE ROW LEVEL SECURITY;
