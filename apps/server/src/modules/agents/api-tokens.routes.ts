import {
  apiTokenIdParamsSchema,
  apiTokenListSchema,
  createApiTokenRequestSchema,
  createdApiTokenSchema,
  messageResponseSchema,
  AGENT_MESSAGES,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentWorkspace, scopeOf } from '../../plugins/authenticate.ts';
import type { ApiTokensService } from './api-tokens.service.ts';

const tags = ['agents'];

/**
 * /api/tokens: the current workspace's API tokens and OAuth grants (ADR 0150). Admins and owners make tokens and see
 * and revoke every credential; any member sees and revokes the OAuth grants they made themselves. No agent reaches
 * these routes: a token never lists, makes or revokes credentials.
 */
export const apiTokensRoutes: FastifyPluginAsyncZod<{ tokens: ApiTokensService }> = async (app, { tokens }) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/',
    { config: { agents: 'never' }, schema: { tags, response: { 200: successEnvelope(apiTokenListSchema) } } },
    async (request) => ({
      success: true as const,
      data: await tokens.list(scopeOf(request), currentWorkspace(request).role),
    }),
  );

  app.post(
    '/',
    {
      config: { role: 'admin' },
      schema: { tags, body: createApiTokenRequestSchema, response: { 201: successEnvelope(createdApiTokenSchema) } },
    },
    async (request, reply) => {
      reply.status(201).header('cache-control', 'no-store');
      return { success: true as const, data: await tokens.create(scopeOf(request), request.body) };
    },
  );

  app.delete(
    '/:id',
    {
      // Any member may revoke their own OAuth grant; the service answers 404 for another member's credential.
      config: { role: 'viewer' },
      schema: { tags, params: apiTokenIdParamsSchema, response: { 200: successEnvelope(messageResponseSchema) } },
    },
    async (request) => {
      await tokens.revoke(scopeOf(request), currentWorkspace(request).role, request.params.id);
      return { success: true as const, data: { message: AGENT_MESSAGES.revoked } };
    },
  );
};
