import {
  proposalApprovedSchema,
  proposalIdParamsSchema,
  proposalListQuerySchema,
  proposalSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../../plugins/authenticate.ts';
import type { ProposalsService } from './proposals.service.ts';

const tags = ['proposals'];
const emptyBody = z.strictObject({}).nullish();

/** /api/proposals: the changes approve-mode rules wait on (the Inbox); a viewer reads, an editor decides. */
export const proposalsRoutes: FastifyPluginAsyncZod<{ proposals: ProposalsService }> = async (app, { proposals }) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/',
    {
      schema: {
        tags,
        querystring: proposalListQuerySchema,
        response: { 200: successEnvelope(z.array(proposalSchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await proposals.list(scopeOf(request), request.query.status),
    }),
  );

  app.post(
    '/:id/approve',
    {
      schema: {
        tags,
        params: proposalIdParamsSchema,
        body: emptyBody,
        response: { 200: successEnvelope(proposalApprovedSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await proposals.approve(scopeOf(request), request.params.id),
    }),
  );

  app.post(
    '/:id/reject',
    {
      schema: {
        tags,
        params: proposalIdParamsSchema,
        body: emptyBody,
        response: { 200: successEnvelope(proposalSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await proposals.reject(scopeOf(request), request.params.id),
    }),
  );
};
