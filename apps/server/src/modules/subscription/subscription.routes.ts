import {
  cancelResponseSchema,
  currentSubscriptionSchema,
  planSchema,
  portalResponseSchema,
  receiptParamsSchema,
  receiptQuerySchema,
  receiptSchema,
  successEnvelope,
  upgradeRequestSchema,
  upgradeResponseSchema,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../plugins/authenticate.ts';
import type { ReceiptsService } from './receipts.service.ts';
import type { SubscriptionService } from './subscription.service.ts';

const tags = ['subscription'];
const emptyBody = z.strictObject({}).nullish();

/** Spec §7 Subscription: the signed-in user's plan, the catalogue, upgrade and cancel. */
export const subscriptionRoutes: FastifyPluginAsyncZod<{
  subscription: SubscriptionService;
  receipts: ReceiptsService;
}> = async (app, { subscription, receipts }) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/current',
    { schema: { tags, response: { 200: successEnvelope(currentSubscriptionSchema) } } },
    async (request) => ({ success: true as const, data: await subscription.current(scopeOf(request)) }),
  );

  app.get('/plans', { schema: { tags, response: { 200: successEnvelope(z.array(planSchema)) } } }, async (request) => ({
    success: true as const,
    data: await subscription.plans(scopeOf(request)),
  }));

  app.post(
    '/upgrade',
    {
      // Billing is the owners' (ADR 0070).
      config: { role: 'owner' },
      schema: { tags, body: upgradeRequestSchema, response: { 200: successEnvelope(upgradeResponseSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: await subscription.upgrade(scopeOf(request), request.body),
    }),
  );

  app.post(
    '/portal',
    {
      // Billing is the owners' (ADR 0070).
      config: { role: 'owner' },
      schema: { tags, body: emptyBody, response: { 200: successEnvelope(portalResponseSchema) } },
    },
    async (request) => ({ success: true as const, data: await subscription.portal(scopeOf(request)) }),
  );

  app.post(
    '/cancel',
    {
      // Billing is the owners' (ADR 0070).
      config: { role: 'owner' },
      schema: { tags, body: emptyBody, response: { 200: successEnvelope(cancelResponseSchema) } },
    },
    async (request) => ({ success: true as const, data: await subscription.cancel(scopeOf(request)) }),
  );

  app.get(
    '/receipts',
    {
      // Payments are the payer's (ADR 0110, 0115): a person's, never an agent's.
      config: { role: 'owner', agents: 'never' },
      schema: { tags, response: { 200: successEnvelope(z.array(receiptSchema)) } },
    },
    async (request) => ({ success: true as const, data: await receipts.list(scopeOf(request)) }),
  );

  app.get(
    '/receipts/:id.pdf',
    {
      config: { role: 'owner', agents: 'never' },
      schema: { tags, params: receiptParamsSchema, querystring: receiptQuerySchema },
    },
    async (request, reply) => {
      const { pdf, name } = await receipts.pdf(scopeOf(request), request.params.id, request.query.language);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
};
