export * from './roles.ts';
export * from './users.table.ts';
export * from './auth.table.ts';
export * from './ad-accounts.table.ts';
export * from './activity-logs.table.ts';
export * from './rate-limits.table.ts';
export * from './rules.table.ts';
export * from './notifications.table.ts';
