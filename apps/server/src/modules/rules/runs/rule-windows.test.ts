import { describe, expect, it } from 'vitest';
import { endDue, nextWindowStart } from './rule-windows.ts';

const weekdays = [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '20:00' }];
const BANGKOK = 'Asia/Bangkok';

describe('dayparting windows', () => {
  it("finds the end the account's clock passed within the grace, and none outside it", () => {
    // Friday 4 December 2026, 20:10 in Bangkok (UTC+7).
    expect(endDue(weekdays, BANGKOK, new Date('2026-12-04T13:10:00Z'), 60)).toBe('2026-12-04T2000');
    expect(endDue(weekdays, BANGKOK, new Date('2026-12-04T12:59:00Z'), 60)).toBeUndefined();
    expect(endDue(weekdays, BANGKOK, new Date('2026-12-04T14:00:00Z'), 60)).toBeUndefined();
    // Saturday has no window, so no end.
    expect(endDue(weekdays, BANGKOK, new Date('2026-12-05T13:10:00Z'), 60)).toBeUndefined();
  });

  it('resumes a Friday evening pause on Monday morning', () => {
    expect(nextWindowStart(weekdays, BANGKOK, new Date('2026-12-04T13:00:00Z'))?.toISOString()).toBe(
      '2026-12-07T01:00:00.000Z',
    );
  });

  it('treats touching windows as one stretch, across midnight and the week’s end', () => {
    const nights = [
      { days: [7], from: '22:00', to: '24:00' },
      { days: [1], from: '00:00', to: '06:00' },
    ];
    // Sunday 24:00 is no end: Monday 00:00 carries on; the end is Monday 06:00.
    expect(endDue(nights, BANGKOK, new Date('2026-12-06T17:10:00Z'), 60)).toBeUndefined();
    expect(endDue(nights, BANGKOK, new Date('2026-12-06T23:10:00Z'), 60)).toBe('2026-12-07T0600');
    // The next start after Monday 06:00 is Sunday 22:00, not Monday 00:00.
    expect(nextWindowStart(nights, BANGKOK, new Date('2026-12-06T23:00:00Z'))?.toISOString()).toBe(
      '2026-12-13T15:00:00.000Z',
    );
  });

  it('has no end and no start when the windows cover the whole week', () => {
    const always = [{ days: [1, 2, 3, 4, 5, 6, 7], from: '00:00', to: '24:00' }];
    expect(endDue(always, BANGKOK, new Date('2026-12-06T17:00:00Z'), 60)).toBeUndefined();
    expect(nextWindowStart(always, BANGKOK, new Date('2026-12-06T17:00:00Z'))).toBeUndefined();
  });
});
