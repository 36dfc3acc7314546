import { emptyTotals, type DeliveryTotals } from '@adpilot/contracts';

/** One campaign's delivery as the user pasted it, in whatever common field names they used. */
export interface PastedCampaign {
  name: string;
  totals: DeliveryTotals;
  currency?: string;
  /** A CPA the user aims for, when they said so. */
  targetCpa?: number;
}

/** Field names seen in exports from Ads Manager, Google Ads and our own stats endpoint, lower-cased, no separators. */
const ALIASES: Record<keyof DeliveryTotals, string[]> = {
  spend: ['spend', 'amountspent', 'cost', 'spent', 'adspend'],
  impressions: ['impressions', 'impr', 'views'],
  reach: ['reach', 'uniquereach'],
  clicks: ['clicks', 'allclicks', 'clicksall'],
  linkClicks: ['linkclicks', 'inlinelinkclicks'],
  conversions: ['conversions', 'purchases', 'results', 'orders', 'sales', 'leads'],
  conversionValue: ['conversionvalue', 'revenue', 'purchasevalue', 'value', 'sales_value', 'salesvalue'],
};
const NAME_KEYS = ['name', 'campaign', 'campaignname', 'title'];

const keyOf = (key: string) => key.toLowerCase().replace(/[^a-z]/g, '');

/** A number, or a numeric string such as "1,234.50" or "฿500"; anything else is absent. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const cleaned = value.replace(/[,\s฿$€£]/g, '');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return undefined;
  return Number(cleaned);
}

function campaignOf(record: Record<string, unknown>, index: number): PastedCampaign | null {
  const flat = new Map<string, unknown>();
  for (const [key, value] of Object.entries(record)) flat.set(keyOf(key), value);
  // Our own stats answer nests the figures under `totals`.
  const nested = record.totals;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
    for (const [key, value] of Object.entries(nested)) if (!flat.has(keyOf(key))) flat.set(keyOf(key), value);
  }
  const totals = emptyTotals();
  let found = 0;
  for (const field of Object.keys(ALIASES) as (keyof DeliveryTotals)[]) {
    for (const alias of ALIASES[field]) {
      const value = numberOf(flat.get(keyOf(alias)));
      if (value !== undefined) {
        totals[field] = value;
        found += 1;
        break;
      }
    }
  }
  if (found === 0) return null;
  if (totals.clicks === 0 && totals.linkClicks > 0) totals.clicks = totals.linkClicks;
  const nameValue = NAME_KEYS.map((key) => flat.get(key)).find((value) => typeof value === 'string' && value.trim());
  const currency = flat.get('currency');
  const targetCpa = numberOf(flat.get('targetcpa'));
  return {
    name: typeof nameValue === 'string' ? nameValue.trim().slice(0, 80) : `Campaign ${index + 1}`,
    totals,
    ...(typeof currency === 'string' && /^[A-Za-z]{3}$/.test(currency) ? { currency: currency.toUpperCase() } : {}),
    ...(targetCpa !== undefined && targetCpa > 0 ? { targetCpa } : {}),
  };
}

/**
 * The campaigns in what the user pasted: one object, a list, or a list under `campaigns` / `data`. Entries with no
 * figure we know are left out.
 */
export function readCampaigns(input: Record<string, unknown> | unknown[]): PastedCampaign[] {
  let list: unknown[];
  if (Array.isArray(input)) list = input;
  else if (Array.isArray(input.campaigns)) list = input.campaigns;
  else if (Array.isArray(input.data)) list = input.data;
  else list = [input];
  const outer = !Array.isArray(input) && typeof input.currency === 'string' ? input.currency : undefined;
  return list
    .slice(0, 100)
    .flatMap((entry, index) =>
      entry && typeof entry === 'object' && !Array.isArray(entry)
        ? [campaignOf(entry as Record<string, unknown>, index)]
        : [],
    )
    .filter((campaign): campaign is PastedCampaign => campaign !== null)
    .map((campaign) =>
      campaign.currency || !outer || !/^[A-Za-z]{3}$/.test(outer)
        ? campaign
        : { ...campaign, currency: outer.toUpperCase() },
    );
}
