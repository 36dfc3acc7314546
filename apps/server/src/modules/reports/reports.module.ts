import { bindRoutes } from '../../lib/bind-routes.ts';
import type { ReportsDeps } from './reports.service.ts';
import { reportsRoutes } from './reports.routes.ts';
import { ReportsService } from './reports.service.ts';

/** The reports (spec §7). Other modules need nothing of it: it exports its routes. */
export function createReportsModule(deps: ReportsDeps) {
  const service = new ReportsService(deps);
  return { service, routes: bindRoutes(reportsRoutes, { reports: service }) };
}
