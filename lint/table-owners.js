// Which server module owns each table (by the name packages/db exports it under). Only the owner's repositories
// read or write it; another module asks the owner's service. The architecture lint reads this (table-ownership),
// and lint/table-owners.test.ts keeps it equal to the schema. ADR 0064.
export const TABLE_OWNERS = {
  users: 'auth',
  refreshTokens: 'auth',
  passwordResets: 'auth',
  rateLimitBuckets: 'auth',
  emailVerifications: 'notifications',
  notificationSettings: 'notifications',
  mailOutbox: 'admin',
  oauthStates: 'ad-accounts',
  adAccounts: 'ad-accounts',
  adEntities: 'ad-accounts',
  insightsDaily: 'ad-accounts',
  activityLogs: 'activity',
  activityLogCounters: 'activity',
  automationRules: 'rules',
  ruleRuns: 'rules',
  ruleActions: 'rules',
  subscriptionPlans: 'subscription',
  subscriptions: 'subscription',
  usageCounters: 'subscription',
  billingEvents: 'subscription',
  featureWaitlist: 'ai',
  instanceSettings: 'settings',
};

/**
 * Repositories that still reach another module's table, as `file: [tables]`. The list only shrinks: a new crossing
 * fails lint, and lint/table-owners.test.ts fails on an entry the file no longer needs. Each is work to move behind
 * the owner's service (ADR 0064).
 */
export const KNOWN_CROSSINGS = {
  // The daily clean-up of expired rows across modules, on the system path.
  'apps/server/src/modules/maintenance/maintenance.repository.ts': [
    'adAccounts',
    'mailOutbox',
    'oauthStates',
    'passwordResets',
    'rateLimitBuckets',
    'refreshTokens',
  ],
  // The Test page's row-level-security probe reads users and sessions as the application role.
  'apps/server/src/modules/diagnostics/diagnostics.repository.ts': ['refreshTokens', 'users'],
  // Who gets which entry: the notifier reads the log, the rules' names and the users' addresses.
  'apps/server/src/modules/notifications/notifications.repository.ts': ['activityLogs', 'automationRules', 'users'],
  // Reports read the synced insights and their entities.
  'apps/server/src/modules/reports/reports.repository.ts': ['adAccounts', 'adEntities', 'insightsDaily'],
  // The rule engine's snapshot of the mirror, and the refresh claim on an account's sync state.
  'apps/server/src/modules/rules/rule-inputs.repository.ts': ['adAccounts', 'adEntities', 'insightsDaily'],
  // Counting what a plan limits (accounts, active rules) and the user a subscription belongs to.
  'apps/server/src/modules/subscription/subscription.repository.ts': ['adAccounts', 'automationRules', 'users'],
};
