import { createRuleRequestSchema, type RuleBody } from '@adpilot/contracts';

/** One rule of the demo workspace, and whether the demo runs it once while building (so it has acted). */
export interface DemoRule {
  body: RuleBody;
  run: boolean;
}

const lastWeekSpend = {
  match: 'all' as const,
  items: [{ metric: 'spend' as const, operator: 'gte' as const, value: 0, window: 'last_7d' as const }],
};

/**
 * The demo's rules on its sandbox accounts (ADR 0185): one that wrote budget raises, one that asks first (its changes
 * wait in the Inbox), one switched off that never ran. A few actions a day each, so the hourly checks of the active
 * ones stay small until the next rebuild.
 */
export function demoRules(adAccountIds: string[]): DemoRule[] {
  const scope = { adAccountIds, level: 'adset' as const, statuses: ['ACTIVE' as const] };
  const safeguards = { cooldownHours: 24, maxActionsPerDay: 3, minSpend: 0, minImpressions: 0, settleHours: 0 };
  return [
    {
      run: true,
      body: createRuleRequestSchema.parse({
        name: 'Scale ad sets that keep spending',
        description: 'Raises the daily budget by 10% on ad sets that spent in the last 7 days.',
        isActive: true,
        mode: 'auto',
        scope,
        conditions: lastWeekSpend,
        actions: [{ type: 'increase_budget', by: 10, unit: 'percent' }],
        schedule: { everyMinutes: 60 },
        safeguards,
      }),
    },
    {
      run: true,
      body: createRuleRequestSchema.parse({
        name: 'Trim budgets, ask me first',
        description: 'Proposes a 15% lower daily budget; nothing changes until someone approves it in the Inbox.',
        isActive: true,
        mode: 'approve',
        scope,
        conditions: lastWeekSpend,
        actions: [{ type: 'decrease_budget', by: 15, unit: 'percent' }],
        schedule: { everyMinutes: 60 },
        safeguards,
      }),
    },
    {
      run: false,
      body: createRuleRequestSchema.parse({
        name: 'Pause ads with a high CPA',
        description: 'Pauses ads whose cost per result passed 500 in the account’s currency over the last 3 days.',
        isActive: false,
        mode: 'auto',
        scope: { adAccountIds, level: 'ad', statuses: ['ACTIVE'] },
        conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_3d' }] },
        actions: [{ type: 'pause' }],
        schedule: { everyMinutes: 60 },
        safeguards,
      }),
    },
  ];
}
