import { describe, expect, it } from 'vitest';
import { addMonths, billingPeriodAt, calendarMonthAt, usagePeriodAt } from './billing-period.ts';

const at = (iso: string) => new Date(iso);

describe('billing periods', () => {
  it('keeps the day of the month, or the last day when the month is shorter', () => {
    expect(addMonths(at('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(at('2026-01-31T10:00:00Z'), 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonths(at('2026-11-15T00:00:00Z'), 2).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it('finds the month of the plan holding now', () => {
    const anchor = at('2026-01-15T12:00:00Z');
    expect(billingPeriodAt(anchor, at('2026-01-15T12:00:00Z'))).toEqual({
      start: at('2026-01-15T12:00:00Z'),
      end: at('2026-02-15T12:00:00Z'),
    });
    expect(billingPeriodAt(anchor, at('2026-02-15T11:59:59Z')).start).toEqual(at('2026-01-15T12:00:00Z'));
    expect(billingPeriodAt(anchor, at('2026-02-15T12:00:00Z')).start).toEqual(at('2026-02-15T12:00:00Z'));
    expect(billingPeriodAt(anchor, at('2027-03-01T00:00:00Z'))).toEqual({
      start: at('2027-02-15T12:00:00Z'),
      end: at('2027-03-15T12:00:00Z'),
    });
  });

  it('treats a clock behind the anchor as the first period', () => {
    const anchor = at('2026-05-10T00:00:00Z');
    expect(billingPeriodAt(anchor, at('2026-05-09T00:00:00Z')).start).toEqual(anchor);
  });
});

describe('the usage month (ADR 0061)', () => {
  const local = { stripeSubscriptionId: null, currentPeriodStart: at('2026-03-17T08:00:00Z'), currentPeriodEnd: null };

  it('is the calendar month without a Stripe subscription, wherever the plan started', () => {
    expect(calendarMonthAt(at('2026-12-31T23:59:59Z'))).toEqual({
      start: at('2026-12-01T00:00:00Z'),
      end: at('2027-01-01T00:00:00Z'),
    });
    expect(usagePeriodAt(local, at('2026-04-02T00:00:00Z'))).toEqual(calendarMonthAt(at('2026-04-02T00:00:00Z')));
  });

  it('is Stripe’s billing period while one is held, then whole months on from its end until the renewal arrives', () => {
    const stripe = {
      stripeSubscriptionId: 'sub_1',
      currentPeriodStart: at('2026-03-17T08:00:00Z'),
      currentPeriodEnd: at('2026-04-16T08:00:00Z'),
    };
    expect(usagePeriodAt(stripe, at('2026-04-01T00:00:00Z'))).toEqual({
      start: stripe.currentPeriodStart,
      end: stripe.currentPeriodEnd,
    });
    expect(usagePeriodAt(stripe, at('2026-04-16T09:00:00Z'))).toEqual({
      start: at('2026-04-16T08:00:00Z'),
      end: at('2026-05-16T08:00:00Z'),
    });
    expect(usagePeriodAt({ ...stripe, currentPeriodEnd: null }, at('2026-05-01T00:00:00Z')).start).toEqual(
      at('2026-04-17T08:00:00Z'),
    );
  });
});
