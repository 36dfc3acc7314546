import type { RuleWindow } from '@adpilot/contracts';

/**
 * Window sums, precomputed once per entity so a condition is a couple of array reads. Each entity owns a block of
 * SLOT_COUNT × FIELD_COUNT numbers in one Float64Array: for every window variant, the seven summable figures.
 */

/** The summable figures, in their order inside a slot. */
export const FIELD = {
  spend: 0,
  impressions: 1,
  reach: 2,
  clicks: 3,
  linkClicks: 4,
  conversions: 5,
  conversionValue: 6,
} as const;
export const FIELD_COUNT = 7;

/**
 * The window variants, by the days they cover counted back from today (0 = today, 1 = yesterday). `last_Nd` is the
 * N whole days before today; with today it is the N days ending today.
 */
const SLOT_RANGES: readonly (readonly [first: number, last: number])[] = [
  [0, 0], // today
  [1, 1], // yesterday
  [1, 3], // last_3d
  [0, 2], // last_3d + today
  [1, 7], // last_7d
  [0, 6], // last_7d + today
  [1, 14], // last_14d
  [0, 13], // last_14d + today
  [1, 30], // last_30d
  [0, 29], // last_30d + today
  [0, Infinity], // lifetime
  [1, Infinity], // lifetime without today (while today's figures settle)
  // The previous period of equal length of each slot above (ADR 0121); today's is yesterday (slot 1).
  [2, 2], // 12: before yesterday
  [4, 6], // 13: before last_3d
  [3, 5], // 14: before last_3d + today
  [8, 14], // 15: before last_7d
  [7, 13], // 16: before last_7d + today
  [15, 28], // 17: before last_14d
  [14, 27], // 18: before last_14d + today
  [31, 60], // 19: before last_30d
  [30, 59], // 20: before last_30d + today
];
export const SLOT_COUNT = SLOT_RANGES.length;
export const BLOCK_SIZE = SLOT_COUNT * FIELD_COUNT;

const SLOT_FIRST = Float64Array.from(SLOT_RANGES, ([first]) => first);
const SLOT_LAST = Float64Array.from(SLOT_RANGES, ([, last]) => last);

const WINDOW_SLOTS: Record<RuleWindow, readonly [withoutToday: number, withToday: number]> = {
  today: [0, 0],
  yesterday: [1, 1],
  last_3d: [2, 3],
  last_7d: [4, 5],
  last_14d: [6, 7],
  last_30d: [8, 9],
  lifetime: [10, 10],
};
const LIFETIME_WITHOUT_TODAY = 11;

/** Per slot, the slot of its previous period of equal length; -1 for lifetime, which has none. */
const PREVIOUS_SLOT: readonly number[] = [1, 12, 13, 14, 15, 16, 17, 18, 19, 20, -1, -1];

/** The previous period of equal length of a window slot (-1: none, or the slot cannot be judged). */
export function previousSlot(slot: number): number {
  return slot < 0 ? -1 : (PREVIOUS_SLOT[slot] ?? -1);
}

/** Marks a condition that reads only today's figures while they settle: it cannot be judged yet. */
export const SETTLING_SLOT = -1;

/**
 * Which slot a condition reads. `includeToday` matters for the last_Nd windows only; while today's figures settle,
 * every window leaves today out and `today` itself cannot be judged.
 */
export function windowSlot(window: RuleWindow, includeToday: boolean, settling: boolean): number {
  if (settling) {
    if (window === 'today') return SETTLING_SLOT;
    if (window === 'lifetime') return LIFETIME_WITHOUT_TODAY;
    return WINDOW_SLOTS[window][0];
  }
  return WINDOW_SLOTS[window][includeToday ? 1 : 0];
}

/** The number of days a slot spans (lifetime counts as the longest), for picking the widest window of a rule. */
export function slotSpan(slot: number): number {
  if (slot < 0) return 0;
  const last = SLOT_LAST[slot]!;
  return last === Infinity ? Number.MAX_SAFE_INTEGER : last - SLOT_FIRST[slot]! + 1;
}

/** One day's figures, as the aggregation reads them. */
export interface DayFigures {
  spend: number;
  impressions: number;
  reach: number;
  clicks: number;
  linkClicks: number;
  conversions: number;
  conversionValue: number;
}

/**
 * Adds one day's figures into every slot that covers it. `ago` is how many days before today the row's date is;
 * rows after today (a replay's future) are ignored.
 */
export function addDay(sums: Float64Array, base: number, ago: number, day: DayFigures): void {
  if (ago < 0) return;
  for (let slot = 0; slot < SLOT_COUNT; slot++) {
    if (ago < SLOT_FIRST[slot]! || ago > SLOT_LAST[slot]!) continue;
    const at = base + slot * FIELD_COUNT;
    sums[at]! += day.spend;
    sums[at + 1]! += day.impressions;
    sums[at + 2]! += day.reach;
    sums[at + 3]! += day.clicks;
    sums[at + 4]! += day.linkClicks;
    sums[at + 5]! += day.conversions;
    sums[at + 6]! += day.conversionValue;
  }
}
