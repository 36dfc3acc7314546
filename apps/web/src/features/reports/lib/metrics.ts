/** The metrics the chart can draw; kept apart from the chart so the page does not pull recharts in. */
export type ChartMetric = 'spend' | 'conversions' | 'cpa' | 'roas';
export const CHART_METRICS: readonly ChartMetric[] = ['spend', 'conversions', 'cpa', 'roas'];
