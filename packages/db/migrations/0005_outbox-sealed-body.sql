ALTER TABLE "mail_outbox" ADD COLUMN "sealed_body" text NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "expires_at" timestamp with time zone NOT NULL;