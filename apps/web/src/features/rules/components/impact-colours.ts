/** The figure the impact chart draws, and the colour of each action's dot: shared by the chart and its legend. */
export type ImpactMetric = 'cpa' | 'roas';

export const ACTION_COLOURS: Record<string, string> = {
  pause: '#dc2626',
  increase_budget: '#16a34a',
  decrease_budget: '#ea580c',
  set_budget: '#9333ea',
};
