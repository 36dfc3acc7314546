import {
  addDays,
  isConditionGroup,
  RULE_LIMITS,
  type RuleBacktest,
  type RuleConditionGroup,
  type RuleWindow,
} from '@adpilot/contracts';
import type { AdAccountRow, AdEntityRow, AutomationRuleRow, RuleActionRow } from '@adpilot/db';
import {
  backtestRule,
  buildSnapshot,
  compileRule,
  evaluateRule,
  type EngineAccount,
  type EngineDailyRow,
  type EngineEntity,
  type EngineInput,
  type EngineRule,
  type LedgerEntry,
  type OpposingEntry,
  type RuleEvaluation,
} from '@adpilot/engine';
import type { AdMirrorService, MirrorDailyRow } from '../../ad-accounts/index.ts';
import type { RuleLedgerRepository } from '../ledger/rule-ledger.repository.ts';
import type { RuleEvaluator } from './rule-runner.ts';
import { toRuleBody } from '../definitions/rule-definition.ts';
import type { TenantTx } from '@adpilot/db';

const WINDOW_DAYS: Record<RuleWindow, number> = {
  today: 0,
  yesterday: 1,
  last_3d: 3,
  last_7d: 7,
  last_14d: 14,
  last_30d: 30,
  lifetime: Number.POSITIVE_INFINITY,
};

/**
 * The widest window a rule reads, in days before today (lifetime: every stored day); a comparison with the
 * previous period reads twice its window (ADR 0121).
 */
function widestWindow(group: RuleConditionGroup): number {
  let widest = 0;
  for (const item of group.items) {
    // The fatigue score measures an ad against its own first days: it reads every stored day (ADR 0122).
    const days = isConditionGroup(item)
      ? widestWindow(item)
      : item.metric === 'fatigue'
        ? Number.POSITIVE_INFINITY
        : item.metric === 'month_spend' || item.metric === 'projected_month_spend'
          ? 31
          : WINDOW_DAYS[item.window] * (item.compare === 'previous_period' ? 2 : 1);
    widest = Math.max(widest, days);
  }
  return widest;
}

/** Whether a rule compares with the account or the parent campaign: then it needs the campaigns' rows too. */
function readsCampaigns(group: RuleConditionGroup): boolean {
  return group.items.some((item) =>
    isConditionGroup(item) ? readsCampaigns(item) : item.compare === 'account' || item.compare === 'campaign',
  );
}

const toEngineAccount = (row: AdAccountRow): EngineAccount => ({
  id: row.id,
  currency: row.currency,
  timezone: row.timezone,
  minDailyBudgetMinor: row.minDailyBudget,
});

const toEngineEntity = (row: AdEntityRow): EngineEntity => ({
  adAccountId: row.adAccountId,
  level: row.level,
  externalId: row.externalId,
  name: row.name,
  status: row.status,
  effectiveStatus: row.effectiveStatus,
  campaignExternalId: row.campaignExternalId,
  adsetExternalId: row.adsetExternalId,
  dailyBudgetMinor: row.dailyBudget,
  lifetimeBudgetMinor: row.lifetimeBudget,
  createdTime: row.createdTime?.getTime() ?? null,
  externalChangeAt: row.externalChangeAt?.getTime() ?? null,
  externalChangeBy: row.externalChangeBy,
});

const toEngineRow = (row: MirrorDailyRow): EngineDailyRow => ({
  adAccountId: row.adAccountId,
  entityExternalId: row.entityExternalId,
  date: row.date,
  spend: row.spend,
  impressions: row.impressions,
  reach: row.reach,
  clicks: row.clicks,
  linkClicks: row.linkClicks,
  conversions: row.conversions,
  conversionValue: row.conversionValue,
});

const toLedgerEntry = (row: RuleActionRow): LedgerEntry => ({
  // A change by hand counts as another actor's: the engine's cooldowns and conflicts see it like another rule's.
  ruleId: row.ruleId ?? `${row.actorType}:${row.actorId}`,
  adAccountId: row.adAccountId,
  targetExternalId: row.targetExternalId,
  type: row.actionType as LedgerEntry['type'],
  at: (row.appliedAt ?? row.createdAt).getTime(),
});

const toOpposingEntry = (row: RuleActionRow & { ruleName: string; cooldownHours: number }): OpposingEntry => ({
  ...toLedgerEntry(row),
  ruleName: row.ruleName,
  cooldownHours: row.cooldownHours,
});

export const toEngineRule = (row: AutomationRuleRow): EngineRule => ({ ...toRuleBody(row), id: row.id });

/**
 * The engine fed from the mirror: the accounts' entities and the daily rows its widest window needs, and the
 * ledger's recent actions for cooldowns, the daily cap and Meta's budget changes per hour.
 */
export class MirrorEvaluator implements RuleEvaluator {
  constructor(
    private readonly inputs: AdMirrorService,
    private readonly ledger: RuleLedgerRepository,
  ) {}

  private async engineInput(
    tx: TenantTx,
    rule: EngineRule,
    accounts: readonly AdAccountRow[],
    now: Date,
    extraDays = 0,
  ): Promise<EngineInput> {
    const ids = accounts.map((account) => account.id);
    const widest = widestWindow(rule.conditions) + extraDays;
    // Two days' margin: a local "today" is up to a day either side of the UTC date.
    const since = Number.isFinite(widest) ? addDays(now.toISOString().slice(0, 10), -(widest + 2)) : '1970-01-01';
    const campaignRows = rule.scope.level !== 'campaign' && readsCampaigns(rule.conditions);
    const [entities, rows, campaigns] = await Promise.all([
      this.inputs.entities(tx, ids),
      this.inputs.insights(tx, ids, rule.scope.level, since),
      campaignRows ? this.inputs.insights(tx, ids, 'campaign', since) : Promise.resolve([]),
    ]);
    return {
      accounts: accounts.map(toEngineAccount),
      entities: entities.map(toEngineEntity),
      rows: [...rows, ...campaigns].map(toEngineRow),
      now: now.getTime(),
    };
  }

  async evaluate(
    tx: TenantTx,
    rule: AutomationRuleRow,
    accounts: AdAccountRow[],
    now: Date,
    options: { explain: 'all' | 'matched' } = { explain: 'matched' },
  ): Promise<RuleEvaluation> {
    return this.evaluateBody(tx, toEngineRule(rule), accounts, now, options);
  }

  /** Evaluates a rule body, saved or not (preview), with the figures of the whole scope. */
  async evaluateBody(
    tx: TenantTx,
    rule: EngineRule,
    accounts: readonly AdAccountRow[],
    now: Date,
    options: { explain: 'all' | 'matched' },
  ) {
    const input = await this.engineInput(tx, rule, accounts, now);
    // Cooldowns reach back at most their hours, the daily cap a day, Meta's budget limit an hour.
    const lookback = Math.max(rule.safeguards.cooldownHours, 24) * 3_600_000;
    const ids = accounts.map((account) => account.id);
    const [recent, opposing] = await Promise.all([
      this.ledger.recentActions(tx, ids, new Date(now.getTime() - lookback)),
      this.ledger.opposingActions(tx, ids, rule.id, now, RULE_LIMITS.cooldownHoursMax),
    ]);
    // A timed hold's resume is the hold's own end, not a decision the safeguards count (its pause is one).
    const decided = recent.filter((row) => row.holdOf === null);
    return evaluateRule(compileRule(rule), buildSnapshot(input), decided.map(toLedgerEntry), {
      ...options,
      opposing: opposing.map(toOpposingEntry),
    });
  }

  async backtest(
    tx: TenantTx,
    rule: EngineRule,
    accounts: readonly AdAccountRow[],
    now: Date,
    days: number,
  ): Promise<RuleBacktest> {
    const input = await this.engineInput(tx, rule, accounts, now, days);
    return backtestRule(rule, { ...input, days });
  }
}
