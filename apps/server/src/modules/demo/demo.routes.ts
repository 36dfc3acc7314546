import { demoSessionSchema, successEnvelope } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DemoService } from './demo.service.ts';

const tags = ['demo'];

/** Watch Demo (ADR 0185): a read-only demo session, without signing up. */
export const demoRoutes: FastifyPluginAsyncZod<{ demo: DemoService }> = async (app, { demo }) => {
  app.post(
    '/session',
    { schema: { tags, response: { 201: successEnvelope(demoSessionSchema) } } },
    async (request, reply) => {
      reply.status(201);
      return { success: true as const, data: await demo.startSession(request.ip) };
    },
  );
};
