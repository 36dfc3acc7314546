/**
 * The anomaly watch (ADR 0125): an account's spend, results, CPA and CPM today so far against its own baseline, the
 * same weekday of the three weeks before at the same time of day. Pure; the server feeds it the daily rows it holds.
 */

export const ANOMALY_METRICS = ['spend', 'results', 'cpa', 'cpm'] as const;
export type AnomalyMetric = (typeof ANOMALY_METRICS)[number];

export const ANOMALY_SENSITIVITIES = ['off', 'low', 'medium', 'high'] as const;
export type AnomalySensitivity = (typeof ANOMALY_SENSITIVITIES)[number];

/** How far from the baseline a figure must be to count: a jump to × factor or more, or a drop to ÷ factor or less. */
export const ANOMALY_FACTORS: Record<Exclude<AnomalySensitivity, 'off'>, number> = { low: 3, medium: 2, high: 1.5 };

/** Before this share of the local day has passed, today's figures are too few to judge. */
export const ANOMALY_MIN_DAY_SHARE = 0.25;
/** A baseline needs at least this many of its three days with delivery. */
const MIN_BASELINE_DAYS = 2;
/** Results and CPA are judged only with this many results in the baseline (per day, on average, scaled to now). */
const MIN_BASELINE_RESULTS = 3;

export interface AnomalyDay {
  spend: number;
  impressions: number;
  conversions: number;
}

export interface AnomalyFinding {
  metric: AnomalyMetric;
  direction: 'up' | 'down';
  current: number;
  baseline: number;
}

export interface AnomalyInput {
  /** Today's figures so far. */
  today: AnomalyDay;
  /** The same weekday 7, 14 and 21 days before (a day not held: absent). */
  baselineDays: readonly (AnomalyDay | undefined)[];
  /** The share of the local day passed (0…1): the baseline's summable figures are taken at the same time of day. */
  dayShare: number;
  sensitivity: AnomalySensitivity;
}

/**
 * The baseline of each metric (the mean of the held same-weekday days, summable figures scaled to the share of the
 * day passed — our daily rows hold no hour, so the day is taken as delivering evenly) and the metrics beyond it.
 */
export function findAnomalies(input: AnomalyInput): AnomalyFinding[] {
  if (input.sensitivity === 'off' || input.dayShare < ANOMALY_MIN_DAY_SHARE) return [];
  const factor = ANOMALY_FACTORS[input.sensitivity];
  const held = input.baselineDays.filter((day): day is AnomalyDay => day !== undefined && day.spend > 0);
  if (held.length < MIN_BASELINE_DAYS) return [];
  const mean = (pick: (day: AnomalyDay) => number) => held.reduce((sum, day) => sum + pick(day), 0) / held.length;
  const share = Math.min(1, input.dayShare);
  const base = {
    spend: mean((d) => d.spend) * share,
    impressions: mean((d) => d.impressions) * share,
    conversions: mean((d) => d.conversions) * share,
  };
  const { today } = input;
  const pairs: [AnomalyMetric, number | null, number | null][] = [
    ['spend', today.spend, base.spend],
    ['cpm', ratio(today.spend * 1000, today.impressions), ratio(base.spend * 1000, base.impressions)],
  ];
  if (base.conversions >= MIN_BASELINE_RESULTS * share) {
    pairs.push(['results', today.conversions, base.conversions]);
    pairs.push(['cpa', ratio(today.spend, today.conversions), ratio(base.spend, base.conversions)]);
  }
  const found: AnomalyFinding[] = [];
  for (const [metric, current, baseline] of pairs) {
    if (current === null || baseline === null || baseline <= 0) continue;
    if (current >= baseline * factor) found.push({ metric, direction: 'up', current, baseline });
    else if (current <= baseline / factor) found.push({ metric, direction: 'down', current, baseline });
  }
  return found;
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}
