import {
  agentPolicyInputSchema,
  agentPolicySchema,
  successEnvelope,
  workspaceIdParamsSchema,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { AgentPolicyService } from './agent-policy.service.ts';

const tags = ['agents'];

/**
 * /api/workspaces/:id/agent-policy (ADR 0154): the workspace of the path, as the other /api/workspaces routes; any
 * member reads it, admins and owners save it.
 */
export const agentPolicyRoutes: FastifyPluginAsyncZod<{ policy: AgentPolicyService }> = async (app, { policy }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/:id/agent-policy',
    { schema: { tags, params: workspaceIdParamsSchema, response: { 200: successEnvelope(agentPolicySchema) } } },
    async (request) => ({
      success: true as const,
      data: await policy.get(currentUser(request).id, request.params.id),
    }),
  );

  app.put(
    '/:id/agent-policy',
    {
      schema: {
        tags,
        params: workspaceIdParamsSchema,
        body: agentPolicyInputSchema,
        response: { 200: successEnvelope(agentPolicySchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await policy.save(currentUser(request).id, request.params.id, request.body),
    }),
  );
};
