import {
  createRuleRequestSchema,
  messageResponseSchema,
  ruleIdParamsSchema,
  RULE_MESSAGES,
  ruleSchema,
  ruleTemplatesQuerySchema,
  scaledRuleTemplateSchema,
  successEnvelope,
  updateRuleRequestSchema,
} from '@adpilot/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error.ts';
import { scopeOf } from '../../../plugins/authenticate.ts';
import type { RulesService } from './rules.service.ts';

const tags = ['rules'];
const params = ruleIdParamsSchema;

export interface RulesRoutesDeps {
  rules: RulesService;
}

const emptyBody = z.strictObject({}).nullish();

/**
 * /api/rules: the signed-in user's automation rules (spec §3, §4, §6). `rules-api.routes.ts` calls it in its own
 * context, so the authentication hook added here also covers the runs' routes registered there after it.
 */
export const rulesRoutes: FastifyPluginAsyncZod<RulesRoutesDeps> = async (app, { rules }) => {
  // Spec §6: without a signed-in user the rules answer "User not authenticated".
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await app.requireAuth(request, reply);
    } catch (error) {
      if (error instanceof AppError && error.code === 'UNAUTHORIZED')
        throw AppError.unauthorized(RULE_MESSAGES.notAuthenticated);
      throw error;
    }
  });

  app.get('/', { schema: { tags, response: { 200: successEnvelope(z.array(ruleSchema)) } } }, async (request) => ({
    success: true as const,
    data: await rules.list(scopeOf(request)),
  }));

  app.post(
    '/',
    { schema: { tags, body: createRuleRequestSchema, response: { 201: successEnvelope(ruleSchema) } } },
    async (request, reply) => {
      reply.status(201);
      return { success: true as const, data: await rules.create(scopeOf(request), request.body) };
    },
  );

  app.get(
    '/templates',
    {
      schema: {
        tags,
        querystring: ruleTemplatesQuerySchema,
        response: { 200: successEnvelope(z.array(scaledRuleTemplateSchema)) },
      },
    },
    async (request) => ({ success: true as const, data: [...rules.templates(request.query.currency)] }),
  );

  app.get('/:id', { schema: { tags, params, response: { 200: successEnvelope(ruleSchema) } } }, async (request) => ({
    success: true as const,
    data: await rules.get(scopeOf(request), request.params.id),
  }));

  app.patch(
    '/:id',
    { schema: { tags, params, body: updateRuleRequestSchema, response: { 200: successEnvelope(ruleSchema) } } },
    async (request) => ({
      success: true as const,
      data: await rules.update(scopeOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    { schema: { tags, params, response: { 200: successEnvelope(messageResponseSchema) } } },
    async (request) => {
      await rules.remove(scopeOf(request), request.params.id);
      return { success: true as const, data: { message: 'Rule deleted' } };
    },
  );

  app.post(
    '/:id/toggle',
    { schema: { tags, params, body: emptyBody, response: { 200: successEnvelope(ruleSchema) } } },
    async (request) => ({
      success: true as const,
      data: await rules.toggle(scopeOf(request), request.params.id),
    }),
  );
};
