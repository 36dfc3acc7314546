CREATE TABLE "mail_recipients" (
	"workspace_id" uuid NOT NULL,
	"email" text NOT NULL,
	"state" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "mail_recipients_workspace_id_email_pk" PRIMARY KEY("workspace_id","email"),
	CONSTRAINT "mail_recipients_email_lower" CHECK ("mail_recipients"."email" = lower("mail_recipients"."email"))
);
--> statement-breakpoint
ALTER TABLE "mail_recipients" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD COLUMN "outcomes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_recipients" ADD CONSTRAINT "mail_recipients_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_recipients_email_idx" ON "mail_recipients" USING btree ("email");--> statement-breakpoint
CREATE POLICY "mail_recipients_system_access" ON "mail_recipients" AS PERMISSIVE FOR ALL TO "adpilot_system" USING (true) WITH CHECK (true);--> statement-breakpoint
-- hand-written:
-- Outside addresses' answers belong to no tenant: only the system path reaches them (ADR 0092).
ALTER TABLE "mail_recipients" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
REVOKE ALL ON TABLE "mail_recipients" FROM adpilot_app;
