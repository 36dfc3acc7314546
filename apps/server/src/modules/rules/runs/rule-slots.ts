import { localDate, localMinutesOfDay, type DaypartWindow } from '@adpilot/contracts';
import { endDue } from './rule-windows.ts';

/**
 * The rule format's schedule: every N minutes, once a day at a local time of each ad account, or at the ends of
 * dayparting windows in each account's time zone.
 */
export type RuleSchedule = { everyMinutes: number } | { dailyAt: string } | { windows: DaypartWindow[] };

/** One evaluation slot of a rule: the key its run, its job and its ledger rows share. */
export interface RuleSlot {
  key: string;
  /** For a daily slot, the time zone whose accounts it covers; every account otherwise. */
  timezone?: string;
}

/** How late a daily slot may still start: ticks missed by a restart within this window catch up. */
export const DAILY_GRACE_MINUTES = 60;

/**
 * The slots of a rule due at `now`. Every N minutes: one slot per N-minute window (UTC-aligned, so every
 * process computes the same key). Daily: one slot per time zone of its accounts whose local clock has passed the
 * time, within the grace window. A slot already run is filtered out by the caller (its run row exists).
 */
export function dueSlots(schedule: RuleSchedule, timezones: readonly string[], now: Date): RuleSlot[] {
  if ('everyMinutes' in schedule) {
    const index = Math.floor(now.getTime() / (schedule.everyMinutes * 60_000));
    return [{ key: `m${schedule.everyMinutes}:${index}` }];
  }
  if ('windows' in schedule) {
    const slots: RuleSlot[] = [];
    for (const timezone of new Set(timezones)) {
      const end = endDue(schedule.windows, timezone, now, DAILY_GRACE_MINUTES);
      if (end) slots.push({ key: `w:${end}:${timezone}`, timezone });
    }
    return slots;
  }
  const [hours, minutes] = schedule.dailyAt.split(':').map(Number);
  const at = (hours ?? 0) * 60 + (minutes ?? 0);
  const slots: RuleSlot[] = [];
  for (const timezone of new Set(timezones)) {
    const local = localMinutesOfDay(timezone, now.getTime());
    if (local >= at && local < at + DAILY_GRACE_MINUTES) {
      slots.push({ key: `d:${localDate(timezone, now.getTime())}:${timezone}`, timezone });
    }
  }
  return slots;
}

/** The time zone a slot key is limited to, if any (daily and window-end slots). */
export function slotTimezone(key: string): string | undefined {
  return key.startsWith('d:') || key.startsWith('w:') ? key.split(':').slice(2).join(':') : undefined;
}

/** How old an account's mirror may be for this rule: its interval, an hour for daily and dayparting rules. */
export function freshnessMs(schedule: RuleSchedule): number {
  return ('everyMinutes' in schedule ? schedule.everyMinutes : 60) * 60_000;
}
