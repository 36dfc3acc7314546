import { type RULE_WINDOWS, derivedMetrics, type RuleMetric } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { METRIC_CODES, readMetric } from './metrics.ts';
import { buildSnapshot } from './snapshot.ts';
import { NEW_YORK, NOW, buildAccount, buildEntity, buildRow, buildTree } from '../test/fixtures.ts';
import { endOfLocalDay, isoDate, localTime } from './time.ts';
import { windowSlot } from './windows.ts';

const newYork = buildAccount({ id: NEW_YORK, timezone: 'America/New_York', currency: 'USD' });

describe('local time', () => {
  it('puts one UTC instant on different local dates in Bangkok and New York', () => {
    const bangkok = localTime(NOW, 'Asia/Bangkok');
    const ny = localTime(NOW, 'America/New_York');
    expect(isoDate(bangkok.day)).toBe('2026-11-22');
    expect(bangkok.hour).toBe(10);
    expect(isoDate(ny.day)).toBe('2026-11-21');
    expect(ny.hour).toBe(22);
  });

  it('finds the end of a local day, across a daylight-saving change', () => {
    const day = localTime(NOW, 'Asia/Bangkok').day;
    expect(new Date(endOfLocalDay(day, 'Asia/Bangkok')).toISOString()).toBe('2026-11-22T16:59:59.999Z');
    // New York leaves daylight saving on 2026-11-01: the 1st is 25 hours long.
    const first = localTime(Date.parse('2026-11-01T12:00:00Z'), 'America/New_York').day;
    expect(new Date(endOfLocalDay(first, 'America/New_York')).toISOString()).toBe('2026-11-02T04:59:59.999Z');
    expect(new Date(endOfLocalDay(first - 1, 'America/New_York')).toISOString()).toBe('2026-11-01T03:59:59.999Z');
  });
});

/** One row per day 0..40 days ago, spend = 10^0 … so each window's sum names the days it covers. */
function spendByWindow(account = buildAccount()) {
  const rows = Array.from({ length: 41 }, (_, ago) =>
    buildRow(ago, { spend: ago + 1, adAccountId: account.id }, account),
  );
  const entity = buildEntity({ adAccountId: account.id });
  const snapshot = buildSnapshot({ accounts: [account], entities: [entity], rows, now: NOW });
  const read = (window: (typeof RULE_WINDOWS)[number], includeToday = false) =>
    readMetric(snapshot, 0, windowSlot(window, includeToday, false), METRIC_CODES.spend);
  return { read, snapshot };
}

/** Sum of (ago + 1) for ago in [first, last]. */
const sumDays = (first: number, last: number) => ((last - first + 1) * (first + 1 + last + 1)) / 2;

describe('windows', () => {
  it('sum the right local days for every window, with and without today', () => {
    const { read } = spendByWindow();
    expect(read('today')).toBe(sumDays(0, 0));
    expect(read('today', true)).toBe(sumDays(0, 0));
    expect(read('yesterday')).toBe(sumDays(1, 1));
    expect(read('last_3d')).toBe(sumDays(1, 3));
    expect(read('last_3d', true)).toBe(sumDays(0, 2));
    expect(read('last_7d')).toBe(sumDays(1, 7));
    expect(read('last_7d', true)).toBe(sumDays(0, 6));
    expect(read('last_14d')).toBe(sumDays(1, 14));
    expect(read('last_14d', true)).toBe(sumDays(0, 13));
    expect(read('last_30d')).toBe(sumDays(1, 30));
    expect(read('last_30d', true)).toBe(sumDays(0, 29));
    expect(read('lifetime')).toBe(sumDays(0, 40));
  });

  it("read today by each account's own date: the same rows are today in Bangkok and tomorrow in New York", () => {
    const bangkok = buildAccount();
    const rows = [
      buildRow(0, { spend: 500, entityExternalId: 'bkk' }, bangkok),
      { ...buildRow(0, { spend: 500, entityExternalId: 'ny' }, bangkok), adAccountId: NEW_YORK },
      { ...buildRow(1, { spend: 70, entityExternalId: 'ny' }, bangkok), adAccountId: NEW_YORK },
    ];
    const entities = [buildEntity({ externalId: 'bkk' }), buildEntity({ externalId: 'ny', adAccountId: NEW_YORK })];
    const snapshot = buildSnapshot({ accounts: [bangkok, newYork], entities, rows, now: NOW });
    const today = windowSlot('today', false, false);
    expect(readMetric(snapshot, 0, today, METRIC_CODES.spend)).toBe(500);
    // 2026-11-22 has not begun in New York: its row is ignored, and 2026-11-21 is New York's today.
    expect(readMetric(snapshot, 1, today, METRIC_CODES.spend)).toBe(70);
    expect(readMetric(snapshot, 1, windowSlot('lifetime', false, false), METRIC_CODES.spend)).toBe(70);
  });

  it('leave today out of every window while it settles, and cannot judge today itself', () => {
    const { snapshot } = spendByWindow();
    const read = (window: (typeof RULE_WINDOWS)[number], includeToday: boolean) =>
      readMetric(snapshot, 0, windowSlot(window, includeToday, true), METRIC_CODES.spend);
    expect(read('today', false)).toBeNull();
    expect(read('last_7d', true)).toBe(sumDays(1, 7));
    expect(read('lifetime', false)).toBe(sumDays(1, 40));
  });
});

describe('metrics', () => {
  const figures = {
    spend: 600,
    impressions: 20_000,
    reach: 8_000,
    clicks: 300,
    linkClicks: 250,
    conversions: 4,
    conversionValue: 3_000,
  };
  const snapshotWith = (day: Partial<typeof figures>) =>
    buildSnapshot({
      accounts: [buildAccount()],
      entities: buildTree({ ad: { createdTime: NOW - 36 * 3_600_000 } }),
      rows: [buildRow(0, day)],
      now: NOW,
    });
  const today = windowSlot('today', false, false);
  const read = (metric: RuleMetric, day: Partial<typeof figures> = figures) =>
    readMetric(snapshotWith(day), 2, today, METRIC_CODES[metric]);

  it('reads each delivery figure and each derived metric as the contracts define them', () => {
    expect(read('spend')).toBe(600);
    expect(read('impressions')).toBe(20_000);
    expect(read('reach')).toBe(8_000);
    expect(read('clicks')).toBe(300);
    expect(read('link_clicks')).toBe(250);
    expect(read('conversions')).toBe(4);
    expect(read('conversion_value')).toBe(3_000);
    const totals = { ...figures };
    expect(read('frequency')).toBe(derivedMetrics.frequency(totals));
    expect(read('ctr')).toBe(1.5);
    expect(read('cpc')).toBe(2);
    expect(read('cpm')).toBe(30);
    expect(read('cpa')).toBe(150);
    expect(read('roas')).toBe(5);
  });

  it('leaves a ratio undefined when its denominator is zero', () => {
    const none = { spend: 0, impressions: 0, reach: 0, clicks: 0, linkClicks: 0, conversions: 0, conversionValue: 0 };
    for (const metric of ['frequency', 'ctr', 'cpc', 'cpm', 'cpa', 'roas'] as const)
      expect(read(metric, none)).toBeNull();
    expect(read('cpa', { ...figures, conversions: 0 })).toBeNull();
  });

  it("reads budgets from the budget holder in major units, and the age from the evaluation's instant", () => {
    expect(read('daily_budget')).toBe(1_000);
    expect(read('lifetime_budget')).toBeNull();
    expect(read('hours_since_creation')).toBe(36);
  });
});
