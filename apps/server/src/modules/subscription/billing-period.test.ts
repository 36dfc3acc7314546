import { describe, expect, it } from 'vitest';
import { addMonths, billingPeriodAt } from './billing-period.ts';

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
