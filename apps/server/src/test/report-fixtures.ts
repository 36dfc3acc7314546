import { adAccounts, adEntities, insightsDaily } from '@adpilot/db';
import type { TestApp } from './test-app.ts';

/**
 * An ad account of `workspaceId` behind the API's back, with its campaigns (named `Campaign <id>`) and their rows
 * `[campaign, date, spend, results, value]`.
 */
export async function seedReportAccount(
  t: Pick<TestApp, 'inspect'>,
  workspaceId: string,
  options: {
    name?: string;
    currency?: string;
    timezone?: string;
    days?: [campaign: string, date: string, spend: number, results: number, value: number][];
  } = {},
): Promise<string> {
  return t.inspect(async (db) => {
    const [account] = await db
      .insert(adAccounts)
      .values({
        workspaceId,
        facebookAccountId: `${Math.floor(Math.random() * 1e12)}`,
        facebookAccountName: options.name ?? 'Shop TH',
        metaAccountStatus: 1,
        currency: options.currency ?? 'THB',
        timezone: options.timezone ?? 'Asia/Bangkok',
        accessTokenEnc: 'v1.x.y.z',
      })
      .returning();
    const adAccountId = account!.id;
    const days = options.days ?? [];
    const campaigns = [...new Set(days.map(([campaign]) => campaign))];
    if (campaigns.length)
      await db.insert(adEntities).values(
        campaigns.map((campaign) => ({
          workspaceId,
          adAccountId,
          level: 'campaign' as const,
          externalId: `${adAccountId}-${campaign}`,
          name: `Campaign ${campaign}`,
          status: 'ACTIVE',
          effectiveStatus: 'ACTIVE',
        })),
      );
    if (days.length)
      await db.insert(insightsDaily).values(
        days.map(([campaign, date, spend, conversions, conversionValue]) => ({
          workspaceId,
          adAccountId,
          level: 'campaign' as const,
          entityExternalId: `${adAccountId}-${campaign}`,
          date,
          spend,
          conversions,
          conversionValue,
        })),
      );
    return adAccountId;
  });
}
