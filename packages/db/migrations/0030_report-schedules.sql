CREATE TABLE "mail_outbox_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mail_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sealed_content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"recipients" text[] NOT NULL,
	"sent_to" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_deliveries_period_check" CHECK ("report_deliveries"."period_start" <= "report_deliveries"."period_end")
);
--> statement-breakpoint
ALTER TABLE "report_deliveries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "report_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"frequency" text NOT NULL,
	"language" text NOT NULL,
	"recipients" text[] NOT NULL,
	"ad_account_ids" uuid[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_schedules" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mail_outbox_attachments" ADD CONSTRAINT "mail_outbox_attachments_mail_id_mail_outbox_id_fk" FOREIGN KEY ("mail_id") REFERENCES "public"."mail_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD CONSTRAINT "report_deliveries_schedule_id_report_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."report_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD CONSTRAINT "report_deliveries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_attachments_mail_position_unique" ON "mail_outbox_attachments" USING btree ("mail_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "report_deliveries_scheduled_period_unique" ON "report_deliveries" USING btree ("schedule_id","period_start") WHERE "report_deliveries"."trigger" = 'scheduled';--> statement-breakpoint
CREATE INDEX "report_deliveries_schedule_idx" ON "report_deliveries" USING btree ("schedule_id","created_at");--> statement-breakpoint
CREATE INDEX "report_deliveries_pending_idx" ON "report_deliveries" USING btree ("at") WHERE "report_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "report_schedules_workspace_idx" ON "report_schedules" USING btree ("workspace_id");--> statement-breakpoint
CREATE POLICY "report_deliveries_workspace_isolation" ON "report_deliveries" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("report_deliveries"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("report_deliveries"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));--> statement-breakpoint
CREATE POLICY "report_deliveries_system_access" ON "report_deliveries" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "report_schedules_workspace_isolation" ON "report_schedules" AS PERMISSIVE FOR ALL TO "adpilot_app" USING ("report_schedules"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid))) WITH CHECK ("report_schedules"."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and (nullif(current_setting('app.user_id', true), '')::uuid is null or exists (select 1 from "workspace_members" m where m."workspace_id" = nullif(current_setting('app.workspace_id', true), '')::uuid and m."user_id" = nullif(current_setting('app.user_id', true), '')::uuid)));--> statement-breakpoint
CREATE POLICY "report_schedules_system_access" ON "report_schedules" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
-- Workspace tables: row-level security binds their owner too (drizzle-kit only writes ENABLE).
ALTER TABLE "report_schedules" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_deliveries" FORCE ROW LEVEL SECURITY;
