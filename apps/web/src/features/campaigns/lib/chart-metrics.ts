/** The figures the entity's daily chart draws, one at a time. */
export const CHART_METRICS = ['spend', 'results', 'cpa', 'roas'] as const;
export type ChartMetric = (typeof CHART_METRICS)[number];
