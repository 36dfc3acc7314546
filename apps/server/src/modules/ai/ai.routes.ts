import {
  aiUsageSchema,
  algorithmHackSchema,
  adCopySchema,
  analysisSchema,
  analyzePerformanceRequestSchema,
  chatReplySchema,
  chatRequestSchema,
  conversationParamsSchema,
  conversationSchema,
  conversationSummarySchema,
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
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { scopeOf } from '../../plugins/authenticate.ts';
import type { AiService } from './ai.service.ts';
import type { AssistantService } from './assistant/assistant.service.ts';

const tags = ['ai'];

/** /api/ai: spec §7 AI, plus usage and rule drafting. Every route is the signed-in user's own. */
export const aiRoutes: FastifyPluginAsyncZod<{ ai: AiService; assistant: AssistantService }> = async (
  app,
  { ai, assistant },
) => {
  app.addHook('onRequest', app.requireAuth);

  app.post(
    '/analyze-performance',
    { schema: { tags, body: analyzePerformanceRequestSchema, response: { 200: successEnvelope(analysisSchema) } } },
    async (request) => ({
      success: true as const,
      data: await ai.analyzePerformance(scopeOf(request), request.body),
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
      data: await ai.generateAdCopy(
        scopeOf(request),
        request.body.productInfo,
        request.body.platform,
        ...(request.body.language ? [request.body.language] : []),
      ),
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
    {
      schema: {
        tags,
        description:
          'A question to the assistant, in a new conversation or a follow-up (conversationId). With `Accept: text/event-stream` the answer streams: `delta` events with text, then one `done` event with the whole reply.',
        body: chatRequestSchema,
        response: { 200: successEnvelope(chatReplySchema) },
      },
    },
    async (request, reply) => {
      const { message, conversationId, language } = request.body;
      const turn = await assistant.begin(scopeOf(request), { message, conversationId, language });
      if (!(request.headers.accept ?? '').includes('text/event-stream')) {
        return { success: true as const, data: await turn.run() };
      }
      const stream = new PassThrough();
      const send = (event: string, data: unknown) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      void turn
        .run((text) => send('delta', { text }))
        .then((data) => send('done', { success: true, data }))
        .catch((error: unknown) => {
          const known = error instanceof AppError;
          if (!known || error.statusCode >= 500) request.log.error({ err: error }, 'assistant answer failed');
          send('error', {
            success: false,
            code: known ? error.code : 'INTERNAL_ERROR',
            message: known ? error.message : 'Something went wrong',
          });
        })
        .finally(() => stream.end());
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('x-accel-buffering', 'no')
        .send(stream as never); // a stream is sent as it is, past the response schema
    },
  );

  app.get(
    '/conversations',
    { schema: { tags, response: { 200: successEnvelope(z.array(conversationSummarySchema)) } } },
    async (request) => ({ success: true as const, data: await assistant.list(scopeOf(request)) }),
  );

  app.get(
    '/conversations/:id',
    { schema: { tags, params: conversationParamsSchema, response: { 200: successEnvelope(conversationSchema) } } },
    async (request) => ({ success: true as const, data: await assistant.get(scopeOf(request), request.params.id) }),
  );

  app.delete(
    '/conversations/:id',
    {
      schema: {
        tags,
        params: conversationParamsSchema,
        response: { 200: successEnvelope(z.object({ deleted: z.literal(true) })) },
      },
    },
    async (request) => {
      await assistant.remove(scopeOf(request), request.params.id);
      return { success: true as const, data: { deleted: true as const } };
    },
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
