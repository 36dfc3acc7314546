import type { TenantScope } from '@adpilot/db';
import { addDays } from '@adpilot/contracts';
import type { AdAccount, AdAccountStats } from '@adpilot/contracts';
import type { AccountSummary } from '../../providers/ai/ai-provider.ts';

/** The two questions the summary asks of the ad-accounts module, always as the caller (tenant-scoped). */
export interface OwnAccounts {
  list(scope: TenantScope): Promise<AdAccount[]>;
  stats(scope: TenantScope, id: string, query: { start_date?: string; end_date?: string }): Promise<AdAccountStats>;
}

const ACCOUNTS_MAX = 10;
const DAYS = 7;

/** The caller's own accounts over their last seven days of data, for the assistant's context. */
export async function summarizeOwnAccounts(accounts: OwnAccounts, scope: TenantScope): Promise<AccountSummary> {
  const list = (await accounts.list(scope)).slice(0, ACCOUNTS_MAX);
  const summaries = await Promise.all(
    list.map(async (account) => {
      const stats = await accounts.stats(scope, account.id, {});
      const from = addDays(stats.end_date, -(DAYS - 1));
      const days = stats.daily.filter((day) => day.date >= from);
      const sum = (key: 'spend' | 'impressions' | 'clicks' | 'conversions' | 'conversion_value') =>
        days.reduce((total, day) => total + day[key], 0);
      const spend = sum('spend');
      const impressions = sum('impressions');
      const clicks = sum('clicks');
      const conversions = sum('conversions');
      const conversionValue = sum('conversion_value');
      return {
        name: account.facebook_account_name,
        currency: account.currency,
        status: account.account_status,
        spend,
        impressions,
        clicks,
        conversions,
        conversionValue,
        ctr: impressions > 0 ? (clicks / impressions) * 100 : null,
        cpc: clicks > 0 ? spend / clicks : null,
        cpa: conversions > 0 ? spend / conversions : null,
        roas: spend > 0 ? conversionValue / spend : null,
      };
    }),
  );
  return { accounts: summaries };
}
