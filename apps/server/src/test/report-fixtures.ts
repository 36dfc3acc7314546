import { adAccounts, adEntities, insightsDaily } from '@adpilot/db';
import type { TestApp } from './test-app.ts';

type DayRow = [entity: string, date: string, spend: number, results: number, value: number];

/**
 * An ad account of `workspaceId` behind the API's back, with its campaigns (named `Campaign <id>`) and their rows
 * `[campaign, date, spend, results, value]`, and ad set rows of the same shape (figures only, no entity: a report
 * must not count them again with their campaigns).
 */
export async function seedReportAccount(
  t: Pick<TestApp, 'inspect'>,
  workspaceId: string,
  options: {
    name?: string;
    currency?: string;
    timezone?: string;
    days?: DayRow[];
    adsetDays?: DayRow[];
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
    const row =
      (level: 'campaign' | 'adset') =>
      ([entity, date, spend, conversions, conversionValue]: DayRow) => ({
        workspaceId,
        adAccountId,
        level,
        entityExternalId: `${adAccountId}-${entity}`,
        date,
        spend,
        conversions,
        conversionValue,
      });
    const rows = [...days.map(row('campaign')), ...(options.adsetDays ?? []).map(row('adset'))];
    if (rows.length) await db.insert(insightsDaily).values(rows);
    return adAccountId;
  });
}
