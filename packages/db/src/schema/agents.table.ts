import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { systemPolicy, workspacePolicies } from './roles.ts';
import { users } from './users.table.ts';
import { workspaceColumn } from './workspaces.table.ts';

/**
 * The OAuth clients that registered themselves (RFC 7591, ADR 0153): an AI client's name and the redirect URIs its
 * codes may go to. They belong to no workspace, and only the system path reaches them (the application role has no
 * grant): a client is nobody's until a member grants it a workspace.
 */
export const oauthClients = pgTable('oauth_clients', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  redirectUris: text('redirect_uris').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type OAuthClientRow = typeof oauthClients.$inferSelect;

/**
 * An agent's credential in a workspace (ADR 0150): an API token a member made (`token`), or what a member granted
 * an OAuth client (`oauth`). Either acts as its creator, capped by its scopes, in its workspace only. Secrets are
 * stored as SHA-256 hashes: `token_hash` is the bearer (the API token, or the grant's access token of the moment,
 * valid until `token_expires_at`), `refresh_hash` a grant's refresh token, rotated on each use. Revoking sets
 * `revoked_at`; every later request with it is refused.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['token', 'oauth'] }).notNull(),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The first characters of an API token, to tell it by; null for a grant (its access tokens change). */
    hint: text('hint'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    refreshHash: text('refresh_hash'),
    clientId: uuid('client_id').references(() => oauthClients.id, { onDelete: 'cascade' }),
    /** The resource (RFC 8707) a grant's tokens are for: the MCP endpoint. Null for an API token (every API of ours). */
    resource: text('resource'),
    /** When the whole credential ends (an API token's chosen expiry); null: until revoked. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_unique').on(t.tokenHash),
    uniqueIndex('api_tokens_refresh_hash_unique').on(t.refreshHash),
    index('api_tokens_workspace_idx').on(t.workspaceId, t.createdAt),
    check('api_tokens_kind_check', sql`(${t.kind} = 'oauth') = (${t.clientId} is not null)`),
    ...workspacePolicies('api_tokens', t.workspaceId),
  ],
);

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/**
 * Authorization codes (OAuth 2.1 §4.1): single use, ten minutes, stored hashed, bound to the client, the redirect
 * URI, the PKCE challenge, the resource, and the member, workspace and scopes of the consent. System path only.
 */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codeHash: text('code_hash').notNull(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    scopes: text('scopes').array().notNull(),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    resource: text('resource').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oauth_codes_code_hash_unique').on(t.codeHash),
    index('oauth_codes_expires_idx').on(t.expiresAt),
    systemPolicy('oauth_codes'),
  ],
);

export type OAuthCodeRow = typeof oauthCodes.$inferSelect;

/**
 * A workspace's agent policy (ADR 0154): the largest budget change an agent may apply in one action, how many
 * changes agents may apply a day, and the campaigns they may only propose changes to. No row: the defaults.
 */
export const agentPolicies = pgTable(
  'agent_policies',
  {
    workspaceId: workspaceColumn().primaryKey(),
    maxBudgetChangePercent: integer('max_budget_change_percent').notNull(),
    maxChangesPerDay: integer('max_changes_per_day').notNull(),
    protectedCampaignIds: uuid('protected_campaign_ids').array().notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'agent_policies_limits_check',
      sql`${t.maxBudgetChangePercent} between 1 and 100 and ${t.maxChangesPerDay} >= 0`,
    ),
    ...workspacePolicies('agent_policies', t.workspaceId),
  ],
);

export type AgentPolicyRow = typeof agentPolicies.$inferSelect;
