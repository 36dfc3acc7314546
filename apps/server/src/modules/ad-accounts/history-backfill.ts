import { addDays, BACKFILL_DAYS_DEFAULT, type AccountHistory } from '@adpilot/contracts';

/**
 * Days of insights one backfill step asks Meta for: a level=ad, time_increment=1 read of a month is what a sync
 * already asks for (a few pages, or one async report run for a large account), and one step is one unit of work, so
 * a stopped job loses at most one month's read (ADR 0103).
 */
export const BACKFILL_CHUNK_DAYS = 30;

/** Meta keeps insights for 37 months: a start date before that is refused (#3018). */
const RETENTION_MONTHS = 37;

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (YYYY-MM-DD), `to` excluded. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The first local day Meta still holds insights for, `today` being the account's local day (its rule, #3018). */
export function retentionStart(today: string): string {
  const [year = 0, month = 1, day = 1] = today.split('-').map(Number);
  const total = year * 12 + (month - 1) - RETENTION_MONTHS;
  const start = new Date(Date.UTC(Math.floor(total / 12), total % 12, 1));
  const lastDay = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
  start.setUTCDate(Math.min(day, lastDay));
  return start.toISOString().slice(0, 10);
}

/** The earliest day the setting asks for: `backfillDays` days ending today, never before Meta's retention. */
export function historyTarget(today: string, backfillDays: number): string {
  const wanted = addDays(today, -(backfillDays - 1));
  const kept = retentionStart(today);
  return wanted < kept ? kept : wanted;
}

/** How many days the first sync reads: the default's 90, or the setting when it asks for fewer. */
export function firstSyncDays(backfillDays: number): number {
  return Math.min(backfillDays, BACKFILL_DAYS_DEFAULT);
}

/** The next older chunk to read, or null when the mirror already reaches the target (or has no history yet). */
export function nextChunk(
  historyFrom: string | null,
  today: string,
  backfillDays: number,
): { since: string; until: string } | null {
  if (historyFrom === null) return null;
  const target = historyTarget(today, backfillDays);
  if (historyFrom <= target) return null;
  const until = addDays(historyFrom, -1);
  const earliest = addDays(historyFrom, -BACKFILL_CHUNK_DAYS);
  return { since: earliest < target ? target : earliest, until };
}

/** The progress the account card shows. */
export function accountHistory(historyFrom: string | null, today: string, backfillDays: number): AccountHistory {
  const target = historyTarget(today, backfillDays);
  const targetDays = daysBetween(target, today) + 1;
  if (historyFrom === null) return { from: null, days: 0, target_days: targetDays, complete: false };
  const held = Math.min(targetDays, daysBetween(historyFrom, today) + 1);
  return { from: historyFrom, days: held, target_days: targetDays, complete: held >= targetDays };
}
