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
import { BLOCK_SIZE, addDay } from './windows.ts';

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
    addDay(sums, i * BLOCK_SIZE, clocks[clockOf[i]!]!.today - day, row);
  }

  return {
    entities,
    sums,
    clocks,
    clockOf,
    ...resolveHolders(entities, index),
    byLevel: indexByLevel(entities),
    statusCode: Uint8Array.from(entities, (entity) => statusCodeOf(entity.status)),
    lowerNames: entities.map((entity) => entity.name.toLowerCase()),
    index,
  };
}
