import { addDays, localDate } from '@adpilot/contracts';
import { daysBetween } from '../world/time-zone.ts';
import type { World } from '../world/world.ts';
import type { SandboxAccount, SandboxAd } from '../world/types.ts';
import type { AdDay } from './ad-day.ts';
import type { DeliveryModel } from './delivery.ts';
import { formatInsightsRow, type Totals } from './format-row.ts';

import type { InsightsLevel } from '@adpilot/contracts';

export type { InsightsLevel };

export interface InsightsQuery {
  level: InsightsLevel;
  fields: readonly string[];
  since: string;
  until: string;
  /** Days per row, or the whole range in one row. */
  increment: number | 'all_days';
}

export interface InsightsScope {
  account: SandboxAccount;
  /** The ads under the queried object, in world order. */
  ads: readonly SandboxAd[];
}

interface Group {
  ad: SandboxAd;
  totals: Totals;
}

function groupId(ad: SandboxAd, level: InsightsLevel): string {
  if (level === 'ad') return ad.id;
  if (level === 'adset') return ad.adSetId;
  if (level === 'campaign') return ad.campaignId;
  return ad.accountId;
}

function emptyTotals(): Totals {
  return {
    spend: 0,
    impressions: 0,
    reachSum: 0,
    clicks: 0,
    linkClicks: 0,
    landingPageViews: 0,
    postEngagement: 0,
    addToCart: 0,
    initiateCheckout: 0,
    purchases: 0,
    purchaseValue: 0,
    leads: 0,
    days: 0,
    lastDate: '',
  };
}

function addDay(totals: Totals, day: AdDay, date: string): void {
  totals.spend += day.spend;
  totals.impressions += day.impressions;
  totals.reachSum += day.reach;
  totals.clicks += day.clicks;
  totals.linkClicks += day.linkClicks;
  totals.landingPageViews += day.landingPageViews;
  totals.postEngagement += day.postEngagement;
  totals.addToCart += day.addToCart;
  totals.initiateCheckout += day.initiateCheckout;
  totals.purchases += day.purchases;
  totals.purchaseValue += day.purchaseValue;
  totals.leads += day.leads;
  if (totals.lastDate !== date) {
    totals.days++;
    totals.lastDate = date;
  }
}

function bucketCount(query: InsightsQuery): number {
  const days = daysBetween(query.since, query.until) + 1;
  return query.increment === 'all_days' ? 1 : Math.ceil(days / query.increment);
}

/** Rows the query could produce at most, to refuse oversized synchronous requests as Meta does. */
export function estimateRowCount(scope: InsightsScope, query: InsightsQuery): number {
  const groups = new Set(scope.ads.map((ad) => groupId(ad, query.level)));
  return groups.size * bucketCount(query);
}

/**
 * Builds Graph insights rows (numbers as strings) for a scope: one row per entity at the level and per time
 * bucket, leaving out rows without delivery, ordered by date and then by the world's order.
 */
export function buildInsightsRows(
  world: World,
  delivery: DeliveryModel,
  scope: InsightsScope,
  query: InsightsQuery,
  now: number,
): Record<string, unknown>[] {
  const today = localDate(scope.account.timezone, now);
  const firstDay = localDate(scope.account.timezone, world.historyStart);
  const from = query.since > firstDay ? query.since : firstDay;
  const to = query.until < today ? query.until : today;
  const buckets: Map<string, Group>[] = Array.from({ length: bucketCount(query) }, () => new Map());
  const span = query.increment === 'all_days' ? Number.POSITIVE_INFINITY : query.increment;

  for (let date = from; date <= to; date = addDays(date, 1)) {
    const bucket = buckets[Math.floor(daysBetween(query.since, date) / span)];
    if (!bucket) continue;
    for (const ad of scope.ads) {
      const day = delivery.adDay(ad, date, now);
      if (!day) continue;
      const id = groupId(ad, query.level);
      let group = bucket.get(id);
      if (!group) {
        group = { ad, totals: emptyTotals() };
        bucket.set(id, group);
      }
      addDay(group.totals, day, date);
    }
  }

  const order = new Map(scope.ads.map((ad, index) => [groupId(ad, query.level), index] as const));
  const rows: Record<string, unknown>[] = [];
  buckets.forEach((bucket, index) => {
    const dateStart = query.increment === 'all_days' ? query.since : addDays(query.since, index * query.increment);
    const lastDay = query.increment === 'all_days' ? query.until : addDays(dateStart, query.increment - 1);
    const dateStop = lastDay < query.until ? lastDay : query.until;
    const groups = [...bucket.entries()].sort(([a], [b]) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    for (const [, group] of groups) {
      rows.push(formatInsightsRow(world, scope.account, group.ad, query, group.totals, dateStart, dateStop));
    }
  });
  return rows;
}
