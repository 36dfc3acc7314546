import { adAccounts, adEntities, insightsDaily, mailRecipients, ruleActions, ruleRuns } from '@adpilot/db';
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

/** One action of a seeded run: its type and field, when it was applied (null: not applied), and any other column. */
export type SeededAction = Partial<typeof ruleActions.$inferInsert> & {
  type: string;
  field: string;
  at: string | null;
};

/**
 * A completed manual run of `ruleId` behind the API's back, with its actions on campaign c1 of `adAccountId` (as
 * seedReportAccount names it), in baht: what a report counts as the rule's changes.
 */
export async function seedRuleRun(
  t: Pick<TestApp, 'inspect'>,
  ids: { workspaceId: string; ruleId: string; adAccountId: string },
  actions: SeededAction[],
): Promise<void> {
  const { workspaceId, ruleId, adAccountId } = ids;
  await t.inspect(async (db) => {
    const [run] = await db
      .insert(ruleRuns)
      .values({ workspaceId, ruleId, slot: 's1', trigger: 'manual', status: 'completed' })
      .returning();
    await db.insert(ruleActions).values(
      actions.map(({ type, field, at, ...columns }, index) => ({
        workspaceId,
        ruleId,
        runId: run!.id,
        adAccountId,
        slot: `s1-${index}`,
        actionType: type,
        entityLevel: 'campaign' as const,
        entityExternalId: `${adAccountId}-c1`,
        entityName: 'Campaign c1',
        targetLevel: 'campaign' as const,
        targetExternalId: `${adAccountId}-c1`,
        targetName: 'Campaign c1',
        field,
        currency: 'THB',
        explanation: {},
        appliedAt: at === null ? null : new Date(at),
        ...columns,
      })),
    );
  });
}

/**
 * The addresses confirmed they want the workspace's mail (ADR 0092), as their confirm link would: a report then
 * reaches them instead of the first mail that asks. Tests of outbound mail itself confirm through the link.
 */
export async function confirmRecipients(t: Pick<TestApp, 'inspect'>, workspaceId: string, emails: string[]) {
  await t.inspect((db) =>
    db
      .insert(mailRecipients)
      .values(emails.map((email) => ({ workspaceId, email: email.toLowerCase(), state: 'confirmed' as const })))
      .onConflictDoUpdate({ target: [mailRecipients.workspaceId, mailRecipients.email], set: { state: 'confirmed' } }),
  );
}
