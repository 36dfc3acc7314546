import { outboxMailSchema, outboxQuerySchema, successEnvelope } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminService } from './admin.service.ts';

/** Operator endpoints: the instance administrator (the first registered user) only. */
export const adminRoutes: FastifyPluginAsyncZod<{ admin: AdminService }> = async (app, { admin }) => {
  app.addHook('onRequest', app.requireAdmin);

  // Without SMTP, password-reset links wait here; the admin can pass them on.
  app.get(
    '/outbox',
    {
      schema: {
        tags: ['admin'],
        querystring: outboxQuerySchema,
        response: { 200: successEnvelope(z.array(outboxMailSchema)) },
      },
    },
    async (request) => ({ success: true as const, data: await admin.recentOutboxMail(request.query.limit) }),
  );
};
