-- The rules tables are tenant tables: row-level security binds their owner too (drizzle-kit only writes ENABLE).
ALTER TABLE "automation_rules" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "rule_runs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "rule_actions" FORCE ROW LEVEL SECURITY;
