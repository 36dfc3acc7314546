import {
  BUDGET_ACTION_TYPES,
  META_BUDGET_CHANGES_PER_HOUR,
  RULE_ACTION_TYPES,
  type ActionSkip,
  type RuleActionType,
} from '@adpilot/contracts';
import { entityKey, type EngineSnapshot } from './snapshot.ts';
import { MS_PER_HOUR, isoInstant } from './time.ts';
import type { LedgerEntry, OpposingEntry } from './types.ts';

/** The action that undoes each: a second rule doing it within the first one's cooldown is skipped. */
const OPPOSITE: Partial<Record<RuleActionType, RuleActionType>> = {
  pause: 'resume',
  resume: 'pause',
  increase_budget: 'decrease_budget',
  decrease_budget: 'increase_budget',
};

const TYPE_CODES = new Map(RULE_ACTION_TYPES.map((type, code) => [type, code]));
const TYPE_COUNT = RULE_ACTION_TYPES.length;

/**
 * The ledger's recent actions, indexed once per evaluation by snapshot entity, plus what this evaluation has planned
 * so far: the cooldown, the rule's actions per day and Meta's budget changes per hour all count both. Entries on
 * entities the snapshot does not hold cannot block anything in it and are left out.
 */
export class SafeguardLedger {
  /** This rule's latest action per target × type (key: entity index × TYPE_COUNT + type code). */
  private readonly lastByRule = new Map<number, number>();
  /** Every rule's budget changes per target entity index, as instants. */
  private readonly budgetChanges = new Map<number, number[]>();
  /** This rule's actions, as instants. */
  private readonly ruleActions: number[] = [];
  /** The rule's action count in the 24 hours before `countedAt`, kept current as actions are recorded. */
  private countedAt = Number.NaN;
  private counted = 0;
  /** Other rules' latest action per target × type with the end of that rule's cooldown (key as lastByRule). */
  private readonly opposing = new Map<number, { entry: OpposingEntry; until: number }>();

  constructor(
    private readonly ruleId: string,
    private readonly cooldownHours: number,
    private readonly maxActionsPerDay: number,
    snapshot: EngineSnapshot,
    entries: readonly LedgerEntry[],
    opposing: readonly OpposingEntry[] = [],
  ) {
    for (const entry of entries) {
      const target = snapshot.index.get(entityKey(entry.adAccountId, entry.targetExternalId)) ?? -1;
      this.record(entry.ruleId, target, entry.type, entry.at);
    }
    for (const entry of opposing) {
      const target = snapshot.index.get(entityKey(entry.adAccountId, entry.targetExternalId));
      if (target === undefined || entry.ruleId === ruleId || entry.cooldownHours <= 0) continue;
      const key = target * TYPE_COUNT + TYPE_CODES.get(entry.type)!;
      const until = entry.at + entry.cooldownHours * MS_PER_HOUR;
      if (until > (this.opposing.get(key)?.until ?? -Infinity)) this.opposing.set(key, { entry, until });
    }
  }

  /** Counts an action (from the ledger, or planned now) on the target entity index (-1: outside the snapshot). */
  record(ruleId: string, target: number, type: RuleActionType, at: number): void {
    if (ruleId === this.ruleId) {
      this.ruleActions.push(at);
      if (at > this.countedAt - 24 * MS_PER_HOUR && at <= this.countedAt) this.counted += 1;
      if (target >= 0) {
        const key = target * TYPE_COUNT + TYPE_CODES.get(type)!;
        this.lastByRule.set(key, Math.max(this.lastByRule.get(key) ?? -Infinity, at));
      }
    }
    if (target >= 0 && BUDGET_ACTION_TYPES.has(type)) {
      const list = this.budgetChanges.get(target);
      if (list) list.push(at);
      else this.budgetChanges.set(target, [at]);
    }
  }

  private actionsInDayBefore(now: number): number {
    if (now !== this.countedAt) {
      const dayAgo = now - 24 * MS_PER_HOUR;
      this.counted = 0;
      for (const at of this.ruleActions) if (at > dayAgo && at <= now) this.counted += 1;
      this.countedAt = now;
    }
    return this.counted;
  }

  /** The first safeguard that stops this action on the target entity index now, or null. */
  check(target: number, type: RuleActionType, now: number): ActionSkip | null {
    const last = this.lastByRule.get(target * TYPE_COUNT + TYPE_CODES.get(type)!);
    const cooldown = this.cooldownHours * MS_PER_HOUR;
    if (last !== undefined && cooldown > 0 && now - last < cooldown) {
      return {
        code: 'cooldown',
        params: { hours: this.cooldownHours, lastAt: isoInstant(last), until: isoInstant(last + cooldown) },
      };
    }
    const opposite = OPPOSITE[type];
    const other = opposite ? this.opposing.get(target * TYPE_COUNT + TYPE_CODES.get(opposite)!) : undefined;
    if (other && other.entry.at <= now && now < other.until) {
      return {
        code: 'conflicting_rule',
        params: {
          ruleId: other.entry.ruleId,
          ruleName: other.entry.ruleName,
          action: other.entry.type,
          hours: other.entry.cooldownHours,
          lastAt: isoInstant(other.entry.at),
          until: isoInstant(other.until),
        },
      };
    }
    const count = this.actionsInDayBefore(now);
    if (count >= this.maxActionsPerDay) {
      return { code: 'max_actions_per_day', params: { limit: this.maxActionsPerDay, count } };
    }
    if (BUDGET_ACTION_TYPES.has(type)) {
      const hourAgo = now - MS_PER_HOUR;
      const recent = (this.budgetChanges.get(target) ?? [])
        .filter((at) => at > hourAgo && at <= now)
        .sort((a, b) => a - b);
      if (recent.length >= META_BUDGET_CHANGES_PER_HOUR) {
        const until = recent[recent.length - META_BUDGET_CHANGES_PER_HOUR]! + MS_PER_HOUR;
        return {
          code: 'budget_change_limit',
          params: { limit: META_BUDGET_CHANGES_PER_HOUR, count: recent.length, until: isoInstant(until) },
        };
      }
    }
    return null;
  }
}
