import { z } from 'zod';
import { text } from './text.ts';
import { ROLE_RANK, WORKSPACE_ROLES, type WorkspaceRole } from './workspace-roles.ts';

/**
 * AI agents in a workspace (ADR 0150–0154): API tokens and OAuth grants (one list, "agent credentials"), what each
 * may do (its scopes, capped by its creator's role), the workspace's agent policy, and the OAuth consent the web
 * asks the server about. The MCP tools themselves are described by the server's tool registry.
 */

/**
 * What a credential may do, each including the ones before it: `read` reads, `propose` also leaves proposals in the
 * Inbox for a person to approve, `write` also applies changes within the agent policy and creates rules (always in
 * approve mode). A credential is never more than an editor, whatever its creator's role.
 */
export const AGENT_SCOPES = ['read', 'propose', 'write'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];

/** The role a scope needs of the credential's creator at the moment it is used. */
export const SCOPE_ROLE: Record<AgentScope, WorkspaceRole> = { read: 'viewer', propose: 'editor', write: 'editor' };

/** The scopes a set stands for: each given scope with every scope it includes, in order. */
export function withImpliedScopes(scopes: readonly AgentScope[]): AgentScope[] {
  const highest = Math.max(...scopes.map((scope) => AGENT_SCOPES.indexOf(scope)));
  return AGENT_SCOPES.slice(0, highest + 1);
}

/** The scopes a credential may use now: its own, less those its creator's current role does not allow. */
export function effectiveScopes(scopes: readonly AgentScope[], role: WorkspaceRole): AgentScope[] {
  return withImpliedScopes(scopes).filter((scope) => ROLE_RANK[role] >= ROLE_RANK[SCOPE_ROLE[scope]]);
}

/** How long a new API token lives; absent or null: until revoked. */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;
export const API_TOKEN_NAME_MAX = 60;
/** Live API tokens one workspace may hold (revoked and expired ones do not count). */
export const API_TOKENS_PER_WORKSPACE = 25;
/** The prefix of every API token, so a leaked one is recognised by secret scanners and by people. */
export const API_TOKEN_PREFIX = 'adp_';
/** The prefix of an OAuth access token, and of its refresh token. */
export const OAUTH_ACCESS_PREFIX = 'adpo_';
export const OAUTH_REFRESH_PREFIX = 'adpr_';

export const AGENT_MESSAGES = {
  nameRequired: 'Give the token a name',
  nameTooLong: `A token name is at most ${API_TOKEN_NAME_MAX} characters`,
  scopesRequired: 'Choose at least one scope',
  expiryInvalid: `Expiry must be one of ${API_TOKEN_EXPIRY_DAYS.join(', ')} days, or none`,
  tokenLimit: `A workspace holds at most ${API_TOKENS_PER_WORKSPACE} live API tokens: revoke one first`,
  notFound: 'Token not found',
  revoked: 'Token revoked',
  /** REST: what a token may never do, and the writes that go through the MCP tools instead. */
  personOnly: 'An API token cannot do this: it acts only on its own workspace’s data, never on accounts or settings',
  restWrite:
    'An API token changes nothing through this route: agents write through the MCP tools (proposals, changes within the agent policy, rules in approve mode)',
  scopeMissing: (scope: AgentScope) => `This needs the "${scope}" scope, which this token does not have`,
  policyUnknownCampaign: 'Not a campaign of this workspace',
} as const;

export const createApiTokenRequestSchema = z.strictObject({
  name: text({ required: AGENT_MESSAGES.nameRequired, trim: true })
    .min(1, AGENT_MESSAGES.nameRequired)
    .max(API_TOKEN_NAME_MAX, AGENT_MESSAGES.nameTooLong),
  scopes: z
    .array(z.enum(AGENT_SCOPES, { error: AGENT_MESSAGES.scopesRequired }))
    .min(1, AGENT_MESSAGES.scopesRequired)
    .max(AGENT_SCOPES.length),
  expiresInDays: z
    .union(
      API_TOKEN_EXPIRY_DAYS.map((days) => z.literal(days)),
      { error: AGENT_MESSAGES.expiryInvalid },
    )
    .nullable()
    .optional(),
});
export type CreateApiTokenRequest = z.infer<typeof createApiTokenRequestSchema>;

export const apiTokenIdParamsSchema = z.strictObject({ id: z.uuid({ error: AGENT_MESSAGES.notFound }) });

export const AGENT_CREDENTIAL_KINDS = ['token', 'oauth'] as const;
export type AgentCredentialKind = (typeof AGENT_CREDENTIAL_KINDS)[number];

/** A token or an OAuth grant as the workspace sees it: never its secret, only the first characters to tell it by. */
export const apiTokenSchema = z.object({
  id: z.uuid(),
  kind: z.enum(AGENT_CREDENTIAL_KINDS),
  name: z.string(),
  scopes: z.array(z.enum(AGENT_SCOPES)),
  /** The token's first characters (`adp_1a2b…`); an OAuth grant's access tokens change, so it has none. */
  hint: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** The member who made it (the token acts as them, capped by its scopes); null once their account is gone. */
  createdBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** An OAuth grant's client: its registered name and where it receives codes. */
  client: z.object({ name: z.string(), redirectHost: z.string() }).nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;
export const apiTokenListSchema = z.array(apiTokenSchema);

/** POST /api/tokens: the token itself, this once. */
export const createdApiTokenSchema = apiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

// ——— The agent policy (PUT/GET /api/workspaces/:id/agent-policy) ———

export const AGENT_POLICY_LIMITS = {
  budgetPercentMin: 1,
  budgetPercentMax: 100,
  changesPerDayMax: 1000,
  protectedCampaignsMax: 500,
} as const;

/** What a workspace starts with: a fifth of a budget per change, twenty changes a day, no campaign held back. */
export const AGENT_POLICY_DEFAULT = {
  maxBudgetChangePercent: 20,
  maxChangesPerDay: 20,
  protectedCampaignIds: [] as string[],
};

export const agentPolicyInputSchema = z.strictObject({
  /** The largest budget change one agent action may apply, up or down, in percent of the live budget. */
  maxBudgetChangePercent: z
    .number()
    .int()
    .min(AGENT_POLICY_LIMITS.budgetPercentMin)
    .max(AGENT_POLICY_LIMITS.budgetPercentMax),
  /** How many changes agents may apply in a day (the account's local day); 0: every change becomes a proposal. */
  maxChangesPerDay: z.number().int().min(0).max(AGENT_POLICY_LIMITS.changesPerDayMax),
  /** Campaigns (ids of this workspace's campaigns) and everything in them that agents may only propose changes to. */
  protectedCampaignIds: z.array(z.uuid()).max(AGENT_POLICY_LIMITS.protectedCampaignsMax),
});
export type AgentPolicyInput = z.infer<typeof agentPolicyInputSchema>;

export const agentPolicySchema = agentPolicyInputSchema.extend({
  /** Null until someone saved the policy: the defaults apply. */
  updatedAt: z.string().nullable(),
  /** The workspace's campaigns to choose the protected ones from (at most the protected-campaign limit). */
  campaigns: z.array(z.object({ id: z.uuid(), name: z.string(), adAccountName: z.string() })),
});
export type AgentPolicy = z.infer<typeof agentPolicySchema>;

// ——— OAuth consent, as the web asks the server (the protocol endpoints are under /oauth) ———

/** The authorization request's parameters (OAuth 2.1 §4.1.1, RFC 8707 `resource`), as the consent page passes them on. */
export const oauthAuthorizationQuerySchema = z.strictObject({
  client_id: z.string().min(1).max(200),
  redirect_uri: z.string().min(1).max(2000),
  response_type: z.string().max(50),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  scope: z.string().max(200).optional(),
  state: z.string().max(1000).optional(),
  resource: z.string().max(2000).optional(),
});
export type OAuthAuthorizationQuery = z.infer<typeof oauthAuthorizationQuerySchema>;

/** What the consent page shows: the client, where the code goes, the scopes asked, the workspaces to choose from. */
export const oauthAuthorizationSchema = z.object({
  client: z.object({ id: z.string(), name: z.string() }),
  redirectHost: z.string(),
  /** True when the code goes to this computer (a desktop client): anyone on it could be listening there. */
  loopback: z.boolean(),
  scopes: z.array(z.enum(AGENT_SCOPES)),
  /** The user's workspaces, each with the scopes their role there lets them grant. */
  workspaces: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      personal: z.boolean(),
      role: z.enum(WORKSPACE_ROLES),
      grantable: z.array(z.enum(AGENT_SCOPES)),
    }),
  ),
});
export type OAuthAuthorization = z.infer<typeof oauthAuthorizationSchema>;

export const OAUTH_DECISIONS = ['allow', 'deny'] as const;

export const oauthConsentRequestSchema = oauthAuthorizationQuerySchema.extend({
  decision: z.enum(OAUTH_DECISIONS),
  workspaceId: z.uuid(),
  scopes: z.array(z.enum(AGENT_SCOPES)).min(1).max(AGENT_SCOPES.length),
});
export type OAuthConsentRequest = z.infer<typeof oauthConsentRequestSchema>;

/** Where the browser goes next: the client's redirect URI with the code (or the refusal) and the state. */
export const oauthConsentSchema = z.object({ redirectTo: z.string() });
