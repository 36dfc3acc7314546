import type { Platform, Strategy } from '@adpilot/contracts';
import { readProduct } from './ad-copy.ts';

/**
 * A starting strategy from the product JSON: channels chosen by who the product is for (business buyers →
 * LinkedIn and Google search; young consumers → TikTok and Instagram; everyone → Meta and Google), an even-handed
 * budget split, the KPIs to watch and the first steps.
 */
export function planStrategy(input: Record<string, unknown> | unknown[]): Strategy {
  const product = readProduct(input);
  const about = JSON.stringify(input).toLowerCase();
  const business = /\bb2b\b|business|company|companies|saas|enterprise|professional|ธุรกิจ|องค์กร/.test(about);
  const young = /gen ?z|teen|student|young|วัยรุ่น|นักศึกษา/.test(about);
  const split: [Platform, number, string][] = business
    ? [
        ['linkedin', 40, 'Reach decision makers by job title and company size'],
        ['google', 40, 'Capture people already searching for the solution'],
        ['facebook', 20, 'Retarget site visitors cheaply'],
      ]
    : young
      ? [
          ['tiktok', 40, 'Short vertical video for discovery'],
          ['instagram', 35, 'Reels and Stories for discovery and retargeting'],
          ['google', 25, 'Search for people ready to buy'],
        ]
      : [
          ['facebook', 50, 'Broad prospecting and retargeting with Advantage+ placements'],
          ['google', 30, 'Search for people ready to buy'],
          ['instagram', 20, 'Reels for discovery'],
        ];
  return {
    summary: `Sell ${product.name}${product.audience ? ` to ${product.audience}` : ''} by pairing discovery on ${split[0]?.[0]} with intent on search, then retargeting the people who showed interest.`,
    audiences: [
      product.audience ?? 'A broad audience in your market, letting the platform find buyers',
      'Lookalikes (1–3%) of your best customers',
      'Retargeting: site visitors and engaged viewers of the last 30 days, excluding buyers',
    ],
    channels: split.map(([platform, , role]) => ({ platform, role })),
    budgetSplit: split.map(([platform, percent]) => ({ platform, percent })),
    kpis: [
      'CPA under half the average order value',
      'ROAS of 3 or more',
      'CTR of 1.5% or more',
      'Frequency under 3 a week',
    ],
    nextSteps: [
      'Install the pixel and the Conversions API and check that purchases arrive with their value',
      'Launch 3–5 creatives per ad set and keep the two best after a week',
      'Add an AdPilot rule that pauses ads whose CPA stays above target, and one that raises the budget of winners by 20%',
    ],
  };
}
