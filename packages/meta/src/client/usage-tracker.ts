export interface BusinessUseCaseUsage {
  type: string;
  callCount: number;
  totalCputime: number;
  totalTime: number;
  /** Minutes until access returns; 0 when not throttled. */
  estimatedTimeToRegainAccess: number;
}

/** The latest usage Meta reported for one ad account. */
export interface AccountUsage {
  /** Numeric account id. */
  accountId: string;
  accIdUtilPct?: number;
  resetTimeDurationSec?: number;
  accessTier?: string;
  businessUseCase: BusinessUseCaseUsage[];
  insightsThrottle?: { appIdUtilPct?: number; accIdUtilPct?: number };
  observedAt: number;
  /** Calls for this account wait until then (epoch ms); 0 when they may go. */
  blockedUntil: number;
}

export interface AppUsage {
  callCount: number;
  totalTime: number;
  totalCputime: number;
  observedAt: number;
  blockedUntil: number;
}

export interface ThrottlePolicy {
  /** Utilisation (percent) at which calls start to wait (default 95). */
  thresholdPct: number;
  /** Wait when the threshold is reached and Meta gave no time (ms). */
  fallbackWaitMs: number;
}

const numberOr = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function parseJsonHeader(headers: Headers, name: string): Record<string, unknown> | undefined {
  const raw = headers.get(name);
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const toAccountKey = (id: string): string => id.replace(/^act_/, '');

/**
 * Reads Meta's usage headers on every answer and decides how long the next call for an account should wait:
 * the regain time Meta announces, or, at ≥ 95 % utilisation, the reset time (or a default pause).
 */
export class UsageTracker {
  private readonly accounts = new Map<string, AccountUsage>();
  private app: AppUsage | undefined;

  constructor(private readonly policy: ThrottlePolicy) {}

  observe(headers: Headers, accountId: string | undefined, now: number): void {
    this.observeApp(headers, now);
    const business = parseJsonHeader(headers, 'x-business-use-case-usage');
    for (const [id, entries] of Object.entries(business ?? {})) {
      if (!Array.isArray(entries)) continue;
      const usage = this.entry(id, now);
      usage.businessUseCase = entries.map((raw: Record<string, unknown>) => ({
        type: String(raw.type ?? 'unknown'),
        callCount: numberOr(raw.call_count) ?? 0,
        totalCputime: numberOr(raw.total_cputime) ?? 0,
        totalTime: numberOr(raw.total_time) ?? 0,
        estimatedTimeToRegainAccess: numberOr(raw.estimated_time_to_regain_access) ?? 0,
      }));
      this.decide(usage, now);
    }
    if (!accountId) return;
    const usage = this.entry(toAccountKey(accountId), now);
    const account = parseJsonHeader(headers, 'x-ad-account-usage');
    if (account) {
      const pct = numberOr(account.acc_id_util_pct);
      const reset = numberOr(account.reset_time_duration);
      const tier = account.ads_api_access_tier;
      if (pct !== undefined) usage.accIdUtilPct = pct;
      if (reset !== undefined) usage.resetTimeDurationSec = reset;
      if (typeof tier === 'string') usage.accessTier = tier;
    }
    const insights = parseJsonHeader(headers, 'x-fb-ads-insights-throttle');
    if (insights) {
      usage.insightsThrottle = {
        ...(numberOr(insights.app_id_util_pct) !== undefined
          ? { appIdUtilPct: numberOr(insights.app_id_util_pct) }
          : {}),
        ...(numberOr(insights.acc_id_util_pct) !== undefined
          ? { accIdUtilPct: numberOr(insights.acc_id_util_pct) }
          : {}),
      };
    }
    this.decide(usage, now);
  }

  /** How long Meta asked us to wait, from the headers of one (rate-limited) answer. */
  announcedWaitMs(headers: Headers, accountId: string | undefined): number | undefined {
    let wait: number | undefined;
    const business = parseJsonHeader(headers, 'x-business-use-case-usage');
    for (const [id, entries] of Object.entries(business ?? {})) {
      if (accountId && id !== toAccountKey(accountId)) continue;
      for (const raw of Array.isArray(entries) ? (entries as Record<string, unknown>[]) : []) {
        const minutes = numberOr(raw.estimated_time_to_regain_access);
        if (minutes && minutes > 0) wait = Math.max(wait ?? 0, minutes * 60_000);
      }
    }
    const reset = numberOr(parseJsonHeader(headers, 'x-ad-account-usage')?.reset_time_duration);
    if (reset && reset > 0) wait = Math.max(wait ?? 0, reset * 1000);
    return wait;
  }

  /** Milliseconds the next call for this account (and the app) should wait. */
  waitMs(accountId: string | undefined, now: number): number {
    const account = accountId ? this.accounts.get(toAccountKey(accountId)) : undefined;
    return Math.max(0, (account?.blockedUntil ?? 0) - now, (this.app?.blockedUntil ?? 0) - now);
  }

  /** After waiting out a block, the next call goes; its answer tells whether to hold again. */
  release(accountId: string | undefined): void {
    const account = accountId ? this.accounts.get(toAccountKey(accountId)) : undefined;
    if (account) account.blockedUntil = 0;
    if (this.app) this.app.blockedUntil = 0;
  }

  usage(accountId: string): AccountUsage | undefined {
    const usage = this.accounts.get(toAccountKey(accountId));
    return usage ? structuredClone(usage) : undefined;
  }

  appUsage(): AppUsage | undefined {
    return this.app ? { ...this.app } : undefined;
  }

  private observeApp(headers: Headers, now: number): void {
    const app = parseJsonHeader(headers, 'x-app-usage');
    if (!app) return;
    const callCount = numberOr(app.call_count) ?? 0;
    const totalTime = numberOr(app.total_time) ?? 0;
    const totalCputime = numberOr(app.total_cputime) ?? 0;
    const high = Math.max(callCount, totalTime, totalCputime) >= this.policy.thresholdPct;
    this.app = {
      callCount,
      totalTime,
      totalCputime,
      observedAt: now,
      blockedUntil: high ? now + this.policy.fallbackWaitMs : 0,
    };
  }

  private entry(id: string, now: number): AccountUsage {
    let usage = this.accounts.get(id);
    if (!usage) {
      usage = { accountId: id, businessUseCase: [], observedAt: now, blockedUntil: 0 };
      this.accounts.set(id, usage);
    }
    usage.observedAt = now;
    return usage;
  }

  private decide(usage: AccountUsage, now: number): void {
    const regainMs = Math.max(0, ...usage.businessUseCase.map((entry) => entry.estimatedTimeToRegainAccess * 60_000));
    const utilisation = Math.max(
      usage.accIdUtilPct ?? 0,
      usage.insightsThrottle?.accIdUtilPct ?? 0,
      ...usage.businessUseCase.map((entry) => Math.max(entry.callCount, entry.totalCputime, entry.totalTime)),
    );
    let wait = regainMs;
    if (utilisation >= this.policy.thresholdPct) {
      const resetMs = (usage.resetTimeDurationSec ?? 0) * 1000;
      wait = Math.max(wait, resetMs > 0 ? resetMs : this.policy.fallbackWaitMs);
    }
    usage.blockedUntil = wait > 0 ? now + wait : 0;
  }
}
