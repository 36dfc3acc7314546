import { createRuleRequestSchema, type CreateRuleRequest, type RuleCondition } from '@adpilot/contracts';
import type { EngineRule } from '../src/evaluate.ts';
import { isoDate, localTime } from '../src/time.ts';
import type { EngineAccount, EngineDailyRow, EngineEntity } from '../src/types.ts';

/** Builders for engine tests: plain values, every field overridable. */

export const BANGKOK = '00000000-0000-4000-8000-000000000001';
export const NEW_YORK = '00000000-0000-4000-8000-000000000002';
export const TOKYO = '00000000-0000-4000-8000-000000000003';

/** 2026-11-22 03:00 UTC: 10:00 on the 22nd in Bangkok, 22:00 on the 21st in New York. */
export const NOW = Date.parse('2026-11-22T03:00:00Z');

export function buildAccount(overrides: Partial<EngineAccount> = {}): EngineAccount {
  return { id: BANGKOK, currency: 'THB', timezone: 'Asia/Bangkok', minDailyBudgetMinor: null, ...overrides };
}

export function buildEntity(overrides: Partial<EngineEntity> = {}): EngineEntity {
  return {
    adAccountId: BANGKOK,
    level: 'ad',
    externalId: 'ad-1',
    name: 'Ad 1',
    status: 'ACTIVE',
    effectiveStatus: 'ACTIVE',
    campaignExternalId: 'c-1',
    adsetExternalId: 's-1',
    dailyBudgetMinor: null,
    lifetimeBudgetMinor: null,
    createdTime: null,
    ...overrides,
  };
}

/** A campaign → ad set → ad chain; the ad set holds a ฿1,000 daily budget unless the overrides say otherwise. */
export function buildTree(
  overrides: { campaign?: Partial<EngineEntity>; adset?: Partial<EngineEntity>; ad?: Partial<EngineEntity> } = {},
): EngineEntity[] {
  return [
    buildEntity({
      level: 'campaign',
      externalId: 'c-1',
      name: 'Campaign 1',
      campaignExternalId: null,
      adsetExternalId: null,
      ...overrides.campaign,
    }),
    buildEntity({
      level: 'adset',
      externalId: 's-1',
      name: 'Ad set 1',
      adsetExternalId: null,
      dailyBudgetMinor: 100_000,
      ...overrides.adset,
    }),
    buildEntity(overrides.ad),
  ];
}

/** A row `ago` days before the account's local today at NOW. */
export function buildRow(
  ago: number,
  overrides: Partial<EngineDailyRow> = {},
  account = buildAccount(),
): EngineDailyRow {
  const today = localTime(NOW, account.timezone).day;
  return {
    adAccountId: account.id,
    entityExternalId: 'ad-1',
    date: isoDate(today - ago),
    spend: 0,
    impressions: 0,
    reach: 0,
    clicks: 0,
    linkClicks: 0,
    conversions: 0,
    conversionValue: 0,
    ...overrides,
  };
}

export function cond(
  metric: RuleCondition['metric'],
  operator: RuleCondition['operator'],
  value: RuleCondition['value'],
  window: RuleCondition['window'] = 'today',
  includeToday = false,
) {
  return { metric, operator, value, window, includeToday };
}

let ruleCount = 0;

/** A valid stored rule (ad level, pause) with its id. */
export function buildRule(overrides: Partial<CreateRuleRequest> = {}): EngineRule {
  ruleCount += 1;
  const body = createRuleRequestSchema.parse({
    name: 'Test rule',
    scope: { adAccountIds: [], level: 'ad' },
    conditions: { match: 'all', items: [cond('spend', 'gt', 100)] },
    actions: [{ type: 'pause' }],
    schedule: { everyMinutes: 15 },
    ...overrides,
  });
  return { ...body, id: `00000000-0000-4000-9000-${String(ruleCount).padStart(12, '0')}` };
}
