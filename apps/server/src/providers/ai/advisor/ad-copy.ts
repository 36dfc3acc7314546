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

/**
 * Plain text (`{ description }` only): its first phrase is the name, the rest the benefit. A phrase ends at a line
 * break, a colon, a dash between spaces, a sentence's end, or (Thai, which has no spaces between words) a space.
 */
function fromDescription(description: string, language: 'en' | 'th'): { name: string; benefit?: string } {
  const text = description.replace(/\s+/g, ' ').trim();
  const cut = language === 'th' ? /\s*(?:\n|:|\s[-–—]\s|\.\s|\s)\s*/ : /\s*(?:\n|:|\s[-–—]\s|\.\s|,\s)\s*/;
  const match = cut.exec(description.trim());
  const name = (match ? description.trim().slice(0, match.index) : text).trim();
  const benefit = match
    ? description
        .trim()
        .slice(match.index + match[0].length)
        .replace(/\s+/g, ' ')
        .replace(/[.\s]+$/, '')
    : '';
  if ([...name].length > 40) return { name: [...text].slice(0, 40).join('').trim(), benefit: text };
  return benefit ? { name, benefit } : { name };
}

export function readProduct(input: Record<string, unknown> | unknown[], language: 'en' | 'th' = 'en'): ProductFacts {
  const record = (Array.isArray(input) ? input.find((item) => item && typeof item === 'object') : input) as
    Record<string, unknown> | undefined;
  const lower: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record ?? {})) lower[key.toLowerCase().replace(/[^a-z]/g, '')] = value;
  const price = pick(lower, ['price', 'cost']);
  const currency = pick(lower, ['currency']);
  const named = pick(lower, ['name', 'product', 'productname', 'title', 'brand']);
  const description = pick(lower, ['description']);
  const derived = !named && description ? fromDescription(description, language) : null;
  const defaultCta = language === 'th' ? 'สั่งซื้อเลย' : 'Shop now';
  const cta = pick(lower, ['cta', 'calltoaction']);
  return {
    name: named ?? derived?.name ?? (language === 'th' ? 'สินค้าของเรา' : 'our product'),
    benefit: derived
      ? derived.benefit
      : pick(lower, ['benefit', 'benefits', 'usp', 'features', 'feature', 'description', 'tagline']),
    audience: pick(lower, ['audience', 'targetaudience', 'target', 'customers']),
    offer: pick(lower, ['offer', 'discount', 'promotion', 'promo', 'deal']),
    ...(price ? { price: currency ? `${price} ${currency}` : price } : {}),
    // Thai copy takes a call to action only when it is Thai: an English one would mix languages.
    cta: cta && (language !== 'th' || /[\u0E00-\u0E7F]/.test(cta)) ? cta : defaultCta,
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

/**
 * Thai copy (issue 29): every word of ours Thai (no "Discover", no "Shop now"), the product's own words as given,
 * three angles — benefit, offer, audience — each within the platform's limits.
 */
export function writeThaiAdCopy(product: ProductFacts, platform: Platform): AdCopyVariation[] {
  const limits = PLATFORM_COPY_LIMITS[platform];
  const { name, benefit, audience, offer, price, cta } = product;
  const join = (...parts: (string | undefined | false)[]) => parts.filter(Boolean).join(' ');
  const angles: { headlines: string[]; texts: string[] }[] = [
    {
      headlines: [benefit ? `${name} ${benefit}` : `พบกับ ${name}`, `พบกับ ${name}`, name],
      texts: [
        join(benefit ? `${name} ${benefit}` : `พบกับ ${name}`, audience && `เหมาะสำหรับ${audience}`, cta),
        join(benefit ? `${name} ${benefit}` : `พบกับ ${name}`, cta),
        benefit ? `${name} ${benefit}` : `พบกับ ${name}`,
      ],
    },
    {
      headlines: [offer ? `${offer} ${name}` : price ? `${name} เพียง ${price}` : `${name} พร้อมส่ง`, offer ?? name, name],
      texts: [
        join(offer ?? (price ? `เพียง ${price}` : 'พร้อมส่งแล้ววันนี้'), benefit && `${name} ${benefit}`, `${cta}วันนี้`),
        join(offer ?? (price ? `เพียง ${price}` : 'พร้อมส่งแล้ววันนี้'), `${cta}วันนี้`),
        offer ?? `${name} พร้อมส่ง`,
      ],
    },
    {
      headlines: [audience ? `${name} สำหรับ${audience}` : `ทำไมต้อง ${name}`, `ทำไมต้อง ${name}`, name],
      texts: [
        join(
          audience ? `${audience}ห้ามพลาด` : 'กำลังมองหาสิ่งที่ดีกว่าอยู่ใช่ไหม',
          benefit ? `${name} ${benefit}` : `${name} มาแล้ว`,
          offer,
          cta,
        ),
        join(benefit ? `${name} ${benefit}` : `${name} มาแล้ว`, cta),
        `${name} ${cta}`,
      ],
    },
  ];
  return angles.slice(0, AI_LIMITS.copyVariations).map((angle) => ({
    headline: platform === 'tiktok' ? null : firstThatFits(angle.headlines, limits.headline),
    primaryText: firstThatFits(angle.texts, limits.primaryText),
  }));
}
