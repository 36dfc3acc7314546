import type { DailyTotals, EntityLevel, RuleActionType } from '@adpilot/contracts';

/**
 * What the engine reads, shaped like the server's mirror so a repository row maps field for field:
 * `ad_accounts` → EngineAccount, `ad_entities` → EngineEntity, `insights_daily` → EngineDailyRow, and the action
 * ledger → LedgerEntry. Time is always passed in; the engine never reads a clock.
 */

export interface EngineAccount {
  /** Our ad account id (ad_accounts.id). */
  id: string;
  /** ISO 4217; decides the minor-unit offset (JPY and the other zero-decimal currencies have none). */
  currency: string;
  /** IANA zone of the account (ad_accounts.timezone): windows and settle hours are in its local days. */
  timezone: string;
  /** Meta's `min_daily_budget` in minor units; null when unknown (then only floors and ceilings bound budgets). */
  minDailyBudgetMinor: number | null;
}

export interface EngineEntity {
  adAccountId: string;
  level: EntityLevel;
  /** Meta's id (ad_entities.external_id). */
  externalId: string;
  name: string;
  /** The entity's own status: ACTIVE, PAUSED, ARCHIVED or DELETED. */
  status: string;
  effectiveStatus: string;
  campaignExternalId: string | null;
  adsetExternalId: string | null;
  /** Budgets in the currency's minor units, as Meta and the mirror hold them. */
  dailyBudgetMinor: number | null;
  lifetimeBudgetMinor: number | null;
  /** Epoch milliseconds of Meta's created_time; null when unknown. */
  createdTime: number | null;
  /**
   * Epoch milliseconds of the last change to its status or budget made outside AdPilot (ad_entities'
   * external_change_at), and who made it when Meta said; absent or null when none is known.
   */
  externalChangeAt?: number | null;
  externalChangeBy?: string | null;
  /** Whom an ad reaches, where Meta says (custom audiences: retargeting); absent or null counts as cold. */
  audience?: 'cold' | 'retargeting' | null;
}

/** One insights_daily row: an entity's figures on one local date, money in major units. */
export interface EngineDailyRow extends DailyTotals {
  adAccountId: string;
  entityExternalId: string;
}

/**
 * An action from the ledger (applied, or still able to apply) that safeguards count: cooldowns by this rule on the
 * target, this rule's actions per day, and every budget change on a budget for Meta's hourly limit.
 */
export interface LedgerEntry {
  ruleId: string;
  adAccountId: string;
  /** The entity that was changed (for a budget, the budget holder). */
  targetExternalId: string;
  type: RuleActionType;
  /** Epoch milliseconds. */
  at: number;
}

/**
 * Another rule's recent action that the opposite action must not undo within that rule's cooldown (pause vs resume,
 * raise vs lower budget): the run-time side of the `conflicting_rule` warning.
 */
export interface OpposingEntry extends LedgerEntry {
  ruleName: string;
  /** That rule's cooldown, in hours. */
  cooldownHours: number;
}

/** Everything one evaluation reads. */
export interface EngineInput {
  accounts: readonly EngineAccount[];
  entities: readonly EngineEntity[];
  rows: readonly EngineDailyRow[];
  /** Epoch milliseconds of the evaluation. */
  now: number;
}
