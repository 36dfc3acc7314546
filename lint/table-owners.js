// Which server module owns each table (by the name packages/db exports it under). Only the owner's repositories
// read or write it; another module asks the owner's service. The architecture lint reads this (table-ownership),
// and lint/table-owners.test.ts keeps it equal to the schema. ADR 0064.
export const TABLE_OWNERS = {
  users: 'auth',
  refreshTokens: 'auth',
  passwordResets: 'auth',
  rateLimitBuckets: 'auth',
  loginCodes: 'auth',
  emailVerifications: 'notifications',
  notificationSettings: 'notifications',
  mailOutbox: 'admin',
  mailOutboxAttachments: 'admin',
  oauthStates: 'ad-accounts',
  adAccounts: 'ad-accounts',
  adEntities: 'ad-accounts',
  insightsDaily: 'ad-accounts',
  monthlyBudgets: 'ad-accounts',
  anomalyEpisodes: 'ad-accounts',
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
  workspaces: 'workspaces',
  workspaceMembers: 'workspaces',
  workspaceTransfers: 'workspaces',
  workspaceInvitations: 'workspaces',
  reportSchedules: 'reports',
  reportDeliveries: 'reports',
  oauthClients: 'agents',
  apiTokens: 'agents',
  oauthCodes: 'agents',
  agentPolicies: 'agents',
  mailRecipients: 'outbound',
  aiConversations: 'ai',
  aiMessages: 'ai',
};

/**
 * Repositories that still reach another module's table, as `file: [tables]`. The list only shrinks: a new crossing
 * fails lint, and lint/table-owners.test.ts fails on an entry the file no longer needs. Empty since ADR 0066: every
 * module asks the owner's service, composing the owner's queries into its own unit of work where it needs one.
 */
export const KNOWN_CROSSINGS = {};
