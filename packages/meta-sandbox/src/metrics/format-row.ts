import { currencyOffset } from '../world/seed.ts';
import type { AdDay } from './ad-day.ts';
import type { World } from '../world/world.ts';
import type { SandboxAccount, SandboxAd, SandboxAdSet, SandboxCampaign } from '../world/types.ts';
import type { InsightsLevel, InsightsQuery } from './insights-rows.ts';

/** Sums over the ads and days of one row (an ad-day's figures, reach summed); money in minor units. */
export interface Totals extends Omit<AdDay, 'reach'> {
  reachSum: number;
  /** Distinct days with delivery; rows are filled day by day, so the last day seen is enough to count them. */
  days: number;
  lastDate: string;
}

const LEVEL_DEPTH: Record<InsightsLevel, number> = { account: 0, campaign: 1, adset: 2, ad: 3 };

/** Graph sends every number as a string; ratios keep six decimals, money two. */
function ratio(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}

interface ActionValue {
  action_type: string;
  value: string;
}

function actionList(entries: [string, number][], format: (value: number) => string): ActionValue[] {
  return entries.filter(([, value]) => value > 0).map(([type, value]) => ({ action_type: type, value: format(value) }));
}

/** What one row's formatters read; built once per row. */
interface RowContext {
  account: SandboxAccount;
  campaign: SandboxCampaign;
  adSet: SandboxAdSet;
  ad: SandboxAd;
  depth: number;
  totals: Totals;
  offset: number;
  /** Major units. */
  spend: number;
  reach: number;
  roas: number;
}

const money = (row: RowContext, minor: number): string => String(Math.round((minor / row.offset) * 100) / 100);

function actionCounts({ totals }: RowContext): [string, number][] {
  return [
    ['link_click', totals.linkClicks],
    ['landing_page_view', totals.landingPageViews],
    ['post_engagement', totals.postEngagement],
    ['page_engagement', totals.postEngagement],
    ['add_to_cart', totals.addToCart],
    ['omni_add_to_cart', totals.addToCart],
    ['initiate_checkout', totals.initiateCheckout],
    ['omni_initiated_checkout', totals.initiateCheckout],
    ['lead', totals.leads],
    ['purchase', totals.purchases],
    ['omni_purchase', totals.purchases],
    ['offsite_conversion.fb_pixel_purchase', totals.purchases],
  ];
}

/** Reach over several days overlaps; the same people see an ad again, so it grows slower than the sum. */
function reachOf(totals: Totals): number {
  return Math.min(totals.impressions, Math.round(totals.reachSum / (1 + 0.15 * (totals.days - 1))));
}

const ifDepth = (row: RowContext, depth: number, value: string): string | undefined =>
  row.depth >= depth ? value : undefined;

/** One formatter per Graph field; undefined leaves the field out, as Graph does for values it cannot compute. */
const FORMATTERS: Record<string, (row: RowContext) => unknown> = {
  account_id: (row) => row.account.id,
  account_name: (row) => row.account.name,
  account_currency: (row) => row.account.currency,
  campaign_id: (row) => ifDepth(row, 1, row.campaign.id),
  campaign_name: (row) => ifDepth(row, 1, row.campaign.name),
  objective: (row) => ifDepth(row, 1, row.campaign.objective),
  adset_id: (row) => ifDepth(row, 2, row.adSet.id),
  adset_name: (row) => ifDepth(row, 2, row.adSet.name),
  ad_id: (row) => ifDepth(row, 3, row.ad.id),
  ad_name: (row) => ifDepth(row, 3, row.ad.name),
  impressions: (row) => String(row.totals.impressions),
  reach: (row) => String(row.reach),
  frequency: (row) => (row.reach > 0 ? ratio(row.totals.impressions / row.reach) : undefined),
  clicks: (row) => String(row.totals.clicks),
  inline_link_clicks: (row) => String(row.totals.linkClicks),
  inline_link_click_ctr: (row) => ratio((row.totals.linkClicks / row.totals.impressions) * 100),
  cost_per_inline_link_click: (row) =>
    row.totals.linkClicks > 0 ? ratio(row.spend / row.totals.linkClicks) : undefined,
  spend: (row) => money(row, row.totals.spend),
  cpc: (row) => (row.totals.clicks > 0 ? ratio(row.spend / row.totals.clicks) : undefined),
  cpm: (row) => ratio((row.spend / row.totals.impressions) * 1000),
  cpp: (row) => (row.reach > 0 ? ratio((row.spend / row.reach) * 1000) : undefined),
  ctr: (row) => ratio((row.totals.clicks / row.totals.impressions) * 100),
  actions: (row) => actionList(actionCounts(row), String),
  action_values: (row) =>
    actionList(
      [
        ['purchase', row.totals.purchaseValue],
        ['omni_purchase', row.totals.purchaseValue],
        ['offsite_conversion.fb_pixel_purchase', row.totals.purchaseValue],
      ],
      (minor) => money(row, minor),
    ),
  cost_per_action_type: (row) => actionList(actionCounts(row), (count) => ratio(row.spend / count)),
  purchase_roas: (row) => actionList([['omni_purchase', row.roas]], ratio),
  website_purchase_roas: (row) => actionList([['offsite_conversion.fb_pixel_purchase', row.roas]], ratio),
};

export const INSIGHTS_FIELDS: ReadonlySet<string> = new Set([...Object.keys(FORMATTERS), 'date_start', 'date_stop']);

export function formatInsightsRow(
  world: World,
  account: SandboxAccount,
  ad: SandboxAd,
  query: InsightsQuery,
  totals: Totals,
  dateStart: string,
  dateStop: string,
): Record<string, unknown> {
  const offset = currencyOffset(account.currency);
  const spend = totals.spend / offset;
  const context: RowContext = {
    account,
    campaign: world.campaignOf(ad),
    adSet: world.adSetOf(ad),
    ad,
    depth: LEVEL_DEPTH[query.level],
    totals,
    offset,
    spend,
    reach: reachOf(totals),
    roas: spend > 0 ? totals.purchaseValue / offset / spend : 0,
  };
  const row: Record<string, unknown> = {};
  for (const name of query.fields) {
    const value = FORMATTERS[name]?.(context);
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) row[name] = value;
  }
  row.date_start = dateStart;
  row.date_stop = dateStop;
  return row;
}
