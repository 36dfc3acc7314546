import type { CreateRuleRequest } from '@adpilot/contracts';

let counter = 0;

/** A valid rule body (a stop-loss on CPA over every account) with any field replaced. */
export function buildRule(overrides: Partial<CreateRuleRequest> = {}): CreateRuleRequest {
  counter += 1;
  return {
    name: `Stop loss ${counter}`,
    description: 'Pause ads whose CPA is above ฿500',
    isActive: false,
    scope: { adAccountIds: [], level: 'ad' },
    conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' }] },
    actions: [{ type: 'pause' }],
    schedule: { everyMinutes: 60 },
    safeguards: { cooldownHours: 24, maxActionsPerDay: 20, minSpend: 0, minImpressions: 0, settleHours: 0 },
    ...overrides,
  };
}

/**
 * A stop-loss on one account's active ads: pause those whose 7-day CPA is above `cpa`, with room to act on every one
 * of them in one run (no daily cap in the way, no spend or impression floor).
 */
export function buildStopLossRule(adAccountId: string, cpa: number): CreateRuleRequest {
  return buildRule({
    scope: { adAccountIds: [adAccountId], level: 'ad', statuses: ['ACTIVE'] },
    conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: cpa, window: 'last_7d' }] },
    safeguards: { cooldownHours: 24, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
  });
}

/** A scale rule: raise ad set budgets by `by` percent up to `ceiling` when ROAS is above `roas`. */
export function buildScaleRule(
  options: { by?: number; ceiling?: number; roas?: number; adAccountIds?: string[] } = {},
): CreateRuleRequest {
  return buildRule({
    name: `Scale winners ${(counter += 1)}`,
    scope: { adAccountIds: options.adAccountIds ?? [], level: 'adset' },
    conditions: {
      match: 'all',
      items: [{ metric: 'roas', operator: 'gt', value: options.roas ?? 0, window: 'last_7d' }],
    },
    actions: [
      {
        type: 'increase_budget',
        by: options.by ?? 20,
        unit: 'percent',
        ...(options.ceiling ? { ceiling: options.ceiling } : {}),
      },
    ],
  });
}
