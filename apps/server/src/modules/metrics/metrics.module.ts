import { bindRoutes } from '../../lib/bind-routes.ts';
import type { AppMetrics, ScrapeSources } from './app-metrics.ts';
import { metricsGuard } from './metrics-guard.ts';
import { metricsRoutes } from './metrics.routes.ts';

/**
 * GET /api/metrics over the app's metrics (ADR 0084), which every other module reports into through its own small
 * observer. Its public API: `isScraper`, the scraper's pass by the flood limit.
 */
export function createMetricsModule(deps: { metrics: AppMetrics; token: string | undefined; sources: ScrapeSources }) {
  deps.metrics.readFrom(deps.sources);
  const guard = metricsGuard(deps.token);
  return { isScraper: guard.isScraper, routes: bindRoutes(metricsRoutes, { metrics: deps.metrics, guard }) };
}
