import { describe, expect, it } from 'vitest';
import { boostWindow, planBoost } from './boost.ts';

const NEW_YORK = 'America/New_York';
const at = (iso: string) => Date.parse(iso);
const iso = (window: { start: number; end: number }) => [
  new Date(window.start).toISOString(),
  new Date(window.end).toISOString(),
];

describe("a boost's window in the ad account's zone (ADR 0191)", () => {
  it("takes today's window while it is ahead, from its start", () => {
    // 10:00 in New York (EST): 18:00–22:00 is 23:00–03:00 UTC.
    expect(iso(boostWindow({ from: '18:00', to: '22:00' }, NEW_YORK, at('2026-12-03T15:00:00Z')))).toEqual([
      '2026-12-03T23:00:00.000Z',
      '2026-12-04T03:00:00.000Z',
    ]);
  });

  it('starts a window under way at the next quarter hour, and takes tomorrow once under a quarter hour is left', () => {
    expect(iso(boostWindow({ from: '18:00', to: '22:00' }, NEW_YORK, at('2026-12-04T00:07:00Z')))).toEqual([
      '2026-12-04T00:15:00.000Z',
      '2026-12-04T03:00:00.000Z',
    ]);
    expect(iso(boostWindow({ from: '18:00', to: '22:00' }, NEW_YORK, at('2026-12-04T02:50:00Z')))).toEqual([
      '2026-12-04T23:00:00.000Z',
      '2026-12-05T03:00:00.000Z',
    ]);
  });

  it('keeps local hours across a DST change, and reads 24:00 as the next midnight', () => {
    // Saturday 31 October 2026 in daylight time; the window of Sunday 1 November is in standard time.
    expect(iso(boostWindow({ from: '08:00', to: '24:00' }, NEW_YORK, at('2026-11-01T05:00:00Z')))).toEqual([
      '2026-11-01T13:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
    ]);
  });
});

describe("a boost's change", () => {
  const base = {
    budgetField: 'daily_budget' as const,
    offset: 100,
    timeZone: NEW_YORK,
    now: at('2026-12-03T15:00:00Z'),
  };

  it("raises by a percentage as Meta's MULTIPLIER, and by an amount as ABSOLUTE in minor units", () => {
    expect(
      planBoost({
        ...base,
        currentMinor: 4_000,
        action: { type: 'boost_budget', by: 50, unit: 'percent', from: '18:00', to: '22:00' },
      }),
    ).toMatchObject({
      from: 40,
      to: 60,
      fromMinor: 4_000,
      toMinor: 6_000,
      budgetValue: 50,
      budgetValueType: 'MULTIPLIER',
    });
    expect(
      planBoost({
        ...base,
        currentMinor: 4_000,
        action: { type: 'boost_budget', by: 25, unit: 'amount', from: '18:00', to: '22:00' },
      }),
    ).toMatchObject({ from: 40, to: 65, toMinor: 6_500, budgetValue: 2_500, budgetValueType: 'ABSOLUTE' });
  });
});
