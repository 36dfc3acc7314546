import { describe, expect, it } from 'vitest';
import { UsageMeter } from './usage-meter.ts';

const NOW = Date.parse('2026-12-03T10:00:00Z');

describe("the per-account call budget on standard access (Meta's Business Use Case limit)", () => {
  it('answers 80004/2446079 past 100 000 + 40 × active ads points an hour, per account, until the hour frees it', () => {
    const meter = new UsageMeter('standard_access', 10_000_000);
    const activeAds = 100;
    const quota = 100_000 + 40 * activeAds;
    meter.record('111', 'ads_management', quota - 3, NOW);
    expect(meter.throttle('111', 'ads_management', activeAds, NOW)).toBeUndefined();
    meter.record('111', 'ads_management', 3, NOW + 60_000);
    const throttle = meter.throttle('111', 'ads_management', activeAds, NOW + 60_000);
    expect(throttle).toMatchObject({ code: 80004, subcode: 2446079 });
    expect(throttle?.message).toMatch(/^\(#80004\) There have been too many calls to this ad-account/);
    // The points of the first minute leave the window an hour later.
    expect(throttle?.regainMinutes).toBe(59);
    // Another account has its own budget; insights have their own use case.
    expect(meter.throttle('222', 'ads_management', activeAds, NOW + 60_000)).toBeUndefined();
    expect(meter.throttle('111', 'ads_insights', activeAds, NOW + 60_000)).toBeUndefined();
    expect(meter.throttle('111', 'ads_management', activeAds, NOW + 61 * 60_000)).toBeUndefined();

    const headers = meter.headers({
      accountId: '111',
      useCase: 'ads_management',
      isInsights: false,
      activeAds,
      now: NOW + 60_000,
      regainMinutes: 59,
    });
    const usage = JSON.parse(headers['x-business-use-case-usage'] ?? '{}') as Record<
      string,
      { type: string; call_count: number; estimated_time_to_regain_access: number }[]
    >;
    expect(usage['111']?.[0]).toMatchObject({
      type: 'ads_management',
      call_count: 100,
      estimated_time_to_regain_access: 59,
    });
  });
});
