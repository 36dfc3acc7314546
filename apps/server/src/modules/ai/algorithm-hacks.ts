import type { AlgorithmHack, HackPlatform } from '@adpilot/contracts';

type Hack = Omit<AlgorithmHack, 'locked'> & { description: string; implementation: string };

/**
 * The curated catalogue behind GET /api/ai/algorithm-hacks/:platform: techniques that work with each platform's
 * delivery system rather than against its policies. Effectiveness is an editorial estimate of the typical
 * improvement, not a measurement; the risk level says what can go wrong. The first FREE_HACKS of each platform are
 * open on the free plan; the rest show their title and risk only.
 */
export const FREE_HACKS = 2;

export const ALGORITHM_HACKS: Record<HackPlatform, readonly Hack[]> = {
  facebook: [
    {
      technique: 'Broad targeting with strong creative',
      riskLevel: 'low',
      effectiveness: 25,
      description:
        'Meta’s delivery finds buyers better than hand-picked interests once it has conversion data. Estimated gain: around 25% lower CPA for accounts with a working pixel. Risk: with little conversion data, broad audiences spend on the wrong people at first.',
      implementation:
        'Duplicate your best ad set, remove interests (keep country, age and language), keep the same creative, and compare CPA after 7 days and at least 50 conversions.',
    },
    {
      technique: 'Budget increases of 20% at most',
      riskLevel: 'low',
      effectiveness: 15,
      description:
        'A large budget jump can send an ad set back into the learning phase and raise costs for days. Small steps keep delivery stable. Estimated effect: avoids a 10–20% CPA spike after scaling.',
      implementation:
        'Raise budgets by 20% at most every 48–72 hours; an AdPilot rule can do it when ROAS stays above target, with a ceiling and a 24-hour cooldown.',
    },
    {
      technique: 'Creative refresh before fatigue',
      riskLevel: 'low',
      effectiveness: 20,
      description:
        'When frequency passes about 3, CTR usually falls and CPM rises. Fresh creative restores engagement. Estimated gain: 15–25% better CTR than leaving a fatigued ad running.',
      implementation:
        'Watch frequency over 7 days; prepare 2–3 new creatives per ad set and add them when frequency passes 2.5. An AdPilot rule can notify you at frequency > 3.',
    },
    {
      technique: 'Conversions API alongside the pixel',
      riskLevel: 'low',
      effectiveness: 15,
      description:
        'Server-side events recover conversions that browsers block, giving the algorithm more signal. Estimated effect: 10–20% more attributed conversions. Risk: duplicate counting if events are not deduplicated.',
      implementation:
        'Send Purchase events from your server with the same event_id as the pixel event, then check deduplication in Events Manager.',
    },
    {
      technique: 'Cost cap bidding on proven ad sets',
      riskLevel: 'medium',
      effectiveness: 20,
      description:
        'A cost cap keeps the average CPA near your target while scaling. Risk: a cap set too low stops delivery altogether.',
      implementation:
        'Set the cap at your last-30-day CPA plus 10–20%, on ad sets with stable conversions; lower it in small steps.',
    },
  ],
  google: [
    {
      technique: 'Exact and phrase match for proven keywords',
      riskLevel: 'low',
      effectiveness: 20,
      description:
        'Tighter match types stop spend on loosely related searches. Estimated gain: 10–25% lower CPA on mature accounts. Risk: less reach for new queries.',
      implementation:
        'Move keywords with conversions into exact/phrase ad groups and review the search terms report weekly.',
    },
    {
      technique: 'Negative keyword lists',
      riskLevel: 'low',
      effectiveness: 15,
      description:
        'Excluding irrelevant searches (free, jobs, how to) removes wasted clicks. Estimated effect: 5–15% less waste.',
      implementation:
        'Build a shared negative list from the search terms report and apply it to every search campaign.',
    },
    {
      technique: 'Fifteen distinct headlines in responsive search ads',
      riskLevel: 'low',
      effectiveness: 10,
      description:
        'Google combines headlines itself; more distinct options raise ad strength and impression share. Estimated gain: 5–10% more clicks.',
      implementation:
        'Write 15 headlines (30 characters each) with different angles; pin only what legally must appear.',
    },
    {
      technique: 'Target ROAS after 50 conversions',
      riskLevel: 'medium',
      effectiveness: 20,
      description:
        'Value-based bidding helps once there is enough data. Risk: a target set too high throttles volume sharply.',
      implementation:
        'Switch only with 50+ conversions in 30 days; start at your actual ROAS, then raise it by 10% steps.',
    },
    {
      technique: 'Ad schedule bid adjustments',
      riskLevel: 'medium',
      effectiveness: 10,
      description:
        'Conversion rates differ by hour and day. Risk: small samples make patterns look real when they are noise.',
      implementation: 'Use 90 days of data; lower bids only in hours with clearly worse CPA over many conversions.',
    },
  ],
  tiktok: [
    {
      technique: 'Hook in the first two seconds',
      riskLevel: 'low',
      effectiveness: 30,
      description:
        'TikTok ranks ads on early watch time; a strong opening keeps viewers. Estimated gain: 20–40% better 2-second view rate.',
      implementation: 'Open on the product or the problem, with on-screen text; cut logos and intros.',
    },
    {
      technique: 'Native-looking creator content',
      riskLevel: 'low',
      effectiveness: 25,
      description:
        'Ads that look like ordinary TikToks are watched longer than polished commercials. Estimated gain: 15–30% lower CPA.',
      implementation:
        'Film vertically on a phone, use a real person talking to camera and trending sounds you hold rights to.',
    },
    {
      technique: 'Spark Ads from organic posts',
      riskLevel: 'low',
      effectiveness: 20,
      description:
        'Boosting posts that already perform keeps their social proof (likes, comments). Risk: comments are public and need moderating.',
      implementation: 'Get the creator’s authorisation code and run the post as a Spark Ad in an existing ad group.',
    },
    {
      technique: 'Creative rotation every 7–10 days',
      riskLevel: 'medium',
      effectiveness: 15,
      description: 'TikTok creative fatigues fast. Risk: rotating too often resets learning before results are clear.',
      implementation: 'Keep 3–5 creatives per ad group and replace the weakest one each week.',
    },
    {
      technique: 'Automatic targeting with exclusions',
      riskLevel: 'medium',
      effectiveness: 15,
      description:
        'Letting TikTok target widely works for broad products. Risk: niche products waste spend on the wrong audience.',
      implementation:
        'Start automatic, exclude existing customers and app installers, and compare against an interest ad group.',
    },
  ],
  linkedin: [
    {
      technique: 'Job function plus seniority instead of job titles',
      riskLevel: 'low',
      effectiveness: 20,
      description:
        'Titles vary wildly; function and seniority reach the same people more completely. Estimated gain: 10–25% larger relevant audience.',
      implementation:
        'Target function + seniority + company size, and keep audiences between 50,000 and 500,000 members.',
    },
    {
      technique: 'Lead gen forms',
      riskLevel: 'low',
      effectiveness: 25,
      description:
        'Pre-filled forms convert far better than landing pages on mobile. Risk: lower lead quality without a qualifying question.',
      implementation: 'Keep 3–5 fields, add one qualifying question, and sync leads to your CRM daily.',
    },
    {
      technique: 'Document ads for high-value content',
      riskLevel: 'low',
      effectiveness: 15,
      description: 'Previewing a few pages of a guide before gating it builds trust and raises form completion.',
      implementation: 'Upload a PDF, show the first 3–5 pages, and gate the rest behind a lead gen form.',
    },
    {
      technique: 'Manual bidding below the suggested bid',
      riskLevel: 'medium',
      effectiveness: 15,
      description: 'LinkedIn’s suggested bids are often high. Risk: bidding too low stops delivery entirely.',
      implementation: 'Start at the low end of the suggested range and raise by 10% if delivery stalls for two days.',
    },
    {
      technique: 'Company list retargeting',
      riskLevel: 'medium',
      effectiveness: 20,
      description:
        'Account-based lists focus spend on companies you want. Risk: small lists deliver slowly and cost more per click.',
      implementation: 'Upload 300+ target companies, pair them with seniority, and cap frequency with a small budget.',
    },
  ],
};

/** The platform's catalogue as the plan may see it: everything, or the first few with the rest locked. */
export function hacksFor(platform: HackPlatform, access: 'limited' | 'full'): AlgorithmHack[] {
  return ALGORITHM_HACKS[platform].map((hack, index) =>
    access === 'full' || index < FREE_HACKS
      ? { ...hack, locked: false }
      : { ...hack, description: null, implementation: null, locked: true },
  );
}
