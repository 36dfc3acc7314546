import { successEnvelope } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BillingWebhooks } from './billing-webhooks.ts';

/**
 * /api/billing/webhook: Stripe's deliveries. The body is kept as the raw bytes Stripe signed (this plugin's own JSON
 * parser), and no session is asked for: the signature is the authentication.
 */
export const billingRoutes: FastifyPluginAsyncZod<{ billingWebhooks: BillingWebhooks }> = async (
  app,
  { billingWebhooks },
) => {
  // In place of the app's parser (which parses, behind a depth check): Stripe's signature is over the raw bytes.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/webhook',
    {
      schema: {
        tags: ['billing'],
        headers: z.object({ 'stripe-signature': z.string().optional() }),
        response: {
          200: successEnvelope(
            z.object({ received: z.literal(true), outcome: z.enum(['applied', 'duplicate', 'ignored']) }),
          ),
        },
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
      const outcome = await billingWebhooks.receive(body, request.headers['stripe-signature']);
      return { success: true as const, data: { received: true as const, outcome } };
    },
  );
};
