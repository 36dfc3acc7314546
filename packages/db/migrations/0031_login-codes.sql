CREATE TABLE "login_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_codes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "login_codes" ADD CONSTRAINT "login_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_codes_user_idx" ON "login_codes" USING btree ("user_id");--> statement-breakpoint
CREATE POLICY "login_codes_tenant_isolation" ON "login_codes" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("login_codes"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid) WITH CHECK ("login_codes"."user_id" = nullif(current_setting('app.user_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY "login_codes_system_access" ON "login_codes" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
-- login_codes is a tenant table: row-level security binds its owner too (drizzle-kit only writes ENABLE).
ALTER TABLE "login_codes" FORCE ROW LEVEL SECURITY;
