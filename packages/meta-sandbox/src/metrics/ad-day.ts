import { noise } from '../world/random.ts';
import { currencyOffset, priceLevel } from '../world/seed.ts';
import type { Objective, SandboxAd } from '../world/types.ts';

/** One ad's delivery on one local day. Money is in minor units of the account currency. */
export interface AdDay {
  spend: number;
  impressions: number;
  reach: number;
  clicks: number;
  linkClicks: number;
  landingPageViews: number;
  postEngagement: number;
  addToCart: number;
  initiateCheckout: number;
  purchases: number;
  purchaseValue: number;
  leads: number;
}

/** Each metric draws its own noise stream, so changing one formula never shifts the others. */
const Tag = {
  Cpm: 1,
  Impressions: 2,
  Frequency: 3,
  Reach: 4,
  Ctr: 5,
  Clicks: 6,
  LinkClicks: 7,
  LandingRate: 8,
  LandingViews: 9,
  Engagement: 10,
  EngagementRound: 11,
  ConversionRate: 12,
  Conversions: 13,
  AddToCart: 14,
  Checkout: 15,
  OrderValue: 16,
} as const;

/** Rounds up with probability equal to the fraction, so small daily counts still add up right over weeks. */
function stochasticRound(value: number, unit: number): number {
  return Math.max(0, Math.floor(value + unit));
}

/**
 * Turns an ad's spend on a day into the rest of its numbers: impressions from a seeded CPM, clicks from its CTR,
 * conversions from its conversion rate and value from its order value, each with day-to-day noise.
 */
export function deriveAdDay(ad: SandboxAd, objective: Objective, currency: string, day: number, spend: number): AdDay {
  const { profile } = ad;
  const n = (tag: number): number => noise(profile.key, day, tag);
  const offset = currencyOffset(currency);
  const prices = priceLevel(currency);

  // A worn creative (makeFatigued): people see it more often, click less, and Meta charges more to show it.
  const worn = profile.fatigue
    ? profile.fatigue.strength * Math.max(0, Math.min(1, (day - profile.fatigue.fromDay) / 14))
    : 0;
  const cpm = profile.cpmUsd * prices * (0.85 + 0.3 * n(Tag.Cpm)) * (1 + 0.8 * worn);
  const impressions = stochasticRound((spend / offset / cpm) * 1000, n(Tag.Impressions));
  const frequency = 1.05 + 0.35 * n(Tag.Frequency) + 4 * worn;
  const reach = Math.min(impressions, stochasticRound(impressions / frequency, n(Tag.Reach)));
  const clicks = stochasticRound(
    impressions * profile.ctr * (0.8 + 0.4 * n(Tag.Ctr)) * (1 - 0.6 * worn),
    n(Tag.Clicks),
  );
  const linkClicks = Math.min(clicks, stochasticRound(clicks * profile.linkShare, n(Tag.LinkClicks)));
  const landingPageViews = stochasticRound(linkClicks * (0.7 + 0.2 * n(Tag.LandingRate)), n(Tag.LandingViews));
  const postEngagement = clicks + stochasticRound(impressions * 0.01 * n(Tag.Engagement), n(Tag.EngagementRound));

  const rate = profile.conversionRate * (0.7 + 0.6 * n(Tag.ConversionRate));
  const conversions = stochasticRound(linkClicks * rate, n(Tag.Conversions));
  const isLeads = objective === 'OUTCOME_LEADS';
  const purchases = isLeads ? 0 : conversions;
  const initiateCheckout = isLeads ? 0 : Math.max(purchases, stochasticRound(linkClicks * rate * 1.8, n(Tag.Checkout)));
  const addToCart = isLeads
    ? 0
    : Math.max(initiateCheckout, stochasticRound(linkClicks * rate * 3.2, n(Tag.AddToCart)));
  const orderValue = profile.orderValueUsd * prices * (0.8 + 0.4 * n(Tag.OrderValue));

  return {
    spend,
    impressions,
    reach,
    clicks,
    linkClicks,
    landingPageViews,
    postEngagement,
    addToCart,
    initiateCheckout,
    purchases,
    purchaseValue: Math.round(purchases * orderValue * offset),
    leads: isLeads ? conversions : 0,
  };
}
