export type UseCase = 'ads_management' | 'ads_insights';
export type AccessTier = 'development_access' | 'standard_access';

const HOUR_MINUTES = 60;

/** Points spent per minute over the last hour: Meta's quotas are rolling one-hour windows. */
class RollingHour {
  private readonly minutes = new Map<number, number>();

  add(now: number, points: number): void {
    const minute = Math.floor(now / 60_000);
    this.minutes.set(minute, (this.minutes.get(minute) ?? 0) + points);
  }

  total(now: number): number {
    const current = Math.floor(now / 60_000);
    let sum = 0;
    for (const [minute, points] of this.minutes) {
      if (minute <= current - HOUR_MINUTES) this.minutes.delete(minute);
      else if (minute <= current) sum += points;
    }
    return sum;
  }

  /** Whole minutes until the points of the last hour fall below `limit` as old minutes leave the window. */
  minutesUntilBelow(now: number, limit: number): number {
    let total = this.total(now);
    if (total < limit) return 0;
    for (const minute of [...this.minutes.keys()].sort((a, b) => a - b)) {
      total -= this.minutes.get(minute) ?? 0;
      if (total < limit) return Math.max(1, Math.ceil(((minute + HOUR_MINUTES) * 60_000 - now) / 60_000));
    }
    return HOUR_MINUTES;
  }
}

/** What Meta answers once a quota is used up: the code, its subcode, and minutes until calls go through again. */
export interface Throttle {
  code: number;
  subcode: number;
  message: string;
  regainMinutes: number;
}

function percent(used: number, quota: number): number {
  return Number(((used / quota) * 100).toFixed(2));
}

export interface UsageHeaderInput {
  accountId: string | undefined;
  useCase: UseCase;
  isInsights: boolean;
  activeAds: number;
  now: number;
  /** Set while a rate limit is in force: minutes until access returns. */
  regainMinutes?: number;
}

/**
 * Meters calls the way Meta's usage headers describe them: app calls per hour, and per ad account a score
 * (read 1 point, write 3) against a quota that grows with the account's active ads.
 */
export class UsageMeter {
  private readonly app = new RollingHour();
  private readonly accounts = new Map<string, Record<UseCase, RollingHour>>();

  constructor(
    private readonly accessTier: AccessTier,
    private readonly appCallsPerHour: number,
  ) {}

  record(accountId: string | undefined, useCase: UseCase, points: number, now: number): void {
    this.app.add(now, 1);
    if (accountId) this.windows(accountId)[useCase].add(now, points);
  }

  /**
   * Past 100 % of the account's quota for the use case, the answer Meta gives instead of running the call:
   * insights 80000; ads management 80004 on standard access and 17 "User request limit reached" on development
   * access (both subcode 2446079), with the regain time the usage headers then announce.
   */
  throttle(accountId: string | undefined, useCase: UseCase, activeAds: number, now: number): Throttle | undefined {
    if (!accountId) return undefined;
    const window = this.windows(accountId)[useCase];
    const regainMinutes = window.minutesUntilBelow(now, this.quota(useCase, activeAds));
    if (regainMinutes === 0) return undefined;
    const docs = `https://developers.facebook.com/docs/graph-api/overview/rate-limiting#${useCase === 'ads_insights' ? 'ads-insights' : 'ads-management'}`;
    if (useCase === 'ads_insights') {
      return {
        code: 80000,
        subcode: 2446079,
        message: `(#80000) There have been too many calls from this ad-account. Wait a bit and try again. For more info, please refer to ${docs}.`,
        regainMinutes,
      };
    }
    if (this.accessTier === 'development_access') {
      return { code: 17, subcode: 2446079, message: '(#17) User request limit reached', regainMinutes };
    }
    return {
      code: 80004,
      subcode: 2446079,
      message: `(#80004) There have been too many calls to this ad-account. Wait a bit and try again. For more info, please refer to ${docs}.`,
      regainMinutes,
    };
  }

  headers(input: UsageHeaderInput): Record<string, string> {
    const appPct = percent(this.app.total(input.now), this.appCallsPerHour);
    const headers: Record<string, string> = {
      'x-app-usage': JSON.stringify({
        call_count: appPct,
        total_cputime: Number((appPct * 0.4).toFixed(2)),
        total_time: Number((appPct * 0.6).toFixed(2)),
      }),
    };
    if (!input.accountId) return headers;

    const windows = this.windows(input.accountId);
    const throttled = input.regainMinutes !== undefined;
    const pct = (useCase: UseCase): number => {
      const used = percent(windows[useCase].total(input.now), this.quota(useCase, input.activeAds));
      return throttled && useCase === input.useCase ? Math.max(100, used) : used;
    };
    const managementPct = pct('ads_management');
    const insightsPct = pct('ads_insights');
    const useCasePct = input.useCase === 'ads_insights' ? insightsPct : managementPct;
    const regain = input.regainMinutes ?? 0;
    headers['x-ad-account-usage'] = JSON.stringify({
      acc_id_util_pct: managementPct,
      reset_time_duration: regain * 60,
      ads_api_access_tier: this.accessTier,
    });
    headers['x-business-use-case-usage'] = JSON.stringify({
      [input.accountId]: [
        {
          type: input.useCase,
          call_count: useCasePct,
          total_cputime: Number((useCasePct * 0.5).toFixed(2)),
          total_time: Number((useCasePct * 0.7).toFixed(2)),
          estimated_time_to_regain_access: regain,
          ads_api_access_tier: this.accessTier,
        },
      ],
    });
    if (input.isInsights) {
      headers['x-fb-ads-insights-throttle'] = JSON.stringify({
        app_id_util_pct: appPct,
        acc_id_util_pct: insightsPct,
        ads_api_access_tier: this.accessTier,
      });
    }
    return headers;
  }

  private quota(useCase: UseCase, activeAds: number): number {
    const standard = this.accessTier === 'standard_access';
    if (useCase === 'ads_insights') return (standard ? 190_000 : 600) + 400 * activeAds;
    return (standard ? 100_000 : 300) + 40 * activeAds;
  }

  private windows(accountId: string): Record<UseCase, RollingHour> {
    let windows = this.accounts.get(accountId);
    if (!windows) {
      windows = { ads_management: new RollingHour(), ads_insights: new RollingHour() };
      this.accounts.set(accountId, windows);
    }
    return windows;
  }
}
