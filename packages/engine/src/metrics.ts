import { safeRatio, type RuleMetric } from '@adpilot/contracts';
import type { EngineSnapshot } from './snapshot.ts';
import { BLOCK_SIZE, FIELD, FIELD_COUNT } from './windows.ts';

/**
 * Reads one metric of one entity over one window slot, straight from the precomputed sums: no allocation. Ratios go
 * through the contracts' safeRatio, so "undefined" (null) means the same as everywhere else in AdPilot.
 */

export const METRIC_CODES: Record<RuleMetric, number> = {
  spend: 0,
  impressions: 1,
  reach: 2,
  frequency: 3,
  clicks: 4,
  link_clicks: 5,
  ctr: 6,
  cpc: 7,
  cpm: 8,
  conversions: 9,
  cpa: 10,
  conversion_value: 11,
  roas: 12,
  daily_budget: 13,
  lifetime_budget: 14,
  hours_since_creation: 15,
  fatigue: 16,
  month_spend: 17,
  projected_month_spend: 18,
};

const HOUR = 3_600_000;

export function readMetric(snapshot: EngineSnapshot, entity: number, slot: number, code: number): number | null {
  if (code >= 13) return readState(snapshot, entity, code);
  return readSums(snapshot.sums, entity, slot, code);
}

/** A delivery metric of an account (the sum of its campaigns' rows) over a slot; null for state metrics. */
export function readAccountMetric(snapshot: EngineSnapshot, clock: number, slot: number, code: number): number | null {
  if (code >= 13) return null;
  return readSums(snapshot.accountSums, clock, slot, code);
}

/** A delivery metric read from one block of window sums (an entity's, or an account's). */
export function readSums(s: Float64Array, block: number, slot: number, code: number): number | null {
  if (slot < 0) return null;
  const at = block * BLOCK_SIZE + slot * FIELD_COUNT;
  switch (code) {
    case 0:
      return s[at + FIELD.spend]!;
    case 1:
      return s[at + FIELD.impressions]!;
    case 2:
      return s[at + FIELD.reach]!;
    case 3:
      return safeRatio(s[at + FIELD.impressions]!, s[at + FIELD.reach]!);
    case 4:
      return s[at + FIELD.clicks]!;
    case 5:
      return s[at + FIELD.linkClicks]!;
    case 6:
      return safeRatio(s[at + FIELD.clicks]!, s[at + FIELD.impressions]!, 100);
    case 7:
      return safeRatio(s[at + FIELD.spend]!, s[at + FIELD.clicks]!);
    case 8:
      return safeRatio(s[at + FIELD.spend]!, s[at + FIELD.impressions]!, 1000);
    case 9:
      return s[at + FIELD.conversions]!;
    case 10:
      return safeRatio(s[at + FIELD.spend]!, s[at + FIELD.conversions]!);
    case 11:
      return s[at + FIELD.conversionValue]!;
    default:
      return safeRatio(s[at + FIELD.conversionValue]!, s[at + FIELD.spend]!);
  }
}

/** Budgets are the budget holder's (in major units); the age is measured from the evaluation's instant. */
function readState(snapshot: EngineSnapshot, entity: number, code: number): number | null {
  const clock = snapshot.clocks[snapshot.clockOf[entity]!]!;
  if (code === 17) return snapshot.monthSpend[entity]!;
  if (code === 18) return snapshot.projectedMonthSpend[entity]!;
  if (code === 16) {
    const score = snapshot.fatigue[entity]!;
    return Number.isNaN(score) ? null : score;
  }
  if (code === 15) {
    const created = snapshot.entities[entity]!.createdTime;
    return created === null ? null : Math.max(0, (clock.now - created) / HOUR);
  }
  const holder = snapshot.holderOf[entity]!;
  if (holder < 0) return null;
  const holderEntity = snapshot.entities[holder]!;
  const minor = code === 13 ? holderEntity.dailyBudgetMinor : holderEntity.lifetimeBudgetMinor;
  return minor === null ? null : minor / clock.offset;
}
