import {
  aiUsageSchema,
  algorithmHackSchema,
  adCopySchema,
  analysisSchema,
  analyzePerformanceRequestSchema,
  chatReplySchema,
  chatRequestSchema,
  draftRuleRequestSchema,
  generateAdCopyRequestSchema,
  generateStrategyRequestSchema,
  hackParamsSchema,
  ruleDraftSchema,
  strategySchema,
  successEnvelope,
  waitlistResponseSchema,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../plugins/authenticate.ts';
import type { AiService } from './ai.service.ts';

const tags = ['ai'];

/** /api/ai: spec §7 AI, plus usage and rule drafting. Every route is the signed-in user's own. */
export const aiRoutes: FastifyPluginAsyncZod<{ ai: AiService }> = async (app, { ai }) => {
  app.addHook('onRequest', app.requireAuth);

  app.post(
    '/analyze-performance',
    { schema: { tags, body: analyzePerformanceRequestSchema, response: { 200: successEnvelope(analysisSchema) } } },
    async (request) => ({
      success: true as const,
      data: await ai.analyzePerformance(scopeOf(request), request.body.campaignData),
    }),
  );

  app.post(
    '/generate-strategy',
    { schema: { tags, body: generateStrategyRequestSchema, response: { 200: successEnvelope(strategySchema) } } },
    async (request) => ({
      success: true as const,
      data: await ai.generateStrategy(scopeOf(request), request.body.productInfo),
    }),
  );

  app.post(
    '/generate-ad-copy',
    { schema: { tags, body: generateAdCopyRequestSchema, response: { 200: successEnvelope(adCopySchema) } } },
    async (request) => ({
      success: true as const,
      data: await ai.generateAdCopy(scopeOf(request), request.body.productInfo, request.body.platform),
    }),
  );

  app.get(
    '/algorithm-hacks/:platform',
    { schema: { tags, params: hackParamsSchema, response: { 200: successEnvelope(z.array(algorithmHackSchema)) } } },
    async (request) => ({
      success: true as const,
      data: await ai.algorithmHacks(scopeOf(request), request.params.platform),
    }),
  );

  app.post(
    '/chat',
    { schema: { tags, body: chatRequestSchema, response: { 200: successEnvelope(chatReplySchema) } } },
    async (request) => ({
      success: true as const,
      data: await ai.chat(scopeOf(request), request.body.message),
    }),
  );

  app.post(
    '/draft-rule',
    { schema: { tags, body: draftRuleRequestSchema, response: { 200: successEnvelope(ruleDraftSchema) } } },
    async (request) => ({
      success: true as const,
      data: await ai.draftRule(scopeOf(request), request.body.prompt),
    }),
  );

  app.post(
    '/waitlist',
    {
      schema: { tags, body: z.strictObject({}).nullish(), response: { 200: successEnvelope(waitlistResponseSchema) } },
    },
    async (request) => ({ success: true as const, data: await ai.joinWaitlist(scopeOf(request)) }),
  );

  app.get('/usage', { schema: { tags, response: { 200: successEnvelope(aiUsageSchema) } } }, async (request) => ({
    success: true as const,
    data: await ai.usage(scopeOf(request)),
  }));
};
