import { approveAllResultSchema, ruleRunIdParamsSchema, successEnvelope } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../../plugins/authenticate.ts';
import type { ProposalsService } from './proposals.service.ts';

export interface RunApprovalsRoutesDeps {
  proposals: ProposalsService;
}

const tags = ['rules'];
const emptyBody = z.strictObject({}).nullish();

/** A run's approvals: every pending proposal of one run approved at once; inside /api/rules, behind its hook. */
export const runApprovalsRoutes: FastifyPluginAsyncZod<RunApprovalsRoutesDeps> = async (app, { proposals }) => {
  app.post(
    '/runs/:runId/approve-all',
    {
      schema: {
        tags,
        params: ruleRunIdParamsSchema,
        body: emptyBody,
        response: { 200: successEnvelope(approveAllResultSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await proposals.approveAll(scopeOf(request), request.params.runId),
    }),
  );
};
