import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rulesRoutes, type RulesRoutesDeps } from './definitions/rules.routes.ts';
import { runApprovalsRoutes, type RunApprovalsRoutesDeps } from './proposals/run-approvals.routes.ts';
import { ruleRunsRoutes, type RuleRunsRoutesDeps } from './runs/rule-runs.routes.ts';

type RulesApiRoutesDeps = RulesRoutesDeps & RuleRunsRoutesDeps & RunApprovalsRoutesDeps;

/**
 * /api/rules as one plugin, so that no layer registers another layer's routes: the definitions' routes add the
 * authentication hook to this plugin's context, and the runs' and the run approvals' routes, registered inside it,
 * sit behind that hook.
 */
export const rulesApiRoutes: FastifyPluginAsyncZod<RulesApiRoutesDeps> = async (
  app,
  { rules, ruleRuns, rulePreview, ruleHolds, ruleImpact, proposals },
) => {
  await rulesRoutes(app, { rules });
  await app.register(ruleRunsRoutes, { ruleRuns, rulePreview, ruleHolds, ruleImpact });
  await app.register(runApprovalsRoutes, { proposals });
};
