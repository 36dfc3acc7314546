import {
  ENTITY_LEVELS,
  RULE_ENTITY_STATUSES,
  currencyOffset,
  isKnownTimeZone,
  type BudgetHolderReason,
  type EntityLevel,
} from '@adpilot/contracts';
import { dayNumber, localTime } from './time.ts';
import type { EngineAccount, EngineEntity, EngineInput } from './types.ts';
import { monthOf, projectMonth } from './pacing.ts';
import { FATIGUE_BASELINE_DAYS, FATIGUE_RECENT_DAYS, scoreFatigue } from './fatigue.ts';
import { BLOCK_SIZE, FIELD, FIELD_COUNT, addDay } from './windows.ts';

/** An account as one evaluation sees it: its local "today", the hour into it, and the instant of the evaluation. */
export interface AccountClock {
  account: EngineAccount;
  /** Minor units per major unit (1 or 100). */
  offset: number;
  /** Local day number of `now`. */
  today: number;
  /** Hours since local midnight. */
  hour: number;
  /** Epoch milliseconds of the evaluation (a replayed day's end in a backtest). */
  now: number;
}

/**
 * The prepared world of one evaluation: entities with their precomputed window sums and budget holders. Built once
 * per evaluation cycle and shared by every rule evaluated in it.
 */
export interface EngineSnapshot {
  entities: readonly EngineEntity[];
  /** entities.length × BLOCK_SIZE window sums (see windows.ts). */
  sums: Float64Array;
  clocks: readonly AccountClock[];
  /** Per entity, the index of its account's clock. */
  clockOf: Int32Array;
  /** Per entity, the index of the entity holding its budget, or -1 (a campaign whose budgets live on its ad sets). */
  holderOf: Int32Array;
  holderReason: readonly (BudgetHolderReason | null)[];
  /** The entity indices of each level, in input order: a rule loops over its level only. */
  byLevel: Readonly<Record<EntityLevel, Int32Array>>;
  /** Per entity, its status as a STATUS_CODES index (other statuses: STATUS_CODES.length). */
  statusCode: Uint8Array;
  /** Lower-cased names for the scope's name filter. */
  lowerNames: readonly string[];
  /** `${adAccountId}\u0000${externalId}` → entity index. */
  index: ReadonlyMap<string, number>;
  /**
   * clocks.length × BLOCK_SIZE: each account's window sums, the sums of its campaigns' rows (zero when no campaign
   * rows were passed). Reach adds up across campaigns here, so an account's frequency is an upper bound.
   */
  accountSums: Float64Array;
  /** Per entity, the index of its campaign (itself for a campaign), or -1 when the campaign is not in the input. */
  campaignOf: Int32Array;
  /** Per entity, the creative fatigue score of an ad (0–100, ADR 0122); NaN for campaigns and ad sets. */
  fatigue: Float64Array;
  /** Per entity, spend of this local month's whole days before today (ADR 0123). */
  monthSpend: Float64Array;
  /** Per entity, the month-end spend projected at the last 7 whole days' pace. */
  projectedMonthSpend: Float64Array;
}

const B = FATIGUE_BASELINE_DAYS;

/**
 * Keeps each entity's first days with impressions (the largest `ago`) while the rows stream by: B slots per entity
 * of `ago` (-1 = empty) and their impressions, clicks and spend.
 */
class FirstDays {
  readonly ago: Int32Array;
  readonly figures: Float64Array;
  constructor(count: number) {
    this.ago = new Int32Array(count * B).fill(-1);
    this.figures = new Float64Array(count * B * 3);
  }
  add(entity: number, ago: number, impressions: number, clicks: number, spend: number): void {
    if (ago < 1 || impressions <= 0) return;
    const base = entity * B;
    // Slots are kept oldest first; find where this day goes, if it is among the B oldest.
    let at = 0;
    while (at < B && this.ago[base + at]! >= ago) {
      if (this.ago[base + at] === ago) return;
      at++;
    }
    if (at >= B) return;
    for (let k = B - 1; k > at; k--) {
      this.ago[base + k] = this.ago[base + k - 1]!;
      for (let f = 0; f < 3; f++) this.figures[(base + k) * 3 + f] = this.figures[(base + k - 1) * 3 + f]!;
    }
    this.ago[base + at] = ago;
    this.figures[(base + at) * 3] = impressions;
    this.figures[(base + at) * 3 + 1] = clicks;
    this.figures[(base + at) * 3 + 2] = spend;
  }
}

export class EngineInputError extends Error {}

/** The statuses a scope filters on, as small integers; any other status codes as their count. */
export const STATUS_CODES: readonly string[] = RULE_ENTITY_STATUSES;

function statusCodeOf(status: string): number {
  const code = STATUS_CODES.indexOf(status);
  return code < 0 ? STATUS_CODES.length : code;
}

function indexByLevel(entities: readonly EngineEntity[]): Record<EntityLevel, Int32Array> {
  const lists = Object.fromEntries(ENTITY_LEVELS.map((level) => [level, [] as number[]])) as Record<
    EntityLevel,
    number[]
  >;
  entities.forEach((entity, i) => lists[entity.level].push(i));
  return Object.fromEntries(ENTITY_LEVELS.map((level) => [level, Int32Array.from(lists[level])])) as Record<
    EntityLevel,
    Int32Array
  >;
}

export const entityKey = (adAccountId: string, externalId: string) => `${adAccountId}\u0000${externalId}`;

function hasBudget(entity: EngineEntity | undefined): boolean {
  return !!entity && (entity.dailyBudgetMinor !== null || entity.lifetimeBudgetMinor !== null);
}

/**
 * Who holds an entity's budget: the campaign under campaign budget optimisation (it has a budget of its own),
 * else the ad set; a campaign without a budget has none to change.
 */
function resolveHolders(entities: readonly EngineEntity[], index: ReadonlyMap<string, number>) {
  const holderOf = new Int32Array(entities.length).fill(-1);
  const holderReason: (BudgetHolderReason | null)[] = new Array(entities.length).fill(null);
  const find = (accountId: string, externalId: string | null) =>
    externalId === null ? -1 : (index.get(entityKey(accountId, externalId)) ?? -1);
  entities.forEach((entity, i) => {
    const campaign = entity.level === 'campaign' ? i : find(entity.adAccountId, entity.campaignExternalId);
    if (campaign >= 0 && hasBudget(entities[campaign])) {
      holderOf[i] = campaign;
      holderReason[i] = campaign === i ? 'self' : 'campaign_budget';
      return;
    }
    if (entity.level === 'campaign') return;
    const adset = entity.level === 'adset' ? i : find(entity.adAccountId, entity.adsetExternalId);
    if (adset >= 0) {
      holderOf[i] = adset;
      holderReason[i] = adset === i ? 'self' : 'adset_budget';
    }
  });
  return { holderOf, holderReason };
}

/** Slots of windows.ts the score reads: the last 3 and the last 7 whole days. */
const LAST_3D = 2;
const LAST_7D = 4;

function fatigueOf(entities: readonly EngineEntity[], sums: Float64Array, first: FirstDays): Float64Array {
  const scores = new Float64Array(entities.length).fill(Number.NaN);
  entities.forEach((entity, e) => {
    if (entity.level !== 'ad') return;
    const baseline = { impressions: 0, clicks: 0, spend: 0 };
    let days = 0;
    let last = 0;
    for (let k = 0; k < B; k++) {
      const ago = first.ago[e * B + k]!;
      if (ago < 0) break;
      days++;
      last = ago;
      baseline.impressions += first.figures[(e * B + k) * 3]!;
      baseline.clicks += first.figures[(e * B + k) * 3 + 1]!;
      baseline.spend += first.figures[(e * B + k) * 3 + 2]!;
    }
    const recentAt = e * BLOCK_SIZE + LAST_3D * FIELD_COUNT;
    const weekAt = e * BLOCK_SIZE + LAST_7D * FIELD_COUNT;
    const reach = sums[weekAt + FIELD.reach]!;
    scores[e] = scoreFatigue({
      baseline,
      recent: {
        impressions: sums[recentAt + FIELD.impressions]!,
        clicks: sums[recentAt + FIELD.clicks]!,
        spend: sums[recentAt + FIELD.spend]!,
      },
      frequency: reach > 0 ? sums[weekAt + FIELD.impressions]! / reach : null,
      baselineBeforeRecent: last > FATIGUE_RECENT_DAYS,
      baselineDays: days,
      audience: entity.audience ?? null,
    }).score;
  });
  return scores;
}

/**
 * Builds the snapshot. `clockFor` lets a backtest place each account at the end of a replayed day; by default every
 * account is at `input.now` in its own zone.
 */
export function buildSnapshot(
  input: EngineInput,
  clockFor: (account: EngineAccount) => { today: number; hour: number; now: number } = (account) => {
    const local = localTime(input.now, account.timezone);
    return { today: local.day, hour: local.hour, now: input.now };
  },
): EngineSnapshot {
  const clockIndex = new Map<string, number>();
  const clocks = input.accounts.map((account, i) => {
    if (!isKnownTimeZone(account.timezone)) throw new EngineInputError(`Unknown time zone ${account.timezone}`);
    clockIndex.set(account.id, i);
    const { today, hour, now } = clockFor(account);
    return { account, offset: currencyOffset(account.currency), today, hour, now };
  });

  const entities = input.entities.filter((entity) => clockIndex.has(entity.adAccountId));
  const index = new Map<string, number>();
  const clockOf = new Int32Array(entities.length);
  entities.forEach((entity, i) => {
    index.set(entityKey(entity.adAccountId, entity.externalId), i);
    clockOf[i] = clockIndex.get(entity.adAccountId)!;
  });

  const sums = new Float64Array(entities.length * BLOCK_SIZE);
  const firstDays = new FirstDays(entities.length);
  const monthSpend = new Float64Array(entities.length);
  // Per clock: how many whole days of its month lie before today.
  const monthDaysBefore = clocks.map((clock) => monthOf(clock.today).dayOfMonth - 1);
  const dayCache = new Map<string, number>();
  // Rows usually come grouped by entity (the mirror's key order): look an entity up once per run of its rows.
  let lastAccount = '';
  let lastExternal = '';
  let i: number | undefined;
  for (const row of input.rows) {
    if (row.entityExternalId !== lastExternal || row.adAccountId !== lastAccount) {
      lastAccount = row.adAccountId;
      lastExternal = row.entityExternalId;
      i = index.get(entityKey(lastAccount, lastExternal));
    }
    if (i === undefined) continue;
    let day = dayCache.get(row.date);
    if (day === undefined) {
      day = dayNumber(row.date);
      dayCache.set(row.date, day);
    }
    const ago = clocks[clockOf[i]!]!.today - day;
    addDay(sums, i * BLOCK_SIZE, ago, row);
    firstDays.add(i, ago, row.impressions, row.clicks, row.spend);
    if (ago >= 1 && ago <= monthDaysBefore[clockOf[i]!]!) monthSpend[i]! += row.spend;
  }
  const projectedMonthSpend = Float64Array.from(
    monthSpend,
    (spent, e) =>
      projectMonth({
        today: clocks[clockOf[e]!]!.today,
        monthToDate: spent,
        last7Days: sums[e * BLOCK_SIZE + LAST_7D * FIELD_COUNT + FIELD.spend]!,
      }).projected,
  );
  const fatigue = fatigueOf(entities, sums, firstDays);

  const campaignOf = new Int32Array(entities.length).fill(-1);
  const accountSums = new Float64Array(clocks.length * BLOCK_SIZE);
  entities.forEach((entity, e) => {
    if (entity.level === 'campaign') {
      campaignOf[e] = e;
      const from = e * BLOCK_SIZE;
      const to = clockOf[e]! * BLOCK_SIZE;
      for (let k = 0; k < BLOCK_SIZE; k++) accountSums[to + k]! += sums[from + k]!;
    } else if (entity.campaignExternalId !== null) {
      campaignOf[e] = index.get(entityKey(entity.adAccountId, entity.campaignExternalId)) ?? -1;
    }
  });

  return {
    entities,
    sums,
    accountSums,
    campaignOf,
    fatigue,
    monthSpend,
    projectedMonthSpend,
    clocks,
    clockOf,
    ...resolveHolders(entities, index),
    byLevel: indexByLevel(entities),
    statusCode: Uint8Array.from(entities, (entity) => statusCodeOf(entity.status)),
    lowerNames: entities.map((entity) => entity.name.toLowerCase()),
    index,
  };
}
