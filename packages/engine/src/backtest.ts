import {
  toMajorUnits,
  type BacktestDay,
  type BacktestFiring,
  type RuleActionType,
  type RuleBacktest,
} from '@adpilot/contracts';
import { compileRule, evaluateRule, type EngineRule } from './evaluate.ts';
import { buildSnapshot, entityKey } from './snapshot.ts';
import { endOfLocalDay, isoDate, localTime } from './time.ts';
import type { EngineAccount, EngineEntity, EngineInput, LedgerEntry } from './types.ts';

/**
 * Replays a rule over the last `days` whole local days of stored daily rows, one evaluation at the end of each day,
 * applying its own planned status and budget changes forward (so cooldowns, ceilings and "already paused" play out
 * as they would have). The delivery rows are history as it happened: a replayed pause does not remove the spend
 * that followed it. A rule that runs every few minutes is replayed once a day, so it fires at most once a day per
 * entity here.
 */
export interface BacktestInput extends EngineInput {
  days: number;
}

export function backtestRule(rule: EngineRule, input: BacktestInput): RuleBacktest {
  const compiled = compileRule(rule);
  const accounts = input.accounts.filter(
    (account) => !rule.scope.adAccountIds.length || rule.scope.adAccountIds.includes(account.id),
  );
  const todayOf = new Map(accounts.map((account) => [account.id, localTime(input.now, account.timezone).day]));
  const accountOf = new Map(accounts.map((account) => [account.id, account]));
  // The days are named in the first account's zone; with no account in scope, in UTC (never the epoch).
  const first = accounts[0];
  const dayZero = first ? todayOf.get(first.id)! : localTime(input.now, 'UTC').day;
  // The replay's own world: copies whose status and budgets its firings change.
  const entities: EngineEntity[] = input.entities.map((entity) => ({ ...entity }));
  const byKey = new Map(entities.map((entity) => [entityKey(entity.adAccountId, entity.externalId), entity]));
  const initialDaily = new Map<string, number | null>();
  const ledger: LedgerEntry[] = [];
  const days: BacktestDay[] = [];
  const byType: Partial<Record<RuleActionType, number>> = {};
  let firingCount = 0;

  for (let back = input.days; back >= 1; back -= 1) {
    const clockFor = (account: EngineAccount) => {
      const day = todayOf.get(account.id)! - back;
      return { today: day, hour: 24, now: endOfLocalDay(day, account.timezone) };
    };
    const snapshot = buildSnapshot({ accounts, entities, rows: input.rows, now: input.now }, clockFor);
    const evaluation = evaluateRule(compiled, snapshot, ledger, { explain: 'matched' });
    const firings: BacktestFiring[] = [];
    for (const decision of evaluation.decisions) {
      for (const plan of decision.actions) {
        if (plan.outcome !== 'planned') continue;
        const key = entityKey(plan.target.adAccountId, plan.target.externalId);
        const target = byKey.get(key)!;
        if (!initialDaily.has(key)) initialDaily.set(key, target.dailyBudgetMinor);
        if (plan.change?.field === 'status') target.status = plan.change.to;
        if (plan.change?.field === 'daily_budget') target.dailyBudgetMinor = plan.change.toMinor;
        if (plan.change?.field === 'lifetime_budget') target.lifetimeBudgetMinor = plan.change.toMinor;
        const at = clockFor(accountOf.get(target.adAccountId)!).now;
        ledger.push({
          ruleId: rule.id,
          adAccountId: target.adAccountId,
          targetExternalId: target.externalId,
          type: plan.type,
          at,
        });
        byType[plan.type] = (byType[plan.type] ?? 0) + 1;
        firingCount += 1;
        firings.push({
          entity: { ...decision.entity },
          target: plan.target,
          type: plan.type,
          holderReason: plan.holderReason,
          change: plan.change,
        });
      }
    }
    days.push({
      date: isoDate(dayZero - back),
      evaluated: evaluation.evaluated,
      matched: evaluation.matched,
      firings,
      budgets: dailyBudgets(initialDaily, byKey, accountOf),
    });
  }

  return {
    from: days[0]?.date ?? '',
    to: days.at(-1)?.date ?? '',
    days,
    totals: {
      firings: firingCount,
      byType,
      entitiesAffected: initialDaily.size,
      budgetChange: budgetChange(initialDaily, byKey, accountOf),
    },
  };
}

type Accounts = ReadonlyMap<string, EngineAccount>;

/** The daily budgets of everything the replay changed so far, summed per currency in major units. */
function dailyBudgets(
  changed: ReadonlyMap<string, number | null>,
  byKey: ReadonlyMap<string, EngineEntity>,
  accounts: Accounts,
) {
  const sums: Record<string, number> = {};
  for (const key of changed.keys()) {
    const entity = byKey.get(key)!;
    if (entity.dailyBudgetMinor === null) continue;
    const { currency } = accounts.get(entity.adAccountId)!;
    sums[currency] = (sums[currency] ?? 0) + toMajorUnits(entity.dailyBudgetMinor, currency);
  }
  return sums;
}

function budgetChange(
  initial: ReadonlyMap<string, number | null>,
  byKey: ReadonlyMap<string, EngineEntity>,
  accounts: Accounts,
) {
  const sums: Record<string, number> = {};
  for (const [key, before] of initial) {
    const entity = byKey.get(key)!;
    if (before === null || entity.dailyBudgetMinor === null) continue;
    const { currency } = accounts.get(entity.adAccountId)!;
    sums[currency] = (sums[currency] ?? 0) + toMajorUnits(entity.dailyBudgetMinor - before, currency);
  }
  return sums;
}
