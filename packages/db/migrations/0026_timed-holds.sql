ALTER TABLE "rule_actions" ADD COLUMN "hold_of" uuid;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD CONSTRAINT "rule_actions_hold_of_rule_actions_id_fk" FOREIGN KEY ("hold_of") REFERENCES "public"."rule_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_actions_hold_unique" ON "rule_actions" USING btree ("hold_of");--> statement-breakpoint
CREATE INDEX "rule_actions_hold_due_idx" ON "rule_actions" USING btree ("due_at") WHERE "rule_actions"."hold_of" is not null and "rule_actions"."state" in ('planned', 'postponed');