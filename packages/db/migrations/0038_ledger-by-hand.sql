ALTER TABLE "rule_actions" ALTER COLUMN "rule_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "rule_actions" ALTER COLUMN "run_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD COLUMN "actor_type" text DEFAULT 'rule' NOT NULL;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD COLUMN "actor_id" uuid;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD COLUMN "actor_user_id" uuid;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD COLUMN "actor_name" text;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_actions_by_hand_unique" ON "rule_actions" USING btree ("actor_type","actor_id","entity_external_id","target_external_id","action_type","slot") WHERE "rule_actions"."rule_id" is null;--> statement-breakpoint
ALTER TABLE "rule_actions" ADD CONSTRAINT "rule_actions_actor_check" CHECK (("rule_actions"."actor_type" = 'rule' and "rule_actions"."rule_id" is not null and "rule_actions"."run_id" is not null) or ("rule_actions"."actor_type" <> 'rule' and "rule_actions"."rule_id" is null and "rule_actions"."run_id" is null and "rule_actions"."actor_id" is not null and "rule_actions"."actor_user_id" is not null and "rule_actions"."actor_name" is not null));