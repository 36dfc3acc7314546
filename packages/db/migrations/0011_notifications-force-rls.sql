-- notification_settings is a tenant table: row-level security binds its owner too (drizzle-kit only writes ENABLE).
ALTER TABLE "notification_settings" FORCE ROW LEVEL SECURITY;
