import type { InsightsLevel } from '@adpilot/contracts';

export type { InsightsLevel };

export interface InsightsAction {
  actionType: string;
  value: number;
}

/**
 * One insights row with Graph's field names, numbers parsed (spend in MAJOR units of the account currency) and
 * action arrays as `{ actionType, value }`, plus three convenience totals every consumer needs.
 */
export interface InsightsRow {
  date_start: string;
  date_stop: string;
  account_id?: string;
  account_name?: string;
  account_currency?: string;
  campaign_id?: string;
  campaign_name?: string;
  adset_id?: string;
  adset_name?: string;
  ad_id?: string;
  ad_name?: string;
  objective?: string;
  impressions?: number;
  reach?: number;
  frequency?: number;
  clicks?: number;
  inline_link_clicks?: number;
  spend?: number;
  cpc?: number;
  cpm?: number;
  cpp?: number;
  ctr?: number;
  actions?: InsightsAction[];
  action_values?: InsightsAction[];
  cost_per_action_type?: InsightsAction[];
  purchase_roas?: InsightsAction[];
  website_purchase_roas?: InsightsAction[];
  /** inline_link_clicks, else the link_click action. */
  linkClicks: number;
  /** Purchases: omni_purchase, else purchase, else offsite_conversion.fb_pixel_purchase. */
  conversions: number;
  /** Value of those purchases, in major units. */
  conversionValue: number;
  /** Any other field requested, parsed by the same rules. */
  [field: string]: string | number | InsightsAction[] | undefined;
}

export interface InsightsOptions {
  level: InsightsLevel;
  timeRange: { since: string; until: string };
  /** Days per row (1 = daily) or one row for the whole range; default 1. */
  timeIncrement?: number | 'all_days';
  /** Graph field names; default: ids and names down to the level, delivery, clicks, spend and actions. */
  fields?: string[];
  /** 'auto' (default): synchronous for small requests, the async report flow for big ones or on "too much data". */
  async?: 'auto' | 'always' | 'never';
  /** The ad account of a campaign/ad set/ad id, for throttling; implied for act_ ids. */
  accountId?: string;
}

const PURCHASE_TYPES = ['omni_purchase', 'purchase', 'offsite_conversion.fb_pixel_purchase'];
const TEXT_FIELDS = new Set([
  'date_start',
  'date_stop',
  'account_currency',
  'objective',
  'buying_type',
  'optimization_goal',
  'attribution_setting',
]);
const LEVEL_ORDER: readonly InsightsLevel[] = ['account', 'campaign', 'adset', 'ad'];

const METRIC_FIELDS = [
  'account_currency',
  'impressions',
  'reach',
  'frequency',
  'clicks',
  'inline_link_clicks',
  'spend',
  'cpc',
  'cpm',
  'ctr',
  'actions',
  'action_values',
  'purchase_roas',
];

export function defaultInsightsFields(level: InsightsLevel): string[] {
  const depth = LEVEL_ORDER.indexOf(level);
  const ids = LEVEL_ORDER.slice(0, depth + 1).flatMap((name) => [`${name}_id`, `${name}_name`]);
  return [...ids, ...METRIC_FIELDS];
}

function isTextField(name: string): boolean {
  return TEXT_FIELDS.has(name) || name.endsWith('_id') || name.endsWith('_name');
}

function parseActions(list: unknown[]): InsightsAction[] {
  return list.flatMap((entry) => {
    const item = entry as { action_type?: unknown; value?: unknown };
    if (typeof item?.action_type !== 'string') return [];
    const value = Number(item.value);
    return Number.isFinite(value) ? [{ actionType: item.action_type, value }] : [];
  });
}

function firstOf(actions: InsightsAction[] | undefined, types: readonly string[]): number | undefined {
  for (const type of types) {
    const found = actions?.find((action) => action.actionType === type);
    if (found) return found.value;
  }
  return undefined;
}

/** Parses a wire row: numeric strings become numbers, action arrays become `{ actionType, value }` lists. */
export function parseInsightsRow(wire: Record<string, unknown>): InsightsRow {
  const row: Record<string, string | number | InsightsAction[] | undefined> = {};
  for (const [name, value] of Object.entries(wire)) {
    if (Array.isArray(value)) row[name] = parseActions(value);
    else if (typeof value === 'number') row[name] = value;
    else if (typeof value === 'string') {
      const number = Number(value);
      row[name] = isTextField(name) || value.trim() === '' || !Number.isFinite(number) ? value : number;
    }
  }
  const actions = row.actions as InsightsAction[] | undefined;
  const values = row.action_values as InsightsAction[] | undefined;
  const inlineLinkClicks = row.inline_link_clicks;
  return {
    ...row,
    date_start: String(wire.date_start ?? ''),
    date_stop: String(wire.date_stop ?? ''),
    linkClicks: typeof inlineLinkClicks === 'number' ? inlineLinkClicks : (firstOf(actions, ['link_click']) ?? 0),
    conversions: firstOf(actions, PURCHASE_TYPES) ?? 0,
    conversionValue: firstOf(values, PURCHASE_TYPES) ?? 0,
  };
}

export function insightsParams(options: InsightsOptions, pageSize: number): Record<string, string> {
  return {
    level: options.level,
    fields: (options.fields ?? defaultInsightsFields(options.level)).join(','),
    time_range: JSON.stringify(options.timeRange),
    time_increment: String(options.timeIncrement ?? 1),
    limit: String(pageSize),
  };
}

/** Long daily ranges at ad level are what Meta refuses synchronously; ask for those as a report run up front. */
export function prefersAsync(options: InsightsOptions): boolean {
  const days = (Date.parse(options.timeRange.until) - Date.parse(options.timeRange.since)) / 86_400_000 + 1;
  return days > (options.level === 'ad' ? 31 : 93);
}
