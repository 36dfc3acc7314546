import { z } from 'zod';

/**
 * The advertising vocabulary every part of AdPilot shares: entity levels, currency units, delivery totals and
 * the derived-metric formulas. The sync, the stats endpoint, the rule engine, reports and the AI advisor all
 * compute from these, so a CPA means the same thing everywhere.
 */

/** The levels of Meta's ad hierarchy that we mirror and that rules act on. */
export const ENTITY_LEVELS = ['campaign', 'adset', 'ad'] as const;
export const entityLevelSchema = z.enum(ENTITY_LEVELS);
export type EntityLevel = z.infer<typeof entityLevelSchema>;

/** Insights can also be asked for a whole account. */
export const INSIGHTS_LEVELS = ['account', ...ENTITY_LEVELS] as const;
export type InsightsLevel = (typeof INSIGHTS_LEVELS)[number];

/**
 * Currencies whose Graph API amounts carry no minor unit (Meta's "offset" 1): a budget of 5000 in JPY is ¥5000.
 * Every other currency is sent in hundredths (offset 100): 5000 in THB is ฿50.00.
 */
export const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set([
  'CLP',
  'COP',
  'CRC',
  'HUF',
  'ISK',
  'IDR',
  'JPY',
  'KRW',
  'PYG',
  'TWD',
  'VND',
]);

/** How many Graph API units make one unit of the currency (1 or 100). */
export function currencyOffset(currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency.toUpperCase()) ? 1 : 100;
}

/** A major-unit amount (฿500) as Meta's integer minor units (50000). */
export function toMinorUnits(major: number, currency: string): number {
  return Math.round(major * currencyOffset(currency));
}

/** Meta's integer minor units (50000) as a major-unit amount (฿500). */
export function toMajorUnits(minor: number, currency: string): number {
  return minor / currencyOffset(currency);
}

/** What an entity delivered over some days, summable across days and entities; money in major units. */
export interface DeliveryTotals {
  spend: number;
  impressions: number;
  reach: number;
  clicks: number;
  linkClicks: number;
  conversions: number;
  conversionValue: number;
}

/** One day's delivery figures (`date` is the account's local date, YYYY-MM-DD). */
export interface DailyTotals extends DeliveryTotals {
  date: string;
}

export const INSIGHT_TYPES = [
  'spend',
  'impressions',
  'reach',
  'clicks',
  'linkClicks',
  'conversions',
  'conversionValue',
] as const;

export function emptyTotals(): DeliveryTotals {
  return { spend: 0, impressions: 0, reach: 0, clicks: 0, linkClicks: 0, conversions: 0, conversionValue: 0 };
}

export function addTotals(into: DeliveryTotals, day: DeliveryTotals): DeliveryTotals {
  for (const key of INSIGHT_TYPES) into[key] += day[key];
  return into;
}

/** `numerator / denominator × scale`, or null when the denominator is not positive: no division by zero, ever. */
export function safeRatio(numerator: number, denominator: number, scale = 1): number | null {
  return denominator > 0 ? (numerator / denominator) * scale : null;
}

/**
 * The derived metrics, as Meta defines them. Each is null when it is undefined (CPA with no conversions), and a
 * rule condition on an undefined value never holds.
 */
export const derivedMetrics = {
  /** Clicks per impression, in percent. */
  ctr: (t: DeliveryTotals) => safeRatio(t.clicks, t.impressions, 100),
  /** Spend per click. */
  cpc: (t: DeliveryTotals) => safeRatio(t.spend, t.clicks),
  /** Spend per thousand impressions. */
  cpm: (t: DeliveryTotals) => safeRatio(t.spend, t.impressions, 1000),
  /** Spend per conversion. */
  cpa: (t: DeliveryTotals) => safeRatio(t.spend, t.conversions),
  /** Conversion value per unit of spend. */
  roas: (t: DeliveryTotals) => safeRatio(t.conversionValue, t.spend),
  /** Impressions per person reached. */
  frequency: (t: DeliveryTotals) => safeRatio(t.impressions, t.reach),
} as const;

export type DerivedMetric = keyof typeof derivedMetrics;
