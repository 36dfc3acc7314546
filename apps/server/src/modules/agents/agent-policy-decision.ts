import type { AgentPolicyInput } from '@adpilot/contracts';

/**
 * Whether an agent's change may be applied through the ledger or must become a proposal for a person (ADR 0154):
 * the decision `apply_change` takes before it writes, pure so it is tested without a database or Meta. The
 * manual-action service of the explorer supplies the inputs (the entity's campaign, the live budget it read, the
 * agent changes applied today); the tool routes the change by the answer.
 */

/** The change an agent asks for: the same items as the explorer's manual actions. */
export interface AgentChange {
  type: 'pause' | 'resume' | 'set_budget' | 'increase_budget' | 'decrease_budget';
  /** `set_budget`: the new budget, in the account currency's major units. */
  amount?: number;
  /** `increase_budget` / `decrease_budget`: by how many percent. */
  percent?: number;
}

/** What the decision needs to know about the entity and the day, read live by the caller. */
export interface AgentChangeContext {
  /** The campaign the entity belongs to (itself for a campaign); null when the mirror does not know it. */
  campaignId: string | null;
  /** The budget the change would move, read live before deciding (major units); null when it has none or is unknown. */
  liveBudget: number | null;
  /** Changes agents already applied in this workspace since the UTC day began (proposals do not count). */
  appliedToday: number;
}

/** Why a change goes to the Inbox instead of being applied, as codes the tool answers and the Inbox words. */
export const POLICY_REASONS = [
  'protected_campaign',
  'campaign_unknown',
  'daily_limit',
  'budget_change_too_large',
  'budget_unknown',
  'amount_missing',
] as const;
export type PolicyReason = (typeof POLICY_REASONS)[number];

export type AgentChangeRoute =
  { route: 'apply'; budgetChangePercent: number | null } | { route: 'propose'; reasons: PolicyReason[] };

const isBudgetChange = (type: AgentChange['type']) => type !== 'pause' && type !== 'resume';

/**
 * How far the change moves the budget, in percent of the live one (always positive), or a reason it cannot be known.
 * A budget change from nothing, or to an amount not given, cannot be judged against a percentage: a person decides.
 */
export function budgetChangePercent(change: AgentChange, liveBudget: number | null): number | PolicyReason {
  if (change.type === 'set_budget') {
    if (change.amount === undefined || !Number.isFinite(change.amount)) return 'amount_missing';
    if (liveBudget === null || liveBudget <= 0) return 'budget_unknown';
    return (Math.abs(change.amount - liveBudget) / liveBudget) * 100;
  }
  if (change.percent === undefined || !Number.isFinite(change.percent)) return 'amount_missing';
  if (liveBudget === null || liveBudget <= 0) return 'budget_unknown';
  return Math.abs(change.percent);
}

/**
 * The route of one change under the workspace's policy: every reason it must be proposed, or apply. A protected
 * campaign and a spent daily allowance hold for every type; the budget limit for budget changes only. A change
 * exactly at the limit is within it.
 */
export function routeAgentChange(
  policy: AgentPolicyInput,
  change: AgentChange,
  context: AgentChangeContext,
): AgentChangeRoute {
  const reasons: PolicyReason[] = [];
  // An entity whose campaign is unknown might be in a protected one: with any campaign protected, a person decides.
  if (context.campaignId === null) {
    if (policy.protectedCampaignIds.length > 0) reasons.push('campaign_unknown');
  } else if (policy.protectedCampaignIds.includes(context.campaignId)) reasons.push('protected_campaign');
  if (context.appliedToday >= policy.maxChangesPerDay) reasons.push('daily_limit');
  let percent: number | null = null;
  if (isBudgetChange(change.type)) {
    const moved = budgetChangePercent(change, context.liveBudget);
    if (typeof moved === 'string') reasons.push(moved);
    else if (moved > policy.maxBudgetChangePercent + 1e-9) reasons.push('budget_change_too_large');
    else percent = moved;
  }
  return reasons.length > 0 ? { route: 'propose', reasons } : { route: 'apply', budgetChangePercent: percent };
}
