import {
  addTotals,
  AI_LIMITS,
  derivedMetrics,
  emptyTotals,
  formatFigure,
  type AnalysisItem,
  type DeliveryTotals,
} from '@adpilot/contracts';
import { readCampaigns, type PastedCampaign } from './campaign-data.ts';

/**
 * The benchmarks the advisor compares with, stated so a user can check them: broad cross-industry figures for
 * Meta feed ads. Money benchmarks are in US dollars and in baht (× 35, spec §9's rate); for other currencies the
 * advisor reports the figures without judging them.
 */
export const BENCHMARKS = {
  ctr: { weakBelow: 0.9, strongFrom: 1.5 },
  cpcUsd: { highAbove: 1.5, lowBelow: 0.6 },
  cpmUsd: { highAbove: 15, lowBelow: 6 },
  roas: { losingBelow: 1, thinBelow: 2, strongFrom: 3 },
  frequency: { fatigueAbove: 3, watchAbove: 2 },
  /** CPA as a share of the average order value (conversion value ÷ conversions). */
  cpaShareOfOrder: { highAbove: 0.5, lowBelow: 0.25 },
} as const;
const USD_RATE: Record<string, number> = { USD: 1, THB: 35 };

const pct = (value: number) => `${formatFigure(value)}%`;
const money = (value: number, currency: string) => `${formatFigure(value)} ${currency}`;

interface Judged {
  item: AnalysisItem;
  rank: number;
}
const RANK = { warning: 0, optimization: 1, success: 2 } as const;
const judged = (type: AnalysisItem['type'], title: string, description: string): Judged => ({
  item: { type, title, description },
  rank: RANK[type],
});

function judgeTotals(label: string, totals: DeliveryTotals, currency: string, targetCpa?: number): Judged[] {
  const out: Judged[] = [];
  const rate = USD_RATE[currency];
  const scope = label ? ` (${label})` : '';
  const ctr = derivedMetrics.ctr(totals);
  if (ctr !== null) {
    const b = BENCHMARKS.ctr;
    const figures = `CTR is ${pct(ctr)}: ${formatFigure(totals.clicks)} clicks from ${formatFigure(totals.impressions)} impressions`;
    if (ctr < b.weakBelow)
      out.push(
        judged(
          'optimization',
          `Low click-through rate${scope}`,
          `${figures}, below the ${pct(b.weakBelow)} benchmark. Test a new hook in the first line and image, and narrow the audience.`,
        ),
      );
    else if (ctr >= b.strongFrom)
      out.push(
        judged('success', `Strong click-through rate${scope}`, `${figures}, above the ${pct(b.strongFrom)} benchmark.`),
      );
  }
  const cpc = derivedMetrics.cpc(totals);
  if (cpc !== null && rate !== undefined) {
    const high = BENCHMARKS.cpcUsd.highAbove * rate;
    const low = BENCHMARKS.cpcUsd.lowBelow * rate;
    const figures = `CPC is ${money(cpc, currency)} (${money(totals.spend, currency)} spent on ${formatFigure(totals.clicks)} clicks)`;
    if (cpc > high)
      out.push(
        judged(
          'optimization',
          `Expensive clicks${scope}`,
          `${figures}, above the ${money(high, currency)} benchmark. Better CTR usually brings CPC down; try broader placements.`,
        ),
      );
    else if (cpc < low)
      out.push(judged('success', `Cheap clicks${scope}`, `${figures}, below the ${money(low, currency)} benchmark.`));
  }
  const cpm = derivedMetrics.cpm(totals);
  if (cpm !== null && rate !== undefined) {
    const high = BENCHMARKS.cpmUsd.highAbove * rate;
    const figures = `CPM is ${money(cpm, currency)} per 1,000 impressions`;
    if (cpm > high)
      out.push(
        judged(
          'optimization',
          `High cost per 1,000 impressions${scope}`,
          `${figures}, above the ${money(high, currency)} benchmark: the audience may be too narrow or heavily contested.`,
        ),
      );
  }
  const roas = derivedMetrics.roas(totals);
  if (roas !== null && totals.conversionValue > 0) {
    const b = BENCHMARKS.roas;
    const figures = `ROAS is ${formatFigure(roas)}: ${money(totals.conversionValue, currency)} of sales from ${money(totals.spend, currency)} spent`;
    if (roas < b.losingBelow)
      out.push(
        judged(
          'warning',
          `Spending more than it earns${scope}`,
          `${figures}, below ${b.losingBelow}. Pause the weakest ads or lower the budget until it recovers.`,
        ),
      );
    else if (roas < b.thinBelow)
      out.push(
        judged(
          'optimization',
          `Thin return on ad spend${scope}`,
          `${figures}, under the ${b.thinBelow} most margins need. Shift budget to the best ad sets.`,
        ),
      );
    else if (roas >= b.strongFrom)
      out.push(
        judged(
          'success',
          `Strong return on ad spend${scope}`,
          `${figures}, at or above the ${b.strongFrom} benchmark. A candidate to scale by 20% at a time.`,
        ),
      );
  }
  const cpa = derivedMetrics.cpa(totals);
  if (cpa !== null) {
    const order = totals.conversionValue > 0 ? totals.conversionValue / totals.conversions : null;
    const figures = `CPA is ${money(cpa, currency)} (${money(totals.spend, currency)} for ${formatFigure(totals.conversions)} conversions)`;
    if (targetCpa !== undefined) {
      if (cpa > targetCpa)
        out.push(
          judged(
            'warning',
            `Above the target CPA${scope}`,
            `${figures}, above your ${money(targetCpa, currency)} target.`,
          ),
        );
      else
        out.push(
          judged(
            'success',
            `Within the target CPA${scope}`,
            `${figures}, within your ${money(targetCpa, currency)} target.`,
          ),
        );
    } else if (order !== null) {
      const share = cpa / order;
      const b = BENCHMARKS.cpaShareOfOrder;
      if (share > b.highAbove)
        out.push(
          judged(
            'warning',
            `Conversions cost too much of each order${scope}`,
            `${figures}: ${pct(share * 100)} of the ${money(order, currency)} average order, above the ${pct(b.highAbove * 100)} benchmark.`,
          ),
        );
      else if (share < b.lowBelow)
        out.push(
          judged(
            'success',
            `Efficient conversions${scope}`,
            `${figures}: ${pct(share * 100)} of the ${money(order, currency)} average order, under ${pct(b.lowBelow * 100)}.`,
          ),
        );
    }
  } else if (totals.spend > 0 && totals.conversions === 0 && totals.clicks > 0) {
    out.push(
      judged(
        'warning',
        `No conversions yet${scope}`,
        `${money(totals.spend, currency)} spent and ${formatFigure(totals.clicks)} clicks without a conversion. Check the pixel and the landing page.`,
      ),
    );
  }
  const frequency = derivedMetrics.frequency(totals);
  if (frequency !== null) {
    const b = BENCHMARKS.frequency;
    const figures = `Frequency is ${formatFigure(frequency)}: ${formatFigure(totals.impressions)} impressions to ${formatFigure(totals.reach)} people`;
    if (frequency > b.fatigueAbove)
      out.push(
        judged(
          'warning',
          `Ad fatigue risk${scope}`,
          `${figures}, above ${b.fatigueAbove}. Refresh the creative or widen the audience.`,
        ),
      );
    else if (frequency > b.watchAbove)
      out.push(
        judged(
          'optimization',
          `Frequency rising${scope}`,
          `${figures}, above ${b.watchAbove}. Prepare new creative before it passes ${b.fatigueAbove}.`,
        ),
      );
  }
  return out;
}

function sumOf(campaigns: PastedCampaign[]): DeliveryTotals {
  return campaigns.reduce((sum, campaign) => addTotals(sum, campaign.totals), emptyTotals());
}

/**
 * Spec §3 analysis items from the pasted campaign data: CTR, CPC, CPM, CPA, ROAS and frequency computed with the
 * shared formulas, each compared with BENCHMARKS; warnings first, then optimizations, then successes.
 */
export function analyzeCampaigns(input: Record<string, unknown> | unknown[]): AnalysisItem[] {
  const campaigns = readCampaigns(input);
  if (campaigns.length === 0) {
    return [
      {
        type: 'warning',
        title: 'No figures found',
        description:
          'The data holds none of the fields the analysis reads: spend, impressions, reach, clicks, conversions, conversion_value (or revenue).',
      },
    ];
  }
  const currency = campaigns.find((campaign) => campaign.currency)?.currency ?? 'USD';
  const found: Judged[] = [];
  if (campaigns.length === 1) {
    const [only] = campaigns as [PastedCampaign];
    found.push(...judgeTotals('', only.totals, only.currency ?? currency, only.targetCpa));
  } else {
    found.push(...judgeTotals('all campaigns', sumOf(campaigns), currency));
    for (const campaign of campaigns) {
      found.push(
        ...judgeTotals(campaign.name, campaign.totals, campaign.currency ?? currency, campaign.targetCpa).filter(
          (entry) => entry.item.type !== 'optimization',
        ),
      );
    }
  }
  if (found.length === 0) {
    const totals = sumOf(campaigns);
    const ctr = derivedMetrics.ctr(totals);
    found.push(
      judged(
        'success',
        'Within the benchmarks',
        `No figure is outside the benchmarks${ctr === null ? '' : ` (CTR ${pct(ctr)})`}. Add conversions and conversion value for a fuller analysis.`,
      ),
    );
  }
  return found
    .sort((a, b) => a.rank - b.rank)
    .slice(0, AI_LIMITS.analysisItemsMax)
    .map((entry) => entry.item);
}
