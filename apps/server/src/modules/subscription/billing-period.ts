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

/** The calendar month (UTC) holding `now`: from the first of the month to the first of the next. */
export function calendarMonthAt(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { start, end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

/** What of a subscription decides its usage month. */
export interface UsageAnchor {
  stripeSubscriptionId: string | null;
  currentPeriodStart: Date;
  currentPeriodEnd: Date | null;
}

/**
 * The month AI requests are counted in (ADR 0061). While a Stripe subscription is held, its billing period: the one
 * Stripe last reported while it holds, then whole months on from its end until the renewal arrives. Otherwise the
 * calendar month. A plan change moves neither, so it never empties the counter.
 */
export function usagePeriodAt(subscription: UsageAnchor, now: Date): { start: Date; end: Date } {
  if (!subscription.stripeSubscriptionId) return calendarMonthAt(now);
  const { currentPeriodStart: start, currentPeriodEnd: end } = subscription;
  if (!end) return billingPeriodAt(start, now);
  if (now.getTime() < end.getTime()) return { start, end };
  return billingPeriodAt(end, now);
}
