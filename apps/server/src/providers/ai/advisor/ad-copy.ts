import { AI_LIMITS, PLATFORM_COPY_LIMITS, type Platform } from '@adpilot/contracts';
import type { AdCopyVariation } from '../ai-provider.ts';

/** What the copy is built from, read from the product JSON's common field names. */
export interface ProductFacts {
  name: string;
  benefit?: string;
  audience?: string;
  offer?: string;
  price?: string;
  cta: string;
}

const pick = (record: Record<string, unknown>, keys: string[]): string | undefined => {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value.trim().replace(/\s+/g, ' ');
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (Array.isArray(value)) {
      const first = value.find((item) => typeof item === 'string' && item.trim());
      if (typeof first === 'string') return first.trim().replace(/\s+/g, ' ');
    }
  }
  return undefined;
};

export function readProduct(input: Record<string, unknown> | unknown[]): ProductFacts {
  const record = (Array.isArray(input) ? input.find((item) => item && typeof item === 'object') : input) as
    Record<string, unknown> | undefined;
  const lower: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record ?? {})) lower[key.toLowerCase().replace(/[^a-z]/g, '')] = value;
  const price = pick(lower, ['price', 'cost']);
  const currency = pick(lower, ['currency']);
  return {
    name: pick(lower, ['name', 'product', 'productname', 'title', 'brand']) ?? 'our product',
    benefit: pick(lower, ['benefit', 'benefits', 'usp', 'features', 'feature', 'description', 'tagline']),
    audience: pick(lower, ['audience', 'targetaudience', 'target', 'customers']),
    offer: pick(lower, ['offer', 'discount', 'promotion', 'promo', 'deal']),
    ...(price ? { price: currency ? `${price} ${currency}` : price } : {}),
    cta: pick(lower, ['cta', 'calltoaction']) ?? 'Shop now',
  };
}

const chars = (text: string) => Array.from(text).length;

/**
 * The text cut to `max` characters at a word end where there is one (Thai has no spaces: then at the limit),
 * with no trailing punctuation left dangling.
 */
export function fitTo(text: string, max: number): string {
  if (chars(text) <= max) return text;
  const cut = Array.from(text)
    .slice(0, max - 1)
    .join('');
  const space = cut.lastIndexOf(' ');
  const base = space > max / 2 ? cut.slice(0, space) : cut;
  return `${base.replace(/[\s,;:.\-–]+$/, '')}…`;
}

/** The first candidate that fits whole, else the last one cut to fit. */
function firstThatFits(candidates: string[], max: number): string {
  return candidates.find((candidate) => chars(candidate) <= max) ?? fitTo(candidates.at(-1) ?? '', max);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Three angles — benefit, offer, audience — each in the platform's voice and within its limits. */
export function writeAdCopy(product: ProductFacts, platform: Platform): AdCopyVariation[] {
  const limits = PLATFORM_COPY_LIMITS[platform];
  const { name, benefit, audience, offer, price, cta } = product;
  const benefitLine = benefit ? `${name}: ${lowerFirst(benefit)}.` : `Meet ${name}.`;
  const offerLine = offer ? `${offer}.` : price ? `From ${price}.` : 'Available now.';
  const forWho = audience ? `Made for ${lowerFirst(audience)}.` : '';
  const professional = platform === 'linkedin';
  const short = platform === 'google';

  const angles: { headlines: string[]; texts: string[] }[] = [
    {
      headlines: [benefit ? `${name}: ${benefit}` : `Discover ${name}`, `Discover ${name}`, name],
      texts: [
        [benefitLine, forWho, `${cta}.`].filter(Boolean).join(' '),
        [benefitLine, `${cta}.`].join(' '),
        benefitLine,
      ],
    },
    {
      headlines: [offer ? `${offer} on ${name}` : `${name}${price ? ` from ${price}` : ''}`, offer ?? name, name],
      texts: [
        [
          offerLine,
          benefit ? `${name} ${professional ? 'delivers' : 'gives you'} ${lowerFirst(benefit)}.` : '',
          `${cta} today.`,
        ]
          .filter(Boolean)
          .join(' '),
        [offerLine, `${cta} today.`].join(' '),
        offerLine,
      ],
    },
    {
      headlines: [
        audience ? `${name} for ${lowerFirst(audience)}` : `Why people choose ${name}`,
        short ? name : `Why ${name}?`,
        name,
      ],
      texts: [
        [
          audience
            ? `${professional ? 'For' : 'Calling all'} ${lowerFirst(audience)}:`
            : 'Looking for something better?',
          benefit ? `${name} ${lowerFirst(benefit)}.` : `${name} is here.`,
          offer ? `${offer}.` : '',
          `${cta}.`,
        ]
          .filter(Boolean)
          .join(' '),
        [benefit ? `${name} ${lowerFirst(benefit)}.` : `${name} is here.`, `${cta}.`].join(' '),
        `${name}. ${cta}.`,
      ],
    },
  ];
  return angles.slice(0, AI_LIMITS.copyVariations).map((angle) => ({
    headline: platform === 'tiktok' ? null : firstThatFits(angle.headlines, limits.headline),
    primaryText: firstThatFits(angle.texts, limits.primaryText),
  }));
}
