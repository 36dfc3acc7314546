import type { Objective } from './types.ts';

export const CAMPAIGN_NAMES: Record<Objective, readonly string[]> = {
  OUTCOME_SALES: [
    'Always-on Sales — Catalog',
    'Spring Sale — Conversions',
    'Retargeting — Cart Abandoners',
    'Advantage+ Shopping',
    'New Collection Launch',
    'Bestsellers — Prospecting',
  ],
  OUTCOME_TRAFFIC: ['Website Visits — Broad', 'Blog Traffic — Evergreen'],
  OUTCOME_LEADS: ['Lead Form — Free Consultation', 'Newsletter Sign-ups'],
  OUTCOME_AWARENESS: ['Brand Awareness — Video', 'Reach — Local Radius'],
};

export const AD_SET_NAMES: readonly string[] = [
  'Broad 18-65+',
  'Women 25-44 — Home Decor',
  'Lookalike 1% — Purchasers',
  'Retargeting — Site Visitors 30d',
  'Advantage+ Audience',
  'Men 18-34 — Coffee Lovers',
  'Lookalike 3% — Engagers',
  'Customer List — Past Buyers',
  'Interests — Travel & Food',
];

export const AD_NAMES: readonly string[] = [
  'Carousel — Bestsellers',
  'Video 15s — Customer Review',
  'Static — 20% Off',
  'Reels 9:16 — Behind the Scenes',
  'Collection — New Arrivals',
  'Static — Free Shipping',
  'Video 6s — Logo Bumper',
  'Carousel — Customer Favourites',
];

/** Cycling through a short list, with a number once the names repeat, keeps big worlds readable. */
export function cycleName(names: readonly string[], index: number): string {
  const base = names[index % names.length] ?? 'Untitled';
  const round = Math.floor(index / names.length);
  return round === 0 ? base : `${base} #${round + 1}`;
}
