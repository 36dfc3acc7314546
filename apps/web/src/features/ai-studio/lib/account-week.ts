import type { AdAccount, AdAccountStats } from '@adpilot/contracts';

const DAY_MS = 86_400_000;
const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The campaign JSON the analysis box gets from an account's last seven days (its own time zone's dates). */
export function accountWeek(account: AdAccount, stats: AdAccountStats) {
  const from = shift(stats.end_date, -6);
  const days = stats.daily.filter((day) => day.date >= from);
  const sum = (key: 'spend' | 'impressions' | 'reach' | 'clicks' | 'conversions' | 'conversion_value') =>
    Math.round(days.reduce((total, day) => total + day[key], 0) * 100) / 100;
  return {
    name: account.facebook_account_name,
    currency: stats.currency,
    period: `${from} – ${stats.end_date}`,
    spend: sum('spend'),
    impressions: sum('impressions'),
    reach: sum('reach'),
    clicks: sum('clicks'),
    conversions: sum('conversions'),
    conversion_value: sum('conversion_value'),
  };
}
