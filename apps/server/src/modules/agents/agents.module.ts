import type { Workspace, WorkspaceRole } from '@adpilot/contracts';
import type { Transactions } from '@adpilot/db';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AdMirrorService } from '../ad-accounts/index.ts';
import type { AttemptLimiter } from '../auth/index.ts';
import { actingAs } from './agent-actor.ts';
import { AgentPolicyRepository } from './agent-policy.repository.ts';
import { agentPolicyRoutes } from './agent-policy.routes.ts';
import { AgentPolicyService, type AgentPolicyDeps } from './agent-policy.service.ts';
import { defineAgentsJobs } from './agents.jobs.ts';
import { ApiTokensRepository, CREDENTIALS_CHANNEL } from './api-tokens.repository.ts';
import { apiTokensRoutes } from './api-tokens.routes.ts';
import { ApiTokensService, isAgentSecret, type CreatorNames } from './api-tokens.service.ts';
import { oauthConsentRoutes } from './oauth/oauth-consent.routes.ts';
import { OAuthRepository } from './oauth/oauth.repository.ts';
import { oauthRoutes } from './oauth/oauth.routes.ts';
import { OAuthService } from './oauth/oauth.service.ts';

export interface AgentsModuleDeps {
  transactions: Transactions;
  activity: Pick<ActivityRepository, 'insert'>;
  /** Auth's users: the names of the members who made each credential. */
  people: CreatorNames;
  /** The workspaces module: a member's workspaces (the consent page) and their role in one (the policy routes). */
  workspaces: {
    list(userId: string): Promise<Workspace[]>;
    resolve(userId: string, workspaceId: string): Promise<{ role: WorkspaceRole } | null>;
  };
  /** The ad-accounts module's mirror: the campaigns a policy may protect. */
  mirror: Pick<AdMirrorService, 'accounts' | 'entities'>;
  /** The rules' ledger: the changes agents applied themselves (the policy's changes per day). */
  agentChanges: AgentPolicyDeps['agentChanges'];
  /** Auth's attempt counters: OAuth client registrations per address. */
  limiter: Pick<AttemptLimiter, 'take'>;
  queue: JobQueue;
  publicUrl: string;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * AI agents' access to a workspace (ADR 0150–0154): API tokens, OAuth for MCP clients, the agent policy, and the
 * signing of what agents do in the activity log. Its public API: `tokens` (the authentication hook and the MCP
 * endpoint authenticate agents through it), `policy`, `actingAs` (the MCP tools run inside it), `revocations` (the
 * MCP sessions end when their credential is revoked) and its route plugins: `routes` (/api/tokens), `policyRoutes`
 * (/api/workspaces), `consentRoutes` (/api/oauth) and `oauthRoutes` (the OAuth endpoints, at the root).
 */
export function createAgentsModule(deps: AgentsModuleDeps) {
  const { transactions, now } = deps;
  const credentials = new ApiTokensRepository();
  const revoked = new Set<(credentialId: string) => void>();
  const revocations = {
    /** Calls `listener` with each credential revoked, in this process at once and in others on the channel. */
    subscribe(listener: (credentialId: string) => void): () => void {
      revoked.add(listener);
      return () => revoked.delete(listener);
    },
    channel: CREDENTIALS_CHANNEL,
    announce(credentialId: string): void {
      for (const listener of revoked) listener(credentialId);
    },
  };
  const tokens = new ApiTokensService({
    transactions,
    repository: credentials,
    activity: deps.activity,
    people: deps.people,
    onRevoked: (id) => revocations.announce(id),
    now,
  });
  const policy = new AgentPolicyService({
    transactions,
    repository: new AgentPolicyRepository(),
    mirror: deps.mirror,
    memberships: deps.workspaces,
    activity: deps.activity,
    agentChanges: deps.agentChanges,
    now,
  });
  const oauthRepository = new OAuthRepository();
  const oauth = new OAuthService({
    transactions,
    repository: oauthRepository,
    credentials,
    activity: deps.activity,
    workspaces: deps.workspaces,
    limiter: deps.limiter,
    publicUrl: deps.publicUrl,
    now,
  });
  defineAgentsJobs(deps.queue, { transactions, repository: oauthRepository, now, log: deps.log });
  return {
    tokens,
    /** What the authentication hook asks of a bearer secret. */
    authenticator: { authenticate: (secret: string) => tokens.authenticate(secret), isAgentSecret },
    policy,
    oauth,
    actingAs,
    revocations,
    routes: bindRoutes(apiTokensRoutes, { tokens }),
    policyRoutes: bindRoutes(agentPolicyRoutes, { policy }),
    consentRoutes: bindRoutes(oauthConsentRoutes, { oauth }),
    oauthRoutes: async (app: FastifyInstance) => {
      await app.register(oauthRoutes, { oauth });
    },
  };
}
