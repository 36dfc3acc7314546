import {
  AGENT_MESSAGES,
  AGENT_POLICY_DEFAULT,
  AGENT_POLICY_LIMITS,
  describeActivity,
  hasRole,
  type AgentPolicy,
  type AgentPolicyInput,
  type WorkspaceRole,
} from '@adpilot/contracts';
import type { TenantScope, TenantTx, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import { ROLE_WORDS } from '../../plugins/authenticate.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AdMirrorService } from '../ad-accounts/index.ts';
import type { AgentChangesRepository } from '../rules/index.ts';
import {
  routeAgentChange,
  type AgentChange,
  type AgentChangeContext,
  type AgentChangeRoute,
} from './agent-policy-decision.ts';
import type { AgentPolicyRepository } from './agent-policy.repository.ts';

export interface AgentPolicyDeps {
  transactions: Transactions;
  repository: AgentPolicyRepository;
  /** The ad-accounts module's mirror: the workspace's campaigns to protect. */
  mirror: Pick<AdMirrorService, 'accounts' | 'entities'>;
  /** The caller's membership of the workspace the path names (the workspaces module's cache). */
  memberships: { resolve(userId: string, workspaceId: string): Promise<{ role: WorkspaceRole } | null> };
  activity: Pick<ActivityRepository, 'insert'>;
  /** The rules' ledger: the changes agents applied themselves since a moment (the day's allowance). */
  agentChanges: Pick<AgentChangesRepository, 'appliedSince'>;
  now: () => Date;
}

/** How an agent's change is routed (ADR 0154), with the policy and the day's count it was judged by. */
export type AgentRouting = AgentChangeRoute & { policy: AgentPolicyInput; appliedToday: number };
export type { AgentChange } from './agent-policy-decision.ts';

const workspaceNotFound = () => AppError.notFound('Workspace not found');

/**
 * The agent policy of a workspace (ADR 0154): what an agent's `apply_change` may apply itself; beyond it the change
 * becomes a proposal. Every member reads it (an agent's answers cite it); admins and owners change it.
 */
export class AgentPolicyService {
  constructor(private readonly deps: AgentPolicyDeps) {}

  async get(userId: string, workspaceId: string): Promise<AgentPolicy> {
    await this.access(userId, workspaceId, 'viewer');
    return this.deps.transactions.tenant({ workspaceId, userId }, async (tx) => {
      const [row, campaigns] = await Promise.all([this.deps.repository.find(tx), this.campaignsIn(tx)]);
      return {
        ...(row ? fieldsOf(row) : AGENT_POLICY_DEFAULT),
        updatedAt: row?.updatedAt.toISOString() ?? null,
        campaigns: campaigns.slice(0, AGENT_POLICY_LIMITS.protectedCampaignsMax),
      };
    });
  }

  async save(userId: string, workspaceId: string, input: AgentPolicyInput): Promise<AgentPolicy> {
    await this.access(userId, workspaceId, 'admin');
    return this.deps.transactions.tenant({ workspaceId, userId }, async (tx) => {
      const campaigns = await this.campaignsIn(tx);
      const known = new Set(campaigns.map((campaign) => campaign.id));
      const unknown = input.protectedCampaignIds.findIndex((id) => !known.has(id));
      if (unknown >= 0)
        throw new AppError('VALIDATION_ERROR', AGENT_MESSAGES.policyUnknownCampaign, 400, [
          { field: `protectedCampaignIds.${unknown}`, message: AGENT_MESSAGES.policyUnknownCampaign },
        ]);
      const fields = { ...input, protectedCampaignIds: [...new Set(input.protectedCampaignIds)] };
      const row = await this.deps.repository.save(tx, fields, this.deps.now());
      const params = {
        percent: fields.maxBudgetChangePercent,
        perDay: fields.maxChangesPerDay,
        protected: fields.protectedCampaignIds.length,
      };
      await this.deps.activity.insert(tx, {
        level: 'info',
        category: 'workspace',
        description: describeActivity('agent_policy_changed', params),
        metadata: { code: 'agent_policy_changed', params },
      });
      return {
        ...fieldsOf(row),
        updatedAt: row.updatedAt.toISOString(),
        campaigns: campaigns.slice(0, AGENT_POLICY_LIMITS.protectedCampaignsMax),
      };
    });
  }

  /** The policy in force, in the caller's unit of work (what `apply_change` routes a change by). */
  async policyIn(tx: TenantTx): Promise<AgentPolicyInput> {
    const row = await this.deps.repository.find(tx);
    return row ? fieldsOf(row) : AGENT_POLICY_DEFAULT;
  }

  /**
   * Routes an agent's change (`apply_change`): the policy in force and the agent changes applied since the UTC day
   * began, read together, then `routeAgentChange` on what the caller read of the entity.
   */
  async routeChange(
    scope: TenantScope,
    change: AgentChange,
    entity: Omit<AgentChangeContext, 'appliedToday'>,
  ): Promise<AgentRouting> {
    const now = this.deps.now();
    const dayBegan = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const { policy, appliedToday } = await this.deps.transactions.tenant(scope, async (tx) => ({
      policy: await this.policyIn(tx),
      appliedToday: await this.deps.agentChanges.appliedSince(tx, dayBegan),
    }));
    return { ...routeAgentChange(policy, change, { ...entity, appliedToday }), policy, appliedToday };
  }

  private async access(userId: string, workspaceId: string, needed: WorkspaceRole): Promise<void> {
    const membership = await this.deps.memberships.resolve(userId, workspaceId);
    if (!membership) throw workspaceNotFound();
    if (!hasRole(membership.role, needed))
      throw AppError.forbidden(`This needs ${ROLE_WORDS[needed]} of this workspace (or higher)`);
  }

  /** Every campaign of the workspace's accounts, by account and name (the answer shows the first few hundred). */
  private async campaignsIn(tx: TenantTx): Promise<AgentPolicy['campaigns']> {
    const accounts = await this.deps.mirror.accounts(tx, []);
    if (accounts.length === 0) return [];
    const names = new Map(accounts.map((account) => [account.id, account.facebookAccountName]));
    const entities = await this.deps.mirror.entities(
      tx,
      accounts.map((account) => account.id),
    );
    return entities
      .filter((entity) => entity.level === 'campaign')
      .map((entity) => ({ id: entity.id, name: entity.name, adAccountName: names.get(entity.adAccountId) ?? '' }))
      .sort((a, b) => a.adAccountName.localeCompare(b.adAccountName) || a.name.localeCompare(b.name));
  }
}

function fieldsOf(row: {
  maxBudgetChangePercent: number;
  maxChangesPerDay: number;
  protectedCampaignIds: string[];
}): AgentPolicyInput {
  return {
    maxBudgetChangePercent: row.maxBudgetChangePercent,
    maxChangesPerDay: row.maxChangesPerDay,
    protectedCampaignIds: row.protectedCampaignIds,
  };
}
