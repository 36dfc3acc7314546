/** The same day of the month, `months` later; a day the month lacks becomes its last day (Jan 31 → Feb 28). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = date.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/**
 * The monthly billing period holding `now`, counted in whole months from `anchor` (when the plan started, or the
 * provider's period start). Usage counters are keyed by its start, so they reset when a new month of the plan
 * begins, with no job to run.
 */
export function billingPeriodAt(anchor: Date, now: Date): { start: Date; end: Date } {
  if (now.getTime() < anchor.getTime()) return { start: anchor, end: addMonths(anchor, 1) };
  let months = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  if (addMonths(anchor, months).getTime() > now.getTime()) months -= 1;
  return { start: addMonths(anchor, months), end: addMonths(anchor, months + 1) };
}
