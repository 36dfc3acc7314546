import type { GraphAdSet, GraphCampaign } from './wire-types.ts';

export type BudgetPeriod = 'daily' | 'lifetime';

/** Where an ad set's money is set: on the campaign (Advantage campaign budget) or on the ad set itself. */
export interface BudgetHolder {
  level: 'campaign' | 'adset';
  /** The object a budget write must go to. */
  id: string;
  period: BudgetPeriod;
  /** Minor units of the account currency, as Graph sends budgets. */
  amountMinor: number;
}

type BudgetFields = { id: string; daily_budget?: string | undefined; lifetime_budget?: string | undefined };

function ownBudget(object: BudgetFields, level: BudgetHolder['level']): BudgetHolder | undefined {
  // Graph sends "0" for the kind of budget that is not in use.
  const daily = Number(object.daily_budget ?? 0);
  if (daily > 0) return { level, id: object.id, period: 'daily', amountMinor: daily };
  const lifetime = Number(object.lifetime_budget ?? 0);
  if (lifetime > 0) return { level, id: object.id, period: 'lifetime', amountMinor: lifetime };
  return undefined;
}

/**
 * The budget that governs an ad set. A campaign with its own budget (daily or lifetime) holds the money for all its
 * ad sets, and Meta refuses a budget on those ad sets (100/1885621); otherwise the ad set holds its own. Undefined
 * when neither shows a budget (fields not read).
 */
export function budgetHolder(
  adSet: Pick<GraphAdSet, 'id' | 'daily_budget' | 'lifetime_budget'>,
  campaign: Pick<GraphCampaign, 'id' | 'daily_budget' | 'lifetime_budget'>,
): BudgetHolder | undefined {
  return ownBudget(campaign, 'campaign') ?? ownBudget(adSet, 'adset');
}

export interface BudgetChangeCounterOptions {
  /** Changes allowed per window (Meta: about 4 per ad set per hour). */
  limit?: number;
  windowMs?: number;
  now?: () => number;
}

/**
 * A local count of budget changes per ad set over a rolling hour, so a caller stops before Meta's limit instead of
 * learning it from a code 17. `take` checks and records in one synchronous step, so concurrent callers in one
 * process cannot both take the last slot.
 */
export class BudgetChangeCounter {
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly changes = new Map<string, number[]>();

  constructor(options: BudgetChangeCounterOptions = {}) {
    this.limit = options.limit ?? 4;
    this.windowMs = options.windowMs ?? 60 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Changes recorded for the id within the window ending now. */
  count(id: string): number {
    return this.recent(id).length;
  }

  remaining(id: string): number {
    return Math.max(0, this.limit - this.count(id));
  }

  /** When the next change may be made (epoch ms); now when a slot is free. */
  nextSlotAt(id: string): number {
    const recent = this.recent(id);
    if (recent.length < this.limit) return this.now();
    return (recent[recent.length - this.limit] ?? this.now()) + this.windowMs;
  }

  /** Takes a slot for a change about to be sent; false (and nothing recorded) when the window is full. */
  take(id: string): boolean {
    const recent = this.recent(id);
    if (recent.length >= this.limit) return false;
    recent.push(this.now());
    this.changes.set(id, recent);
    return true;
  }

  /** Gives back a slot taken for a change that Meta refused, so it does not count. */
  release(id: string): void {
    const recent = this.recent(id);
    recent.pop();
    this.changes.set(id, recent);
  }

  private recent(id: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.changes.get(id) ?? []).filter((at) => at > since);
    if (kept.length === 0) this.changes.delete(id);
    else this.changes.set(id, kept);
    return kept;
  }
}
