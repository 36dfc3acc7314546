import type { Explanation, RuleActionRecord, RulePreview, RuleRun } from '@adpilot/contracts';
import { buildId } from './fake-api.ts';

const ACCOUNT_ID = '00000000-0000-4000-8000-0000000000aa';

/** CPA over the last 7 days 620.5 > 500 held, inside an "any" group whose other branch failed. */
export function matchedExplanation(): Explanation {
  return {
    decision: 'matched',
    notJudged: null,
    settling: false,
    conditions: {
      kind: 'group',
      path: '',
      match: 'any',
      held: true,
      items: [
        {
          kind: 'condition',
          path: '0',
          metric: 'cpa',
          window: 'last_7d',
          includeToday: true,
          operator: 'gt',
          value: 620.5,
          compareTo: 500,
          against: null,
          result: 'held',
        },
        {
          kind: 'group',
          path: '1',
          match: 'all',
          held: false,
          items: [
            {
              kind: 'condition',
              path: '1.0',
              metric: 'conversions',
              window: 'last_7d',
              includeToday: true,
              operator: 'eq',
              value: 3,
              compareTo: 0,
              against: null,
              result: 'failed',
            },
          ],
        },
      ],
    },
  };
}

export function buildPreview(): RulePreview {
  const entity = (externalId: string, name: string) => ({
    adAccountId: ACCOUNT_ID,
    level: 'ad' as const,
    externalId,
    name,
    status: 'ACTIVE',
    effectiveStatus: 'ACTIVE',
  });
  return {
    evaluatedAt: '2026-11-22T02:00:00.000Z',
    entities: [
      {
        entity: entity('ad-2', 'Quiet ad'),
        matched: false,
        values: [{ metric: 'cpa', window: 'last_7d', includeToday: true, value: null }],
        explanation: {
          decision: 'not_judged',
          notJudged: { code: 'min_spend_not_reached', params: { spend: 40, minimum: 100 } },
          settling: false,
          conditions: null,
        },
        actions: [],
      },
      {
        // Meta names are the advertiser's text: markup in them must show as text.
        entity: entity('ad-1', '<img src=x onerror=alert(1)> Summer'),
        matched: true,
        values: [
          { metric: 'cpa', window: 'last_7d', includeToday: true, value: 620.5 },
          { metric: 'conversions', window: 'last_7d', includeToday: true, value: 3 },
        ],
        explanation: matchedExplanation(),
        actions: [
          {
            actionIndex: 0,
            type: 'pause',
            target: entity('ad-1', '<img src=x onerror=alert(1)> Summer'),
            holderReason: null,
            outcome: 'planned',
            change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' },
            skip: null,
            message: null,
          },
          {
            actionIndex: 1,
            type: 'notify',
            target: entity('ad-1', '<img src=x onerror=alert(1)> Summer'),
            holderReason: null,
            outcome: 'skipped',
            change: null,
            skip: {
              code: 'cooldown',
              params: { hours: 24, lastAt: '2026-11-21T10:00:00.000Z', until: '2026-11-22T10:00:00.000Z' },
            },
            message: null,
          },
        ],
      },
    ],
    totals: { evaluated: 2, matched: 1, planned: 1, skipped: 1 },
    warnings: [{ code: 'budget_increase_without_ceiling', params: { actionIndex: 0 } }],
  };
}

export function buildAction(
  ruleId: string,
  runId: string,
  overrides: Partial<RuleActionRecord> = {},
): RuleActionRecord {
  const adset = { adAccountId: ACCOUNT_ID, level: 'adset' as const, externalId: 'as-1', name: 'Bangkok buyers' };
  return {
    id: buildId(),
    runId,
    ruleId,
    actor: { type: 'rule', id: null, name: null },
    entity: adset,
    target: adset,
    type: 'increase_budget',
    holderReason: 'self',
    change: { field: 'daily_budget', from: 1000, to: 1200, fromMinor: 100000, toMinor: 120000 },
    status: 'applied',
    failure: null,
    explanation: matchedExplanation(),
    createdAt: '2026-11-22T02:00:00.000Z',
    appliedAt: '2026-11-22T02:00:01.000Z',
    revertedAt: null,
    revertible: true,
    ...overrides,
  };
}

export function buildRun(
  ruleId: string,
  actions: (runId: string) => RuleActionRecord[],
  overrides: Partial<RuleRun> = {},
): RuleRun {
  const id = buildId();
  return {
    id,
    ruleId,
    trigger: 'manual',
    slot: '2026-11-22T02:00:00.000Z',
    status: 'completed',
    startedAt: '2026-11-22T02:00:00.000Z',
    finishedAt: '2026-11-22T02:00:02.000Z',
    evaluated: 3,
    matched: 1,
    error: null,
    actions: actions(id),
    skipped: [],
    ...overrides,
  };
}
